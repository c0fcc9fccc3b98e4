// Moving data between a user's buffer and a file through its view.
#pragma once

#include <cstddef>

#include "io/file.hpp"

namespace ringmpi::io {

struct Moved : Outcome {
  std::size_t bytes = 0;  // data bytes moved (a read stops short at the end of the file)
};

// Reads (write = false) or writes count elements of `type` at buf from or to
// the view's stream at position `pos` (etypes), under the file's atomic-mode
// lock when set. Local: no other rank takes part.
Moved transfer(File& f, bool write, MPI_Offset pos, void* buf, int count, const dtype::Datatype& type);

}  // namespace ringmpi::io
