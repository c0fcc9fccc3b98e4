// Blocking point-to-point transfers for library-internal protocols
// (communicator creation, collectives). No MPI handles, no error handlers:
// a misuse here is a bug of the library and ends the job with an internal error.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ringmpi::p2p {

struct Request;

// Blocking transfers for library-internal protocols (communicator creation, collectives).
// `context` selects the matching space (use Comm::coll_context() for internal traffic);
// `src_rank` is the sender's rank as the receiver will see it (its rank in the comm's local group).
void send_internal(const void* buf, std::size_t bytes, int dest_world, int tag, std::uint32_t context,
                   int src_rank);
// Receives into buf (at most max_bytes; more is an internal error); returns the byte count;
// src_rank may be MPI_ANY_SOURCE; *actual_src (if non-null) gets the source rank.
// With the sender's world rank (src_world >= 0) a message that is already
// there or arrives soon is taken straight from its ring (no request).
std::size_t recv_internal(void* buf, std::size_t max_bytes, int src_rank, int tag, std::uint32_t context,
                          int* actual_src = nullptr, int src_world = -1);

// Nonblocking forms, for the collective schedules (lib/coll/schedule.hpp):
// a pooled request without a handle, which the caller checks (->complete)
// and hands back with release_internal(); isend_internal returns nullptr
// when the message went into the ring at once (nothing left to wait for).
// A receive that got more than max_bytes completes with st_error MPI_ERR_TRUNCATE.
Request* isend_internal(const void* buf, std::size_t bytes, int dest_world, int tag, std::uint32_t context,
                        int src_rank);
Request* irecv_internal(void* buf, std::size_t max_bytes, int src_rank, int tag, std::uint32_t context);
void release_internal(Request* r);
// A receive that never waits and never runs progress (a persistent
// collective's poll may call it from inside progress()): takes the message
// from src_world's ring when it is the next record there and nothing is
// queued ahead of it (*bytes its size): 1; 0 when that ring is empty; -1
// when something else comes first (post irecv_internal then).
int try_recv_internal(void* buf, std::size_t max_bytes, int src_rank, int src_world, int tag, std::uint32_t context,
                      std::size_t* bytes);

}  // namespace ringmpi::p2p
