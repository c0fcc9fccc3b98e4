// Extension requests: operations made of many transfers (nonblocking
// collectives) that the engine advances inside every progress().
//
// Invariants (all single-threaded, inside one process):
//   - a request is in State::extensions exactly while its operation is
//     started and not finished; poll_extensions() takes it out before it
//     calls complete(), which may release it (MPI_Request_free'd);
//   - poll() runs only from poll_extensions(), itself only inside progress()
//     (State::in_progress set), or from a start (start_extension,
//     restart_extension) or poll_extension() outside progress(), which set
//     State::in_progress around it; so an Extension is never re-entered, and
//     the transfers it starts are ordinary internal requests progress()
//     completes;
//   - progress() runs before every check of a waiter (wait_until), so a
//     waiter sleeping on its doorbell is woken by the incoming record that
//     lets an operation move on: no operation depends on a timeout.
#include "p2p/extension.hpp"

#include <algorithm>

#include "p2p/engine_private.hpp"

namespace ringmpi::p2p {

int start_extension(std::unique_ptr<Extension> ext, MPI_Comm comm, MPI_Request* request, bool poll_now) {
  State& s = state();
  Request* r = new_request(s, false);
  if (!r) return MPI_ERR_INTERN;
  r->kind = Kind::ext;
  r->comm = comm;
  r->active = true;
  r->ext = std::move(ext);
  *request = s.requests.handle(r);
  // The first steps run now: a rank's sends leave at the call, as with
  // MPI_Isend, even if it never calls MPI again until MPI_Wait.
  if (!poll_now) {
    s.extensions.push_back(r);
    return MPI_SUCCESS;
  }
  const bool was = s.in_progress;
  s.in_progress = true;
  const bool done = r->ext->poll();
  s.in_progress = was;
  if (done)
    finish_extension(s, r);
  else
    s.extensions.push_back(r);
  return MPI_SUCCESS;
}

int make_persistent_extension(std::unique_ptr<Extension> ext, MPI_Comm comm, MPI_Request* request) {
  State& s = state();
  Request* r = new_request(s, true);
  if (!r) return MPI_ERR_INTERN;
  r->kind = Kind::ext;
  r->persistent = true;
  r->complete = true;  // inactive: MPI_Wait returns at once with an empty status
  r->comm = comm;
  r->ext = std::move(ext);
  *request = s.requests.handle(r);
  return MPI_SUCCESS;
}

void restart_extension(Request* r, bool poll_now) {
  State& s = state();
  r->active = true;
  r->complete = false;
  r->cancelled = false;
  r->st_error = MPI_SUCCESS;
  r->st_count = 0;
  if (!poll_now) {
    s.extensions.push_back(r);
    return;
  }
  const bool was = s.in_progress;
  s.in_progress = true;
  const bool done = r->ext->poll();
  s.in_progress = was;
  if (done)
    finish_extension(s, r);
  else
    s.extensions.push_back(r);
}

bool poll_extension(Request* r) {
  State& s = state();
  if (s.in_progress || r->complete) return r->complete;
  s.in_progress = true;
  const bool done = r->ext->poll();
  s.in_progress = false;
  if (!done) return false;
  const auto it = std::find(s.extensions.begin(), s.extensions.end(), r);
  if (it != s.extensions.end()) {
    *it = s.extensions.back();
    s.extensions.pop_back();
  }
  finish_extension(s, r);
  return true;
}

namespace {

// The operation was done by the call that made the request: nothing to poll.
class Finished final : public Extension {
 public:
  bool poll() override { return true; }
  int error() const override { return MPI_SUCCESS; }
  const char* describe() const override { return "the operation completed in the call that started it"; }
};

}  // namespace

int start_completed(MPI_Comm comm, std::size_t bytes, MPI_Request* request) {
  if (int e = start_extension(std::make_unique<Finished>(), comm, request)) return e;
  state().requests.get(*request)->st_count = bytes;  // complete, not released: the user holds the handle
  return MPI_SUCCESS;
}

void finish_extension(State& s, Request* r) {
  r->st_error = r->ext->error();
  complete(s, r);
}

void poll_extensions(State& s) {
  // Index loop: a poll may not add entries, but completing one moves the last into its place.
  for (std::size_t i = 0; i < s.extensions.size();) {
    Request* r = s.extensions[i];
    if (!r->ext->poll()) {
      ++i;
      continue;
    }
    s.extensions[i] = s.extensions.back();
    s.extensions.pop_back();
    finish_extension(s, r);
  }
}

}  // namespace ringmpi::p2p
