// Sends: the eager fast path straight into the ring, the generic path
// through a request (queued when the ring is full), the first record of every
// send. The rest of the rendezvous (both sides) is in rndv.cpp, buffered
// sends in bsend.cpp.
//
// Protocol choice by message size (stream bytes; docs/design/p2p-protocols.md
// has the measurements behind each band):
//   bytes <  rndv_min      one eager record (eager_sync for MPI_Ssend: the
//                          receiver acks when it matches)
//   rndv_min <= bytes <= eager_limit
//                          a blocking standard or ready send of a contiguous
//                          buffer to another rank, single copy available, not
//                          oversubscribed: offered as a rendezvous (offer_send
//                          below); everything else (nonblocking, synchronous,
//                          buffered, persistent, non-contiguous) one eager record
//   bytes >  eager_limit   an rts record; the receiver reads the data from
//                          our memory (process_vm_readv), asks us to write
//                          half of it (cts_write), or asks for a push through
//                          the ring (cts_push) when single copy is unavailable.
// Two copies through the ring (each line crossing between the cores twice)
// cost more than one process_vm_readv once the lines cross slowly (a busy
// machine: from about 12 KiB on) or the message is large (from 32-64 KiB
// on an idle one; hence the default rndv_min of 64 KiB, above the default
// eager limit); an eager send,
// though, completes without its receiver, which unsafe programs (two ranks
// that MPI_Send to each other first) rely on up to the eager limit. The offer
// keeps that: an rts that the receiver does not match within kOfferGrace is
// taken back (the cancel_send protocol of complete.cpp) and the message goes
// eagerly; if the receive matched meanwhile, the rendezvous runs as usual.
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>

#include "core/copy.hpp"
#include "core/events.hpp"
#include "core/runtime.hpp"
#include "p2p/engine.hpp"
#include "p2p/engine_private.hpp"
#include "p2p/signature.hpp"
#include "p2p/wait.hpp"
#include "smsc/single_copy.hpp"

namespace ringmpi::p2p {

void copy_stream_out(const Request& r, std::size_t offset, std::byte* dst, std::size_t n) {
  if (r.contig)
    core::copy_bulk(dst, static_cast<const std::byte*>(r.buf) + offset, n);
  else
    dtype::pack(r.buf, r.count, *r.type, offset, dst, n);
}

void enqueue(State& s, int dest, const OutItem& item) {
  PeerOut& o = s.out[static_cast<std::size_t>(dest)];
  if (!o.listed) {
    o.listed = true;
    s.busy.push_back(dest);
  }
  o.queue.push_back(item);
}

namespace {

// The first (or only) record of a send.
bool push_first(State& s, int dest, Request* r, bool* pushed) {
  shm::RingProducer& ring = s.out[static_cast<std::size_t>(dest)].ring;
  const wire::Envelope env{r->context, r->stamp, r->tag, r->type ? signature_stamp(*r->type) : 0u};
  if (r->bytes <= s.tune.eager_limit && !r->offer) {
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
  core::raise_event(core::Event::rndv_start, dest, static_cast<std::int64_t>(r->bytes));
  *pushed = true;
  r->queued = false;
  r->waits = 1;
  return true;
}

int world_of(const SendArgs& a) { return a.dest == MPI_PROC_NULL ? MPI_PROC_NULL : a.route.peer_world[a.dest]; }

}  // namespace

void fill_send(Request* r, const SendArgs& a, bool hold, int dest_world) {
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
  r->offer = false;
  // Every derived type, contiguous ones too: r->type is read while the
  // request is pending (the wait's stuck-call description, api/call_report.cpp,
  // looks at r->type->predefined), after the caller may have freed the type
  // (MPI_Type_free, or the _c forms' temporary type, api/large_count.cpp).
  if (hold && !a.type->predefined) r->hold = dtype::lookup_shared(a.datatype);
  if (a.dest != MPI_PROC_NULL) {
    r->context = a.route.context;
    r->world = dest_world;
    r->stamp = a.route.rank;
  }
}

namespace {

void fill(Request* r, const SendArgs& a, bool hold) { fill_send(r, a, hold, world_of(a)); }

}  // namespace

// A contiguous eager message to oneself whose receive is posted already
// goes straight into it: one copy, no record in the ring. Order holds: a
// message to oneself queued or still in the self ring would have to match
// first, so the shortcut is taken only when neither has any (a posted
// receive and a matching unexpected message never coexist: whichever came
// second matched the first).
bool deliver_to_self(State& s, const wire::Envelope& env, const void* buf, std::size_t bytes) {
  if (s.in[static_cast<std::size_t>(s.rank)].ring.ready()) return false;
  Request* r = s.contexts.get(env.context).take_posted(env.src, env.tag);
  if (!r) return false;
  trace_send(s.rank, env.context, env.tag, bytes);
  deliver(s, r, s.rank, wire::eager, env, static_cast<const std::byte*>(buf), bytes);
  return true;
}

// The fast path of every eager send: straight into an empty-queued ring.
bool eager_now(State& s, int dest, const wire::Envelope& env, const void* buf, int count, const dtype::Datatype& t,
               bool contig, std::size_t bytes) {
  return eager_now_inline(s, dest, env, buf, count, &t, contig, bytes);
}

void start_send(State& s, Request* r, bool trace) {
  r->active = true;
  r->complete = false;
  r->cancelled = false;
  r->cancel_sent = false;
  r->waits = 0;
  r->st_error = MPI_SUCCESS;
  ++s.open_sends;
  if (r->peer == MPI_PROC_NULL) {
    complete(s, r);
    return;
  }
  if (trace) trace_send(r->world, r->context, r->tag, r->bytes);
  if (r->bytes > s.tune.eager_limit || r->offer) prepare_rts(r);
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

namespace {

// How long an offered rendezvous waits for its receiver to match before the
// message is taken back and sent eagerly. A receiver already waiting in a
// receive matches within a microsecond or two; one that has not posted its
// receive yet costs the sender this much more than an eager send would.
constexpr auto kOfferGrace = std::chrono::microseconds(20);

// Whether a blocking send of `bytes` bytes is offered as a rendezvous first
// (see "Protocol choice" above). Oversubscribed, the receiver is often not
// running at all and the offer would mostly be taken back.
bool offered(const State& s, const SendArgs& a, int dest, std::size_t bytes) {
  return bytes >= s.tune.rndv_min && (a.mode == Mode::standard || a.mode == Mode::ready) && dest != s.rank &&
         smsc::usable() && a.type->contiguous() && !oversubscribed();
}

// A blocking send offered as a rendezvous, taken back and sent eagerly when
// the receiver does not match it within kOfferGrace. The request lives on
// this stack frame until it completes: by the receiver's ack (matched: it
// read the data), or by its `cancelled` answer (dropped unmatched: nothing
// of ours is referenced any more). Ring order keeps the message where it
// was among our messages to that receiver: we send nothing else to it in
// between (a blocking send), and the eager copy follows the cancel_send.
int offer_send(State& s, const SendArgs& a) {
  Request r;
  fill(&r, a, false);
  r.offer = true;
  start_send(s, &r, true);
  if (!r.complete) {
    const auto until = std::chrono::steady_clock::now() + kOfferGrace;
    for (unsigned i = 1; !r.complete; ++i) {
      progress();
      if (i % 16 == 0 && std::chrono::steady_clock::now() > until) break;
    }
  }
  if (!r.complete) {
    cancel(&r);
    wait_until([&r] { return r.complete; });
  }
  if (!r.cancelled) return MPI_SUCCESS;
  core::count(core::Counter::rndv_taken_back);
  Request e;
  fill(&e, a, false);
  start_send(s, &e, false);  // traced once, when offered
  if (!e.complete) wait_until([&e] { return e.complete; });
  return MPI_SUCCESS;
}

}  // namespace

int send(const SendArgs& a) {
  State& s = state();
  if (a.dest == MPI_PROC_NULL) return MPI_SUCCESS;
  if (a.mode == Mode::buffered) return bsend_start(s, a, world_of(a));
  const std::size_t bytes = static_cast<std::size_t>(a.count) * a.type->size;
  if (a.mode != Mode::sync && bytes <= s.tune.eager_limit) {
    const int dest = a.route.peer_world[a.dest];
    if (__builtin_expect(bytes >= s.tune.rndv_min, 0) && offered(s, a, dest, bytes)) return offer_send(s, a);
    const wire::Envelope env{a.route.context, a.route.rank, a.tag, signature_stamp(*a.type)};
    if (eager_now_inline(s, dest, env, a.buf, a.count, a.type, bytes == 0 || a.type->contiguous(), bytes)) return MPI_SUCCESS;
  }
  Request r;
  fill(&r, a, false);
  start_send(s, &r, true);
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
    if (eager_now_inline(s, dest, env, a.buf, a.count, a.type, bytes == 0 || a.type->contiguous(), bytes)) {
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
  start_send(s, r, true);
  *request = s.requests.handle(r);
  return MPI_SUCCESS;
}

int send_init(const SendArgs& a, MPI_Request* request) {
  State& s = state();
  Request* r = new_request(s, true);
  if (!r) return MPI_ERR_INTERN;
  fill(r, a, true);
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
  start_send(s, r, true);
  return MPI_SUCCESS;
}

// ---- buffered sends --------------------------------------------------------

}  // namespace ringmpi::p2p
