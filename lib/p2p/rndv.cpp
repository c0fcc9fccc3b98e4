// Large messages: the rendezvous protocol, receiver side then sender side
// (send.cpp chooses the protocol and sends the rts).
//
// Single copy: the receiver reads the sender's buffer with process_vm_readv,
// local iovecs from dtype::to_iov on our buffer, remote iovecs either the one
// contiguous range or the sender's iovec array (itself read from the sender),
// at most IOV_MAX of each per call (into a datatype of short pieces: one
// local iovec on a staging buffer, then dtype::unpack; from such a type the
// sender pushes instead, see prepare_rts). From split_min bytes on, when both
// buffers are contiguous and the receiver has no sends of its own in flight,
// the receiver first asks the sender (cts_write) to write the upper part
// with process_vm_writev while it reads the lower part: two cores copy at
// once, each byte still copied once.
//
// Order of records for one message (ring S->R carries rts, data, done_write;
// ring R->S carries cts, ack):
//   read all:   rts; ack (after R's read)                  S done at ack
//   split:      rts; cts_write; ack (after R's read); done_write (after S's write)
//               S done at ack (its write preceded it); R done at done_write
//   push:       rts; cts_push; data...                     S done after the last
//               data record, R when all bytes arrived
//   offered (send.cpp, offer_send: an eager-sized blocking send), unmatched
//   within the grace:  rts; cancel_send; then either cancelled (R dropped it
//               unexpected) and S sends the message again as one eager record,
//               or the ack/cts of a match R made before the cancel_send, which
//               R ignores, and one of the above goes on
// A refusal of process_vm_readv on the first read of a message (EPERM, ENOSYS:
// a peer we may not read) switches this rank to the push protocol for good.
// The system calls, their batching, short counts and the switch are the
// single-copy module's (lib/smsc/single_copy.hpp).
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "core/copy.hpp"
#include "core/runtime.hpp"
#include "dtype/layout.hpp"
#include "p2p/engine.hpp"
#include "p2p/engine_private.hpp"
#include "smsc/single_copy.hpp"

namespace ringmpi::p2p {
namespace {

constexpr std::size_t kMaxIov = IOV_MAX;  // pieces of each side per call
constexpr std::size_t kMaxCall = smsc::kMaxCall;
// process_vm_readv costs the kernel some 30 ns per local iovec, and
// describing the pieces costs as much again: a receive of 10000 doubles
// into a column type (MPICH perf/transp-datatype) took 100 times a
// contiguous receive. A receive into pieces shorter than kStageBelow bytes
// on average reads up to kStageBytes at a time into State::stage with one
// local iovec and unpacks from there (the datatype engine's unpack).
constexpr std::size_t kStageBelow = 256;
constexpr std::size_t kStageBytes = std::size_t(256) << 10;

// Pieces of one element of a non-contiguous type shorter than kStageBelow
// on average. One piece per element counts when the elements do not abut.
bool short_pieces(const dtype::Datatype& t) {
  std::size_t pieces = t.blocks.size();
  if (pieces == 0 && t.layout) pieces = t.layout->nblocks;
  if (pieces == 0 || (pieces == 1 && std::ptrdiff_t(t.size) == t.extent)) return false;
  return t.size / pieces < kStageBelow;
}

// Walks the sender's data as remote iovecs from a stream offset on.
class RemoteCursor {
 public:
  RemoteCursor(pid_t pid, std::uint64_t addr, std::uint64_t niov, std::size_t offset)
      : pid_(pid), addr_(addr), niov_(niov), offset_(offset) {}

  // Up to `want` bytes as at most `max` iovecs; returns the count, *got the bytes.
  int take(std::size_t want, iovec* out, std::size_t max, std::size_t* got, int* err) {
    *got = 0;
    if (niov_ == 0) {
      out[0] = iovec{reinterpret_cast<void*>(addr_ + offset_), want};
      offset_ += want;
      *got = want;
      return 1;
    }
    int n = 0;
    while (*got < want && static_cast<std::size_t>(n) < max) {
      if (at_ == cached_end_ && !fetch(err)) return -1;
      if (at_ == cached_end_) break;  // no more pieces
      const iovec& piece = cache_[at_ - cached_begin_];
      const std::size_t piece_start = pos_;
      if (piece_start + piece.iov_len <= offset_) {
        pos_ += piece.iov_len;
        ++at_;
        continue;
      }
      const std::size_t in = offset_ - piece_start;
      const std::size_t len = std::min(piece.iov_len - in, want - *got);
      out[n++] = iovec{static_cast<std::byte*>(piece.iov_base) + in, len};
      *got += len;
      offset_ += len;
      if (in + len == piece.iov_len) {
        pos_ += piece.iov_len;
        ++at_;
      }
    }
    return n;
  }

 private:
  bool fetch(int* err) {
    if (at_ >= niov_) return true;
    const std::size_t n = std::min<std::size_t>(kBatch, niov_ - at_);
    if (const int e = smsc::read(pid_, cache_, addr_ + at_ * sizeof(iovec), n * sizeof(iovec))) {
      *err = e == smsc::kNoData ? EFAULT : e;
      return false;
    }
    cached_begin_ = at_;
    cached_end_ = at_ + n;
    return true;
  }
  static constexpr std::size_t kBatch = 256;
  pid_t pid_;
  std::uint64_t addr_, niov_;
  std::size_t offset_;
  std::size_t at_ = 0, pos_ = 0;  // next piece, its stream offset
  std::size_t cached_begin_ = 0, cached_end_ = 0;
  iovec cache_[kBatch];
};

// A short count, or no data, reads as EFAULT here (a sender's buffer that
// is not all there), as it did before the module.
int read_error(int e) { return e == smsc::kNoData ? EFAULT : e; }

// Copies stream bytes [from, from+len) of the sender's buffer into r's
// buffer at the same stream offsets. Returns 0 or an errno value.
int read_remote(State& s, Request* r, int from_world, std::size_t from, std::size_t len) {
  if (len == 0) return 0;
  const pid_t pid = s.slots[static_cast<std::size_t>(from_world)]->pid.load(std::memory_order_relaxed);
  s.iov_local.resize(kMaxIov);
  s.iov_remote.resize(kMaxIov);
  RemoteCursor remote(pid, r->remote_addr, r->remote_niov, from);
  std::size_t done = 0;
  if (!r->contig && from_world != s.rank && short_pieces(*r->type)) {
    core::count(core::Counter::rndv_staged);
    if (s.stage.size() < std::min(len, kStageBytes)) s.stage.resize(std::min(len, kStageBytes));
    while (done < len) {
      std::size_t rgot = 0;
      int err = 0;
      const int rn = remote.take(std::min(kStageBytes, len - done), s.iov_remote.data(), kMaxIov, &rgot, &err);
      if (rn < 0) return err;
      if (rgot == 0) return EFAULT;
      const iovec staged{s.stage.data(), rgot};
      if (const int e =
              smsc::copyv(smsc::Dir::read, pid, &staged, 1, s.iov_remote.data(), static_cast<std::size_t>(rn), rgot))
        return read_error(e);
      dtype::unpack(r->buf, r->count, *r->type, from + done, s.stage.data(), rgot);
      done += rgot;
    }
    return 0;
  }
  while (done < len) {
    const std::size_t want = std::min(kMaxCall, len - done);
    std::size_t lgot = 0;
    std::size_t ln = 1;
    if (r->contig) {
      s.iov_local[0] = iovec{static_cast<std::byte*>(r->buf) + from + done, want};
      lgot = want;
    } else {
      ln = dtype::to_iov(r->buf, r->count, *r->type, from + done, want, s.iov_local.data(), kMaxIov, &lgot);
    }
    if (lgot == 0) return EFAULT;
    std::size_t rgot = 0;
    int err = 0;
    const int rn = remote.take(lgot, s.iov_remote.data(), kMaxIov, &rgot, &err);
    if (rn < 0) return err;
    if (rgot == 0) return EFAULT;
    if (rgot < lgot) {  // fewer remote pieces fit: trim the local side to match
      std::size_t keep = 0, k = 0;
      while (keep + s.iov_local[k].iov_len < rgot) keep += s.iov_local[k++].iov_len;
      s.iov_local[k].iov_len = rgot - keep;
      ln = k + 1;
    }
    if (from_world == s.rank) {  // a message to oneself: a memcpy, no system call
      if (smsc::copy_self(s.iov_local.data(), ln, s.iov_remote.data(), static_cast<std::size_t>(rn)) != rgot)
        return EFAULT;
    } else if (const int e = smsc::copyv(smsc::Dir::read, pid, s.iov_local.data(), ln, s.iov_remote.data(),
                                         static_cast<std::size_t>(rn), rgot)) {
      return read_error(e);
    }
    done += rgot;
  }
  return 0;
}

[[noreturn]] void read_failed(const Request& r, int from_world, int err) {
  internal_error("reading a %zu-byte message from rank %d's memory failed: %s (its buffer must stay valid until the "
                 "send completes)",
                 r.msg_bytes, from_world, std::strerror(err));
}

void ask_push(State& s, Request* r, int from, std::uint64_t send_cookie) {
  wire::Cts c{};
  c.send_cookie = send_cookie;
  c.recv_cookie = cookie_of(r);
  c.bytes = r->xfer_bytes;
  c.mode = wire::cts_push;
  r->xfer_done = 0;
  core::count(core::Counter::rndv_push);
  send_control(s, from, wire::cts, &c, sizeof c);
  if (r->xfer_bytes == 0) complete(s, r);
}

}  // namespace

void start_rndv_recv(State& s, Request* r, int from, const wire::Rts& rts) {
  const std::size_t n = std::min<std::size_t>(rts.bytes, r->bytes);
  r->peer_world = from;
  r->peer_cookie = rts.cookie;
  r->xfer_bytes = n;
  r->xfer_done = 0;
  r->remote_addr = rts.addr;
  r->remote_niov = rts.niov;
  if (!smsc::usable() || (rts.flags & wire::rts_push_only)) {
    if (!(rts.flags & wire::rts_push_only)) smsc::count_fallback();
    ask_push(s, r, from, rts.cookie);
    return;
  }
  // No split while we have sends of our own in flight: the sender then most
  // likely receives from us as well (an exchange, a bidirectional stream),
  // its core is busy copying our data, and asking it for a share as well
  // only adds records and syscalls to the same amount of copying. Nor in a
  // message to oneself: one core would do both halves.
  const bool split =
      n >= s.tune.split_min && rts.niov == 0 && r->contig && s.open_sends == 0 && from != s.rank;
  // Our share; the sender's starts on a page boundary.
  const std::size_t own = split ? (n / 2 + 4095) / 4096 * 4096 : n;
  // From a peer not read yet, a first small piece tells whether we may read
  // it at all (before anything else of this message happens).
  PeerIn& peer = s.in[static_cast<std::size_t>(from)];
  const std::size_t first = peer.readable ? 0 : std::min<std::size_t>(own, 4096);
  int err = read_remote(s, r, from, 0, first);
  if (err) {
    if (!smsc::refused(err)) read_failed(*r, from, err);
    smsc::disable();
    smsc::count_fallback();
    ask_push(s, r, from, rts.cookie);
    return;
  }
  peer.readable = true;
  core::count(core::Counter::rndv_read);
  if (split && own < n) {
    core::count(core::Counter::rndv_split);
    wire::Cts c{};
    c.send_cookie = rts.cookie;
    c.recv_cookie = cookie_of(r);
    c.bytes = n;
    c.mode = wire::cts_write;
    c.recv_addr = reinterpret_cast<std::uint64_t>(r->buf);
    c.write_offset = own;
    c.write_bytes = n - own;
    r->share_offset = own;
    r->share_bytes = n - own;
    r->waits = 1;
    send_control(s, from, wire::cts, &c, sizeof c);
  }
  err = read_remote(s, r, from, first, own - first);
  if (err) read_failed(*r, from, err);
  const wire::Ack ack{rts.cookie};
  send_control(s, from, wire::ack, &ack, sizeof ack);
  if (r->waits == 0) complete(s, r);
}

void on_data(State& s, const wire::Data& d, const std::byte* bytes, std::size_t n) {
  Request* r = from_cookie(d.recv_cookie);
  if (r->contig)
    core::copy_bulk(static_cast<std::byte*>(r->buf) + d.offset, bytes, n);
  else
    dtype::unpack(r->buf, r->count, *r->type, d.offset, bytes, n);
  r->xfer_done += n;
  if (r->xfer_done == r->xfer_bytes) complete(s, r);
}

void on_done_write(State& s, const wire::DoneWrite& d) {
  Request* r = from_cookie(d.recv_cookie);
  if (!d.ok) {
    // The sender may not write into us; we can read it, so we copy its share.
    smsc::count_fallback();
    const int err = read_remote(s, r, r->peer_world, r->share_offset, r->share_bytes);
    if (err) read_failed(*r, r->peer_world, err);
  }
  r->waits = 0;
  complete(s, r);
}

// ---- sender side -------------------------------------------------------------

namespace {

// The sender's layout is described to the receiver as an iovec array that
// the receiver reads from our memory; beyond this many pieces pushing the
// data through the ring (packing on our side) is as fast and bounded.
constexpr std::size_t kMaxRemoteIov = 1 << 16;

// Writes [off, off+n) of our contiguous buffer into the receiver's.
bool write_share(int dest, const Request& r, std::uint64_t remote, std::size_t off, std::size_t n) {
  const pid_t pid = state().slots[static_cast<std::size_t>(dest)]->pid.load(std::memory_order_relaxed);
  return smsc::write(pid, static_cast<const std::byte*>(r.buf) + off, remote + off, n) == 0;
}

}  // namespace

void prepare_rts(Request* r) {
  r->iov.clear();
  r->push_only = false;
  if (r->contig) return;
  // Short pieces cost the reader's kernel far more as remote iovecs (each
  // one pinned on its own: 10000 8-byte pieces took 7 ms against 6 us for
  // the same 80 KB contiguous) than packing them into the ring costs here.
  if (short_pieces(*r->type)) {
    r->push_only = true;
    return;
  }
  iovec tmp[256];
  std::size_t off = 0;
  while (off < r->bytes) {
    std::size_t covered = 0;
    const std::size_t n = dtype::to_iov(r->buf, r->count, *r->type, off, r->bytes - off, tmp, 256, &covered);
    if (covered == 0) break;
    r->iov.insert(r->iov.end(), tmp, tmp + n);
    off += covered;
    if (r->iov.size() > kMaxRemoteIov) {
      r->iov.clear();
      r->iov.shrink_to_fit();
      r->push_only = true;
      return;
    }
  }
}

// Data records after a cts_push, as many as fit now.
bool push_data(State& s, int dest, Request* r, bool* pushed) {
  shm::RingProducer& ring = s.out[static_cast<std::size_t>(dest)].ring;
  while (r->xfer_done < r->xfer_bytes) {
    const std::size_t n = std::min(s.tune.chunk, r->xfer_bytes - r->xfer_done);
    std::byte* p = ring.reserve(sizeof(wire::Data) + n);
    if (!p) return false;
    const wire::Data d{r->peer_cookie, r->xfer_done};
    std::memcpy(p, &d, sizeof d);
    copy_stream_out(*r, r->xfer_done, p + sizeof d, n);
    ring.commit(wire::data, sizeof d + n);
    *pushed = true;
    r->xfer_done += n;
  }
  r->waits = 0;
  complete(s, r);
  return true;
}

void on_cts(State& s, int from, const wire::Cts& c) {
  Request* r = from_cookie(c.send_cookie);
  if (c.mode == wire::cts_push) {
    r->peer_cookie = c.recv_cookie;
    r->xfer_bytes = c.bytes;
    r->xfer_done = 0;
    OutItem item;
    item.req = r;
    item.push = true;
    if (s.out[static_cast<std::size_t>(from)].queue.empty()) {
      bool pushed = false;
      const bool done = push_data(s, from, r, &pushed);
      if (pushed) notify(s, from);
      if (done) return;
    }
    r->queued = true;
    enqueue(s, from, item);
    return;
  }
  // cts_write: our share goes straight into the receiver's buffer.
  const bool ok = write_share(from, *r, c.recv_addr, c.write_offset, c.write_bytes);
  const wire::DoneWrite d{c.recv_cookie, ok ? 1u : 0u};
  send_control(s, from, wire::done_write, &d, sizeof d);
}

void on_ack(State& s, const wire::Ack& a) {
  Request* r = from_cookie(a.send_cookie);
  if (r->waits > 0 && --r->waits == 0) complete(s, r);
}

}  // namespace ringmpi::p2p
