#include "coll/movement.hpp"

#include <cstring>
#include <vector>

#include "coll/base.hpp"

namespace ringmpi::coll {
namespace {
// A block this small is sent without waiting for its receiver
// (exchange/exchange.hpp), so a rank may send all of them before it receives.
// (`limit`: eager_safe_bytes(), which a loop over many blocks reads once.)
bool eager_block(int count, const dtype::Datatype& t, std::size_t limit = eager_safe_bytes()) {
  return static_cast<std::size_t>(count) * t.size <= limit;
}
}  // namespace

void bcast(const comm::Comm& c, const Typed& buf, int root) {
  if (c.size() == 1 || buf.bytes() == 0) return;
  if (buf.type->contiguous()) {
    bcast_bytes(c, root, const_cast<void*>(buf.buf), buf.bytes());
    return;
  }
  std::vector<std::byte> tmp(buf.bytes());
  if (c.rank == root) dtype::pack(buf.buf, buf.count, *buf.type, 0, tmp.data(), tmp.size());
  bcast_bytes(c, root, tmp.data(), tmp.size());
  if (c.rank != root) dtype::unpack(const_cast<void*>(buf.buf), buf.count, *buf.type, 0, tmp.data(), tmp.size());
}

void gatherv(const comm::Comm& c, const Typed& send, bool in_place, const void* recvbuf, const int* counts,
             const int* displs, const dtype::Datatype& rtype, int root) {
  // An empty block is neither sent nor received: both sides know it is
  // empty (matching type signatures), and the tag is the same for every
  // gather, so the messages that do travel still pair up in order.
  if (c.rank != root) {
    if (send.bytes() != 0) send_typed(c, root, kTagUserGather, send);
    return;
  }
  for (int i = 0; i < c.size(); ++i) {
    const Typed dst = block(recvbuf, rtype, displs[i], counts[i]);
    if (i == root) {
      if (!in_place) copy_typed(send, dst);
    } else if (dst.bytes() != 0) {
      recv_typed(c, i, kTagUserGather, dst);
    }
  }
}

void scatterv(const comm::Comm& c, const void* sendbuf, const int* counts, const int* displs,
              const dtype::Datatype& stype, const Typed& recv, bool in_place, int root) {
  // Empty blocks do not travel (as in gatherv).
  if (c.rank != root) {
    if (recv.bytes() != 0) recv_typed(c, root, kTagUserScatter, recv);
    return;
  }
  for (int i = 0; i < c.size(); ++i) {
    const Typed src = block(sendbuf, stype, displs[i], counts[i]);
    if (i == root) {
      if (!in_place) copy_typed(src, recv);
    } else if (src.bytes() != 0) {
      send_typed(c, i, kTagUserScatter, src);
    }
  }
}

void allgatherv(const comm::Comm& c, const Typed& send, bool in_place, void* recvbuf, const int* counts,
                const int* displs, const dtype::Datatype& rtype) {
  const int n = c.size();
  // Own block into place first, then gather at 0 with everything in place.
  if (!in_place) copy_typed(send, block(recvbuf, rtype, displs[c.rank], counts[c.rank]));
  if (n == 1) return;
  // Small blocks (every rank knows every count, so all choose alike): each
  // rank sends its block to every other, then receives theirs; one step of
  // latency instead of a gather and a broadcast.
  bool small = true;
  const std::size_t eager_safe = eager_safe_bytes();
  for (int i = 0; i < n && small; ++i) small = eager_block(counts[i], rtype, eager_safe);
  if (small) {
    // Empty blocks do not travel (every rank knows every count).
    const Typed own = block(recvbuf, rtype, displs[c.rank], counts[c.rank]);
    if (own.bytes() != 0)
      for (int k = 1; k < n; ++k) send_typed(c, (c.rank + k) % n, kTagUserGather, own);
    for (int k = 1; k < n; ++k) {
      const int i = (c.rank - k + n) % n;
      const Typed b = block(recvbuf, rtype, displs[i], counts[i]);
      if (b.bytes() != 0) recv_typed(c, i, kTagUserGather, b);
    }
    return;
  }
  if (c.rank != 0) {
    send_typed(c, 0, kTagUserGather, block(recvbuf, rtype, displs[c.rank], counts[c.rank]));
  } else {
    for (int i = 1; i < n; ++i) recv_typed(c, i, kTagUserGather, block(recvbuf, rtype, displs[i], counts[i]));
  }
  // Broadcast all blocks as one packed stream.
  std::size_t total = 0;
  for (int i = 0; i < n; ++i) total += static_cast<std::size_t>(counts[i]) * rtype.size;
  std::vector<std::byte> all(total);
  std::size_t at = 0;
  if (c.rank == 0)
    for (int i = 0; i < n; ++i) {
      const Typed b = block(recvbuf, rtype, displs[i], counts[i]);
      dtype::pack(b.buf, b.count, rtype, 0, all.data() + at, b.bytes());
      at += b.bytes();
    }
  bcast_bytes(c, 0, all.data(), total);
  if (c.rank != 0)
    for (int i = 0; i < n; ++i) {
      const Typed b = block(recvbuf, rtype, displs[i], counts[i]);
      dtype::unpack(const_cast<void*>(b.buf), b.count, rtype, 0, all.data() + at, b.bytes());
      at += b.bytes();
    }
}

int round_robin_rounds(int n) { return n % 2 == 0 ? n - 1 : n; }

int round_robin_partner(int n, int rank, int t) {
  // Circle method on m = n (even) or n + 1 (odd, with a dummy player n).
  const int m = n % 2 == 0 ? n : n + 1;
  const int k = m - 1;  // odd
  int p;
  if (rank == m - 1) {
    p = static_cast<int>((static_cast<long long>(t) * (m / 2)) % k);  // solves 2p = t (mod k)
  } else {
    p = ((t - rank) % k + k) % k;
    if (p == rank) p = m - 1;
  }
  return p >= n ? -1 : p;
}

void alltoallv(const comm::Comm& c, const void* sendbuf, const int* scounts, const int* sdispls,
               const dtype::Datatype& stype, void* recvbuf, const int* rcounts, const int* rdispls,
               const dtype::Datatype& rtype, bool in_place) {
  const int n = c.size();
  const int me = c.rank;
  // With MPI_IN_PLACE the data to send is in recvbuf, laid out as received:
  // keep a packed copy of the outgoing blocks before they are overwritten.
  std::vector<std::vector<std::byte>> saved;
  if (in_place) {
    saved.resize(n);
    for (int i = 0; i < n; ++i) {
      const Typed b = block(recvbuf, rtype, rdispls[i], rcounts[i]);
      saved[i].resize(b.bytes());
      dtype::pack(b.buf, b.count, rtype, 0, saved[i].data(), b.bytes());
    }
  } else {
    copy_typed(block(sendbuf, stype, sdispls[me], scounts[me]), block(recvbuf, rtype, rdispls[me], rcounts[me]));
  }
  // Empty blocks do not travel: the sender's block to p and p's receive
  // block from it have the same size (matching signatures), so both skip it
  // and the messages that do travel still pair up in order.
  auto do_send = [&](int p) {
    if (in_place) {
      if (!saved[p].empty()) send_bytes(c, p, kTagUserAlltoall, saved[p].data(), saved[p].size());
    } else if (const Typed b = block(sendbuf, stype, sdispls[p], scounts[p]); b.bytes() != 0) {
      send_typed(c, p, kTagUserAlltoall, b);
    }
  };
  auto do_recv = [&](int p) {
    if (const Typed b = block(recvbuf, rtype, rdispls[p], rcounts[p]); b.bytes() != 0)
      recv_typed(c, p, kTagUserAlltoall, b);
  };
  // Small blocks go first, all sends then all receives: they need no
  // receiver to complete. Sender and receiver of a block agree on "small"
  // (matching signatures have the same byte count), so each direction of a
  // pair is either here or in the pairwise rounds below, on both sides.
  // (With MPI_IN_PLACE the send counts are the receive counts.)
  const auto small_out = [&](int p) {
    return in_place ? eager_block(rcounts[p], rtype) : eager_block(scounts[p], stype);
  };
  const auto small_in = [&](int p) { return eager_block(rcounts[p], rtype); };
  for (int k = 1; k < n; ++k) {
    const int p = (me + k) % n;
    if (small_out(p)) do_send(p);
  }
  for (int k = 1; k < n; ++k) {
    const int p = (me - k + n) % n;
    if (small_in(p)) do_recv(p);
  }
  // Large blocks: pairwise rounds, the lower rank sending first, so a
  // blocking rendezvous always meets its receive.
  for (int t = 0; t < round_robin_rounds(n); ++t) {
    const int p = round_robin_partner(n, me, t);
    if (p < 0 || p == me) continue;
    if (me < p) {
      if (!small_out(p)) do_send(p);
      if (!small_in(p)) do_recv(p);
    } else {
      if (!small_in(p)) do_recv(p);
      if (!small_out(p)) do_send(p);
    }
  }
}

}  // namespace ringmpi::coll
