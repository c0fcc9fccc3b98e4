// Argument checks shared by the MPI_File_* entry points (io_file.cpp,
// io_access.cpp).
#pragma once

#include "api/call.hpp"
#include "io/file.hpp"

namespace ringmpi::api {

// Errors from now on go to the handler of MPI_FILE_NULL (§13.7: errors that
// concern no open file: MPI_File_open, MPI_File_delete, a bad handle).
inline void raise_on_file_null(Call& call) {
  call.raise_on_handler(&io::state().null_errhandler, MPI_FILE_NULL);
}

// The open file behind h; errors from now on go to its handler.
int file_arg(Call& call, MPI_File h, io::File** out);

// MPI_INFO_NULL or an info object: MPI_SUCCESS, with *out the object (or null).
int info_in(Call& call, MPI_Info h, const core::Info** out);

// MPI_SUCCESS, or o's error reported through call.
int report(Call& call, const io::Outcome& o);

// An outcome whose sentence is formatted like printf's.
io::Outcome failure(int code, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// The verdict round of a collective file call: `mine` is this rank's own
// error, already reported through call (or MPI_SUCCESS). Returns mine, or,
// when only another rank failed, `code` reported as that rank's failure.
int agree(Call& call, const io::File& f, int mine, int code);

// Runs a collective round of the file (every rank passes whether its own
// part worked) and returns this rank's code: `code` as given, reported
// through the file's handler when it is an error.
int finish_collective(Call& call, const io::File& f, const io::Outcome& mine);

}  // namespace ringmpi::api
