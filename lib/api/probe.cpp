// MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv.
#include "api/large_count.hpp"
#include "api/p2p_args.hpp"
#include "p2p/wait.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int check_message(Call& call, const MPI_Message* message) {
  if (int e = call.not_null(message, "message")) return e;
  if (*message == MPI_MESSAGE_NULL)
    return call.fail(MPI_ERR_REQUEST, "argument message is MPI_MESSAGE_NULL (already received, or never probed)");
  if (!p2p::message_valid(*message))
    return call.fail(MPI_ERR_REQUEST,
                     "argument message=0x%x is not a valid message handle (already received, or not from "
                     "MPI_Mprobe/MPI_Improbe)",
                     static_cast<unsigned>(*message));
  call.raise_on(p2p::message_comm(*message));
  return MPI_SUCCESS;
}

int check_buffer_type(Call& call, void* buf, int count, MPI_Datatype& datatype, const dtype::Datatype** t) {
  if (int e = call.count(count, "count")) return e;
  if (int e = check_message_type(call, count, datatype, t)) return e;
  if (!buf && count > 0 && (*t)->predefined && (*t)->size > 0)
    return call.fail(MPI_ERR_BUFFER, "argument buf is NULL while count=%d elements of %s are to be received", count,
                     (*t)->name.c_str());
  return MPI_SUCCESS;
}

int mrecv(Call& call, void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Status* status) {
  if (int e = call.initialized()) return e;
  if (int e = check_message(call, message)) return e;
  const dtype::Datatype* t;
  if (int e = check_buffer_type(call, buf, count, datatype, &t)) return e;
  if (int e = p2p::mrecv(buf, count, datatype, t, message, status)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

int imrecv(Call& call, void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Request* request) {
  if (int e = call.initialized()) return e;
  if (int e = check_message(call, message)) return e;
  const dtype::Datatype* t;
  if (int e = check_buffer_type(call, buf, count, datatype, &t)) return e;
  if (int e = call.not_null(request, "request")) return e;
  if (int e = p2p::imrecv(buf, count, datatype, t, message, request)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  Call call("MPI_Probe");
  comm::Comm* c;
  if (int e = api::check_source_tag(call, source, tag, comm, &c)) return e;
  p2p::probe(source, tag, c->context, status);
  return MPI_SUCCESS;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  Call call("MPI_Iprobe");
  comm::Comm* c;
  if (int e = api::check_source_tag(call, source, tag, comm, &c)) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  const std::uint64_t before = p2p::activity();
  *flag = p2p::iprobe(source, tag, c->context, status);
  if (!*flag) p2p::yield_if_idle(before);
  return MPI_SUCCESS;
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  Call call("MPI_Mprobe");
  comm::Comm* c;
  if (int e = api::check_source_tag(call, source, tag, comm, &c)) return e;
  if (int e = call.not_null(message, "message")) return e;
  p2p::mprobe(source, tag, c->context, comm, message, status);
  return MPI_SUCCESS;
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
  Call call("MPI_Improbe");
  comm::Comm* c;
  if (int e = api::check_source_tag(call, source, tag, comm, &c)) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  if (int e = call.not_null(message, "message")) return e;
  const std::uint64_t before = p2p::activity();
  *flag = p2p::improbe(source, tag, c->context, comm, message, status);
  if (!*flag) p2p::yield_if_idle(before);
  return MPI_SUCCESS;
}

int MPI_Mrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Status* status) {
  Call call("MPI_Mrecv");
  return mrecv(call, buf, count, datatype, message, status);
}

int MPI_Imrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message, MPI_Request* request) {
  Call call("MPI_Imrecv");
  return imrecv(call, buf, count, datatype, message, request);
}

int MPI_Mrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message, MPI_Status* status) {
  Call call("MPI_Mrecv_c");
  if (int e = call.initialized()) return e;
  api::Counted n;
  if (int e = n.set(call, count, datatype, "count", "datatype")) return e;
  return mrecv(call, buf, n.count, n.datatype, message, status);
}

int MPI_Imrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message, MPI_Request* request) {
  Call call("MPI_Imrecv_c");
  if (int e = call.initialized()) return e;
  api::Counted n;
  if (int e = n.set(call, count, datatype, "count", "datatype")) return e;
  return imrecv(call, buf, n.count, n.datatype, message, request);
}

}  // extern "C"
