// Moving data between a user's buffer and a file (see access.hpp).
//
// The buffer side is one contiguous run of bytes: the user's own buffer
// when (buf, count, type) is contiguous, a packed copy otherwise. The file
// side is the list of pieces the view maps the stream bytes to
// (view.hpp); each piece is one pread/pwrite (repeated while the kernel
// moves less), in stream order. A read that meets the end of the file stops
// there and reports what it got, as read(2) does.
#include "io/access.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <vector>

#include "dtype/represent.hpp"
#include "io/view.hpp"

namespace ringmpi::io {
namespace {

// The atomic-mode lock (file.hpp): an open file description lock over
// [from, to), released when it goes out of scope.
class RangeLock {
 public:
  RangeLock(int fd, bool write, MPI_Offset from, MPI_Offset to) : fd_(fd) {
    struct flock l {};
    l.l_type = write ? F_WRLCK : F_RDLCK;
    l.l_whence = SEEK_SET;
    l.l_start = from;
    l.l_len = to - from;
    start_ = from;
    len_ = to - from;
    while (fcntl(fd_, F_OFD_SETLKW, &l) != 0) {
      if (errno != EINTR) {
        err_ = errno;
        return;
      }
    }
    held_ = true;
  }
  ~RangeLock() {
    if (!held_) return;
    struct flock l {};
    l.l_type = F_UNLCK;
    l.l_whence = SEEK_SET;
    l.l_start = start_;
    l.l_len = len_;
    fcntl(fd_, F_OFD_SETLK, &l);
  }
  RangeLock(const RangeLock&) = delete;
  RangeLock& operator=(const RangeLock&) = delete;
  int error() const { return err_; }

 private:
  int fd_;
  MPI_Offset start_ = 0, len_ = 0;
  bool held_ = false;
  int err_ = 0;
};

// Moves one piece; returns the bytes moved (less than asked only at the end
// of the file, for a read) or -1 with errno set.
long long move_piece(int fd, bool write, std::byte* mem, const Piece& p) {
  std::size_t done = 0;
  while (done < p.length) {
    const off_t at = static_cast<off_t>(p.offset) + static_cast<off_t>(done);
    const ssize_t n = write ? pwrite(fd, mem + done, p.length - done, at) : pread(fd, mem + done, p.length - done, at);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (n == 0) break;  // end of file (reads), or a device that takes nothing more
    done += static_cast<std::size_t>(n);
  }
  return static_cast<long long>(done);
}

}  // namespace

Outcome stream_bytes(View& v, int count, const dtype::Datatype& type, std::uint64_t* bytes) {
  *bytes = 0;
  if (Outcome o = prepare(v); !o.ok()) return o;
  MPI_Count one = static_cast<MPI_Count>(type.size);
  if (v.rep) {
    std::string why;
    if (int e = dtype::represented_size(*v.rep, type, &one, &why))
      return {e, "the view's data representation \"" + v.datarep + "\": " + why};
  }
  *bytes = static_cast<std::uint64_t>(count) * static_cast<std::uint64_t>(one);
  return {};
}

Moved transfer(File& f, bool write, MPI_Offset pos, void* buf, int count, const dtype::Datatype& type,
               MPI_Datatype handle) {
  Moved m;
  std::uint64_t total = 0;
  if (Outcome o = stream_bytes(f.view, count, type, &total); !o.ok()) {
    static_cast<Outcome&>(m) = o;
    return m;
  }
  const std::size_t bytes = static_cast<std::size_t>(total);
  if (bytes == 0) return m;
  std::vector<Piece> pieces;
  pieces_of(f.view, static_cast<std::uint64_t>(pos) * f.view.etype_size, bytes, pieces);
  if (pieces.empty()) {  // a view of nothing: reads find its end at once, writes have nowhere to go
    if (write)
      static_cast<Outcome&>(m) = {MPI_ERR_IO, "the file view's filetype holds no data, so there is no place to "
                                              "write " + std::to_string(bytes) + " bytes"};
    return m;
  }

  // The view's representation converts between the buffer and the stream
  // bytes (dtype/represent.hpp); "native" copies them, or moves them in place.
  dtype::Representation* rep = f.view.rep.get();
  const bool direct = type.contiguous() && !rep;
  std::unique_ptr<std::byte[]> packed;
  std::byte* mem = static_cast<std::byte*>(buf);
  if (!direct) {
    packed.reset(new std::byte[bytes]);
    mem = packed.get();
    if (write && rep) {
      std::string why;
      if (int e = rep->to_file(buf, count, type, handle, mem, &why)) {
        static_cast<Outcome&>(m) = {e, why};
        return m;
      }
    } else if (write) {
      dtype::pack(buf, count, type, 0, mem, bytes);
    }
  }

  std::unique_ptr<RangeLock> lock;
  if (f.atomic) {
    MPI_Offset lo = pieces.front().offset, hi = lo;
    for (const Piece& p : pieces) {
      lo = std::min(lo, p.offset);
      hi = std::max(hi, p.offset + static_cast<MPI_Offset>(p.length));
    }
    lock = std::make_unique<RangeLock>(f.fd, write, lo, hi);
    if (int err = lock->error()) {
      static_cast<Outcome&>(m) = posix_failure(err, "lock a byte range of", f.path);
      return m;
    }
  }
  for (const Piece& p : pieces) {
    const long long n = move_piece(f.fd, write, mem + m.bytes, p);
    if (n < 0) {
      static_cast<Outcome&>(m) = posix_failure(errno, write ? "write to" : "read from", f.path);
      break;
    }
    m.bytes += static_cast<std::size_t>(n);
    if (static_cast<std::size_t>(n) < p.length) break;  // end of file
  }
  m.stream = m.bytes;
  if (write && m.bytes > 0) f.dirty = true;
  if (rep) {
    // Whole elements only convert; the count reported is in native bytes.
    const std::size_t one = bytes / static_cast<std::size_t>(count);
    const std::size_t whole = m.bytes / one;
    std::string why;
    m.bytes = whole * type.size;
    if (!write && whole > 0)
      if (int e = rep->from_file(mem, buf, static_cast<int>(whole), type, handle, &why)) {
        static_cast<Outcome&>(m) = {e, why};
        m.bytes = 0;
      }
  } else if (!direct && !write && m.bytes > 0) {
    dtype::unpack(buf, count, type, 0, mem, m.bytes);
  }
  return m;
}

}  // namespace ringmpi::io
