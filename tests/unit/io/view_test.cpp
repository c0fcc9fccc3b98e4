// File views (lib/io/view.hpp): stream bytes of a view to file bytes, for
// filetypes whose layout the standard fixes (MPI-3.1 §13.3).
#include <doctest/doctest.h>

#include <vector>

#include "dtype/construct.hpp"
#include "dtype/external32.hpp"
#include "dtype/represent.hpp"
#include "io/view.hpp"

using namespace ringmpi;

namespace {

MPI_Datatype handle(dtype::TypePtr t) {
  REQUIRE(t);
  dtype::commit(*t);
  return dtype::new_handle(t);
}

// vector(count, 1, stride) of ints resized to `extent` bytes: a rank's ints
// in an interleaved file.
MPI_Datatype interleave(int count, int stride, MPI_Aint extent) {
  std::string why;
  dtype::TypePtr v = dtype::make_vector(count, 1, stride, dtype::lookup_shared(MPI_INT), &why);
  return handle(dtype::make_resized(v, 0, extent, &why));
}

// A "native" view, built.
io::View view_of(MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype) {
  io::View v;
  REQUIRE(io::make_view(disp, etype, filetype, "native", nullptr, true, &v).ok());
  REQUIRE(v.ready);
  return v;
}

std::vector<io::Piece> pieces(const io::View& v, std::uint64_t from, std::size_t bytes) {
  std::vector<io::Piece> out;
  io::pieces_of(v, from, bytes, out);
  return out;
}

}  // namespace

TEST_CASE("the default view is the file's bytes from 0") {
  const io::View v = io::default_view();
  CHECK(v.contiguous);
  const auto p = pieces(v, 100, 50);
  REQUIRE(p.size() == 1);
  CHECK(p[0].offset == 100);
  CHECK(p[0].length == 50);
  CHECK(io::byte_offset(v, 7) == 7);
  CHECK(io::position_at(v, 123) == 123);
}

TEST_CASE("a displacement and a contiguous etype shift and scale positions") {
  const io::View v = view_of(40, MPI_INT, MPI_INT);
  CHECK(v.contiguous);
  CHECK(io::byte_offset(v, 3) == 52);
  const auto p = pieces(v, 8, 8);
  REQUIRE(p.size() == 1);
  CHECK(p[0].offset == 48);
  // A file of 50 bytes ends inside the third int after disp: the first whole position at or after it is 3.
  CHECK(io::position_at(v, 50) == 3);
  CHECK(io::position_at(v, 52) == 3);
  CHECK(io::position_at(v, 10) == 0);  // before disp
}

TEST_CASE("an interleaving filetype maps a rank's ints to every third int, tile after tile") {
  // 3 ranks, 2 ints each per tile: ints at 0 and 12 of a 24-byte tile, rank 1's view from disp 4.
  const io::View v = view_of(4, MPI_INT, interleave(2, 3, 24));
  CHECK_FALSE(v.contiguous);
  CHECK(v.tile_size == 8);
  CHECK(v.tile_extent == 24);
  const auto p = pieces(v, 0, 20);  // 5 ints: positions 0..4
  REQUIRE(p.size() == 5);
  const MPI_Offset want[] = {4, 16, 28, 40, 52};
  for (int i = 0; i < 5; ++i) {
    CHECK(p[static_cast<std::size_t>(i)].offset == want[i]);
    CHECK(p[static_cast<std::size_t>(i)].length == 4);
  }
  CHECK(io::byte_offset(v, 3) == 40);
  // Part of an int: stream bytes 6..9 are the last 2 bytes of int 1 and the first 2 of int 2.
  const auto q = pieces(v, 6, 4);
  REQUIRE(q.size() == 2);
  CHECK(q[0].offset == 18);
  CHECK(q[0].length == 2);
  CHECK(q[1].offset == 28);
  CHECK(q[1].length == 2);
  // End of file at byte 30 (inside position 2's int, which starts at 28): position 3.
  CHECK(io::position_at(v, 30) == 3);
  CHECK(io::position_at(v, 28) == 2);
  CHECK(io::position_at(v, 17) == 2);  // inside position 1's int
}

TEST_CASE("a subarray filetype reads a block of a 2-D array, row by row, and the next tile after it") {
  const int sizes[2] = {4, 6}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
  std::string why;
  const MPI_Datatype sub = handle(dtype::make_subarray(2, sizes, subsizes, starts, MPI_ORDER_C,
                                                        dtype::lookup_shared(MPI_CHAR), &why));
  const io::View v = view_of(0, MPI_CHAR, sub);
  CHECK(v.tile_extent == 24);
  const auto p = pieces(v, 0, 12);  // two tiles of 6 bytes
  REQUIRE(p.size() == 4);
  CHECK(p[0].offset == 8);   // row 1, column 2
  CHECK(p[1].offset == 14);  // row 2, column 2
  CHECK(p[2].offset == 32);  // the next tile: 24 + 8
  CHECK(p[3].offset == 38);
  for (const io::Piece& x : p) CHECK(x.length == 3);
}

TEST_CASE("adjacent blocks of consecutive tiles merge into one piece") {
  // One int at displacement 4: lb 4, extent 4, so tile i's int is at 4 + 4i
  // and the tiles' blocks touch. The view is not "contiguous" (its block does
  // not start its tile), but the pieces come out as one.
  std::string why;
  const MPI_Aint disp = 4;
  const int one = 1;
  const MPI_Datatype t = handle(dtype::make_hindexed(1, &one, &disp, dtype::lookup_shared(MPI_INT), &why));
  const io::View v = view_of(0, MPI_INT, t);
  CHECK_FALSE(v.contiguous);
  const auto p = pieces(v, 0, 12);
  REQUIRE(p.size() == 1);
  CHECK(p[0].offset == 4);
  CHECK(p[0].length == 12);
  CHECK(io::byte_offset(v, 2) == 12);
}

TEST_CASE("an external32 view lays out its filetype in external32 sizes") {
  // vector(2, 1, 3) of MPI_LONG: 8-byte longs every 24 bytes here, 4-byte
  // longs every 12 bytes in external32 (MPI-4.1 14.5.1: element strides scale).
  std::string why;
  const MPI_Datatype t = handle(dtype::make_vector(2, 1, 3, dtype::lookup_shared(MPI_LONG), &why));
  io::View v;
  REQUIRE(io::make_view(8, MPI_LONG, t, "external32", dtype::external32(), true, &v).ok());
  REQUIRE(v.ready);
  CHECK(v.etype_size == 4);
  CHECK(v.tile_size == 8);
  CHECK(v.tile_extent == 16);  // extent of vector(2,1,3): (3 + 1) elements
  const auto p = pieces(v, 0, 16);
  REQUIRE(p.size() == 3);  // longs at 8, 20, 24, 36: the middle two touch
  CHECK(p[0].offset == 8);
  CHECK(p[1].offset == 20);
  CHECK(p[1].length == 8);
  CHECK(p[2].offset == 36);
  CHECK(io::byte_offset(v, 3) == 36);
  // Byte displacements stay as given: hvector with a 40-byte stride.
  const MPI_Datatype h = handle(dtype::make_hvector(2, 1, 40, dtype::lookup_shared(MPI_LONG), &why));
  dtype::TypePtr layout;
  REQUIRE(dtype::represented_layout(*dtype::external32(), dtype::lookup_shared(h), &layout, &why) == MPI_SUCCESS);
  CHECK(layout->size == 8);
  CHECK(layout->extent == 44);
  // A type whose sizes are all native in the representation is its own layout.
  REQUIRE(dtype::represented_layout(*dtype::external32(), dtype::lookup_shared(MPI_INT), &layout, &why) == MPI_SUCCESS);
  CHECK(layout == dtype::lookup_shared(MPI_INT));
}
