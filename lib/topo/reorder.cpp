// See reorder.hpp. Pure functions of the layout and the processes' domains,
// so they are tested on hwloc synthetic machines (tests/unit/topo).
#include "topo/reorder.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <queue>

namespace ringmpi::topo {
namespace {

// Appends the cells of the box [lo, hi) of a grid of `dims` in bisection order.
void bisect(const std::vector<int>& dims, std::vector<int>& lo, std::vector<int>& hi, std::vector<int>& out) {
  std::size_t widest = 0;
  for (std::size_t d = 0; d < dims.size(); ++d)
    if (hi[d] - lo[d] > hi[widest] - lo[widest]) widest = d;
  if (dims.empty() || hi[widest] - lo[widest] <= 1) {
    int cell = 0;
    for (std::size_t d = 0; d < dims.size(); ++d) cell = cell * dims[d] + lo[d];
    out.push_back(cell);
    return;
  }
  const int mid = lo[widest] + (hi[widest] - lo[widest] + 1) / 2;
  const int save_hi = hi[widest], save_lo = lo[widest];
  hi[widest] = mid;
  bisect(dims, lo, hi, out);
  hi[widest] = save_hi;
  lo[widest] = mid;
  bisect(dims, lo, hi, out);
  lo[widest] = save_lo;
}

}  // namespace

std::vector<int> bisection_order(const std::vector<int>& dims) {
  std::vector<int> lo(dims.size(), 0), hi(dims), out;
  for (int d : dims)
    if (d <= 0) return out;
  bisect(dims, lo, hi, out);
  return out;
}

std::vector<int> breadth_first_order(const std::vector<std::vector<int>>& adj) {
  const std::size_t n = adj.size();
  std::vector<char> seen(n, 0);
  std::vector<int> out;
  out.reserve(n);
  for (std::size_t s = 0; s < n; ++s) {
    if (seen[s]) continue;
    std::queue<int> q;
    q.push(static_cast<int>(s));
    seen[s] = 1;
    while (!q.empty()) {
      const int v = q.front();
      q.pop();
      out.push_back(v);
      for (int w : adj[static_cast<std::size_t>(v)])
        if (w >= 0 && static_cast<std::size_t>(w) < n && !seen[static_cast<std::size_t>(w)]) {
          seen[static_cast<std::size_t>(w)] = 1;
          q.push(w);
        }
    }
  }
  return out;
}

std::vector<int> place(const std::vector<int>& order, const std::vector<std::vector<int>>& levels) {
  std::vector<int> procs(order.size());
  std::iota(procs.begin(), procs.end(), 0);
  std::stable_sort(procs.begin(), procs.end(), [&](int a, int b) {
    for (const auto& l : levels)
      if (l[static_cast<std::size_t>(a)] != l[static_cast<std::size_t>(b)])
        return l[static_cast<std::size_t>(a)] < l[static_cast<std::size_t>(b)];
    return false;
  });
  std::vector<int> position_of(order.size());
  for (std::size_t k = 0; k < procs.size(); ++k) position_of[static_cast<std::size_t>(procs[k])] = order[k];
  return position_of;
}

int crossing_pairs(const std::vector<std::vector<int>>& adj, const std::vector<int>& domain_at) {
  int n = 0;
  for (std::size_t i = 0; i < adj.size(); ++i)
    for (int j : adj[i])
      if (static_cast<std::size_t>(j) > i && domain_at[i] != domain_at[static_cast<std::size_t>(j)]) ++n;
  return n;
}

std::vector<std::vector<int>> grid_adjacency(const std::vector<int>& dims, const std::vector<int>& periods) {
  int cells = 1;
  for (int d : dims) cells *= d;
  std::vector<std::vector<int>> adj(static_cast<std::size_t>(std::max(cells, 0)));
  int stride = cells;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    stride /= dims[d];
    for (int c = 0; c < cells; ++c) {
      const int x = (c / stride) % dims[d];
      int next = -1;
      if (x + 1 < dims[d])
        next = c + stride;
      else if (periods[d] && dims[d] > 2)
        next = c - x * stride;  // wraps to coordinate 0
      if (next < 0 || next == c) continue;
      adj[static_cast<std::size_t>(c)].push_back(next);
      adj[static_cast<std::size_t>(next)].push_back(c);
    }
  }
  return adj;
}

}  // namespace ringmpi::topo
