// The buffered-send buffer calls' common part (api/bsend.cpp), for the
// communicator, session and process forms.
#pragma once

#include <cstdint>

#include "api/call.hpp"
#include "p2p/engine.hpp"

namespace ringmpi::api {

// `owner`: p2p::kBufferProcess or a p2p::buffer_key_*() key.
int attach_buffer(Call& call, std::uint64_t owner, void* buffer, MPI_Count size);
// The int forms answer MPI_ERR_VALUE_TOO_LARGE for a buffer beyond an int.
int detach_buffer(Call& call, std::uint64_t owner, void* buffer_addr, int* size);
int detach_buffer_c(Call& call, std::uint64_t owner, void* buffer_addr, MPI_Count* size);
// A request that completes once the buffer is empty; errors go to `errors_on`.
int iflush_buffer(Call& call, std::uint64_t owner, MPI_Comm errors_on, MPI_Request* request);

}  // namespace ringmpi::api
