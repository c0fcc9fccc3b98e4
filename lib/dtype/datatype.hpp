// Datatypes: the layout of one element as merged (offset, length) blocks, and
// the typed byte stream that point-to-point moves.
//
// The "stream" of (buf, count, type) is the concatenation of the type's data
// bytes for count elements, in type-map order; pack/unpack/to_iov address it
// by byte offset so that transports can move it in pieces.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/attributes.hpp"
#include "core/handle.hpp"
#include "mpi.h"

namespace ringmpi::dtype {

struct Block {
  std::ptrdiff_t offset;  // from the element's start (buf + i*extent)
  std::size_t length;
};

struct Datatype {
  std::size_t size = 0;        // data bytes of one element
  std::ptrdiff_t lb = 0, extent = 0;
  std::ptrdiff_t true_lb = 0, true_extent = 0;
  bool committed = false;
  bool predefined = false;
  std::vector<Block> blocks;   // flattened, merged, in type-map order
  std::string name;
  core::AttributeSet attrs;
  // One element is one block at offset 0 of length extent: (buf,count) is
  // buf[0 .. count*size) and moves without packing.
  bool contiguous() const { return blocks.size() == 1 && blocks[0].offset == 0 && std::ptrdiff_t(size) == extent; }
};

struct State {
  State();
  core::HandleTable<Datatype> table{core::Kind::datatype};
};
State& state();

// The datatype behind h, or nullptr for an invalid/freed handle.
const Datatype* lookup(MPI_Datatype h);

// Copies stream bytes [offset, offset+bytes) of (buf,count,type) to dst.
void pack(const void* buf, int count, const Datatype& t, std::size_t offset, void* dst, std::size_t bytes);
// Copies src into stream bytes [offset, offset+bytes) of (buf,count,type).
void unpack(void* buf, int count, const Datatype& t, std::size_t offset, const void* src, std::size_t bytes);
// Describes stream bytes [offset, offset+bytes) of (buf,count,type) as at most
// maxiov iovecs; returns how many were filled and sets *covered to the bytes
// they cover (less than `bytes` when maxiov ran out).
std::size_t to_iov(const void* buf, int count, const Datatype& t, std::size_t offset, std::size_t bytes,
                   iovec* iov, std::size_t maxiov, std::size_t* covered);

}  // namespace ringmpi::dtype
