#include "coll/reduction.hpp"

#include <optional>
#include <vector>

#include "coll/base.hpp"
#include "coll/movement.hpp"
#include "dtype/op.hpp"

namespace ringmpi::coll {
namespace {

int apply(const Reduction& r, const void* in, void* inout) {
  return dtype::reduce(r.op, in, inout, r.count, *r.type, r.type_handle);
}

}  // namespace

int reduce(const comm::Comm& c, const Reduction& r, const void* mine, void* result, int root) {
  const int n = c.size();
  const Typed own{mine, r.count, r.type};
  if (c.rank != root) {
    send_typed(c, root, kTagUserReduce, own);
    return MPI_SUCCESS;
  }
  // The root folds from the highest rank down, acc = x(i) op acc, into its
  // result itself (no copy at the end), except in place with ranks above the
  // root: the result holds the root's own x until its turn, so the fold then
  // goes through a scratch accumulator as before.
  const bool in_place = mine == result;
  std::optional<Scratch> scratch_acc;
  if (in_place && root != n - 1) scratch_acc.emplace(r.count, *r.type);
  const Typed acc = scratch_acc ? scratch_acc->typed() : Typed{result, r.count, r.type};
  void* const acc_base = const_cast<void*>(acc.buf);
  std::optional<Scratch> tmp;
  int err = MPI_SUCCESS;
  for (int i = n - 1; i >= 0; --i) {
    const bool first = i == n - 1;
    const void* in;
    if (i == root) {
      if (first && !in_place) copy_typed(own, acc);
      in = mine;
    } else if (first) {
      recv_typed(c, i, kTagUserReduce, acc);
      continue;
    } else {
      if (!tmp) tmp.emplace(r.count, *r.type);
      recv_typed(c, i, kTagUserReduce, tmp->typed());
      in = tmp->base();
    }
    if (!first && err == MPI_SUCCESS) err = apply(r, in, acc_base);
  }
  if (scratch_acc) copy_typed(acc, Typed{result, r.count, r.type});
  return err;
}

namespace {

// Recursive doubling: log2(n) exchanges for n a power of two. Before step k
// each rank holds the reduction of its aligned block of 2^k ranks; partners
// hold adjacent blocks and both compute (lower block) op (higher block). So
// every rank folds in rank order (right for non-commutative ops too) and all
// of them compute bitwise the same result. Both partners send first, so the
// messages must be eager (exchange/exchange.hpp, kEagerSafeBytes).
// The first step's accumulator is a rank's own data: unless in place, it is
// sent from `mine` as it is, and the lower partner receives the other's
// straight into its result and folds its own in, mine op theirs, with no
// copy and no scratch (at np 2 that is the whole call).
int allreduce_doubling(const comm::Comm& c, const Reduction& r, const void* mine, void* result) {
  const Typed acc{result, r.count, r.type};
  const Typed own{mine, r.count, r.type};
  std::optional<Scratch> other;
  int err = MPI_SUCCESS;
  int mask = 1;
  if (mine != result && (c.rank & 1) == 0) {
    const int partner = c.rank + 1;
    send_typed(c, partner, kTagUserAllreduce, own);
    recv_typed(c, partner, kTagUserAllreduce, acc);
    err = apply(r, mine, result);  // result = ours op theirs
    mask = 2;
  } else {
    copy_typed(own, acc);
  }
  for (; mask < c.size(); mask <<= 1) {
    const int partner = c.rank ^ mask;
    if (!other) other.emplace(r.count, *r.type);
    send_typed(c, partner, kTagUserAllreduce, acc);
    recv_typed(c, partner, kTagUserAllreduce, other->typed());
    int e;
    if (partner < c.rank) {
      e = apply(r, other->base(), result);  // result = theirs op ours
    } else {
      e = apply(r, result, other->base());  // other = ours op theirs
      copy_typed(other->typed(), acc);
    }
    if (err == MPI_SUCCESS) err = e;
  }
  return err;
}

}  // namespace

int allreduce(const comm::Comm& c, const Reduction& r, const void* mine, void* result) {
  const int n = c.size();
  if (n > 1 && (n & (n - 1)) == 0 && static_cast<std::size_t>(r.count) * r.type->size <= eager_safe_bytes())
    return allreduce_doubling(c, r, mine, result);
  // Otherwise: reduce to rank 0, then broadcast.
  int err = reduce(c, r, mine, result, 0);
  // Everybody learns whether the root's fold failed, then the result.
  int root_err = err;
  bcast_bytes(c, 0, &root_err, sizeof root_err);
  bcast(c, Typed{result, r.count, r.type}, 0);
  return root_err;
}

namespace {

// Two ranks: each sends the other the block it gets and folds the block it
// receives with its own, x0 op x1, one message each way instead of a reduce,
// a bcast and a scatter. Both send first, so both blocks must be eager
// (every rank knows both counts: the same check on both sides). With
// MPI_IN_PLACE `mine` is the result buffer: rank 0's own block lies where its
// result goes (folded through a scratch), rank 1's after rank 0's (moved to
// the front once its other block has gone).
bool pair_exchange(const comm::Comm& c, const Reduction& r, const int* counts) {
  const std::size_t limit = eager_safe_bytes();
  return c.size() == 2 && std::size_t(counts[0]) * r.type->size <= limit &&
         std::size_t(counts[1]) * r.type->size <= limit;
}

int reduce_scatter_pair(const comm::Comm& c, const Reduction& r, const void* mine, void* result, const int* counts) {
  const int me = c.rank, other = 1 - me;
  const auto block_of = [&](int i) { return block(mine, *r.type, i == 0 ? 0 : counts[0], counts[i]); };
  const Typed own = block_of(me);
  const Typed out{result, counts[me], r.type};
  send_typed(c, other, kTagUserReduce, block_of(other));
  if (me == 1) {  // x1 into the result, x0 folded in
    copy_typed(own, out);
    Scratch x0(counts[1], *r.type);
    recv_typed(c, 0, kTagUserReduce, x0.typed());
    return dtype::reduce(r.op, x0.base(), result, counts[1], *r.type, r.type_handle);
  }
  if (own.buf != result) {  // x1 into the result, x0 folded in front of it
    recv_typed(c, 1, kTagUserReduce, out);
    return dtype::reduce(r.op, own.buf, result, counts[0], *r.type, r.type_handle);
  }
  Scratch x1(counts[0], *r.type);
  recv_typed(c, 1, kTagUserReduce, x1.typed());
  const int err = dtype::reduce(r.op, own.buf, x1.base(), counts[0], *r.type, r.type_handle);
  copy_typed(x1.typed(), out);
  return err;
}

}  // namespace

int reduce_scatter(const comm::Comm& c, const Reduction& r, const void* mine, void* result, const int* counts) {
  if (pair_exchange(c, r, counts)) return reduce_scatter_pair(c, r, mine, result, counts);
  Scratch all(r.count, *r.type);
  int err = reduce(c, r, mine, all.base(), 0);
  bcast_bytes(c, 0, &err, sizeof err);
  std::vector<int> displs(c.size());
  for (int i = 1; i < c.size(); ++i) displs[i] = displs[i - 1] + counts[i - 1];
  scatterv(c, all.base(), counts, displs.data(), *r.type, Typed{result, counts[c.rank], r.type}, false, 0);
  return err;
}

int scan(const comm::Comm& c, const Reduction& r, const void* mine, void* result, bool exclusive) {
  // partial(k) = x0 op ... op xk travels from rank k to rank k+1, one
  // message per hop (a pipeline: in a loop of scans rank 0 runs ahead). Each
  // rank folds with its own operation only, so an error stays local to its
  // rank. (Sending every contribution to every higher rank instead costs
  // n(n-1)/2 messages: twice as slow at np = 8 on 2 cores, measured.)
  // Each rank copies as little as it can (a 4-byte scan at np 2 is mostly
  // this function's copies and the message): rank 0 sends its own data as
  // it is; an inclusive rank folds the partial it received straight into
  // its result and passes the result on; an exclusive rank receives its
  // result straight from the message and folds a copy of its own data (taken
  // first: with MPI_IN_PLACE `mine` is the result) only to pass it on.
  const Typed own{mine, r.count, r.type};
  const Typed out{result, r.count, r.type};
  const bool last = c.rank + 1 == c.size();
  if (c.rank == 0) {
    if (!exclusive && mine != result) copy_typed(own, out);
    if (!last) send_typed(c, 1, kTagUserScan, own);
    return MPI_SUCCESS;
  }
  int err = MPI_SUCCESS;
  if (!exclusive) {
    Scratch prev(r.count, *r.type);
    recv_typed(c, c.rank - 1, kTagUserScan, prev.typed());
    if (mine != result) copy_typed(own, out);
    err = apply(r, prev.base(), result);  // x0 op ... op x(rank-1), then op x(rank)
    if (!last) send_typed(c, c.rank + 1, kTagUserScan, out);
  } else if (last) {
    recv_typed(c, c.rank - 1, kTagUserScan, out);
  } else {
    Scratch acc(r.count, *r.type);
    copy_typed(own, acc.typed());
    recv_typed(c, c.rank - 1, kTagUserScan, out);
    err = apply(r, result, acc.base());  // the received partial op x(rank)
    send_typed(c, c.rank + 1, kTagUserScan, acc.typed());
  }
  return err;
}

}  // namespace ringmpi::coll
