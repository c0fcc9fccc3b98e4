// Moving data between a user's buffer and a file through its view.
#pragma once

#include <cstddef>
#include <cstdint>

#include "io/file.hpp"

namespace ringmpi::io {

struct Moved : Outcome {
  std::size_t bytes = 0;   // memory bytes moved: the status's count (a read stops short at the end of the file)
  std::size_t stream = 0;  // view stream bytes moved (they differ where the view's representation is not native)
};

// The view stream bytes that count elements of `type` take: their native
// size, or their size in the view's representation (which may fail: a
// program's extent function). Prepares the view (view.hpp).
Outcome stream_bytes(View& v, int count, const dtype::Datatype& type, std::uint64_t* bytes);

// Reads (write = false) or writes count elements of `type` (the caller's
// handle `handle`, for a program's conversion function) at buf from or to
// the view's stream at position `pos` (etypes), under the file's
// atomic-mode lock when set. Local: no other rank takes part. The view is
// prepared (stream_bytes).
Moved transfer(File& f, bool write, MPI_Offset pos, void* buf, int count, const dtype::Datatype& type,
               MPI_Datatype handle);

}  // namespace ringmpi::io
