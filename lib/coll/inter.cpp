// Intercommunicator collectives as schedules (MPI-3.1 §5.2.2, §5.3 ff.):
// data moves between the two groups; see scheduled.hpp.
#include <algorithm>
#include <vector>

#include "coll/scheduled.hpp"

namespace ringmpi::coll {

namespace {

// Index of remote rank j in the union order of peers_of(c).
int remote(const comm::Comm& c, int j) { return c.local_first ? c.size() + j : j; }

// Every remote rank's contribution (r.count elements each), received into
// schedule-owned operands, in remote rank order.
std::vector<const void*> receive_all(Schedule& s, const comm::Comm& c, const Reduction& r) {
  std::vector<const void*> x;
  const Footprint f = footprint(r.count, *r.type);
  for (int j = 0; j < c.remote_size(); ++j) {
    void* in = s.scratch(f.bytes) - f.offset;
    sched_recv(s, remote(c, j), Typed{in, r.count, r.type});
    x.push_back(in);
  }
  return x;
}

}  // namespace

void inter_bcast(Schedule& s, const comm::Comm& c, const Typed& buf, int root) {
  if (root == MPI_PROC_NULL) return;
  if (root == MPI_ROOT)
    for (int j = 0; j < c.remote_size(); ++j) sched_send(s, remote(c, j), buf);
  else
    sched_recv(s, remote(c, root), buf);
  s.round();
}

void inter_gatherv(Schedule& s, const comm::Comm& c, const Typed& send, const void* recvbuf, const int* counts,
                   const int* displs, const dtype::Datatype* rtype, int root) {
  if (root == MPI_PROC_NULL) return;
  if (root == MPI_ROOT)
    for (int j = 0; j < c.remote_size(); ++j) sched_recv(s, remote(c, j), block(recvbuf, *rtype, displs[j], counts[j]));
  else
    sched_send(s, remote(c, root), send);
  s.round();
}

void inter_scatterv(Schedule& s, const comm::Comm& c, const void* sendbuf, const int* counts, const int* displs,
                    const dtype::Datatype* stype, const Typed& recv, int root) {
  if (root == MPI_PROC_NULL) return;
  if (root == MPI_ROOT)
    for (int j = 0; j < c.remote_size(); ++j) sched_send(s, remote(c, j), block(sendbuf, *stype, displs[j], counts[j]));
  else
    sched_recv(s, remote(c, root), recv);
  s.round();
}

void inter_allgatherv(Schedule& s, const comm::Comm& c, const Typed& send, void* recvbuf, const int* counts,
                      const int* displs, const dtype::Datatype& rtype) {
  for (int j = 0; j < c.remote_size(); ++j) sched_send(s, remote(c, j), send);
  for (int j = 0; j < c.remote_size(); ++j) sched_recv(s, remote(c, j), block(recvbuf, rtype, displs[j], counts[j]));
  s.round();
}

void inter_alltoallw(Schedule& s, const comm::Comm& c, const void* sendbuf, const std::vector<Block>& sends,
                     void* recvbuf, const std::vector<Block>& recvs) {
  for (int j = 0; j < c.remote_size(); ++j) {
    const Block& b = sends[static_cast<std::size_t>(j)];
    sched_send(s, remote(c, j), Typed{static_cast<const std::byte*>(sendbuf) + b.displ, b.count, b.type});
  }
  for (int j = 0; j < c.remote_size(); ++j) {
    const Block& b = recvs[static_cast<std::size_t>(j)];
    sched_recv(s, remote(c, j), Typed{static_cast<std::byte*>(recvbuf) + b.displ, b.count, b.type});
  }
  s.round();
}

void inter_reduce(Schedule& s, const comm::Comm& c, const Reduction& r, const void* mine, void* result, int root) {
  if (root == MPI_PROC_NULL) return;
  if (root != MPI_ROOT) {
    sched_send(s, remote(c, root), Typed{mine, r.count, r.type});
    s.round();
    return;
  }
  std::vector<const void*> x = receive_all(s, c, r);
  s.round();
  if (!x.empty()) sched_fold(s, r, std::move(x), result);
  s.round();
}

void inter_allreduce(Schedule& s, const comm::Comm& c, const Reduction& r, const void* mine, void* result) {
  for (int j = 0; j < c.remote_size(); ++j) sched_send(s, remote(c, j), Typed{mine, r.count, r.type});
  std::vector<const void*> x = receive_all(s, c, r);
  s.round();  // every send has completed: result may overwrite `mine` (they may alias)
  if (!x.empty()) sched_fold(s, r, std::move(x), result);
  s.round();
}

void inter_reduce_scatter(Schedule& s, const comm::Comm& c, const Reduction& r, const void* mine, void* result,
                          const int* counts) {
  for (int j = 0; j < c.remote_size(); ++j) sched_send(s, remote(c, j), Typed{mine, r.count, r.type});
  std::vector<const void*> x = receive_all(s, c, r);
  s.round();
  const Footprint f = footprint(r.count, *r.type);
  void* all = s.scratch(f.bytes) - f.offset;
  if (!x.empty()) sched_fold(s, r, std::move(x), all);
  int displ = 0;
  for (int i = 0; i < c.rank; ++i) displ += counts[i];
  sched_copy(s, block(all, *r.type, displ, counts[c.rank]), Typed{result, counts[c.rank], r.type});
  s.round();
}

void inter_reduce_scatter_piece(Schedule& s, const comm::Comm& c, const Reduction& r, const void* mine,
                                std::int64_t first, void* result, std::int64_t block_first, std::int64_t block_count) {
  for (int j = 0; j < c.remote_size(); ++j) sched_send(s, remote(c, j), Typed{mine, r.count, r.type});
  std::vector<const void*> x = receive_all(s, c, r);
  s.round();
  const std::int64_t lo = std::max(first, block_first);
  const std::int64_t hi = std::min(first + r.count, block_first + block_count);
  if (hi > lo && !x.empty()) {  // this piece holds part of this rank's block
    const Footprint f = footprint(r.count, *r.type);
    void* all = s.scratch(f.bytes) - f.offset;
    sched_fold(s, r, std::move(x), all);
    const std::ptrdiff_t extent = r.type->extent;
    const int n = static_cast<int>(hi - lo);
    sched_copy(s, Typed{static_cast<const std::byte*>(all) + (lo - first) * extent, n, r.type},
               Typed{static_cast<std::byte*>(result) + (lo - block_first) * extent, n, r.type});
  }
  s.round();
}

}  // namespace ringmpi::coll
