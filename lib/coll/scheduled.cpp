// Intracommunicator collectives as schedules (see scheduled.hpp).
#include "coll/scheduled.hpp"

#include <memory>
#include <vector>

#include "coll/partition.hpp"
#include "dtype/op.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::coll {

void sched_send(Schedule& s, int to, const Typed& t) {
  const std::size_t n = t.bytes();
  if (n == 0 || t.type->contiguous()) {
    s.send(to, t.buf, n);
    return;
  }
  std::byte* p = s.scratch(n);
  s.local([t, p, n] {
    dtype::pack(t.buf, t.count, *t.type, 0, p, n);
    return MPI_SUCCESS;
  });
  s.send(to, p, n);
}

void sched_recv(Schedule& s, int from, const Typed& t) {
  const std::size_t n = t.bytes();
  if (n == 0 || t.type->contiguous()) {
    s.recv(from, const_cast<void*>(t.buf), n);
    return;
  }
  std::byte* p = s.scratch(n);
  s.recv(from, p, n);
  s.after_round([t, p, n] {
    dtype::unpack(const_cast<void*>(t.buf), t.count, *t.type, 0, p, n);
    return MPI_SUCCESS;
  });
}

void sched_copy(Schedule& s, const Typed& from, const Typed& to) {
  s.local([from, to] {
    copy_typed(from, to);
    return MPI_SUCCESS;
  });
}

namespace {

Typed at(const void* base, const Block& b) {
  return {static_cast<const std::byte*>(base) + b.displ, b.count, b.type};
}

// Storage for one reduction operand in user layout, owned by the schedule.
void* operand(Schedule& s, const Reduction& r) {
  const Footprint f = footprint(r.count, *r.type);
  return s.scratch(f.bytes) - f.offset;
}

}  // namespace

// result = x[0] op x[1] op ... op x[k-1], folded from the right (each
// operand is the `in` of one op call, the accumulator its `inout`).
void sched_fold(Schedule& s, const Reduction& r, std::vector<const void*> x, void* result) {
  void* acc = operand(s, r);
  s.local([r, x = std::move(x), acc, result] {
    const Typed tacc{acc, r.count, r.type};
    copy_typed(Typed{x.back(), r.count, r.type}, tacc);
    int err = MPI_SUCCESS;
    for (std::size_t i = x.size() - 1; i-- > 0;) {
      const int e = dtype::reduce(r.op, x[i], acc, r.count, *r.type, r.type_handle);
      if (err == MPI_SUCCESS) err = e;
    }
    copy_typed(tacc, Typed{result, r.count, r.type});
    return err;
  });
}

void sched_barrier(Schedule& s) {
  const int n = s.peers().size(), me = s.peers().me;
  for (int d = 1; d < n; d *= 2) {
    s.send((me + d) % n, nullptr, 0);
    s.recv((me - d + n) % n, nullptr, 0);
    s.round();
  }
}

void sched_bcast(Schedule& s, const Typed& buf, int root) {
  const int n = s.peers().size(), me = s.peers().me;
  const std::size_t bytes = buf.bytes();
  if (n == 1 || bytes == 0) return;
  // Binomial tree over virtual ranks (root = 0), on the packed stream.
  const bool contig = buf.type->contiguous();
  void* data = contig ? const_cast<void*>(buf.buf) : s.scratch(bytes);
  if (!contig && me == root)
    s.local([buf, data, bytes] {
      dtype::pack(buf.buf, buf.count, *buf.type, 0, data, bytes);
      return MPI_SUCCESS;
    });
  const int vr = (me - root + n) % n;
  int mask = 1;
  while (mask < n && !(vr & mask)) mask <<= 1;
  if (vr != 0) {
    s.recv((vr - mask + root) % n, data, bytes);
    s.round();
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) s.send((vr + mask + root) % n, data, bytes);
  if (!contig && me != root)
    s.local([buf, data, bytes] {
      dtype::unpack(const_cast<void*>(buf.buf), buf.count, *buf.type, 0, data, bytes);
      return MPI_SUCCESS;
    });
  s.round();
}

void sched_gatherv(Schedule& s, const Typed& send, bool in_place, const void* recvbuf, const int* counts,
                   const int* displs, const dtype::Datatype& rtype, int root) {
  const int n = s.peers().size(), me = s.peers().me;
  // Empty blocks do not travel (both sides know the size: matching
  // signatures), here and in the other v forms below; the schedule still
  // takes its tag, so the collectives after it keep theirs.
  if (me != root) {
    if (send.bytes() != 0) sched_send(s, root, send);
  } else {
    for (int i = 0; i < n; ++i) {
      const Typed dst = block(recvbuf, rtype, displs[i], counts[i]);
      if (i != root) {
        if (dst.bytes() != 0) sched_recv(s, i, dst);
      } else if (!in_place) {
        sched_copy(s, send, dst);
      }
    }
  }
  s.round();
}

void sched_scatterv(Schedule& s, const void* sendbuf, const int* counts, const int* displs,
                    const dtype::Datatype& stype, const Typed& recv, bool in_place, int root) {
  const int n = s.peers().size(), me = s.peers().me;
  if (me != root) {
    if (recv.bytes() != 0) sched_recv(s, root, recv);
  } else {
    for (int i = 0; i < n; ++i) {
      const Typed src = block(sendbuf, stype, displs[i], counts[i]);
      if (i != root) {
        if (src.bytes() != 0) sched_send(s, i, src);
      } else if (!in_place) {
        sched_copy(s, src, recv);
      }
    }
  }
  s.round();
}

void sched_allgatherv(Schedule& s, const Typed& send, bool in_place, void* recvbuf, const int* counts,
                      const int* displs, const dtype::Datatype& rtype) {
  const int n = s.peers().size(), me = s.peers().me;
  const Typed own = block(recvbuf, rtype, displs[me], counts[me]);
  if (!in_place) sched_copy(s, send, own);
  if (own.bytes() != 0)
    for (int k = 1; k < n; ++k) sched_send(s, (me + k) % n, own);
  for (int k = 1; k < n; ++k) {
    const int i = (me - k + n) % n;
    const Typed b = block(recvbuf, rtype, displs[i], counts[i]);
    if (b.bytes() != 0) sched_recv(s, i, b);
  }
  s.round();
}

void sched_alltoallw(Schedule& s, const void* sendbuf, const std::vector<Block>& sends, void* recvbuf,
                     const std::vector<Block>& recvs, bool in_place) {
  const int n = s.peers().size(), me = s.peers().me;
  if (in_place) {
    // Save every outgoing block (as received, in recvbuf) before any
    // receive can overwrite it: the packing steps run before the receives start.
    for (int k = 1; k < n; ++k) {
      const int p = (me + k) % n;
      const Typed b = at(recvbuf, recvs[static_cast<std::size_t>(p)]);
      if (b.bytes() == 0) continue;
      std::byte* saved = s.scratch(b.bytes());
      s.local([b, saved] {
        if (b.bytes()) dtype::pack(b.buf, b.count, *b.type, 0, saved, b.bytes());
        return MPI_SUCCESS;
      });
      s.send(p, saved, b.bytes());
    }
  } else {
    sched_copy(s, at(sendbuf, sends[static_cast<std::size_t>(me)]), at(recvbuf, recvs[static_cast<std::size_t>(me)]));
    for (int k = 1; k < n; ++k) {
      const int p = (me + k) % n;
      const Typed b = at(sendbuf, sends[static_cast<std::size_t>(p)]);
      if (b.bytes() != 0) sched_send(s, p, b);
    }
  }
  for (int k = 1; k < n; ++k) {
    const int p = (me - k + n) % n;
    const Typed b = at(recvbuf, recvs[static_cast<std::size_t>(p)]);
    if (b.bytes() != 0) sched_recv(s, p, b);
  }
  s.round();
}

namespace {

// Rank i owns block i of the vector (counts[i] elements at displs[i]):
// every rank sends block i of its contribution to rank i and folds the n
// blocks it receives for its own block in rank order into `out`. Each
// element is folded by one rank only, in rank order, so the result is the
// rank-order fold bit for bit; each rank moves (n-1)/n of the vector once.
void reduce_blocks(Schedule& s, const Reduction& r, const void* mine, const int* counts, const std::vector<int>& displs,
                   void* out) {
  const int n = s.peers().size(), me = s.peers().me;
  const Reduction mine_r{r.op, r.type_handle, r.type, counts[me]};
  std::vector<const void*> x(static_cast<std::size_t>(n));
  for (int k = 1; k < n; ++k) {
    const int p = (me + k) % n;
    sched_send(s, p, block(mine, *r.type, displs[static_cast<std::size_t>(p)], counts[p]));
  }
  for (int k = 1; k < n; ++k) {
    const int p = (me - k + n) % n;
    void* in = operand(s, mine_r);
    sched_recv(s, p, Typed{in, counts[me], r.type});
    x[static_cast<std::size_t>(p)] = in;
  }
  x[static_cast<std::size_t>(me)] = block(mine, *r.type, displs[static_cast<std::size_t>(me)], counts[me]).buf;
  s.round();
  if (counts[me] > 0) sched_fold(s, mine_r, std::move(x), out);
  s.round();
}

}  // namespace

void sched_neighbor_alltoallw(Schedule& s, const void* sendbuf, std::span<const Block> sends,
                              const std::vector<int>& destinations, void* recvbuf, std::span<const Block> recvs,
                              const std::vector<int>& sources, const std::vector<int>& recv_order) {
  for (std::size_t j = 0; j < destinations.size(); ++j)
    if (destinations[j] != MPI_PROC_NULL) sched_send(s, destinations[j], at(sendbuf, sends[j]));
  for (int i : recv_order) {
    const std::size_t k = static_cast<std::size_t>(i);
    if (sources[k] != MPI_PROC_NULL) sched_recv(s, sources[k], at(recvbuf, recvs[k]));
  }
  s.round();
}

void sched_reduce(Schedule& s, const Reduction& r, const void* mine, void* result, int root) {
  const int n = s.peers().size(), me = s.peers().me;
  if (reduce_by_blocks(r, n, s.block_reduction_min)) {
    // Rank i folds block i, then the root gathers the blocks.
    const std::vector<int> counts = even_counts(r.count, n);
    const std::vector<int> displs = prefix(n, counts.data());
    const Reduction mine_r{r.op, r.type_handle, r.type, counts[me]};
    void* own = operand(s, mine_r);
    reduce_blocks(s, r, mine, counts.data(), displs, own);
    sched_gatherv(s, Typed{own, counts[me], r.type}, false, result, counts.data(), displs.data(), *r.type, root);
    return;
  }
  if (me != root) {
    sched_send(s, root, Typed{mine, r.count, r.type});
    s.round();
    return;
  }
  std::vector<const void*> x(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    if (i == root) {
      x[static_cast<std::size_t>(i)] = mine;
      continue;
    }
    void* in = operand(s, r);
    sched_recv(s, i, Typed{in, r.count, r.type});
    x[static_cast<std::size_t>(i)] = in;
  }
  s.round();
  sched_fold(s, r, std::move(x), result);
  s.round();
}

bool reduce_by_blocks(const Reduction& r, int n, std::size_t min_bytes) {
  return n > 1 && r.count >= n && static_cast<std::size_t>(r.count) * r.type->size >= min_bytes;
}

bool fan_out_scheduled(std::size_t block_bytes) { return block_bytes > eager_safe_bytes(); }

bool allgather_direct(int n, const int* counts, const dtype::Datatype& t, std::size_t min_bytes) {
  std::size_t total = 0;
  for (int i = 0; i < n; ++i) total += static_cast<std::size_t>(counts[i]) * t.size;
  return n > 1 && total >= min_bytes;
}

void sched_allreduce(Schedule& s, const Reduction& r, const void* mine, void* result) {
  const int n = s.peers().size();
  const std::size_t bytes = static_cast<std::size_t>(r.count) * r.type->size;
  if (n > 2 && static_cast<std::size_t>(n) <= s.alltoall_reduce_ranks && bytes <= eager_safe_bytes()) {
    // Every rank sends its contribution to every other and folds all of them
    // in rank order: one round, the same bits everywhere.
    const int me = s.peers().me;
    std::vector<const void*> x(static_cast<std::size_t>(n));
    for (int k = 1; k < n; ++k) sched_send(s, (me + k) % n, Typed{mine, r.count, r.type});
    for (int k = 1; k < n; ++k) {
      const int p = (me - k + n) % n;
      void* in = operand(s, r);
      sched_recv(s, p, Typed{in, r.count, r.type});
      x[static_cast<std::size_t>(p)] = in;
    }
    x[static_cast<std::size_t>(me)] = mine;
    s.round();
    sched_fold(s, r, std::move(x), result);
    s.round();
    return;
  }
  if (!reduce_by_blocks(r, n, s.block_reduction_min)) {
    sched_reduce(s, r, mine, result, 0);
    sched_bcast(s, Typed{result, r.count, r.type}, 0);
    return;
  }
  // Reduce-scatter by blocks, then every rank sends its reduced block to all.
  const std::vector<int> counts = even_counts(r.count, n);
  const std::vector<int> displs = prefix(n, counts.data());
  const int me = s.peers().me;
  reduce_blocks(s, r, mine, counts.data(), displs,
                const_cast<void*>(block(result, *r.type, displs[static_cast<std::size_t>(me)], counts[me]).buf));
  sched_allgatherv(s, Typed{nullptr, 0, r.type}, true, result, counts.data(), displs.data(), *r.type);
}

namespace {

// With more ranks than cores and at least this many ranks, a reduce-scatter
// large enough for blocks runs as a chain instead (chain_reduce_scatter):
// by blocks, every rank sends n - 1 messages and folds n - 1 received ones,
// n^2 messages in all (4032 at np = 64, each rank needing a core once per
// message that fills or drains its rings), where the chain moves n - 1
// whole vectors and scatters n - 1 blocks.
constexpr int kChainReduceScatterMinRanks = 16;

// The right fold x0 op (x1 op (... op x(n-1))) along the ranks: rank n - 1
// sends its vector to rank n - 2, rank i folds x(i) op (what it received)
// and passes it down, rank 0 ends with the whole result and scatters the
// blocks. Every element is folded in the order the by-blocks fold uses, so
// both give the same bits, also for non-commutative operations.
void chain_reduce_scatter(Schedule& s, const Reduction& r, const void* mine, void* result, const int* counts,
                          const std::vector<int>& displs) {
  const int n = s.peers().size(), me = s.peers().me;
  void* acc = nullptr;
  if (me == n - 1) {
    sched_send(s, me - 1, Typed{mine, r.count, r.type});
    s.round();
  } else {
    acc = operand(s, r);
    sched_recv(s, me + 1, Typed{acc, r.count, r.type});
    s.round();
    s.local([r, mine, acc] { return dtype::reduce(r.op, mine, acc, r.count, *r.type, r.type_handle); });
    if (me > 0) {
      sched_send(s, me - 1, Typed{acc, r.count, r.type});
      s.round();
    }
  }
  sched_scatterv(s, acc, counts, displs.data(), *r.type, Typed{result, counts[me], r.type}, false, 0);
}

}  // namespace

void sched_reduce_scatter(Schedule& s, const Reduction& r, const void* mine, void* result, const int* counts) {
  const int n = s.peers().size(), me = s.peers().me;
  const std::vector<int> displs = prefix(n, counts);
  if (reduce_by_blocks(r, n, s.block_reduction_min) && n >= kChainReduceScatterMinRanks && p2p::oversubscribed()) {
    chain_reduce_scatter(s, r, mine, result, counts, displs);
    return;
  }
  if (reduce_by_blocks(r, n, s.block_reduction_min)) {
    reduce_blocks(s, r, mine, counts, displs, result);
    return;
  }
  void* all = me == 0 ? operand(s, r) : nullptr;
  sched_reduce(s, r, mine, all, 0);
  sched_scatterv(s, all, counts, displs.data(), *r.type, Typed{result, counts[me], r.type}, false, 0);
}

void sched_scan(Schedule& s, const Reduction& r, const void* mine, void* result, bool exclusive) {
  // partial(k) = x0 op ... op xk travels from rank k to rank k+1.
  const int n = s.peers().size(), me = s.peers().me;
  void* acc = operand(s, r);
  const Typed tacc{acc, r.count, r.type}, tres{result, r.count, r.type}, own{mine, r.count, r.type};
  if (me == 0) {
    sched_copy(s, own, tacc);
    if (!exclusive) sched_copy(s, own, tres);
  } else {
    void* prev = operand(s, r);
    const Typed tprev{prev, r.count, r.type};
    sched_recv(s, me - 1, tprev);
    s.round();
    s.local([r, tacc, tprev, tres, own, exclusive] {
      copy_typed(own, tacc);
      const int e = dtype::reduce(r.op, tprev.buf, const_cast<void*>(tacc.buf), r.count, *r.type, r.type_handle);
      copy_typed(exclusive ? tprev : tacc, tres);
      return e;
    });
  }
  if (me + 1 < n) sched_send(s, me + 1, tacc);
  s.round();
}

}  // namespace ringmpi::coll
