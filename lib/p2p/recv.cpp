// Receives: posting, matching the unexpected queue, delivering eager data,
// probes and matched-message (MPI_Message) receives.
#include <algorithm>
#include <cstring>

#include "core/copy.hpp"
#include "core/runtime.hpp"
#include "p2p/engine.hpp"
#include "p2p/engine_private.hpp"
#include "p2p/signature.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::p2p {
namespace {

void copy_in(Request* r, const std::byte* data, std::size_t n) {
  const std::size_t m = std::min(n, r->bytes);
  if (m == 0) return;
  if (r->contig)
    core::copy_bytes(r->buf, data, m);
  else
    dtype::unpack(r->buf, r->count, *r->type, 0, data, m);
}

// The end of a blocking receive on a request of its own (MPI_Recv's general
// path, MPI_Mrecv): waits, fills the status, keeps the error's detail.
int finish_blocking(Request& r, MPI_Status* status) {
  if (!r.complete) wait_until([&r] { return r.complete; });
  status_of(r, status);
  if (r.st_error != MPI_SUCCESS) {
    char why[512];
    describe_error(r, why, sizeof why);
    set_error_detail("%s", why);
  }
  return r.st_error;
}

void proc_null_status(Request* r) {
  r->st_source = MPI_PROC_NULL;
  r->st_tag = MPI_ANY_TAG;
  r->st_count = 0;
  r->st_error = MPI_SUCCESS;
}

void fill(Request* r, void* buf, int count, MPI_Datatype datatype, const dtype::Datatype* type, bool hold) {
  r->kind = Kind::recv;
  r->buf = buf;
  r->count = count;
  r->type = type;
  r->bytes = static_cast<std::size_t>(count) * type->size;
  r->contig = r->bytes == 0 || type->contiguous();
  // Any derived type, contiguous or not: the user may free it before the
  // receive completes (MPI-3.1 §4.1.9), and describing a truncation still
  // reads its size.
  if (hold && !type->predefined) r->hold = dtype::lookup_shared(datatype);
}

void fill(Request* r, const RecvArgs& a, bool hold) {
  fill(r, a.buf, a.count, a.datatype, a.type, hold);
  r->comm = a.handle;
  r->peer = a.source;
  r->tag = a.tag;
  r->context = a.route.context;
}

void set_probe_status(const Unexpected& u, MPI_Status* st) { set_status(st, u.src, u.tag, u.bytes); }

void proc_null_probe_status(MPI_Status* st) { set_status(st, MPI_PROC_NULL, MPI_ANY_TAG, 0); }

// Polls before a direct receive gives up and posts its request.
constexpr int kDirectPolls = 4096;
// A direct receive lets the rest of the engine run every this many polls.
constexpr int kDirectProgressEvery = 256;

// take_head's body, inlined into the direct receives below.
[[gnu::always_inline]] inline bool take_head_inline(State& s, const DirectRecv& d, const shm::Record& rec,
                                                    wire::Envelope* env, std::size_t* bytes) {
  if (rec.kind != wire::eager) return false;
  std::memcpy(env, rec.payload, sizeof *env);
  const std::size_t n = rec.bytes - sizeof *env;
  if (env->context != d.context || (env->src != d.source && d.source != MPI_ANY_SOURCE) ||
      !tag_matches(d.tag, env->tag) || n > d.room)
    return false;
  check_signature(d.type, d.count, env->signature, n, d.from_world);  // nothing to check without a type
  if (n != 0) {
    if (!d.type || d.type->contiguous())
      core::copy_bytes(d.buf, rec.payload + sizeof *env, n);
    else
      dtype::unpack(d.buf, d.count, *d.type, 0, rec.payload + sizeof *env, n);
  }
  consumed(s, d.from_world, rec);
  trace_recv(d.from_world, env->context, env->tag, n);
  *bytes = n;
  return true;
}

// direct_recv's wait for a record at the head of d's source ring, out of
// line (the first look, inline, usually finds it): false when the polls run
// out or a progress() in between queued something for the receive's source.
[[gnu::noinline]] bool poll_head(const DirectRecv& d, shm::RingConsumer& ring, const Context& queues,
                                 shm::Record* rec) {
  const int polls = oversubscribed() ? kInlineSpinsOversubscribed : kDirectPolls;
  for (int i = 1; !ring.peek(rec); ++i) {
    if (i >= polls) return false;
    if (i % kDirectProgressEvery == 0) {
      progress(d.from_world);
      if (!queues.quiet_for(d.source)) return false;
    }
  }
  return true;
}

}  // namespace

// The fast path of a blocking receive (MPI_Recv, the library's internal
// receives) from one source when nothing is queued ahead of it
// (Context::quiet_for): polls that source's ring itself and copies a
// matching eager record straight into the buffer, with no request posted. Ring order is send order, so the first matching record
// from the source is this receive's message (MPI-3.1 §3.5). Gives up,
// having consumed nothing of the source's messages, when the record at the
// head is anything else (another context or tag, a rendezvous, a message
// that would truncate), when a progress() in between queued something, or
// when the polls run out; the general path then takes over.
bool direct_recv(State& s, const DirectRecv& d, wire::Envelope* env, std::size_t* bytes) {
  shm::RingConsumer& ring = s.in[static_cast<std::size_t>(d.from_world)].ring;
  Context& queues = s.contexts.get(d.context);
  // The rest of the engine moves on first (a rendezvous waiting for our
  // answer, a full outgoing ring), as in every blocking call; the call is
  // skipped only when it would find nothing to do (progress_wanted).
  if (progress_wanted(s, d.from_world)) progress(d.from_world);
  if (!queues.quiet_for(d.source)) return false;
  shm::Record rec;
  if (__builtin_expect(!ring.peek(&rec), 0) && !poll_head(d, ring, queues, &rec)) return false;
  return take_head_inline(s, d, rec, env, bytes);
}

namespace {

// Whether anything but the hot rings' heads needs the engine: records on a
// ring that is not hot (its pending bit), sends queued for ring space,
// extensions (partitioned, foreign jobs) to poll.
bool engine_busy(const State& s) {
  if (!s.busy.empty() || !s.extensions.empty()) return true;
  for (std::size_t w = 0; w < s.pending_words; ++w)
    if (s.my_pending[w].load(std::memory_order_relaxed) != 0) return true;
  return false;
}

}  // namespace

// An MPI_ANY_SOURCE receive (IMB's default) taken from the head of a hot
// ring, as direct_recv takes a named source's. Any sender's message may
// match a wildcard receive; within one sender, ring order is send order,
// and with nothing posted or unexpected in the context (Context::quiet) the
// head of a sender's ring is its first message this receive can match.
// Gives up, having consumed nothing, when a hot ring's head is anything
// else, when anything else needs the engine (engine_busy: then progress()
// in the general path handles it first), or when the polls run out.
bool direct_recv_any(State& s, DirectRecv* d, wire::Envelope* env, std::size_t* bytes) {
  Context& queues = s.contexts.get(d->context);
  if (!queues.quiet() || s.nhot == 0) return false;
  const int polls = oversubscribed() ? kInlineSpinsOversubscribed : kDirectPolls;
  shm::Record rec;
  for (int i = 1; i <= polls; ++i) {
    if (i % kDirectProgressEvery == 1 && engine_busy(s)) return false;
    for (int k = 0; k < s.nhot; ++k) {
      const int from = s.hot[k];
      if (!s.in[static_cast<std::size_t>(from)].ring.peek(&rec)) continue;
      d->from_world = from;
      return take_head_inline(s, *d, rec, env, bytes);
    }
  }
  return false;
}

int try_direct_recv(State& s, const DirectRecv& d, wire::Envelope* env, std::size_t* bytes) {
  if (!s.contexts.get(d.context).quiet_for(d.source)) return -1;
  shm::Record rec;
  if (!s.in[static_cast<std::size_t>(d.from_world)].ring.peek(&rec)) return 0;
  return take_head_inline(s, d, rec, env, bytes) ? 1 : -1;
}

bool take_head(State& s, const DirectRecv& d, const shm::Record& rec, wire::Envelope* env, std::size_t* bytes) {
  return take_head_inline(s, d, rec, env, bytes);
}

void set_match(Request* r, const wire::Envelope& env, std::size_t bytes) {
  r->st_source = env.src;
  r->st_tag = env.tag;
  r->msg_bytes = bytes;
  r->st_count = std::min(bytes, r->bytes);
  r->st_error = bytes > r->bytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

void deliver(State& s, Request* r, int from, std::uint8_t kind, const wire::Envelope& env, const std::byte* body,
             std::size_t body_bytes) {
  switch (kind) {
    case wire::eager:
      check_signature(r->type, r->count, env.signature, body_bytes, from);
      set_match(r, env, body_bytes);
      trace_recv(from, r->context, env.tag, body_bytes);
      copy_in(r, body, body_bytes);
      complete(s, r);
      return;
    case wire::eager_sync: {
      wire::Ack ack;
      std::memcpy(&ack.send_cookie, body, sizeof ack.send_cookie);
      const std::size_t n = body_bytes - sizeof(wire::SyncCookie);
      check_signature(r->type, r->count, env.signature, n, from);
      set_match(r, env, n);
      trace_recv(from, r->context, env.tag, n);
      copy_in(r, body + sizeof(wire::SyncCookie), n);
      send_control(s, from, wire::ack, &ack, sizeof ack);
      complete(s, r);
      return;
    }
    default: {
      wire::Rts rts;
      std::memcpy(&rts, body, sizeof rts);
      check_signature(r->type, r->count, env.signature, rts.bytes, from);
      set_match(r, env, rts.bytes);
      trace_recv(from, r->context, env.tag, rts.bytes);
      start_rndv_recv(s, r, from, rts);
      return;
    }
  }
}

void deliver_unexpected(State& s, Request* r, UnexpectedPtr u) {
  const wire::Envelope env{r->context, u->src, u->tag, u->signature};
  switch (u->kind) {
    case wire::eager:
    case wire::eager_sync:
      check_signature(r->type, r->count, env.signature, u->bytes, u->from_world);
      set_match(r, env, u->bytes);
      trace_recv(u->from_world, r->context, u->tag, u->bytes);
      copy_in(r, u->data(), u->bytes);
      if (u->kind == wire::eager_sync) {
        const wire::Ack ack{u->cookie};
        send_control(s, u->from_world, wire::ack, &ack, sizeof ack);
      }
      complete(s, r);
      return;
    default: {
      wire::Rts rts;
      std::memcpy(&rts, u->data(), sizeof rts);
      check_signature(r->type, r->count, env.signature, rts.bytes, u->from_world);
      set_match(r, env, rts.bytes);
      trace_recv(u->from_world, r->context, u->tag, rts.bytes);
      start_rndv_recv(s, r, u->from_world, rts);
      return;
    }
  }
}

void start_recv(State& s, Request* r) {
  r->active = true;
  r->complete = false;
  r->cancelled = false;
  r->waits = 0;
  r->st_error = MPI_SUCCESS;
  if (r->peer == MPI_PROC_NULL) {
    proc_null_status(r);
    complete(s, r);
    return;
  }
  Context& c = s.contexts.get(r->context);
  if (c.unexpected_count())
    if (Unexpected* u = c.find_unexpected(r->peer, r->tag)) {
      deliver_unexpected(s, r, c.take_unexpected(u));
      return;
    }
  c.post(r);
}

int recv(const RecvArgs& a, MPI_Status* status) {
  State& s = state();
  if (a.source >= 0) {  // direct_recv checks the queues itself
    const DirectRecv d{a.route.context, a.source, a.route.peer_world[a.source], a.tag,
                       a.buf, a.count, a.type, static_cast<std::size_t>(a.count) * a.type->size};
    wire::Envelope env;
    std::size_t n;
    if (direct_recv(s, d, &env, &n)) {
      set_status(status, env.src, env.tag, n);
      return MPI_SUCCESS;
    }
  } else if (a.source == MPI_ANY_SOURCE) {
    DirectRecv d{a.route.context, MPI_ANY_SOURCE, -1, a.tag, a.buf, a.count, a.type,
                 static_cast<std::size_t>(a.count) * a.type->size};
    wire::Envelope env;
    std::size_t n;
    if (direct_recv_any(s, &d, &env, &n)) {
      set_status(status, env.src, env.tag, n);
      return MPI_SUCCESS;
    }
  }
  Request r;
  fill(&r, a, false);
  start_recv(s, &r);
  return finish_blocking(r, status);
}

int irecv(const RecvArgs& a, MPI_Request* request) {
  State& s = state();
  Request* r = new_request(s, false);
  if (!r) return MPI_ERR_INTERN;
  fill(r, a, true);
  start_recv(s, r);
  *request = s.requests.handle(r);
  return MPI_SUCCESS;
}

int recv_init(const RecvArgs& a, MPI_Request* request) {
  State& s = state();
  Request* r = new_request(s, true);
  if (!r) return MPI_ERR_INTERN;
  fill(r, a, true);
  r->persistent = true;
  r->complete = true;
  *request = s.requests.handle(r);
  return MPI_SUCCESS;
}

std::vector<std::uint32_t> pinned_contexts() {
  std::vector<std::uint32_t> ids;
  state().contexts.for_each_pinned([&](std::uint32_t id) { ids.push_back(id); });
  return ids;
}

// ---- probes ------------------------------------------------------------------

bool iprobe(int source, int tag, std::uint32_t context, MPI_Status* status) {
  if (source == MPI_PROC_NULL) {
    proc_null_probe_status(status);
    return true;
  }
  State& s = state();
  progress();
  if (Unexpected* u = s.contexts.get(context).find_unexpected(source, tag)) {
    set_probe_status(*u, status);
    return true;
  }
  return false;
}

void probe(int source, int tag, std::uint32_t context, MPI_Status* status) {
  if (iprobe(source, tag, context, status)) return;
  State& s = state();
  Context& ctx = s.contexts.get(context);
  Unexpected* found = nullptr;
  wait_until([&] { return (found = ctx.find_unexpected(source, tag)) != nullptr; });
  set_probe_status(*found, status);
}

namespace {

bool take_message(State& s, Unexpected* u, std::uint32_t context, MPI_Comm h, MPI_Message* message,
                  MPI_Status* status) {
  set_probe_status(*u, status);
  auto m = std::make_unique<Message>();
  m->msg = s.contexts.get(context).take_unexpected(u);
  m->context = context;
  m->comm = h;
  *message = s.messages.add(std::move(m));
  return true;
}

}  // namespace

bool improbe(int source, int tag, std::uint32_t context, MPI_Comm h, MPI_Message* message, MPI_Status* status) {
  if (source == MPI_PROC_NULL) {
    proc_null_probe_status(status);
    *message = MPI_MESSAGE_NO_PROC;
    return true;
  }
  State& s = state();
  progress();
  if (Unexpected* u = s.contexts.get(context).find_unexpected(source, tag))
    return take_message(s, u, context, h, message, status);
  return false;
}

void mprobe(int source, int tag, std::uint32_t context, MPI_Comm h, MPI_Message* message, MPI_Status* status) {
  if (improbe(source, tag, context, h, message, status)) return;
  State& s = state();
  Context& ctx = s.contexts.get(context);
  Unexpected* found = nullptr;
  wait_until([&] { return (found = ctx.find_unexpected(source, tag)) != nullptr; });
  take_message(s, found, context, h, message, status);
}

bool message_valid(MPI_Message m) {
  return m == MPI_MESSAGE_NO_PROC || (m != MPI_MESSAGE_NULL && state().messages.get(m) != nullptr);
}

MPI_Comm message_comm(MPI_Message m) {
  const Message* msg = m == MPI_MESSAGE_NO_PROC ? nullptr : state().messages.get(m);
  return msg ? msg->comm : MPI_COMM_WORLD;
}

namespace {

// Starts r (filled) on message *m, or on MPI_MESSAGE_NO_PROC.
void start_mrecv(State& s, Request* r, MPI_Message* message) {
  r->active = true;
  r->complete = false;
  if (*message == MPI_MESSAGE_NO_PROC) {
    proc_null_status(r);
    complete(s, r);
  } else {
    std::unique_ptr<Message> m = s.messages.remove(*message);
    r->context = m->context;
    r->comm = m->comm;
    deliver_unexpected(s, r, std::move(m->msg));
  }
  *message = MPI_MESSAGE_NULL;
}

}  // namespace

int mrecv(void* buf, int count, MPI_Datatype datatype, const dtype::Datatype* type, MPI_Message* message,
          MPI_Status* status) {
  State& s = state();
  Request r;
  fill(&r, buf, count, datatype, type, false);
  start_mrecv(s, &r, message);
  return finish_blocking(r, status);
}

int imrecv(void* buf, int count, MPI_Datatype datatype, const dtype::Datatype* type, MPI_Message* message,
           MPI_Request* request) {
  State& s = state();
  Request* r = new_request(s, false);
  if (!r) return MPI_ERR_INTERN;
  fill(r, buf, count, datatype, type, true);
  start_mrecv(s, r, message);
  *request = s.requests.handle(r);
  return MPI_SUCCESS;
}

}  // namespace ringmpi::p2p
