// MPI files (MPI-3.1 chapter 13) on the node's own file systems, through
// POSIX calls. docs/design/io.md has the design; in short:
//
// - Every rank opens the file itself (open(2)); rank 0 first when the file
//   may be created, so that MPI_MODE_CREATE | MPI_MODE_EXCL is decided once.
//   Data moves with pread/pwrite straight between the user's buffer (or a
//   packed copy of a non-contiguous one) and the file: the page cache is the
//   node's, so what one rank wrote is what the others read once the
//   standard's consistency rules (§13.6.1: sync-barrier-sync, atomic mode,
//   or close and reopen) say they may.
// - A file has a private duplicate of the user's communicator, as a window
//   has: its collective rounds never mix with user traffic, and its error
//   handler is the file's (MPI_ERRORS_RETURN unless the user set another on
//   the file or on MPI_FILE_NULL before the open, §13.7).
// - Positions (the individual and the shared file pointer, explicit
//   offsets) count etypes of the current view (view.hpp).
// - The shared file pointer is one 64-bit word in a page of shared memory
//   the file's ranks map at open (exchange/shared_mapping.hpp). Invariant:
//   every independent shared-pointer access takes its place with one
//   fetch_add (acq_rel) of the etypes it covers, so concurrent accesses get
//   disjoint places in some serial order (§13.4.4); the collective ones
//   (ordered, seek_shared, set_view) change it only between two collective
//   rounds, when no rank can be inside an independent access of the file,
//   and rank 0 alone stores it.
// - Atomic mode (§13.6.1): each access holds an open-file-description lock
//   (F_OFD_SETLKW) over the byte range it touches, shared for reads and
//   exclusive for writes, so overlapping accesses of different ranks are
//   serialized whole.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "core/handle.hpp"
#include "core/info.hpp"
#include "core/runtime.hpp"
#include "dtype/datatype.hpp"
#include "dtype/represent.hpp"
#include "exchange/shared_mapping.hpp"
#include "mpi.h"

namespace ringmpi::comm { struct Errhandler; }

namespace ringmpi::io {

// A file view (§13.3): the data of the file this rank sees, from disp on,
// is the filetype tiled over and over; positions count etypes of that data.
struct View {
  MPI_Offset disp = 0;
  dtype::TypePtr etype, filetype;  // as given (MPI_File_get_view); held: the user may free the handles
  MPI_Datatype etype_handle = MPI_BYTE, filetype_handle = MPI_BYTE;
  std::string datarep = "native";
  // The representation of the file's data (dtype/represent.hpp):
  // nullptr for "native" and "internal" (memory's bytes), else
  // "external32" or a registered one (io/datarep.hpp).
  std::shared_ptr<dtype::Representation> rep;
  bool writable = false;  // the file is open for writing (no overlapping filetype data)
  // The file layout, built by prepare() (view.hpp): at once, or at the first
  // call that needs it when the representation's sizes come from the
  // program's extent function (§14.5.3 lets it run only in data accesses).
  bool ready = false;
  // The filetype as it lies in the file: `filetype` itself, or built again
  // over the representation's sizes (dtype::represented_layout).
  dtype::TypePtr file_filetype;
  std::size_t etype_size = 1;  // the etype's bytes in the file
  // The file filetype's data bytes and extent, and whether one tile is one
  // block starting at the tile (then the view is just the bytes from disp on).
  std::size_t tile_size = 1;
  std::ptrdiff_t tile_extent = 1;
  bool contiguous = true;
};

// One split collective access in progress (§13.4.5: at most one per file).
struct Split {
  bool active = false;
  const char* begin = nullptr;  // the _begin call, for messages and for matching its _end
  MPI_Status status{};
};

struct File {
  MPI_Comm comm = MPI_COMM_NULL;  // private duplicate of the user's communicator
  int rank = 0, size = 1;
  std::string path;  // as the user gave it, for messages
  int amode = 0;
  int fd = -1;
  core::Info hints;  // what MPI_File_open/set_info/set_view were given
  View view;
  MPI_Offset position = 0;  // the individual file pointer, in etypes of the view
  exchange::SharedMapping shared_page;
  std::atomic<std::int64_t>* shared = nullptr;  // the shared file pointer, in etypes of the view
  bool atomic = false;
  // This rank changed the file since its last MPI_File_sync: only then does
  // the sync go to the device (fdatasync of a clean file still costs
  // 0.15 ms here; ROMIO skips it the same way).
  bool dirty = false;
  Split split;
  ~File();
};

struct State {
  core::HandleTable<File> files{core::Kind::file};
  // The handler of MPI_FILE_NULL: new files start with it, and errors that
  // concern no open file (MPI_File_open, MPI_File_delete, a bad handle) go to it.
  std::shared_ptr<const comm::Errhandler> null_errhandler;
  // Data representations registered with MPI_Register_datarep, by name (datarep.hpp).
  std::map<std::string, std::shared_ptr<dtype::Representation>> datareps;
};
State& make_state();
inline State& state() {
  auto& p = core::rt().io;
  return __builtin_expect(p != nullptr, 1) ? *p : make_state();
}
inline File* lookup(MPI_File h) { return state().files.get(h); }

// The outcome of a call that may fail: an error class and a sentence.
struct Outcome {
  int code = MPI_SUCCESS;
  std::string why;
  bool ok() const { return code == MPI_SUCCESS; }
};

// The error class of a failed POSIX call on a file (errno).
int error_class_of_errno(int err);
// "could not <what> '<path>': <strerror>", with the class of err.
Outcome posix_failure(int err, const char* what, const std::string& path);

// The file's size in bytes now (fstat).
Outcome size_of(const File& f, MPI_Offset* size);

// MPI_File_open (collective over comm). `local` is this rank's verdict on
// its own arguments; it travels in the first round, so a bad argument on one
// rank fails the call on every rank instead of leaving the others waiting.
struct Opened : Outcome {
  MPI_File handle = MPI_FILE_NULL;
};
Opened open(MPI_Comm comm, const char* path, int amode, const core::Info* hints, const Outcome& local);
// MPI_File_close (collective): closes, deletes the file if opened with
// MPI_MODE_DELETE_ON_CLOSE, drops the handle.
Outcome close(MPI_File h);
// MPI_File_delete (local).
Outcome remove(const char* path);
// MPI_Finalize: closes what the program left open (no rounds: every rank is in MPI_Finalize).
void release_all_files();

// Collective rounds over the file's ranks: whether every rank's `ok` held
// (each rank passes its own), and a barrier.
bool all_ok(const File& f, bool ok);
void barrier(const File& f);

}  // namespace ringmpi::io
