// Nonblocking data movement on the shared segment: MPI_Iscatter(v),
// MPI_Igather(v), MPI_Iallgather(v), MPI_Ialltoall(v) (coll/seg.hpp;
// the operation's steps: coll/seg_op.hpp).
//
// Each member writes all it contributes at its start: small data into its
// slot region (it is then free at once), large data by address (the region
// holds where; the member's request completes once its readers' done >= k).
// Large is from 16 KiB with a core per rank (Segment::prefer_single_copy,
// nonblocking; blocking: 32 KiB): the start then copies nothing and the
// readers copy in their own progress. np = 2, 16 KiB, A/B slot / address:
// iscatter 2.5 / 3.3 us, overlap 50 / 84-90 %; igather 2.5 / 3.8-3.9 us,
// 46-50 / 89 %; iallgather 2.9-3.1 / 3.9-4.0 us, 17 / 77-81 %; ialltoall
// 2.9-3.1 / 3.9-4.1 us, 19-23 / 76-80 % (Open MPI, another run: 3.9, 4.0,
// 6.6, 5.6 us; 88, 87, 62, 88 %).
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
                  MPI_Comm comm, MPI_Request* request) {
  Segment& s = *sp;
  core::count(core::Counter::seg_scatter);
  const std::uint64_t k = s.begin();
  if (s.me() == root) {
    if (others_empty(s, counts, stype)) {  // nothing for anybody: no table (as seg_scatterv)
      if (!in_place) copy_typed(block_of(sendbuf, stype, displs[root], counts[root]), recv);
      return start_op(make_op(sp, k, always, nothing), s, comm, request);
    }
    std::unique_ptr<Temp> keep;
    const bool by_address =
        start_scatter_root(s, k, sendbuf, counts, displs, stype, recv, in_place, &keep, true) == kByAddress;
    auto op = make_op(sp, k, always, nothing, readers_done(s, k, by_address));
    op->keep(shared(std::move(keep)));
    return start_op(std::move(op), s, comm, request);
  }
  // A reader of no bytes reads nothing (as seg_scatterv): complete at its start.
  if (recv.bytes() == 0) return start_op(make_op(sp, k, always, nothing), s, comm, request);
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
                 MPI_Comm comm, MPI_Request* request) {
  Segment& s = *sp;
  core::count(core::Counter::seg_gather);
  const std::uint64_t k = s.begin();
  const int n = s.size();
  if (s.me() != root) {
    // An empty block: nothing to post, the root does not read it (as seg_gatherv).
    if (send.bytes() == 0) return start_op(make_op(sp, k, always, nothing), s, comm, request);
    // A large block waits for the root's table, and is pushed into the
    // root's buffer in this member's progress where the root asks for that
    // (Pushes, seg_common.hpp); until the root is done it may read it here.
    MemberBlocks blocks(static_cast<std::size_t>(n), Typed{});
    blocks[static_cast<std::size_t>(root)] = send;
    MemberFlags to(static_cast<std::size_t>(n), 0);
    to[static_cast<std::size_t>(root)] = 1;
    std::unique_ptr<Temp> keep;
    const bool by_address = publish_blocks(s, k, blocks, to, &keep, nullptr, may_push(s, send.bytes())) == kByAddress;
    s.wake(root);
    const auto root_done = [&s, k, root] { return s.done_at(root, k); };
    std::unique_ptr<SegOp> op;
    if (by_address)  // may_push (or larger than a region): the root's table says whether to push
      op = make_op(sp, k, [&s, k, root] { return posted(s, root, k); },
                   [&s, k, root] {
                     push_block(s, k, root);
                     return MPI_SUCCESS;
                   },
                   root_done);
    else
      op = make_op(sp, k, always, nothing);
    op->keep(shared(std::move(keep)));
    return start_op(std::move(op), s, comm, request);
  }
  if (!in_place) copy_typed(send, block_of(recvbuf, rtype, displs[root], counts[root]));
  MemberBlocks dst = blocks_at(recvbuf, rtype, counts, displs, n);
  MemberFlags pushers(static_cast<std::size_t>(n), 0);
  if (s.single_copy()) {  // every member with a large block waits for this table
    for (int j = 0; j < n; ++j)
      pushers[static_cast<std::size_t>(j)] =
          j != root && rtype.contiguous() && may_push(s, dst[static_cast<std::size_t>(j)].bytes());
    publish_destinations(s, k, dst, pushers);
    s.wake_all();
  }
  // The request completes once the members asked to push are done; this
  // member's done = k comes after its reads alone, so that a pusher, whose
  // request waits for it, does not also wait for the other pushers.
  // Members with an empty block post nothing (above): neither waited for
  // nor read (as seg_gatherv).
  MemberFlags reads = others(s);
  bool any = false;
  for (int j = 0; j < n; ++j) {
    if (dst[static_cast<std::size_t>(j)].bytes() == 0) reads[static_cast<std::size_t>(j)] = 0;
    any = any || reads[static_cast<std::size_t>(j)];
  }
  if (!any) return start_op(make_op(sp, k, always, nothing), s, comm, request);
  auto op = make_op(
      sp, k,
      [&s, k, reads] {
        for (int j = 0; j < s.size(); ++j)
          if (reads[static_cast<std::size_t>(j)] && !posted(s, j, k)) return false;
        return true;
      },
      [&s, k, dst = std::move(dst), pushers, reads] {
        int e = MPI_SUCCESS;
        for (int j = 0; j < s.size(); ++j)
          if (reads[static_cast<std::size_t>(j)])
            if (int f = take_gathered(s, k, j, dst[static_cast<std::size_t>(j)], pushers[static_cast<std::size_t>(j)]))
              e = f;
        return e;
      },
      [&s, k, pushers] { return s.all_done(k, pushers); });
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
  allgather_applies(s, counts, rtype, &any_large, true);  // it does (coll/select.hpp): whether blocks go by address
  core::count(core::Counter::seg_allgather);
  const std::uint64_t k = s.begin();
  const int n = s.size();
  const int me = s.me();
  const Typed own = block_of(recvbuf, rtype, displs[me], counts[me]);
  bool from_send;
  const Typed src = allgather_source(send, in_place, own, &from_send);
  std::shared_ptr<Published> pub = publish_own_block(s, k, src, own.bytes(), true);
  s.wake_all();
  if (from_send) copy_typed(send, own);
  auto op = make_op(sp, k, others_posted(s, k),
                    read_others(s, k, blocks_at(recvbuf, rtype, counts, displs, n),
                                [](const Segment& s, std::uint64_t k, int j, const Typed& dst) {
                                  take_own_block(s, k, j, dst, true);
                                }),
                    readers_done(s, k, pub != nullptr));
  op->keep(std::move(pub));
  op->keep(keep_type(recvtype, &rtype));
  return start_op(std::move(op), s, comm, request);
}

int iseg_alltoallv(const std::shared_ptr<Segment>& sp, const void* sendbuf, const int* scounts, const int* sdispls,
                   const dtype::Datatype& stype, void* recvbuf, const int* rcounts, const int* rdispls,
                   const dtype::Datatype& rtype, MPI_Datatype recvtype, bool in_place, MPI_Comm comm,
                   MPI_Request* request) {
  Segment& s = *sp;
  core::count(core::Counter::seg_alltoall);
  const std::uint64_t k = s.begin();
  const int n = s.size();
  std::unique_ptr<Temp> saved, keep;
  bool by_address = false;
  if (in_place ? others_empty(s, rcounts, rtype) : others_empty(s, scounts, stype)) {  // as seg_alltoallv
    const int me = s.me();
    if (!in_place)
      copy_typed(block_of(sendbuf, stype, sdispls[me], scounts[me]),
                 block_of(recvbuf, rtype, rdispls[me], rcounts[me]));
  } else {
    by_address = start_alltoall(s, k, sendbuf, scounts, sdispls, stype, recvbuf, rcounts, rdispls, rtype, in_place,
                                &saved, &keep, true) == kByAddress;
  }
  // Nothing is read from (or waited for) a member whose block to this one
  // is empty (as seg_alltoallv).
  MemberBlocks dst = blocks_at(recvbuf, rtype, rcounts, rdispls, n);
  MemberFlags reads = others(s);
  bool any = false;
  for (int j = 0; j < n; ++j) {
    if (dst[static_cast<std::size_t>(j)].bytes() == 0) reads[static_cast<std::size_t>(j)] = 0;
    any = any || reads[static_cast<std::size_t>(j)];
  }
  std::unique_ptr<SegOp> op;
  if (!any)
    op = make_op(sp, k, always, nothing, readers_done(s, k, by_address));
  else
    op = make_op(sp, k,
                 [&s, k, reads] {
                   for (int j = 0; j < s.size(); ++j)
                     if (reads[static_cast<std::size_t>(j)] && !posted(s, j, k)) return false;
                   return true;
                 },
                 [&s, k, reads, dst = std::move(dst)] {
                   for (int j = 0; j < s.size(); ++j)
                     if (reads[static_cast<std::size_t>(j)]) take_block(s, k, j, dst[static_cast<std::size_t>(j)]);
                   return MPI_SUCCESS;
                 },
                 readers_done(s, k, by_address));
  op->keep(shared(std::move(saved)));
  op->keep(shared(std::move(keep)));
  op->keep(keep_type(recvtype, &rtype));
  return start_op(std::move(op), s, comm, request);
}

}  // namespace ringmpi::coll
