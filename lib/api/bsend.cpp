// MPI_Buffer_attach / MPI_Buffer_detach (the buffer of MPI_Bsend, MPI-3.1 §3.6).
// The _c forms (MPI-4.1) take and return MPI_Count sizes.
#include <climits>

#include "api/p2p_args.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

int attach(Call& call, void* buffer, MPI_Count size) {
  if (int e = call.initialized()) return e;
  if (size < 0) return call.fail(MPI_ERR_BUFFER, "argument size=%lld is negative", size);
  if (size > 0)
    if (int e = call.not_null(buffer, "buffer")) return e;
  if (int e = p2p::buffer_attach(buffer, static_cast<std::size_t>(size))) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

int detach(Call& call, void* buffer_addr, const void* size, std::size_t* bytes) {
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(buffer_addr, "buffer_addr")) return e;
  if (int e = call.not_null(size, "size")) return e;
  if (int e = p2p::buffer_detach(buffer_addr, bytes)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Buffer_attach(void* buffer, int size) {
  Call call("MPI_Buffer_attach");
  return attach(call, buffer, size);
}

int MPI_Buffer_detach(void* buffer_addr, int* size) {
  Call call("MPI_Buffer_detach");
  if (int e = call.initialized()) return e;
  // A buffer attached with MPI_Buffer_attach_c may be larger than an int:
  // refused before anything is detached, so MPI_Buffer_detach_c still can.
  if (p2p::buffer_attached_size() > static_cast<std::size_t>(INT_MAX))
    return call.fail(MPI_ERR_VALUE_TOO_LARGE,
                     "the attached buffer has %zu bytes, more than an int holds; detach it with MPI_Buffer_detach_c",
                     p2p::buffer_attached_size());
  std::size_t bytes = 0;
  if (int e = detach(call, buffer_addr, size, &bytes)) return e;
  *size = static_cast<int>(bytes);
  return MPI_SUCCESS;
}

int MPI_Buffer_attach_c(void* buffer, MPI_Count size) {
  Call call("MPI_Buffer_attach_c");
  return attach(call, buffer, size);
}

int MPI_Buffer_detach_c(void* buffer_addr, MPI_Count* size) {
  Call call("MPI_Buffer_detach_c");
  std::size_t bytes = 0;
  if (int e = detach(call, buffer_addr, size, &bytes)) return e;
  *size = static_cast<MPI_Count>(bytes);
  return MPI_SUCCESS;
}

}  // extern "C"
