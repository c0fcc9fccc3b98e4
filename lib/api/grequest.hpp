// Generalized requests (MPI-3.1 §12.2): a user-defined operation behind an
// ordinary request. The engine sees a p2p extension request whose poll()
// reports the user's MPI_Grequest_complete; the user's callbacks run here,
// in lib/api, never inside progress() (they may call MPI):
//   query_fn  when MPI_Wait/Test* hands the completed request back (it fills
//             the status) and from MPI_Request_get_status;
//   free_fn   after query_fn when Wait/Test* frees the request, or, for a
//             request the user MPI_Request_free'd, once it is both freed and
//             completed (no query_fn then);
//   cancel_fn from MPI_Cancel, told whether MPI_Grequest_complete ran.
#pragma once

#include "api/p2p_args.hpp"

namespace ringmpi::api {

class GeneralizedRequest final : public p2p::Extension {
 public:
  GeneralizedRequest(MPI_Grequest_query_function* q, MPI_Grequest_free_function* f,
                     MPI_Grequest_cancel_function* c, void* extra)
      : query_fn_(q), free_fn_(f), cancel_fn_(c), extra_(extra) {}
  bool poll() override { return user_completed_; }
  int error() const override { return MPI_SUCCESS; }  // the query_fn's code is reported at hand-back
  const char* describe() const override { return why_; }
  bool generalized() const override { return true; }

  bool user_completed() const { return user_completed_; }
  void mark_completed() { user_completed_ = true; }
  // Each callback runs once at most where the standard says once.
  int query(MPI_Status* st);  // st never MPI_STATUS_IGNORE
  int free_once();
  int cancel() { return cancel_fn_(extra_, user_completed_ ? 1 : 0); }
  void set_why(int code, const char* fn);

 private:
  MPI_Grequest_query_function* query_fn_;
  MPI_Grequest_free_function* free_fn_;
  MPI_Grequest_cancel_function* cancel_fn_;
  void* extra_;
  bool user_completed_ = false;
  bool freed_ = false;
  char why_[160] = "the generalized request failed";
};

// The generalized request behind r, or nullptr for any other request.
inline GeneralizedRequest* grequest_of(p2p::Request* r) {
  return r->kind == p2p::Kind::ext && r->ext && r->ext->generalized() ? static_cast<GeneralizedRequest*>(r->ext.get())
                                                                      : nullptr;
}

// finish_request() for a generalized request: query_fn, free_fn, release.
int finish_grequest(MPI_Request* h, p2p::Request* r, GeneralizedRequest* g, MPI_Status* status, RequestError* err);

}  // namespace ringmpi::api
