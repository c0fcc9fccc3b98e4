// See graph_map.hpp. Greedy graph growing then pairwise-swap refinement
// (a Kernighan-Lin pass without its lookahead): cheap, deterministic (every
// rank computes the same placement from the same inputs, which the
// constructors rely on), and exact enough for the sizes a single node holds.
#include "topo/graph_map.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <numeric>

#include "topo/criterion.hpp"

namespace ringmpi::topo {
namespace {

using i64 = std::int64_t;
using std::size_t;

// Swap refinement costs O(n^2) per pass and an n x parts table; beyond this
// many nodes the greedy partition is kept as it is.
constexpr int kRefineMaxNodes = 1024;
constexpr int kRefinePasses = 8;

size_t at(int i) { return static_cast<size_t>(i); }

// Greedy growing: part[v] in 0..caps.size()-1, part k holding caps[k] nodes.
std::vector<int> grow(const CommGraph& g, const std::vector<int>& caps) {
  const int n = g.size();
  std::vector<int> part(at(n), -1);
  std::vector<i64> free_ties(at(n), 0);  // weight to nodes not yet placed
  for (int v = 0; v < n; ++v)
    for (auto [u, w] : g.adj[at(v)]) free_ties[at(v)] += w;
  for (int k = 0; k < static_cast<int>(caps.size()); ++k) {
    std::vector<i64> part_ties(at(n), 0);  // weight to part k
    for (int filled = 0; filled < caps[at(k)]; ++filled) {
      int best = -1;
      for (int v = 0; v < n; ++v) {
        if (part[at(v)] >= 0) continue;
        if (best < 0 || part_ties[at(v)] > part_ties[at(best)] ||
            (part_ties[at(v)] == part_ties[at(best)] && free_ties[at(v)] < free_ties[at(best)]))
          best = v;
      }
      part[at(best)] = k;
      for (auto [u, w] : g.adj[at(best)]) {
        free_ties[at(u)] -= w;
        if (part[at(u)] < 0) part_ties[at(u)] += w;
      }
    }
  }
  return part;
}

// Swaps two nodes of different parts while that lowers the cut.
void refine(const CommGraph& g, int parts, std::vector<int>& part) {
  const int n = g.size();
  if (n > kRefineMaxNodes || parts < 2) return;
  std::vector<i64> tie(at(n) * at(parts), 0);  // tie[v * parts + k]: weight from v to part k
  auto T = [&](int v, int k) -> i64& { return tie[at(v) * at(parts) + at(k)]; };
  for (int v = 0; v < n; ++v)
    for (auto [u, w] : g.adj[at(v)]) T(v, part[at(u)]) += w;
  std::vector<i64> w_to(at(n), 0);  // weights from the current u, dense
  for (int pass = 0; pass < kRefinePasses; ++pass) {
    bool improved = false;
    for (int u = 0; u < n; ++u) {
      const int a = part[at(u)];
      for (auto [x, w] : g.adj[at(u)]) w_to[at(x)] = w;
      int best = -1;
      i64 best_gain = 0;
      for (int v = 0; v < n; ++v) {
        const int b = part[at(v)];
        if (b == a) continue;
        const i64 gain = T(u, b) - T(u, a) + T(v, a) - T(v, b) - 2 * w_to[at(v)];
        if (gain > best_gain) best_gain = gain, best = v;
      }
      for (auto [x, w] : g.adj[at(u)]) w_to[at(x)] = 0;
      if (best < 0) continue;
      const int b = part[at(best)];
      part[at(u)] = b;
      part[at(best)] = a;
      for (auto [x, w] : g.adj[at(u)]) T(x, a) -= w, T(x, b) += w;
      for (auto [x, w] : g.adj[at(best)]) T(x, b) -= w, T(x, a) += w;
      improved = true;
    }
    if (!improved) break;
  }
}

// Domain index (0..) of each process and the size of each domain, domains
// in ascending order of their names.
void group(const std::vector<int>& domain, std::vector<int>* index_of, std::vector<int>* caps) {
  std::vector<int> names(domain);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  caps->assign(names.size(), 0);
  index_of->resize(domain.size());
  for (size_t p = 0; p < domain.size(); ++p) {
    (*index_of)[p] = static_cast<int>(std::lower_bound(names.begin(), names.end(), domain[p]) - names.begin());
    ++(*caps)[at((*index_of)[p])];
  }
}

// The subgraph induced by `nodes` (relabelled 0..size-1 in that order).
CommGraph induced(const CommGraph& g, const std::vector<int>& nodes) {
  std::vector<int> local(at(g.size()), -1);
  for (size_t i = 0; i < nodes.size(); ++i) local[at(nodes[i])] = static_cast<int>(i);
  CommGraph sub;
  sub.adj.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    for (auto [u, w] : g.adj[at(nodes[i])])
      if (local[at(u)] >= 0) sub.adj[i].emplace_back(local[at(u)], w);
  return sub;
}

// Places graph nodes `nodes` on processes `procs` (as many), partitioning by
// levels[level] and recursing into each part; fills node_of.
void place_down(const CommGraph& g, const std::vector<std::vector<int>>& levels, size_t level,
                const std::vector<int>& nodes, const std::vector<int>& procs, std::vector<int>& node_of) {
  if (level == levels.size()) {
    for (size_t i = 0; i < procs.size(); ++i) node_of[at(procs[i])] = nodes[i];  // both ascending
    return;
  }
  std::vector<int> domain;
  for (int p : procs) domain.push_back(levels[level][at(p)]);
  std::vector<int> index_of, caps;
  group(domain, &index_of, &caps);
  std::vector<int> part(nodes.size(), 0);
  if (caps.size() > 1) {
    const CommGraph sub = induced(g, nodes);
    part = grow(sub, caps);
    refine(sub, static_cast<int>(caps.size()), part);
  }
  for (size_t k = 0; k < caps.size(); ++k) {
    std::vector<int> sub_nodes, sub_procs;
    for (size_t i = 0; i < nodes.size(); ++i)
      if (at(part[i]) == k) sub_nodes.push_back(nodes[i]);
    for (size_t i = 0; i < procs.size(); ++i)
      if (at(index_of[i]) == k) sub_procs.push_back(procs[i]);
    place_down(g, levels, level + 1, sub_nodes, sub_procs, node_of);
  }
}

}  // namespace

CommGraph make_comm_graph(int n, const std::vector<WeightedEdge>& edges) {
  std::vector<std::map<int, i64>> merged(at(std::max(n, 0)));
  for (const WeightedEdge& e : edges) {
    if (e.a < 0 || e.b < 0 || e.a >= n || e.b >= n || e.a == e.b) continue;
    const i64 w = std::max<i64>(e.weight, 0);
    merged[at(e.a)][e.b] += w;
    merged[at(e.b)][e.a] += w;
  }
  CommGraph g;
  g.adj.resize(merged.size());
  for (size_t i = 0; i < merged.size(); ++i) g.adj[i].assign(merged[i].begin(), merged[i].end());
  return g;
}

CommGraph graph_of_index(int nnodes, const int* index, const int* edges) {
  std::vector<WeightedEdge> list;
  for (int i = 0, e = 0; i < nnodes; ++i)
    for (; e < index[i]; ++e) list.push_back({i, edges[e], 1});
  return make_comm_graph(nnodes, list);
}

i64 cut_weight(const CommGraph& g, const std::vector<int>& domain_at) {
  i64 cut = 0;
  for (int v = 0; v < g.size(); ++v)
    for (auto [u, w] : g.adj[at(v)])
      if (u > v && domain_at[at(u)] != domain_at[at(v)]) cut += w;
  return cut;
}

std::vector<int> graph_placement(const CommGraph& g, const std::vector<int>& domain) {
  return graph_placement_tree(g, {domain});
}

std::vector<int> graph_placement_tree(const CommGraph& g, const std::vector<std::vector<int>>& levels) {
  const int n = g.size();
  std::vector<int> identity(at(n));
  std::iota(identity.begin(), identity.end(), 0);
  for (const auto& l : levels)
    if (l.size() != at(n)) return identity;
  std::vector<int> node_of(at(n));
  place_down(g, levels, 0, identity, identity, node_of);
  return best_placement(g, levels, {node_of});
}

}  // namespace ringmpi::topo
