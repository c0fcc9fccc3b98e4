#include "topo/topology.hpp"

#include <algorithm>
#include <climits>

#include "mpi.h"

namespace ringmpi::topo {

int Topology::cart_size() const {
  long long n = 1;
  for (int d : dims) n *= d;
  return static_cast<int>(n);
}

int Topology::cart_rank(const int* coords) const {
  int rank = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    int c = coords[i];
    if (periods[i]) {
      c %= dims[i];
      if (c < 0) c += dims[i];
    } else if (c < 0 || c >= dims[i]) {
      return -1;
    }
    rank = rank * dims[i] + c;
  }
  return rank;
}

void Topology::cart_coords(int rank, int* coords) const {
  for (std::size_t i = dims.size(); i-- > 0;) {
    coords[i] = rank % dims[i];
    rank /= dims[i];
  }
}

void Topology::cart_shift(int rank, int dir, int disp, int* source, int* dest) const {
  std::vector<int> c(dims.size());
  cart_coords(rank, c.data());
  const int here = c[dir];
  auto at = [&](long long v) {
    c[dir] = static_cast<int>(periods[dir] ? ((v % dims[dir]) + dims[dir]) % dims[dir] : v);
    if (!periods[dir] && (v < 0 || v >= dims[dir])) return MPI_PROC_NULL;
    return cart_rank(c.data());
  };
  *dest = at(static_cast<long long>(here) + disp);
  *source = at(static_cast<long long>(here) - disp);
}

int Topology::graph_degree(int rank) const { return index[rank] - (rank == 0 ? 0 : index[rank - 1]); }

const int* Topology::graph_neighbors(int rank) const { return edges.data() + (rank == 0 ? 0 : index[rank - 1]); }

namespace {
// Best non-increasing factorisation of n into k factors: smallest largest
// factor, then smallest spread (the most "square" grid).
void best_split(long long n, int k, long long max_factor, std::vector<long long>& cur,
                std::vector<long long>& best) {
  if (k == 0) {
    if (n != 1) return;
    if (best.empty() || cur.front() - cur.back() < best.front() - best.back() ||
        (cur.front() - cur.back() == best.front() - best.back() && cur.front() < best.front()))
      best = cur;
    return;
  }
  if (k == 1) {
    if (n <= max_factor) {
      cur.push_back(n);
      best_split(1, 0, n, cur, best);
      cur.pop_back();
    }
    return;
  }
  for (long long f = std::min(n, max_factor); f >= 1; --f) {
    if (n % f) continue;
    // The remaining k-1 factors are all <= f, so f^(k-1) must reach n/f.
    long long cap = 1;
    for (int i = 0; i < k - 1 && cap < n / f; ++i) cap *= f;
    if (cap < n / f) break;
    cur.push_back(f);
    best_split(n / f, k - 1, f, cur, best);
    cur.pop_back();
  }
}
}  // namespace

std::string dims_create(int nnodes, int ndims, int* dims) {
  if (nnodes < 0) return "nnodes=" + std::to_string(nnodes) + " is negative";
  if (ndims < 0) return "ndims=" + std::to_string(ndims) + " is negative";
  long long fixed = 1;
  int free_dims = 0;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 0) return "dims[" + std::to_string(i) + "]=" + std::to_string(dims[i]) + " is negative";
    if (dims[i] == 0)
      ++free_dims;
    else
      fixed *= dims[i];
  }
  if (nnodes == 0) {
    if (fixed != 1 && free_dims == 0) return "nnodes=0 but dims are all set";
    for (int i = 0; i < ndims; ++i)
      if (dims[i] == 0) dims[i] = 0;
    return "";
  }
  if (nnodes % fixed != 0)
    return "nnodes=" + std::to_string(nnodes) + " is not a multiple of the product of the non-zero dims (" +
           std::to_string(fixed) + ")";
  const long long rest = nnodes / fixed;
  if (free_dims == 0) {
    if (rest != 1)
      return "the product of dims (" + std::to_string(fixed) + ") is not nnodes=" + std::to_string(nnodes);
    return "";
  }
  std::vector<long long> cur, best;
  best_split(rest, free_dims, rest, cur, best);
  int k = 0;
  for (int i = 0; i < ndims; ++i)
    if (dims[i] == 0) dims[i] = static_cast<int>(best[k++]);
  return "";
}

std::string graph_invalid(int nnodes, const int* index, const int* edges) {
  int prev = 0;
  for (int i = 0; i < nnodes; ++i) {
    if (index[i] < prev)
      return "index[" + std::to_string(i) + "]=" + std::to_string(index[i]) + " is smaller than index[" +
             std::to_string(i - 1) + "]";
    prev = index[i];
  }
  const int nedges = nnodes > 0 ? index[nnodes - 1] : 0;
  for (int e = 0; e < nedges; ++e)
    if (edges[e] < 0 || edges[e] >= nnodes)
      return "edges[" + std::to_string(e) + "]=" + std::to_string(edges[e]) + " is outside 0.." +
             std::to_string(nnodes - 1);
  return "";
}

}  // namespace ringmpi::topo
