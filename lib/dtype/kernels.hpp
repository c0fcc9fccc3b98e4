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

// kernel_for(op, type) of every predefined op and predefined type, resolved
// once when the library is loaded (the CPU check included), so that a
// reduction finds its loop with one bounds check and one load instead of a
// switch per op and per type on every call.
inline constexpr std::size_t kKernelOps = RMPI_PREDEFINED_OP_COUNT;
inline constexpr std::size_t kKernelTypes = RMPI_PREDEFINED_DATATYPE_COUNT;
struct KernelTable {
  Kernel k[kKernelOps][kKernelTypes];
};
[[gnu::visibility("hidden")]] extern const KernelTable kernel_table;

// The same as kernel_for(op, type) (Isa::best), from the table: nullptr
// also for handles that are not predefined (user ops, derived types, null
// and garbage handles), whose indices or generations put them outside it.
inline Kernel predefined_kernel(MPI_Op op, MPI_Datatype type) {
  const unsigned o = unsigned(op) - unsigned(RMPI_HANDLE(RMPI_KIND_OP, 0));
  const unsigned t = unsigned(type) - unsigned(RMPI_HANDLE(RMPI_KIND_DATATYPE, 0));
  return o < kKernelOps && t < kKernelTypes ? kernel_table.k[o][t] : nullptr;
}

}  // namespace ringmpi::dtype
