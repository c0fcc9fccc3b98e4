// Completing requests: test, wait, hand back to the user, free, cancel.
#include <cstdio>

#include "core/runtime.hpp"
#include "p2p/engine.hpp"
#include "p2p/engine_private.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::p2p {

Request* lookup(MPI_Request h) { return state().requests.get(h); }
Request* lookup_held(MPI_Request h) { return state().requests.get_held(h); }

int lookup_all(const MPI_Request* hs, int n, Request** out) {
  const RequestPool& pool = state().requests;
  for (int i = 0; i < n; ++i) {
    if (hs[i] == MPI_REQUEST_NULL) {
      out[i] = nullptr;
      continue;
    }
    if (!(out[i] = pool.get(hs[i]))) return i;
  }
  return -1;
}

namespace {
bool done(const Request* r) { return r->complete || (r->persistent && !r->active); }
}  // namespace

bool test(Request* r) {
  if (done(r)) return true;
  progress();
  return done(r);
}

void wait(Request* r) {
  if (done(r)) return;
  wait_until([r] { return r->complete; });
}

int wait_any(Request* const* rs, int n) {
  int found = -1;
  auto any = [&] {
    for (int i = 0; i < n; ++i)
      if (rs[i] && done(rs[i])) {
        found = i;
        return true;
      }
    return false;
  };
  if (!any()) wait_until(any);
  return found;
}

Request* new_request(State& s, bool persistent) {
  Request* r = s.requests.alloc();
  if (!r)
    set_error_detail(persistent ? "2^20 requests are live at once; free some before creating more"
                                : "2^20 requests are live at once; complete some (MPI_Wait/MPI_Test) before starting more");
  return r;
}

void set_status(MPI_Status* st, int source, int tag, std::size_t bytes, bool cancelled) {
  if (st == MPI_STATUS_IGNORE) return;
  st->MPI_SOURCE = source;
  st->MPI_TAG = tag;
  st->rmpi_count = static_cast<long long>(bytes);
  st->rmpi_cancelled = cancelled;
}

// The empty status of MPI-4.1 §3.7.3: source MPI_ANY_SOURCE, tag MPI_ANY_TAG,
// error MPI_SUCCESS, count 0, not cancelled (MPICH's MPIR_Status_set_empty too).
void empty_status(MPI_Status* st) {
  set_status(st, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
  if (st != MPI_STATUS_IGNORE) st->MPI_ERROR = MPI_SUCCESS;
}

void status_of(const Request& r, MPI_Status* st) {
  // Extension requests report st_count too: 0 for collectives, the bytes
  // moved for file accesses (start_completed).
  if (r.kind == Kind::send)
    set_status(st, MPI_ANY_SOURCE, MPI_ANY_TAG, 0, r.cancelled);
  else
    set_status(st, r.st_source, r.st_tag, r.cancelled ? 0 : r.st_count, r.cancelled);
}

int finish(MPI_Request* h, Request* r, MPI_Status* st) {
  State& s = state();
  if (r->shared_done) {
    empty_status(st);
    *h = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
  }
  if (r->persistent && !r->active) {
    empty_status(st);
    return MPI_SUCCESS;
  }
  status_of(*r, st);
  const int err = r->cancelled ? MPI_SUCCESS : r->st_error;
  if (r->persistent) {
    r->active = false;
  } else {
    s.requests.release(r);
    *h = MPI_REQUEST_NULL;
  }
  return err;
}

void release(MPI_Request* h, Request* r) {
  *h = MPI_REQUEST_NULL;
  if (r->shared_done) return;
  if (r->complete || !r->active) {
    state().requests.release(r);
    return;
  }
  r->user_freed = true;  // the engine releases it when it completes
}

void cancel(Request* r) {
  if (r->kind == Kind::ext) return;  // lib/api refuses it (MPI-3.1 §5.12)
  if (r->shared_done || r->complete || !r->active) return;
  State& s = state();
  if (r->kind == Kind::recv) {
    if (!r->posted) return;  // matched: it completes normally
    s.contexts.get(r->context).unpost(r);
    r->cancelled = true;
    r->st_count = 0;
    r->st_error = MPI_SUCCESS;
    complete(s, r);
    return;
  }
  // A send whose first record waits in our queue is taken out of it.
  if (r->queued) {
    auto& q = s.out[static_cast<std::size_t>(r->world)].queue;
    for (auto it = q.begin(); it != q.end(); ++it)
      if (it->req == r && !it->push) {
        q.erase(it);
        r->cancelled = true;
        complete(s, r);
        return;
      }
    return;  // pushing data after a cts: matched
  }
  // Its eager_sync or rts is with the receiver (an incomplete send that is
  // not queued has one there): ask it to drop the message if no receive has
  // matched it yet. MPI-3.1 §3.8.4: the send then completes, either
  // cancelled or by the match already under way.
  if (r->cancel_sent) return;
  r->cancel_sent = true;
  const wire::CancelSend c{cookie_of(r), r->context, r->stamp};
  send_control(s, r->world, wire::cancel_send, &c, sizeof c);
}

void on_cancel_send(State& s, int from, const wire::CancelSend& c) {
  Context& ctx = s.contexts.get(c.context);
  Unexpected* u = ctx.find_by_cookie(c.src, from, c.send_cookie);
  if (!u) return;  // matched: its ack or cts went to the sender before this
  ctx.take_unexpected(u);  // freed here; the sender's memory is no longer referenced
  const wire::Ack a{c.send_cookie};
  send_control(s, from, wire::cancelled, &a, sizeof a);
}

void on_cancelled(State& s, const wire::Ack& a) {
  Request* r = from_cookie(a.send_cookie);
  r->cancelled = true;
  r->waits = 0;
  complete(s, r);
}

void describe_error(const Request& r, char* out, std::size_t n) {
  if (r.kind == Kind::ext && r.ext)
    std::snprintf(out, n, "%s", r.ext->describe());
  else if (r.st_error == MPI_ERR_TRUNCATE)
    std::snprintf(out, n,
                  "the message from rank %d (tag %d) has %zu bytes but the receive buffer holds only %zu "
                  "(count=%d of %zu-byte elements)",
                  r.st_source, r.st_tag, r.msg_bytes, r.bytes, r.count, r.type ? r.type->size : std::size_t(0));
  else
    std::snprintf(out, n, "the operation failed");
}

int start_persistent_send(State& s, Request* r);

int start(Request* r) {
  State& s = state();
  if (r->kind == Kind::recv) {
    start_recv(s, r);
    return MPI_SUCCESS;
  }
  return start_persistent_send(s, r);
}

void complete(State& s, Request* r) {
  r->complete = true;
  ++s.completions;
  r->queued = false;
  if (r->kind == Kind::send) {
    --s.open_sends;
    if (r->bsend_offset >= 0) {
      (r->bsend_buffer ? r->bsend_buffer : &s.bsend)->release(static_cast<std::size_t>(r->bsend_offset));
      r->bsend_offset = -1;
    }
  }
  // r->hold (a derived type) stays until the request is released: an error
  // description read after completion still needs the type.
  if (r->user_freed && r->pooled) s.requests.release(r);
}

}  // namespace ringmpi::p2p
