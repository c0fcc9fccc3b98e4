// MPI_Buffer_attach / MPI_Buffer_detach (the buffer of MPI_Bsend, MPI-3.1 §3.6).
#include "api/p2p_args.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

extern "C" {

int MPI_Buffer_attach(void* buffer, int size) {
  Call call("MPI_Buffer_attach");
  if (int e = call.initialized()) return e;
  if (size < 0) return call.fail(MPI_ERR_BUFFER, "argument size=%d is negative", size);
  if (size > 0)
    if (int e = call.not_null(buffer, "buffer")) return e;
  if (int e = p2p::buffer_attach(buffer, size)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

int MPI_Buffer_detach(void* buffer_addr, int* size) {
  Call call("MPI_Buffer_detach");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(buffer_addr, "buffer_addr")) return e;
  if (int e = call.not_null(size, "size")) return e;
  if (int e = p2p::buffer_detach(buffer_addr, size)) return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

}  // extern "C"
