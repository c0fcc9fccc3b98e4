// Nonblocking data movement on the shared segment: MPI_Iscatter(v),
// MPI_Igather(v), MPI_Iallgather(v), MPI_Ialltoall(v) (coll/seg.hpp;
// the operation's steps: coll/seg_op.hpp).
//
// Each member writes all it contributes at its start: small data into its
// slot region (it is then free at once), large data by address (the region
// holds where; the member's request completes once its readers' done >= k).
// How a writer's data travels is written in its region (a table's mode, or
// for allgather the block size every member knows), so readers follow the
// writer's choice; whether the segment is used at all rests only on what
// every member knows alike (the agreed single-copy bit, sizes all know), as
// for the blocking forms. A reader's part is its reads, done in its own
// progress once the writers it needs have posted: the data moves while the
// application computes, without the writers calling MPI again.
#include <cstring>

#include "coll/seg.hpp"
#include "coll/seg_op.hpp"

namespace ringmpi::coll {

using namespace seg;

namespace {

// Every other member has posted k.
auto others_posted(Segment& s, std::uint64_t k) {
  return [&s, k] {
    for (int j = 0; j < s.size(); ++j)
      if (j != s.me() && !posted(s, j, k)) return false;
    return true;
  };
}

using Take = void (*)(const Segment&, std::uint64_t, int, const Typed&);
void take_table_entry(const Segment& s, std::uint64_t k, int j, const Typed& t) { take_block(s, k, j, t); }

// complete(): every other member's block of collective k into dst[j].
auto read_others(Segment& s, std::uint64_t k, MemberBlocks dst, Take take) {
  return [&s, k, dst = std::move(dst), take] {
    for (int j = 0; j < s.size(); ++j)
      if (j != s.me()) take(s, k, j, dst[static_cast<std::size_t>(j)]);
    return MPI_SUCCESS;
  };
}

std::shared_ptr<const void> shared(std::unique_ptr<Temp> t) { return std::shared_ptr<const void>(std::move(t)); }

}  // namespace

int iseg_scatterv(const std::shared_ptr<Segment>& sp, const void* sendbuf, const int* counts, const int* displs,
                  const dtype::Datatype& stype, const Typed& recv, MPI_Datatype recvtype, bool in_place, int root,
                  long long block, MPI_Comm comm, MPI_Request* request) {
  Segment& s = *sp;
  if (!tables_apply(s, block)) return -1;
  core::count(core::Counter::seg_scatter);
  const std::uint64_t k = s.begin();
  if (s.me() == root) {
    std::unique_ptr<Temp> keep;
    const bool by_address =
        start_scatter_root(s, k, sendbuf, counts, displs, stype, recv, in_place, &keep) == kByAddress;
    auto op = make_op(sp, k, always, nothing, readers_done(s, k, by_address));
    op->keep(shared(std::move(keep)));
    return start_op(std::move(op), s, comm, request);
  }
  auto op = make_op(sp, k, [&s, k, root] { return posted(s, root, k); },
                    [&s, k, root, recv] {
                      take_block(s, k, root, recv);
                      return MPI_SUCCESS;
                    });
  op->keep(keep_type(recvtype, recv.type));
  return start_op(std::move(op), s, comm, request);
}

int iseg_gatherv(const std::shared_ptr<Segment>& sp, const Typed& send, bool in_place, void* recvbuf,
                 const int* counts, const int* displs, const dtype::Datatype& rtype, MPI_Datatype recvtype, int root,
                 long long block, MPI_Comm comm, MPI_Request* request) {
  Segment& s = *sp;
  if (!tables_apply(s, block)) return -1;
  core::count(core::Counter::seg_gather);
  const std::uint64_t k = s.begin();
  const int n = s.size();
  if (s.me() != root) {
    std::unique_ptr<Temp> keep;
    const std::uint64_t mode = start_gather_member(s, k, root, send, &keep);
    s.wake(root);
    // By address, the root may read this member's memory until it is done.
    const auto root_done = [&s, k, root] { return s.done_at(root, k); };
    std::unique_ptr<SegOp> op;
    if (mode == kWillPush)
      op = make_op(sp, k, [&s, k, root] { return posted(s, root, k); },
                   [&s, k, root] {
                     push_block(s, k, root);
                     return MPI_SUCCESS;
                   },
                   root_done);
    else if (mode == kByAddress)
      op = make_op(sp, k, always, nothing, root_done);
    else
      op = make_op(sp, k, always, nothing);
    op->keep(shared(std::move(keep)));
    return start_op(std::move(op), s, comm, request);
  }
  if (!in_place) copy_typed(send, block_of(recvbuf, rtype, displs[root], counts[root]));
  // Members whose blocks are large may push them (start_gather_member):
  // into the receive blocks straight, so only when those are contiguous.
  MemberBlocks dst = blocks_at(recvbuf, rtype, counts, displs, n);
  const bool accept = rtype.contiguous();
  MemberFlags pushers(static_cast<std::size_t>(n), 0);
  bool any_large = false;
  for (int j = 0; j < n; ++j)
    if (j != root && may_push(s, dst[static_cast<std::size_t>(j)].bytes())) {
      any_large = true;
      pushers[static_cast<std::size_t>(j)] = accept;
    }
  if (any_large) {  // those members wait for this table
    publish_destinations(s, k, dst, accept);
    s.wake_all();
  }
  // Each block is taken as soon as its member has posted, in whichever
  // progress call finds it: the copies spread over the calls the
  // application makes between start and wait instead of all landing in
  // the one that finds the last member posted.
  auto op = make_op(sp, k,
                    [&s, k, dst = std::move(dst), accept, left = others(s)]() mutable {
                      bool all = true;
                      for (int j = 0; j < s.size(); ++j) {
                        const std::size_t u = static_cast<std::size_t>(j);
                        if (!left[u]) continue;
                        if (!posted(s, j, k)) {
                          all = false;
                          continue;
                        }
                        if (root_reads(s, k, j, accept)) take_block(s, k, j, dst[u]);
                        left[u] = 0;
                      }
                      return all;
                    },
                    nothing, [&s, k, pushers] { return s.all_done(k, pushers); });
  op->keep(keep_type(recvtype, &rtype));
  return start_op(std::move(op), s, comm, request);
}

// Every member publishes its one block (in the slot, or its address in the
// region: own_block_by_address) and takes everybody else's.
int iseg_allgatherv(const std::shared_ptr<Segment>& sp, const Typed& send, bool in_place, void* recvbuf,
                    const int* counts, const int* displs, const dtype::Datatype& rtype, MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request* request) {
  Segment& s = *sp;
  bool any_large;
  if (!allgather_applies(s, counts, rtype, &any_large)) return -1;
  core::count(core::Counter::seg_allgather);
  const std::uint64_t k = s.begin();
  const int n = s.size();
  const int me = s.me();
  const Typed own = block_of(recvbuf, rtype, displs[me], counts[me]);
  bool from_send;
  const Typed src = allgather_source(send, in_place, own, &from_send);
  std::shared_ptr<Published> pub = publish_own_block(s, k, src, own.bytes());
  s.wake_all();
  if (from_send) copy_typed(send, own);
  auto op = make_op(sp, k, others_posted(s, k),
                    read_others(s, k, blocks_at(recvbuf, rtype, counts, displs, n), take_own_block),
                    readers_done(s, k, pub != nullptr));
  op->keep(std::move(pub));
  op->keep(keep_type(recvtype, &rtype));
  return start_op(std::move(op), s, comm, request);
}

int iseg_alltoallv(const std::shared_ptr<Segment>& sp, const void* sendbuf, const int* scounts, const int* sdispls,
                   const dtype::Datatype& stype, void* recvbuf, const int* rcounts, const int* rdispls,
                   const dtype::Datatype& rtype, MPI_Datatype recvtype, bool in_place, long long block, MPI_Comm comm,
                   MPI_Request* request) {
  Segment& s = *sp;
  if (!tables_apply(s, block)) return -1;
  core::count(core::Counter::seg_alltoall);
  const std::uint64_t k = s.begin();
  const int n = s.size();
  std::unique_ptr<Temp> saved, keep;
  const bool by_address = start_alltoall(s, k, sendbuf, scounts, sdispls, stype, recvbuf, rcounts, rdispls, rtype,
                                         in_place, &saved, &keep) == kByAddress;
  auto op = make_op(sp, k, others_posted(s, k),
                    read_others(s, k, blocks_at(recvbuf, rtype, rcounts, rdispls, n), take_table_entry),
                    readers_done(s, k, by_address));
  op->keep(shared(std::move(saved)));
  op->keep(shared(std::move(keep)));
  op->keep(keep_type(recvtype, &rtype));
  return start_op(std::move(op), s, comm, request);
}

}  // namespace ringmpi::coll
