// Moving data between a user's buffer and a file through its view.
#pragma once

#include <cstddef>
#include <cstdint>

#include "io/file.hpp"

namespace ringmpi::io {

struct Moved : Outcome {
  std::size_t bytes = 0;   // memory bytes moved: the status's count (a read stops short at the end of the file)
  std::size_t stream = 0;  // view stream bytes moved (they differ in an external32 view)
};

// The view stream bytes that count elements of `type` take: their native
// size, or their external32 size in an external32 view.
std::uint64_t stream_bytes(const View& v, int count, const dtype::Datatype& type);

// Reads (write = false) or writes count elements of `type` at buf from or to
// the view's stream at position `pos` (etypes), under the file's atomic-mode
// lock when set. Local: no other rank takes part.
Moved transfer(File& f, bool write, MPI_Offset pos, void* buf, int count, const dtype::Datatype& type);

}  // namespace ringmpi::io
