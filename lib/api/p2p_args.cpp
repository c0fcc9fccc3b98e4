#include "api/p2p_args.hpp"

#include "api/grequest.hpp"
#include "api/lenient.hpp"

#include <cstdio>

namespace ringmpi::api {
int bad_buffer(Call& call, int count, const dtype::Datatype* t, const char* arg) {
  return call.fail(MPI_ERR_BUFFER, "argument %s is NULL while count=%d elements of %s are to be transferred", arg,
                   count, t->name.c_str());
}

int empty_message_type(Call& call, MPI_Datatype* datatype, const dtype::Datatype** t) {
  call.note_type(MPI_DATATYPE_NULL);
  lenient(call, "count 0 of MPI_DATATYPE_NULL (an empty message; MPI_BYTE says the same within the standard)");
  *datatype = MPI_BYTE;
  *t = dtype::lookup(MPI_BYTE);
  return MPI_SUCCESS;
}

int bad_tag(Call& call, int tag, bool any_ok, const char* arg) {
  return call.fail(MPI_ERR_TAG, "argument %s=%d is not a valid tag: tags are 0..MPI_TAG_UB (%d)%s", arg, tag, kTagUb,
                   any_ok ? " or MPI_ANY_TAG" : "");
}

int bad_rank(Call& call, int rank, const comm::Comm* c, MPI_Comm h, bool any_ok, const char* arg) {
  const int n = static_cast<int>(c->peer_world.size());
  return call.fail(MPI_ERR_RANK, "argument %s=%d is not a rank of %s: valid are 0..%d%s, MPI_PROC_NULL%s", arg, rank,
                   describe_comm(h).c_str(), n - 1, c->inter ? " (of the remote group)" : "",
                   any_ok ? " or MPI_ANY_SOURCE" : "");
}

int check_source_tag(Call& call, int source, int tag, MPI_Comm comm, comm::Comm** out) {
  if (int e = call.comm(comm, "comm", out)) return e;
  if (int e = check_rank(call, source, *out, comm, true, "source")) return e;
  Call::note_args(core::Runtime::CallArgs::Kind::probe, source, tag, 0, comm, MPI_DATATYPE_NULL);
  if (int e = check_tag(call, tag, true, "tag")) return e;
  if (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG) return check_wildcard(call, *out, comm, source, tag);
  return MPI_SUCCESS;
}

int check_wildcard(Call& call, const comm::Comm* c, MPI_Comm h, int source, int tag) {
  if (source == MPI_ANY_SOURCE && c->hints.no_any_source)
    return call.fail(MPI_ERR_RANK,
                     "argument source is MPI_ANY_SOURCE, but %s was given the info assertion "
                     "mpi_assert_no_any_source=true, so a wildcard source is erroneous on it (MPI-4.0 section 7.4.4)",
                     describe_comm(h).c_str());
  if (tag == MPI_ANY_TAG && c->hints.no_any_tag)
    return call.fail(MPI_ERR_TAG,
                     "argument tag is MPI_ANY_TAG, but %s was given the info assertion "
                     "mpi_assert_no_any_tag=true, so a wildcard tag is erroneous on it (MPI-4.0 section 7.4.4)",
                     describe_comm(h).c_str());
  return MPI_SUCCESS;
}

int check_request(Call& call, MPI_Request h, const char* arg, p2p::Request** out) {
  if (int e = call.initialized()) return e;
  if (h == MPI_REQUEST_NULL) return call.fail(MPI_ERR_REQUEST, "argument %s is MPI_REQUEST_NULL", arg);
  *out = p2p::lookup(h);
  if (!*out)
    return call.fail(MPI_ERR_REQUEST,
                     "argument %s=0x%x is not a valid request (already completed or freed, or not a request handle)",
                     arg, static_cast<unsigned>(h));
  return MPI_SUCCESS;
}

int check_requests(Call& call, int count, const MPI_Request* array, p2p::Request** out) {
  if (int e = call.initialized()) return e;
  if (int e = call.count(count, "count")) return e;
  if (count > 0)
    if (int e = call.not_null(array, "array_of_requests")) return e;
  if (const int i = p2p::lookup_all(array, count, out); i >= 0)
    return call.fail(MPI_ERR_REQUEST,
                     "array_of_requests[%d]=0x%x is not a valid request (already completed or freed, or not a "
                     "request handle)",
                     i, static_cast<unsigned>(array[i]));
  return MPI_SUCCESS;
}

int finish_request(MPI_Request* h, p2p::Request* r, MPI_Status* status, RequestError* err) {
  if (auto* g = grequest_of(r)) return finish_grequest(h, r, g, status, err);
  const MPI_Comm comm = r->comm;
  if (!r->shared_done && !r->cancelled && r->active && r->st_error != MPI_SUCCESS)
    p2p::describe_error(*r, err->why, sizeof err->why);
  const int code = p2p::finish(h, r, status);
  if (code != MPI_SUCCESS) {
    err->code = code;
    err->comm = comm;
  }
  return code;
}

int report(Call& call, const RequestError& err, int code, const char* prefix) {
  call.raise_on(err.comm);
  return call.fail(code, "%s%s", prefix, err.why);
}

}  // namespace ringmpi::api
