// The buffers of buffered sends (MPI-3.1 §3.6, MPI-4.1 §3.6.1): the
// process's (MPI_Buffer_attach), a communicator's (MPI_Comm_attach_buffer),
// a session's (MPI_Session_attach_buffer, api/session.cpp); the flush calls,
// and MPI_BUFFER_AUTOMATIC. The _c forms (MPI-4.1) take and return MPI_Count
// sizes. The buffers themselves live in lib/p2p/bsend.cpp.
#include "api/bsend.hpp"

#include <climits>
#include <memory>

#include "p2p/extension.hpp"

using namespace ringmpi;
using ringmpi::api::Call;


extern "C" {
int rmpi_buffer_automatic_storage;  // MPI_BUFFER_AUTOMATIC is its address (mpi.h)
}

namespace ringmpi::api {
namespace {

// MPI_*_iflush_buffer: complete once the buffer holds no message.
class Flush final : public p2p::Extension {
 public:
  explicit Flush(std::uint64_t owner) : owner_(owner) {}
  bool poll() override { return p2p::buffer_empty(owner_); }
  int error() const override { return MPI_SUCCESS; }
  const char* describe() const override { return "flushing a buffered-send buffer"; }
  bool freeable() const override { return true; }

 private:
  std::uint64_t owner_;
};

}  // namespace

int attach_buffer(Call& call, std::uint64_t owner, void* buffer, MPI_Count size) {
  if (buffer != MPI_BUFFER_AUTOMATIC) {
    if (size < 0) return call.fail(MPI_ERR_BUFFER, "argument size=%lld is negative", size);
    if (size > 0)
      if (int e = call.not_null(buffer, "buffer")) return e;
  }
  if (int e = p2p::buffer_attach(owner, buffer, static_cast<std::size_t>(size > 0 ? size : 0)))
    return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

int detach_buffer_c(Call& call, std::uint64_t owner, void* buffer_addr, MPI_Count* size) {
  if (int e = call.not_null(buffer_addr, "buffer_addr")) return e;
  if (int e = call.not_null(size, "size")) return e;
  std::size_t bytes = 0;
  if (int e = p2p::buffer_detach(owner, buffer_addr, &bytes)) return call.fail(e, "%s", p2p::error_detail());
  *size = static_cast<MPI_Count>(bytes);
  return MPI_SUCCESS;
}

int detach_buffer(Call& call, std::uint64_t owner, void* buffer_addr, int* size) {
  if (int e = call.not_null(buffer_addr, "buffer_addr")) return e;
  if (int e = call.not_null(size, "size")) return e;
  // A buffer attached with a _c form may be larger than an int: refused
  // before anything is detached, so the _c detach still can.
  if (p2p::buffer_attached_size(owner) > static_cast<std::size_t>(INT_MAX))
    return call.fail(MPI_ERR_VALUE_TOO_LARGE,
                     "the attached buffer has %zu bytes, more than an int holds; detach it with the _c form of %s",
                     p2p::buffer_attached_size(owner), call.name());
  std::size_t bytes = 0;
  if (int e = p2p::buffer_detach(owner, buffer_addr, &bytes)) return call.fail(e, "%s", p2p::error_detail());
  *size = static_cast<int>(bytes);
  return MPI_SUCCESS;
}

int iflush_buffer(Call& call, std::uint64_t owner, MPI_Comm errors_on, MPI_Request* request) {
  if (int e = call.not_null(request, "request")) return e;
  if (int e = p2p::start_extension(std::make_unique<Flush>(owner), errors_on, request))
    return call.fail(e, "no request is free for %s", call.name());
  return MPI_SUCCESS;
}

}  // namespace ringmpi::api

extern "C" {

int MPI_Buffer_attach(void* buffer, int size) {
  Call call("MPI_Buffer_attach");
  if (int e = call.initialized()) return e;
  return api::attach_buffer(call, p2p::kBufferProcess, buffer, size);
}

int MPI_Buffer_detach(void* buffer_addr, int* size) {
  Call call("MPI_Buffer_detach");
  if (int e = call.initialized()) return e;
  return api::detach_buffer(call, p2p::kBufferProcess, buffer_addr, size);
}

int MPI_Buffer_attach_c(void* buffer, MPI_Count size) {
  Call call("MPI_Buffer_attach_c");
  if (int e = call.initialized()) return e;
  return api::attach_buffer(call, p2p::kBufferProcess, buffer, size);
}

int MPI_Buffer_detach_c(void* buffer_addr, MPI_Count* size) {
  Call call("MPI_Buffer_detach_c");
  if (int e = call.initialized()) return e;
  return api::detach_buffer_c(call, p2p::kBufferProcess, buffer_addr, size);
}

int MPI_Buffer_flush(void) {
  Call call("MPI_Buffer_flush");
  if (int e = call.initialized()) return e;
  p2p::buffer_flush(p2p::kBufferProcess);
  return MPI_SUCCESS;
}

int MPI_Buffer_iflush(MPI_Request* request) {
  Call call("MPI_Buffer_iflush");
  if (int e = call.initialized()) return e;
  return api::iflush_buffer(call, p2p::kBufferProcess, MPI_COMM_WORLD, request);
}

int MPI_Comm_attach_buffer(MPI_Comm comm, void* buffer, int size) {
  Call call("MPI_Comm_attach_buffer");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  return api::attach_buffer(call, p2p::buffer_key_comm(comm), buffer, size);
}

int MPI_Comm_detach_buffer(MPI_Comm comm, void* buffer_addr, int* size) {
  Call call("MPI_Comm_detach_buffer");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  return api::detach_buffer(call, p2p::buffer_key_comm(comm), buffer_addr, size);
}

int MPI_Comm_attach_buffer_c(MPI_Comm comm, void* buffer, MPI_Count size) {
  Call call("MPI_Comm_attach_buffer_c");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  return api::attach_buffer(call, p2p::buffer_key_comm(comm), buffer, size);
}

int MPI_Comm_detach_buffer_c(MPI_Comm comm, void* buffer_addr, MPI_Count* size) {
  Call call("MPI_Comm_detach_buffer_c");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  return api::detach_buffer_c(call, p2p::buffer_key_comm(comm), buffer_addr, size);
}

int MPI_Comm_flush_buffer(MPI_Comm comm) {
  Call call("MPI_Comm_flush_buffer");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  p2p::buffer_flush(p2p::buffer_key_comm(comm));
  return MPI_SUCCESS;
}

int MPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Comm_iflush_buffer");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  return api::iflush_buffer(call, p2p::buffer_key_comm(comm), comm, request);
}

}  // extern "C"
