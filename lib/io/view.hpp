// File views (MPI-3.1 §13.3): from positions of a view to bytes of the file.
//
// The view's data is a stream: the filetype's data bytes, tile after tile,
// tile i starting at disp + i * extent(filetype). A position p (etypes)
// is stream byte p * size(etype). The datatype engine already turns stream
// bytes of (buf, count, type) into addresses (dtype::to_iov); a view asks it
// with a made-up base address and reads file offsets off the addresses.
#pragma once

#include <cstddef>
#include <vector>

#include "io/file.hpp"

namespace ringmpi::io {

struct Piece {
  MPI_Offset offset;  // in the file, bytes
  std::size_t length;
};

// The file bytes behind stream bytes [from, from + bytes) of view v, in
// stream order, adjacent pieces merged; appended to out. A view whose
// filetype has no data has no stream: nothing is appended.
void pieces_of(const View& v, std::uint64_t from, std::size_t bytes, std::vector<Piece>& out);
// MPI_File_get_byte_offset: the file byte of position `pos`.
MPI_Offset byte_offset(const View& v, MPI_Offset pos);
// The first position whose byte is at or after file byte `end` (where the
// end of a file of `end` bytes is in the view: MPI_SEEK_END, MPI_MODE_APPEND).
MPI_Offset position_at(const View& v, MPI_Offset end);
// Why type t cannot be an etype or filetype (MPI-3.1 §13.1.1: displacements
// non-negative and monotonically nondecreasing; no overlapping data in a
// file opened for writing), or nullptr when it can.
const char* typemap_problem(const dtype::Datatype& t, bool writable);
// The view of a newly opened file: disp 0, etype and filetype MPI_BYTE, "native".
View default_view();
// A view of (disp, etype, filetype) for committed types (sizes checked by
// the caller) in representation `rep` (io/datarep.hpp) named `datarep`; its
// file layout is built unless the representation's sizes come from the
// program (rep->calls_program()): then prepare() builds it later.
Outcome make_view(MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const std::string& datarep,
                  std::shared_ptr<dtype::Representation> rep, bool writable, View* out);
// Builds v's file layout if it is not built yet (the sizes of v's
// representation, the filetype over them: dtype::represented_layout). Every
// function below needs it. Fails with the representation's error (a
// program's extent function: MPI_ERR_CONVERSION), or MPI_ERR_IO when the
// filetype in the file has decreasing or (writable file) overlapping data.
Outcome prepare(View& v);

}  // namespace ringmpi::io
