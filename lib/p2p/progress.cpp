// The progress engine: drains the rings into the matching queues, pushes
// what waits for ring space, and keeps the "pending" signalling cheap.
//
// Shared words and who writes them (world ranks S = sender, R = receiver):
//   ring S->R data area   S writes records (lib/shm/ring.hpp has the ring's own rules)
//   ring S->R head        R writes (release) after consuming; S reads (acquire) when full
//   ring S->R polled      R writes: 1 while R polls that ring on every progress() ("hot")
//   pending(R) bit S      S sets (fetch_or, seq_cst); R clears the whole word (exchange, seq_cst)
//   slot(R).sleeping      R writes (wait.cpp); S reads (seq_cst) to decide on a futex wake
//   slot(R).doorbell      S bumps (release) before FUTEX_WAKE; R waits on it
//
// Sender, after committing a record to ring S->R (notify()):
//   fence(seq_cst); if (!polled) { if (!(pending & bit)) pending.fetch_or(bit) }
//   if (sleeping.load(seq_cst)) { doorbell++; futex_wake }
// Receiver:
//   hot rings: read the header word at head (acquire) on every progress();
//   pending: if (word) { bits = word.exchange(0); fence(seq_cst); drain each ring in bits }
//   demoting a hot ring: polled.store(0); fence(seq_cst); drain it once more;
//   going to sleep (wait.cpp): sleeping.store(1); fence(seq_cst); progress(); futex_wait.
// Why nothing is lost: the sender's fence orders its record before its reads
// of `polled`, `pending` and `sleeping`; the receiver's fences order its
// writes of `polled`, `pending` and `sleeping` before its reads of the ring.
// Of two seq_cst fences one comes first, so either the sender sees the
// receiver's write (sets the bit / wakes it) or the receiver sees the record.
// A bit found already set needs no new write: the receiver's clearing
// exchange comes after the sender's fence, so its drain sees the record.
//
// Engine invariants (process-local):
// - Records to one destination enter its ring in the order the sends were
//   started: a send goes straight into the ring only when that destination's
//   outgoing queue is empty, otherwise it queues behind (non-overtaking).
// - progress() never blocks and never recurses: control records that find
//   the ring full are queued, and a full ring makes a blocked sender drain its
//   own incoming rings, so two ranks flooding each other both make progress.
// - A request whose address went out as a cookie stays alive (pooled or on a
//   blocked caller's stack) until the record that completes it arrives.
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "core/copy.hpp"
#include "core/runtime.hpp"
#include "p2p/engine.hpp"
#include "p2p/engine_private.hpp"
#include "p2p/extension.hpp"
#include "p2p/state.hpp"
#include "p2p/wait.hpp"
#include "shm/ring.hpp"

namespace ringmpi::p2p {
namespace {

void drain(State& s, int from);

// room_made() (engine_private.hpp): after consuming from ring `from`,
// publishes the space and wakes a producer asleep on the full ring.

// Polls ring `from` on every progress() from now on; makes room by demoting
// the least recently active hot ring if it has been quiet for a while.
void promote(State& s, int from) {
  PeerIn& p = s.in[static_cast<std::size_t>(from)];
  if (p.hot) return;
  if (s.nhot == kHotRings) {
    int k = 0;
    for (int j = 1; j < s.nhot; ++j)
      if (s.in[std::size_t(s.hot[j])].last_active < s.in[std::size_t(s.hot[k])].last_active) k = j;
    const int old = s.hot[k];
    PeerIn& q = s.in[static_cast<std::size_t>(old)];
    if (s.clock - q.last_active < 64) return;
    s.hot[k] = s.hot[--s.nhot];
    q.hot = false;
    q.ring.header().polled.store(0, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (q.ring.ready()) drain(s, old);  // a sender may have skipped the pending bit just before
  }
  p.hot = true;
  p.ring.header().polled.store(1, std::memory_order_relaxed);
  s.hot[s.nhot++] = from;
}

// A record's fixed-size head (the payload need not be aligned for T).
template <class T>
T payload(const shm::Record& rec) {
  T v;
  std::memcpy(&v, rec.payload, sizeof v);
  return v;
}

void handle_record(State& s, int from, const shm::Record& rec) {
  switch (rec.kind) {
    case wire::eager:
    case wire::eager_sync:
    case wire::rts: {
      const auto env = payload<wire::Envelope>(rec);
      const std::byte* body = rec.payload + sizeof env;
      const std::size_t n = rec.bytes - sizeof env;
      Context& c = s.contexts.get(env.context);
      if (Request* r = c.take_posted(env.src, env.tag)) {
        deliver(s, r, from, rec.kind, env, body, n);
        return;
      }
      UnexpectedPtr u;
      if (rec.kind == wire::eager) {
        u = make_unexpected(n);
        core::copy_bytes(u->data(), body, n);
        u->bytes = n;
      } else if (rec.kind == wire::eager_sync) {
        u = make_unexpected(n - sizeof(wire::SyncCookie));
        std::memcpy(&u->cookie, body, sizeof u->cookie);
        u->bytes = n - sizeof(wire::SyncCookie);
        std::memcpy(u->data(), body + sizeof(wire::SyncCookie), u->bytes);
      } else {
        wire::Rts rts;
        std::memcpy(&rts, body, sizeof rts);
        u = make_unexpected(sizeof rts);
        std::memcpy(u->data(), &rts, sizeof rts);
        u->bytes = rts.bytes;
      }
      u->src = env.src;
      u->tag = env.tag;
      u->signature = env.signature;
      u->from_world = from;
      u->kind = rec.kind;
      c.add_unexpected(std::move(u));
      return;
    }
    case wire::cts:
      return on_cts(s, from, payload<wire::Cts>(rec));
    case wire::data: {
      const auto d = payload<wire::Data>(rec);
      return on_data(s, d, rec.payload + sizeof d, rec.bytes - sizeof d);
    }
    case wire::ack:
      return on_ack(s, payload<wire::Ack>(rec));
    case wire::cancel_send:
      return on_cancel_send(s, from, payload<wire::CancelSend>(rec));
    case wire::cancelled:
      return on_cancelled(s, payload<wire::Ack>(rec));
    case wire::done_write:
      return on_done_write(s, payload<wire::DoneWrite>(rec));
    default:
      internal_error("corrupt record (kind %u, %zu bytes) in the ring from rank %d", rec.kind, rec.bytes, from);
  }
}

// Takes the records out of ring `from` until it is empty, a request
// completes, or one ring's worth went by. Stopping at a completion lets the
// waiter act on it (typically: send the reply) before we touch the next
// record's cache line, which the sender still owns; a sender that keeps up
// cannot hold us here either. What is left is flagged again.
void drain(State& s, int from) {
  PeerIn& p = s.in[static_cast<std::size_t>(from)];
  const std::uint64_t quarter = s.ring_capacity / 4;
  std::uint64_t budget = quarter * 4;
  const std::uint64_t completions = s.completions;
  shm::Record rec;
  while (p.ring.peek(&rec)) {
    handle_record(s, from, rec);
    p.ring.pop(rec);
    ++s.records_in;
    const std::uint64_t used = shm::record_bytes(rec.bytes);
    if (p.ring.consumed_unpublished() >= quarter) p.ring.release_space();
    if (used >= budget || s.completions != completions) {
      if (!p.hot) s.my_pending[from / 64].fetch_or(1ull << (from % 64), std::memory_order_relaxed);
      break;
    }
    budget -= used;
  }
  room_made(s, from, quarter * 4 - budget >= quarter);
}

}  // namespace

bool work_left() {
  const State& s = state();
  for (int k = 0; k < s.nhot; ++k)
    if (s.in[static_cast<std::size_t>(s.hot[k])].ring.ready()) return true;
  for (std::size_t w = 0; w < s.pending_words; ++w)
    if (s.my_pending[w].load(std::memory_order_relaxed) != 0) return true;
  return false;
}

// What it looks at is what progress_wanted() (engine_private.hpp) checks:
// a new kind of work here must be added there too.
void progress(int skip_hot) {
  State& s = state();
  if (!s.attached || s.in_progress) return;
  s.in_progress = true;
  for (int k = 0; k < s.nhot; ++k) {
    const int i = s.hot[k];
    if (i != skip_hot && s.in[static_cast<std::size_t>(i)].ring.ready()) drain(s, i);
  }
  std::atomic<std::uint64_t>* words = s.my_pending;
  for (std::size_t w = 0; w < s.pending_words; ++w) {
    if (words[w].load(std::memory_order_relaxed) == 0) continue;
    std::uint64_t bits = words[w].exchange(0, std::memory_order_seq_cst);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    while (bits) {
      const int i = static_cast<int>(w * 64) + __builtin_ctzll(bits);
      bits &= bits - 1;
      drain(s, i);
      promote(s, i);
    }
  }
  if (!s.busy.empty()) flush_out(s);
  if (!s.extensions.empty()) poll_extensions(s);
  s.in_progress = false;
}

std::uint64_t activity() {
  const State& s = state();
  return s.records_in + s.completions;
}

bool prepare_to_sleep() {
  State& s = state();
  for (int dest : s.busy) s.out[static_cast<std::size_t>(dest)].ring.header().producer_waiting.store(1, std::memory_order_relaxed);
  return !s.busy.empty();
}

void notify(State& s, int dest) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  const auto d = static_cast<std::size_t>(dest);
  if (!s.out[d].ring.header().polled.load(std::memory_order_relaxed)) {
    std::atomic<std::uint64_t>* word = s.peer_pending[d];
    const std::uint64_t bit = 1ull << (s.rank % 64);
    if (!(word->load(std::memory_order_relaxed) & bit)) word->fetch_or(bit, std::memory_order_seq_cst);
  }
  if (s.slots[d]->sleeping.load(std::memory_order_seq_cst)) ring_doorbell(dest);
}

void send_control(State& s, int dest, wire::Kind kind, const void* body, std::size_t len) {
  PeerOut& o = s.out[static_cast<std::size_t>(dest)];
  if (o.queue.empty() && o.ring.push(kind, body, len)) {
    notify(s, dest);
    return;
  }
  OutItem item;
  item.kind = kind;
  item.len = static_cast<std::uint8_t>(len);
  std::memcpy(item.body.data(), body, len);
  if (!o.listed) {
    o.listed = true;
    s.busy.push_back(dest);
  }
  o.queue.push_back(item);
}

void flush_out(State& s) {
  for (std::size_t k = 0; k < s.busy.size();) {
    const int dest = s.busy[k];
    PeerOut& o = s.out[static_cast<std::size_t>(dest)];
    bool pushed = false;
    while (!o.queue.empty()) {
      if (!push_item(s, dest, o.queue.front(), &pushed)) break;
      o.queue.pop_front();
    }
    if (pushed) notify(s, dest);
    if (o.queue.empty()) {
      o.listed = false;
      s.busy[k] = s.busy.back();
      s.busy.pop_back();
    } else {
      ++k;
    }
  }
}

}  // namespace ringmpi::p2p
