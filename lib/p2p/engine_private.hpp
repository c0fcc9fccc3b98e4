// The engine's internal operations, shared by the files of lib/p2p.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/copy.hpp"
#include "core/events.hpp"
#include "core/runtime.hpp"
#include "core/trace.hpp"
#include "p2p/engine.hpp"
#include "p2p/protocol.hpp"
#include "p2p/state.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::p2p {

// Tells world rank `dest` that a record was committed to the ring to it
// (pending bit unless it polls that ring; futex wake if it sleeps).
void notify(State& s, int dest);
// Whether progress(skip_hot) would find anything to do now: a record at the
// head of a hot ring other than skip_hot's, a pending bit, a send queued
// for ring space, an extension to poll. progress() does nothing else (keep
// the two in step), so a fast path may skip the call when this is false.
inline bool progress_wanted(const State& s, int skip_hot) {
  if (!s.busy.empty() || !s.extensions.empty()) return true;
  for (std::size_t w = 0; w < s.pending_words; ++w)
    if (s.my_pending[w].load(std::memory_order_relaxed) != 0) return true;
  for (int k = 0; k < s.nhot; ++k) {
    const int i = s.hot[k];
    if (i != skip_hot && s.in[static_cast<std::size_t>(i)].ring.ready()) return true;
  }
  return false;
}
// After consuming from ring `from`: publishes the space and wakes a
// producer asleep on the full ring. After a large drain (`big`) the fence
// makes the check exact; after a small one the producer's 1 ms sleep
// timeout covers the race (and a small drain rarely unblocks it): the one
// place where a timeout is part of liveness (wait.hpp, "The timeouts").
inline void room_made(State& s, int from, bool big) {
  PeerIn& p = s.in[static_cast<std::size_t>(from)];
  p.ring.release_space();
  p.last_active = ++s.clock;
  if (big) std::atomic_thread_fence(std::memory_order_seq_cst);
  std::atomic<std::uint32_t>& waiting = p.ring.header().producer_waiting;
  if (__builtin_expect(waiting.load(std::memory_order_relaxed) != 0, 0)) {
    waiting.store(0, std::memory_order_relaxed);
    wake(from);
  }
}
// After record `rec` of ring `from` was handled outside drain(): pops it,
// hands the space back to the producer and wakes it if it sleeps on a full ring.
inline void consumed(State& s, int from, const shm::Record& rec) {
  s.in[static_cast<std::size_t>(from)].ring.pop(rec);
  room_made(s, from, false);
}
// Sends a small control record, queueing it when the ring is full.
void send_control(State& s, int dest, wire::Kind kind, const void* body, std::size_t len);
// A request from the pool, or nullptr (with the error detail set) when 2^20
// are live; `persistent` picks the advice (free some / complete some).
Request* new_request(State& s, bool persistent);
// Marks r complete and releases it if the user already let go of it.
void complete(State& s, Request* r);

// The fast path of every eager send: the whole message straight into the
// ring to world rank `dest` when nothing waits ahead of it there; false (and
// nothing sent) when the queue is not empty or the ring too full.
bool eager_now(State& s, int dest, const wire::Envelope& env, const void* buf, int count, const dtype::Datatype& t,
               bool contig, std::size_t bytes);
// A contiguous eager message to oneself straight into its posted receive
// (send.cpp says when); false when it must go through the self ring.
bool deliver_to_self(State& s, const wire::Envelope& env, const void* buf, std::size_t bytes);

// Fills send request r from a (`dest_world`: the world rank of a.dest; unused
// for MPI_PROC_NULL); `hold` keeps a derived datatype alive.
void fill_send(Request* r, const SendArgs& a, bool hold, int dest_world);
// Sends: r is filled in (envelope, buffer, mode) and not active yet.
void start_send(State& s, Request* r, bool trace = true);
// Queues an outgoing item behind what waits for ring space to `dest`.
void enqueue(State& s, int dest, const OutItem& item);
// Copies [offset, offset+n) of r's message stream (packing if needed).
void copy_stream_out(const Request& r, std::size_t offset, std::byte* dst, std::size_t n);
// Buffered sends (bsend.cpp): copies the message into the attached buffer
// and sends it from there.
int bsend_start(State& s, const SendArgs& a, int dest_world);
// Tries to put the next part of an outgoing item into its ring; true when
// the item is done with the ring (it leaves the queue). Sets *pushed when it
// committed anything.
bool push_item(State& s, int dest, OutItem& item, bool* pushed);
// Pushes what the outgoing queues hold, as far as the rings take it.
void flush_out(State& s);
// Sender side of the rendezvous (rndv.cpp): the iovec description of a
// non-contiguous buffer sent with the rts; data records after a cts_push
// (true when all went into the ring); the records from the receiver.
void prepare_rts(Request* r);
bool push_data(State& s, int dest, Request* r, bool* pushed);
void on_cts(State& s, int from, const wire::Cts& c);
void on_ack(State& s, const wire::Ack& a);
// MPI_Cancel of a send already with the receiver (complete.cpp): the
// receiver's side (drops the message if unmatched) and the sender's (it was).
void on_cancel_send(State& s, int from, const wire::CancelSend& c);
void on_cancelled(State& s, const wire::Ack& a);

// A blocking receive of one eager message from one source, taken straight
// from its ring when nothing is queued ahead of it (recv.cpp explains when).
struct DirectRecv {
  std::uint32_t context;
  int source;      // rank in the sender's group, as the envelope carries it (direct_recv_any: MPI_ANY_SOURCE)
  int from_world;  // the sender's world rank: whose ring to poll (direct_recv_any: set to the ring it took)
  int tag;         // or MPI_ANY_TAG
  void* buf;
  int count;
  const dtype::Datatype* type;  // nullptr: raw bytes (the library's internal receives), no datatype
  std::size_t room;             // the buffer's bytes: count * type->size, or the byte count without a type
};
// True when it received (envelope and size out); false when it took nothing.
bool direct_recv(State& s, const DirectRecv& d, wire::Envelope* env, std::size_t* bytes);
// The same for an MPI_ANY_SOURCE receive (d.source MPI_ANY_SOURCE): polls
// the heads of the hot rings while nothing else needs the engine; on success
// d->from_world is the ring it took the message from.
bool direct_recv_any(State& s, DirectRecv* d, wire::Envelope* env, std::size_t* bytes);
// One look, no progress, no wait (also inside progress(): a persistent
// collective's poll, coll/persistent_plan.cpp): 1 when d's message was the
// head of its source's ring and is taken, 0 when that ring is empty, -1
// when something else is queued or at the head (post a receive instead).
int try_direct_recv(State& s, const DirectRecv& d, wire::Envelope* env, std::size_t* bytes);
// direct_recv's last step: takes record rec, the head of d's source ring,
// when it is d's eager message (true); else consumes nothing.
bool take_head(State& s, const DirectRecv& d, const shm::Record& rec, wire::Envelope* env, std::size_t* bytes);

// Receives: r is filled in; matches an unexpected message or is posted.
void start_recv(State& s, Request* r);
// An arriving message matched posted receive r.
void deliver(State& s, Request* r, int from, std::uint8_t kind, const wire::Envelope& env, const std::byte* body,
             std::size_t body_bytes);
// A receive matched an unexpected message (taken off its queue).
void deliver_unexpected(State& s, Request* r, UnexpectedPtr u);
// Receiver side of the rendezvous.
void start_rndv_recv(State& s, Request* r, int from, const wire::Rts& rts);
void on_data(State& s, const wire::Data& d, const std::byte* bytes, std::size_t n);
void on_done_write(State& s, const wire::DoneWrite& d);

// Status fields of a receive that matched (src, tag) of a message of `bytes`.
void set_match(Request* r, const wire::Envelope& env, std::size_t bytes);

void set_error_detail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] void internal_error(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

// mpiexec --trace (core/trace.hpp): a message handed to the transport (peer:
// destination's world rank) and a message matched by a receive (peer: the
// sender's world rank). One branch when tracing is off.
inline void trace_send(int dest_world, std::uint32_t context, int tag, std::size_t bytes) {
  if (core::Tracer* t = core::rt().tracer.get(); __builtin_expect(t != nullptr, 0))
    t->message(core::TraceKind::send, core::trace_clock(), dest_world, context, tag, bytes);
}
inline void trace_recv(int src_world, std::uint32_t context, int tag, std::size_t bytes) {
  if (core::Tracer* t = core::rt().tracer.get(); __builtin_expect(t != nullptr, 0))
    t->message(core::TraceKind::recv, core::trace_clock(), src_world, context, tag, bytes);
}

// eager_now's body, inlined into MPI_Send's and MPI_Isend's paths (send.cpp)
// and into the library's internal sends (internal_transfer.cpp, with
// contig true and t null: bytes, no datatype): a call with eight arguments
// less per message. `t` is read only when !contig.
[[gnu::always_inline]] inline bool eager_now_inline(State& s, int dest, const wire::Envelope& env, const void* buf,
                                                    int count, const dtype::Datatype* t, bool contig,
                                                    std::size_t bytes) {
  PeerOut& o = s.out[static_cast<std::size_t>(dest)];
  if (!o.queue.empty()) return false;
  if (dest == s.rank && contig && deliver_to_self(s, env, buf, bytes)) return true;
  std::byte* p = o.ring.reserve(sizeof env + bytes);
  if (!p) {
    core::raise_event(core::Event::ring_full, dest, static_cast<std::int64_t>(bytes));
    return false;
  }
  trace_send(dest, env.context, env.tag, bytes);  // before commit: the receiver cannot see it earlier
  std::memcpy(p, &env, sizeof env);
  if (bytes == 0) {
    // buf may be NULL (MPI_Send(NULL, 0, ...)): nothing to copy.
  } else if (contig) {
    core::copy_bytes(p + sizeof env, buf, bytes);
  } else {
    dtype::pack(buf, count, *t, 0, p + sizeof env, bytes);
  }
  o.ring.commit(wire::eager, sizeof env + bytes);
  notify(s, dest);
  return true;
}

inline std::uint64_t cookie_of(const Request* r) { return reinterpret_cast<std::uint64_t>(r); }
inline Request* from_cookie(std::uint64_t c) { return reinterpret_cast<Request*>(c); }

}  // namespace ringmpi::p2p
