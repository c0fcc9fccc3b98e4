// Sends: the eager fast path straight into the ring, the generic path
// through a request (queued when the ring is full), and the sender side of
// the rendezvous.
//
// Protocol choice by message size (stream bytes):
//   bytes <= eager_limit   one eager record (eager_sync for MPI_Ssend: the
//                          receiver acks when it matches)
//   bytes >  eager_limit   an rts record; the receiver reads the data from
//                          our memory (process_vm_readv), asks us to write
//                          half of it (cts_write), or asks for a push through
//                          the ring (cts_push) when single copy is unavailable.
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "core/copy.hpp"
#include "core/runtime.hpp"
#include "p2p/engine.hpp"
#include "p2p/ops.hpp"
#include "p2p/signature.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::p2p {
namespace {

// The sender's layout is described to the receiver as an iovec array that
// the receiver reads from our memory; beyond this many pieces pushing the
// data through the ring (packing on our side) is as fast and bounded.
constexpr std::size_t kMaxRemoteIov = 1 << 16;

void copy_stream_out(const Request& r, std::size_t offset, std::byte* dst, std::size_t n) {
  if (r.contig)
    std::memcpy(dst, static_cast<const std::byte*>(r.buf) + offset, n);
  else
    dtype::pack(r.buf, r.count, *r.type, offset, dst, n);
}

void prepare_rts(Request* r) {
  r->iov.clear();
  r->push_only = false;
  if (r->contig) return;
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

void enqueue(State& s, int dest, const OutItem& item) {
  PeerOut& o = s.out[static_cast<std::size_t>(dest)];
  if (!o.listed) {
    o.listed = true;
    s.busy.push_back(dest);
  }
  o.queue.push_back(item);
}

// The first (or only) record of a send.
bool push_first(State& s, int dest, Request* r, bool* pushed) {
  shm::RingProducer& ring = s.out[static_cast<std::size_t>(dest)].ring;
  const wire::Envelope env{r->context, r->stamp, r->tag, r->type ? signature_stamp(*r->type) : 0u};
  if (r->bytes <= s.tune.eager_limit) {
    const bool sync = r->mode == Mode::sync;
    const std::size_t head = sizeof env + (sync ? sizeof(wire::SyncCookie) : 0);
    std::byte* p = ring.reserve(head + r->bytes);
    if (!p) return false;
    std::memcpy(p, &env, sizeof env);
    if (sync) {
      const wire::SyncCookie c{cookie_of(r)};
      std::memcpy(p + sizeof env, &c, sizeof c);
    }
    if (r->bytes) copy_stream_out(*r, 0, p + head, r->bytes);
    ring.commit(sync ? wire::eager_sync : wire::eager, head + r->bytes);
    *pushed = true;
    r->queued = false;
    if (sync)
      r->waits = 1;
    else
      complete(s, r);
    return true;
  }
  std::byte* p = ring.reserve(sizeof env + sizeof(wire::Rts));
  if (!p) return false;
  wire::Rts rts{};
  rts.bytes = r->bytes;
  rts.cookie = cookie_of(r);
  rts.addr = reinterpret_cast<std::uint64_t>(r->contig ? r->buf : static_cast<void*>(r->iov.data()));
  rts.niov = r->contig ? 0 : r->iov.size();
  rts.flags = r->push_only ? std::uint32_t{wire::rts_push_only} : 0u;
  std::memcpy(p, &env, sizeof env);
  std::memcpy(p + sizeof env, &rts, sizeof rts);
  ring.commit(wire::rts, sizeof env + sizeof rts);
  *pushed = true;
  r->queued = false;
  r->waits = 1;
  return true;
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

// Writes [off, off+n) of our contiguous buffer into the receiver's.
bool write_share(int dest, const Request& r, std::uint64_t remote, std::size_t off, std::size_t n) {
  const pid_t pid = state().slots[static_cast<std::size_t>(dest)]->pid.load(std::memory_order_relaxed);
  while (n > 0) {
    const std::size_t piece = std::min<std::size_t>(n, std::size_t(1) << 30);
    iovec local{static_cast<std::byte*>(r.buf) + off, piece};
    iovec far{reinterpret_cast<void*>(remote + off), piece};
    const ssize_t got = process_vm_writev(pid, &local, 1, &far, 1, 0);
    if (got <= 0) return false;
    off += static_cast<std::size_t>(got);
    n -= static_cast<std::size_t>(got);
  }
  return true;
}

// `dest_world`: the world rank of a.dest (unused for MPI_PROC_NULL).
void fill(Request* r, const SendArgs& a, bool hold, int dest_world) {
  r->kind = Kind::send;
  r->mode = a.mode;
  r->comm = a.handle;
  r->peer = a.dest;
  r->tag = a.tag;
  r->buf = const_cast<void*>(a.buf);
  r->count = a.count;
  r->type = a.type;
  r->bytes = static_cast<std::size_t>(a.count) * a.type->size;
  r->contig = r->bytes == 0 || a.type->contiguous();
  if (hold && !r->contig && !a.type->predefined) r->hold = dtype::lookup_shared(a.datatype);
  if (a.dest != MPI_PROC_NULL) {
    r->context = a.route.context;
    r->world = dest_world;
    r->stamp = a.route.rank;
  }
}

int world_of(const SendArgs& a) { return a.dest == MPI_PROC_NULL ? MPI_PROC_NULL : a.route.peer_world[a.dest]; }

void fill(Request* r, const SendArgs& a, bool hold) { fill(r, a, hold, world_of(a)); }

int bsend_start(State& s, const SendArgs& a, int dest_world);

}  // namespace

// The fast path of every eager send: straight into an empty-queued ring.
bool eager_now(State& s, int dest, const wire::Envelope& env, const void* buf, int count, const dtype::Datatype& t,
               bool contig, std::size_t bytes) {
  PeerOut& o = s.out[static_cast<std::size_t>(dest)];
  if (!o.queue.empty()) return false;
  std::byte* p = o.ring.reserve(sizeof env + bytes);
  if (!p) return false;
  std::memcpy(p, &env, sizeof env);
  if (bytes == 0) {
    // buf may be NULL (MPI_Send(NULL, 0, ...)): nothing to copy.
  } else if (contig) {
    core::copy_bytes(p + sizeof env, buf, bytes);
  } else {
    dtype::pack(buf, count, t, 0, p + sizeof env, bytes);
  }
  o.ring.commit(wire::eager, sizeof env + bytes);
  notify(s, dest);
  return true;
}

void start_send(State& s, Request* r) {
  r->active = true;
  r->complete = false;
  r->cancelled = false;
  r->waits = 0;
  r->st_error = MPI_SUCCESS;
  ++s.open_sends;
  if (r->peer == MPI_PROC_NULL) {
    complete(s, r);
    return;
  }
  if (r->bytes > s.tune.eager_limit) prepare_rts(r);
  PeerOut& o = s.out[static_cast<std::size_t>(r->world)];
  OutItem item;
  item.req = r;
  if (o.queue.empty()) {
    bool pushed = false;
    if (push_first(s, r->world, r, &pushed)) {
      notify(s, r->world);
      return;
    }
  }
  r->queued = true;
  enqueue(s, r->world, item);
}

bool push_item(State& s, int dest, OutItem& item, bool* pushed) {
  if (!item.req) {
    if (!s.out[static_cast<std::size_t>(dest)].ring.push(item.kind, item.body.data(), item.len)) return false;
    *pushed = true;
    return true;
  }
  return item.push ? push_data(s, dest, item.req, pushed) : push_first(s, dest, item.req, pushed);
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

int send(const SendArgs& a) {
  State& s = state();
  if (a.dest == MPI_PROC_NULL) return MPI_SUCCESS;
  if (a.mode == Mode::buffered) return bsend_start(s, a, world_of(a));
  const std::size_t bytes = static_cast<std::size_t>(a.count) * a.type->size;
  if (a.mode != Mode::sync && bytes <= s.tune.eager_limit) {
    const wire::Envelope env{a.route.context, a.route.rank, a.tag, signature_stamp(*a.type)};
    const int dest = a.route.peer_world[a.dest];
    if (eager_now(s, dest, env, a.buf, a.count, *a.type, bytes == 0 || a.type->contiguous(), bytes)) return MPI_SUCCESS;
  }
  Request r;
  fill(&r, a, false);
  start_send(s, &r);
  if (!r.complete) wait_until([&r] { return r.complete; });
  return MPI_SUCCESS;
}

int isend(const SendArgs& a, MPI_Request* request) {
  State& s = state();
  if (a.mode == Mode::buffered) {
    const int e = bsend_start(s, a, world_of(a));
    if (e == MPI_SUCCESS) *request = s.requests.handle(s.requests.shared_done());
    return e;
  }
  const std::size_t bytes = static_cast<std::size_t>(a.count) * a.type->size;
  if (a.dest != MPI_PROC_NULL && a.mode != Mode::sync && bytes <= s.tune.eager_limit) {
    const wire::Envelope env{a.route.context, a.route.rank, a.tag, signature_stamp(*a.type)};
    const int dest = a.route.peer_world[a.dest];
    if (eager_now(s, dest, env, a.buf, a.count, *a.type, bytes == 0 || a.type->contiguous(), bytes)) {
      *request = s.requests.handle(s.requests.shared_done());
      return MPI_SUCCESS;
    }
    // The ring is full: drain our own incoming traffic once (the peer may be
    // flooding us too) and push what waits, then try again before queueing.
    progress();
    if (eager_now(s, dest, env, a.buf, a.count, *a.type, bytes == 0 || a.type->contiguous(), bytes)) {
      *request = s.requests.handle(s.requests.shared_done());
      return MPI_SUCCESS;
    }
  }
  Request* r = new_request(s, false);
  if (!r) return MPI_ERR_INTERN;
  fill(r, a, true);
  start_send(s, r);
  *request = s.requests.handle(r);
  return MPI_SUCCESS;
}

int send_init(const SendArgs& a, MPI_Request* request) {
  State& s = state();
  Request* r = new_request(s, true);
  if (!r) return MPI_ERR_INTERN;
  fill(r, a, true);
  if (!r->hold && !a.type->predefined) r->hold = dtype::lookup_shared(a.datatype);
  r->persistent = true;
  r->complete = true;
  *request = s.requests.handle(r);
  return MPI_SUCCESS;
}

int start_persistent_send(State& s, Request* r) {
  if (r->mode == Mode::buffered) {
    // Addressed as the request was created (fill() resolved the route).
    const SendArgs a{r->buf, r->count,  MPI_DATATYPE_NULL, r->type, r->peer, r->tag, Route{r->context, r->stamp, nullptr},
                     r->comm, Mode::buffered};
    const int e = bsend_start(s, a, r->world);
    r->active = true;
    r->complete = true;
    r->st_error = MPI_SUCCESS;
    r->cancelled = false;
    return e;
  }
  start_send(s, r);
  return MPI_SUCCESS;
}

// ---- buffered sends --------------------------------------------------------

namespace {

// First fit over the blocks in use; -1 when nothing fits.
long bsend_alloc(BsendBuffer& b, std::size_t n) {
  std::size_t at = 0;
  for (const auto& [off, len] : b.used) {
    if (off - at >= n) break;
    at = off + len;
  }
  if (at + n > b.size) return -1;
  b.used.emplace(at, n);
  return static_cast<long>(at);
}

int bsend_start(State& s, const SendArgs& a, int dest_world) {
  if (a.dest == MPI_PROC_NULL) return MPI_SUCCESS;
  const std::size_t bytes = static_cast<std::size_t>(a.count) * a.type->size;
  const std::size_t need = bytes + MPI_BSEND_OVERHEAD;
  long off = bsend_alloc(s.bsend, need);
  if (off < 0) {
    // Buffered messages the rings took since the last progress free their space.
    progress();
    off = bsend_alloc(s.bsend, need);
  }
  if (off < 0) {
    std::size_t used = 0;
    for (const auto& [o, l] : s.bsend.used) used += l;
    set_error_detail(
        "the attached buffer has no room for this message: it needs %zu bytes (%zu of data + MPI_BSEND_OVERHEAD %d); "
        "%zu of the %zu attached bytes are in use%s",
        need, bytes, MPI_BSEND_OVERHEAD, used, s.bsend.size,
        s.bsend.base ? "" : " (no buffer is attached: call MPI_Buffer_attach first)");
    return MPI_ERR_BUFFER;
  }
  std::byte* copy = s.bsend.base + off;
  if (bytes) {
    if (bytes == 0 || a.type->contiguous())
      std::memcpy(copy, a.buf, bytes);
    else
      dtype::pack(a.buf, a.count, *a.type, 0, copy, bytes);
  }
  const dtype::Datatype* byte = dtype::lookup(MPI_BYTE);
  const int dest = dest_world;
  if (bytes <= s.tune.eager_limit) {
    const wire::Envelope env{a.route.context, a.route.rank, a.tag, signature_stamp(*a.type)};
    if (eager_now(s, dest, env, copy, static_cast<int>(bytes), *byte, true, bytes)) {
      s.bsend.used.erase(static_cast<std::size_t>(off));
      return MPI_SUCCESS;
    }
  }
  Request* r = new_request(s, false);
  if (!r) {
    s.bsend.used.erase(static_cast<std::size_t>(off));
    return MPI_ERR_INTERN;
  }
  SendArgs b = a;
  b.buf = copy;
  b.count = static_cast<int>(std::min<std::size_t>(bytes, INT_MAX));
  b.type = byte;
  b.datatype = MPI_BYTE;
  b.mode = Mode::standard;
  fill(r, b, false, dest_world);
  r->bytes = bytes;
  r->contig = true;
  r->user_freed = true;  // nobody waits for it: the engine releases it when done
  r->bsend_offset = off;
  start_send(s, r);
  return MPI_SUCCESS;
}

}  // namespace

int buffer_attach(void* buffer, int size) {
  State& s = state();
  if (s.bsend.base) {
    set_error_detail("a buffer of %zu bytes is already attached; MPI_Buffer_detach it first", s.bsend.size);
    return MPI_ERR_BUFFER;
  }
  s.bsend.base = static_cast<std::byte*>(buffer);
  s.bsend.size = static_cast<std::size_t>(size);
  s.bsend.used.clear();
  return MPI_SUCCESS;
}

int buffer_detach(void* buffer_addr, int* size) {
  State& s = state();
  if (!s.bsend.base) {
    // MPI-3.1 §3.6.1 leaves this to the implementation; MPICH and Open MPI
    // return a null buffer of size 0.
    *static_cast<void**>(buffer_addr) = nullptr;
    *size = 0;
    return MPI_SUCCESS;
  }
  // Blocks until every buffered message has left the buffer.
  wait_until([&s] { return s.bsend.used.empty(); });
  *static_cast<void**>(buffer_addr) = s.bsend.base;
  *size = static_cast<int>(s.bsend.size);
  s.bsend = BsendBuffer{};
  return MPI_SUCCESS;
}

}  // namespace ringmpi::p2p
