// Opening, closing and deleting files; the file table (see file.hpp).
#include "io/file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "comm/create.hpp"
#include "comm/errhandler.hpp"
#include "comm/peers.hpp"
#include "core/info.hpp"
#include "io/view.hpp"

namespace ringmpi::io {

State& make_state() {
  auto& p = core::rt().io;
  if (!p) {
    p = std::make_unique<State>();
    p->null_errhandler = comm::lookup_errhandler(MPI_ERRORS_RETURN);  // §13.7
  }
  return *p;
}

File::~File() {
  if (fd >= 0) ::close(fd);
  exchange::unmap_shared(shared_page);
}

int error_class_of_errno(int err) {
  switch (err) {
    case ENOENT: return MPI_ERR_NO_SUCH_FILE;
    case EEXIST: return MPI_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM: return MPI_ERR_ACCESS;
    case EROFS: return MPI_ERR_READ_ONLY;
    case ENOSPC: return MPI_ERR_NO_SPACE;
    case EDQUOT: return MPI_ERR_QUOTA;
    case ENAMETOOLONG:
    case ENOTDIR:
    case EISDIR:
    case ELOOP: return MPI_ERR_BAD_FILE;
    case ETXTBSY:
    case EBUSY: return MPI_ERR_FILE_IN_USE;
    default: return MPI_ERR_IO;
  }
}

Outcome posix_failure(int err, const char* what, const std::string& path) {
  return {error_class_of_errno(err), std::string("could not ") + what + " '" + path + "': " + std::strerror(err)};
}

Outcome size_of(const File& f, MPI_Offset* size) {
  struct stat st {};
  if (fstat(f.fd, &st) != 0) return posix_failure(errno, "query the size of", f.path);
  *size = static_cast<MPI_Offset>(st.st_size);
  return {};
}

namespace {

exchange::Peers peers(const File& f) { return comm::peers_of(*comm::lookup(f.comm)); }

int open_flags(int amode, bool create) {
  int flags = O_CLOEXEC;
  if (amode & MPI_MODE_RDONLY) flags |= O_RDONLY;
  if (amode & MPI_MODE_WRONLY) flags |= O_WRONLY;
  if (amode & MPI_MODE_RDWR) flags |= O_RDWR;
  // MPI_MODE_APPEND is not O_APPEND: with it, pwrite(2) on Linux appends
  // whatever the offset. It only places the file pointers at the end (open).
  if (create && (amode & MPI_MODE_CREATE)) flags |= O_CREAT;
  if (create && (amode & MPI_MODE_EXCL)) flags |= O_EXCL;
  return flags;
}

// Round 1 of an open: each rank's verdict on its arguments, its amode, and
// what its open(2) did (errno; rank 0 opens before the round, the others
// after it).
struct OpenEntry {
  std::int32_t code;
  std::int32_t amode;
  std::int32_t err;
  std::int32_t pad;
};

}  // namespace

bool all_ok(const File& f, bool ok) {
  std::vector<char> all(static_cast<std::size_t>(f.size));
  std::uint64_t mask = ok ? 1 : 0;
  const char mine = ok ? 1 : 0;
  exchange::allgather_and(peers(f), &mine, 1, all.data(), &mask, 1);
  return mask == 1;
}

void barrier(const File& f) { exchange::barrier(peers(f)); }

Opened open(MPI_Comm comm_h, const char* path, int amode, const core::Info* hints, const Outcome& local) {
  Opened out;
  comm::Made dup = comm::private_dup(comm_h, state().null_errhandler);  // a new file's handler (§13.7)
  if (dup.code != MPI_SUCCESS) {
    out.code = dup.code;
    out.why = dup.why;
    return out;
  }
  comm::Comm* fc = comm::lookup(dup.handle);
  const exchange::Peers p = comm::peers_of(*fc);
  auto f = std::make_unique<File>();
  f->comm = dup.handle;
  f->rank = fc->rank;
  f->size = fc->size();
  f->amode = amode;
  if (path) f->path = path;
  if (hints) f->hints = *hints;
  f->view = default_view();
  auto fail = [&](int code, std::string why) {
    out.code = code;
    out.why = std::move(why);
    f.reset();  // closes this rank's descriptor
    comm::destroy(dup.handle);
    return out;
  };

  // Rank 0 opens first (and alone creates), so O_EXCL is decided once.
  OpenEntry mine{local.code, amode, 0, 0};
  if (f->rank == 0 && local.ok()) {
    f->fd = ::open(path, open_flags(amode, true), 0666);
    if (f->fd < 0) mine.err = errno;
  }
  std::vector<OpenEntry> all(static_cast<std::size_t>(f->size));
  std::uint64_t mask = local.ok() ? 1 : 0;
  exchange::allgather_and(p, &mine, sizeof mine, all.data(), &mask, 1);
  if (mask != 1) {
    if (!local.ok()) return fail(local.code, local.why);
    int bad = 0;
    while (all[static_cast<std::size_t>(bad)].code == MPI_SUCCESS) ++bad;
    return fail(all[static_cast<std::size_t>(bad)].code,
                "rank " + std::to_string(bad) + " of the communicator passed an invalid argument to the same call, "
                "so no file was opened");
  }
  for (int r = 0; r < f->size; ++r)
    if (all[static_cast<std::size_t>(r)].amode != amode)
      return fail(MPI_ERR_NOT_SAME, "rank " + std::to_string(r) + " passed amode " +
                                        std::to_string(all[static_cast<std::size_t>(r)].amode) + " and this rank " +
                                        std::to_string(amode) + "; MPI_File_open needs the same amode on every rank");
  if (all[0].err != 0) {
    Outcome o = posix_failure(all[0].err, (amode & MPI_MODE_CREATE) ? "create or open" : "open", f->path);
    if (f->rank != 0) o.why += " (on rank 0)";
    return fail(o.code, o.why);
  }

  // Round 2: the others open what rank 0 opened (or made).
  int my_err = 0;
  if (f->rank != 0) {
    f->fd = ::open(path, open_flags(amode, false));
    if (f->fd < 0) my_err = errno;
  }
  std::vector<std::int32_t> errs(static_cast<std::size_t>(f->size));
  mask = my_err == 0 ? 1 : 0;
  exchange::allgather_and(p, &my_err, sizeof my_err, errs.data(), &mask, 1);
  if (mask != 1) {
    int bad = 0;
    while (errs[static_cast<std::size_t>(bad)] == 0) ++bad;
    Outcome o = posix_failure(errs[static_cast<std::size_t>(bad)], "open", f->path);
    return fail(o.code, o.why + " (on rank " + std::to_string(bad) + ")");
  }

  // Round 3: the page that holds the shared file pointer.
  f->shared_page = exchange::map_shared(p, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), "ringmpi-file");
  if (f->shared_page.err != 0)
    return fail(MPI_ERR_NO_MEM, std::string("could not share a page for the shared file pointer (rank ") +
                                    std::to_string(f->shared_page.failed) + ": " +
                                    std::strerror(f->shared_page.err) + ")");
  f->shared = reinterpret_cast<std::atomic<std::int64_t>*>(f->shared_page.base);
  if (amode & MPI_MODE_APPEND) {
    // Both file pointers start at the end of the file (§13.2.1). Rank 0
    // alone stores the shared one, and nobody leaves before it has: a rank
    // that went on to an independent shared access could lose its place.
    MPI_Offset end = 0;  // 0 if it cannot be known: the pointers start at the start, as without the mode
    size_of(*f, &end);
    f->position = position_at(f->view, end);
    if (f->rank == 0) f->shared->store(f->position, std::memory_order_relaxed);
    exchange::barrier(p);
  }

  const MPI_File h = state().files.add(std::move(f));
  if (h == MPI_FILE_NULL) {
    out.code = MPI_ERR_NO_MEM;
    out.why = "too many files are open (2^20)";
    comm::destroy(dup.handle);
    return out;
  }
  fc->owner = h;
  out.handle = h;
  return out;
}

Outcome close(MPI_File h) {
  File* f = lookup(h);
  Outcome out;
  // Every rank closes its descriptor, then rank 0 deletes the file once all
  // have (MPI_MODE_DELETE_ON_CLOSE, §13.2.1).
  if (::close(f->fd) != 0) out = posix_failure(errno, "close", f->path);
  f->fd = -1;
  barrier(*f);
  if (f->rank == 0 && (f->amode & MPI_MODE_DELETE_ON_CLOSE) && ::unlink(f->path.c_str()) != 0 && out.ok())
    out = posix_failure(errno, "delete (MPI_MODE_DELETE_ON_CLOSE)", f->path);
  const MPI_Comm c = f->comm;
  state().files.remove(h);
  comm::destroy(c);
  return out;
}

Outcome remove(const char* path) {
  if (::unlink(path) == 0) return {};
  return posix_failure(errno, "delete", path);
}

void release_all_files() {
  if (!core::rt().io) return;
  std::vector<MPI_File> open_files;
  state().files.for_each([&](int h, const File&) { open_files.push_back(h); });
  for (MPI_File h : open_files) {
    const MPI_Comm c = lookup(h)->comm;
    state().files.remove(h);
    comm::destroy(c);
  }
}

}  // namespace ringmpi::io
