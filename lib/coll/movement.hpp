// Data-movement collectives on intracommunicators (MPI-3.1 §5.4-5.8), over
// the blocking internal point-to-point calls. Every pattern here is free of
// cycles of blocked senders (trees, root-centred fans, and a round-robin
// pairing for all-to-all in which the lower rank of a pair sends first), so
// it is correct whatever the eager threshold of the engine.
//
// Arguments were checked by lib/api; `in_place` flags stand for MPI_IN_PLACE.
#pragma once

#include "coll/typed.hpp"

namespace ringmpi::coll {

void bcast(const comm::Comm& c, const Typed& buf, int root);
// recv: the root's receive buffer (block i at recv.at(displs[i]) with counts[i]
// elements); send ignored at the root when in_place.
void gatherv(const comm::Comm& c, const Typed& send, bool in_place, const void* recvbuf, const int* counts,
             const int* displs, const dtype::Datatype& rtype, int root);
void scatterv(const comm::Comm& c, const void* sendbuf, const int* counts, const int* displs,
              const dtype::Datatype& stype, const Typed& recv, bool in_place, int root);
void allgatherv(const comm::Comm& c, const Typed& send, bool in_place, void* recvbuf, const int* counts,
                const int* displs, const dtype::Datatype& rtype);
void alltoallv(const comm::Comm& c, const void* sendbuf, const int* scounts, const int* sdispls,
               const dtype::Datatype& stype, void* recvbuf, const int* rcounts, const int* rdispls,
               const dtype::Datatype& rtype, bool in_place);

// The partner of `rank` in round t of a round-robin pairing of n ranks
// (n - 1 rounds for even n, n rounds for odd n); -1 when it sits out.
int round_robin_partner(int n, int rank, int t);
int round_robin_rounds(int n);

}  // namespace ringmpi::coll
