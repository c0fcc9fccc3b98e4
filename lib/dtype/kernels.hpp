// The predefined ops' inner loops over arrays of one predefined type.
#pragma once

#include <cstddef>

#include "mpi.h"

namespace ringmpi::dtype {

// inout[i] = in[i] op inout[i] for n elements; the buffers do not overlap.
using Kernel = void (*)(const void* in, void* inout, std::size_t n);

// The loop of predefined op `op` on predefined type `type`, or nullptr where
// the standard does not define that op on that type. MPI_REPLACE and
// MPI_NO_OP have no kernel (they are not arithmetic).
// Isa::best: the widest vector code this CPU runs (AVX2 where it has it);
// Isa::baseline: the build target's (SSE2 on x86-64), for the tests that
// check both on an AVX2 machine.
enum class Isa { best, baseline };
Kernel kernel_for(MPI_Op op, MPI_Datatype type, Isa isa = Isa::best);

}  // namespace ringmpi::dtype
