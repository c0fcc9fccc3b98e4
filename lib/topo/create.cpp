// See create.hpp for the protocol. Every rank computes the same placement
// from the same gathered inputs (the placement functions are deterministic),
// so the new ranks are consistent without another exchange.
#include "topo/create.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <string>

#include "coll/base.hpp"
#include "coll/segment.hpp"
#include "topo/cart_map.hpp"
#include "topo/graph_map.hpp"
#include "topo/levels.hpp"
#include "topo/locality.hpp"

namespace ringmpi::topo {
namespace {

using std::size_t;

size_t at(int i) { return static_cast<size_t>(i); }

// One rank's contribution to the agreement round.
struct Vote {
  std::int32_t err = MPI_SUCCESS;  // its argument error class
  std::int32_t reorder = 0;        // it asked for reordering
  std::int32_t count = 0;          // distributed graphs: edges it contributes
  std::int32_t outdeg = 0;         // Dist_graph_create_adjacent: of which out-edges
  std::int32_t weighted = 0;       // Dist_graph_create_adjacent: it passed weights
  Location where{{-1, -1, -1, -1, -1}};  // where it runs, when it asked
  std::int32_t segment = -1;  // constructors: the shared segment it reserved (coll::reserve_offer)
};

struct Agreement {
  std::vector<Vote> all;  // in rank order
  bool reorder = false;   // every rank asked for it
  // The context slots free on every rank: the round doubles as the new
  // communicator's (create_ordered), as every rank can tell every rank's
  // new rank from the votes.
  comm::ContextPool::Mask mask;

  // The domains of the first n processes down the hierarchy; empty when
  // nothing tells them apart (then no placement can beat the identity).
  std::vector<std::vector<int>> levels(int n) const {
    std::vector<Location> where;
    where.reserve(at(n));
    for (int i = 0; i < n; ++i) where.push_back(all[at(i)].where);
    return placement_levels(where).domain;
  }
};

// Round 1 (see create.hpp). False, with *failed the outcome every rank
// returns, when some rank's arguments were bad. `constructs`: the round is
// also the one that gives the new communicator its shared segment (every
// rank offers one it reserved, attach() settles them).
bool agree(const comm::Comm& c, const comm::LocalError& local, bool reorder, Vote mine, Agreement* a,
           comm::Made* failed, bool constructs = false) {
  const coll::Peers peers = coll::peers_of(c);
  mine.err = local.code;
  if (constructs) mine.segment = coll::reserve_offer(c);
  // One process has one placement: nothing to compute.
  mine.reorder = reorder && local.code == MPI_SUCCESS && peers.size() > 1;
  if (mine.reorder) mine.where = this_process_location();
  a->all.assign(at(peers.size()), Vote{});
  a->mask = comm::offer();
  coll::allgather_and(peers, &mine, sizeof mine, a->all.data(), a->mask.data(), comm::ContextPool::kWords);
  const auto give_back = [&] {
    comm::SegmentOffer none;
    none.offer = mine.segment;
    coll::settle_offer(nullptr, &c, none);
  };
  if (local.code != MPI_SUCCESS) {
    give_back();
    *failed = {local.code, local.why, MPI_COMM_NULL};
    return false;
  }
  for (size_t i = 0; i < a->all.size(); ++i)
    if (a->all[i].err != MPI_SUCCESS) {
      give_back();
      *failed = {a->all[i].err,
                 "rank " + std::to_string(i) +
                     " of the communicator passed an invalid argument (that rank's message says which), so the call "
                     "fails on every rank",
                 MPI_COMM_NULL};
      return false;
    }
  a->reorder = std::all_of(a->all.begin(), a->all.end(), [](const Vote& v) { return v.reorder != 0; });
  return true;
}

// The new communicator of the first `members` ranks of old, carrying t:
// ranked by place[p] (the node process p takes; the identity when place is
// empty), ties by old rank, as comm::split would rank them with place[p] as
// key. Every rank knows every place from the agreement round, so no round
// of its own: one round less than a split per constructor. Its shared
// segment is its new rank 0's reservation from the agreement round.
comm::Made attach(const comm::Comm& old, const Agreement& a, int members, const std::vector<int>& place,
                  std::shared_ptr<const Topology> t) {
  std::vector<int> order(at(members));
  std::iota(order.begin(), order.end(), 0);
  if (!place.empty())
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return place[at(x)] < place[at(y)]; });
  comm::SegmentOffer seg;
  seg.offer = a.all[at(old.rank)].segment;
  if (members >= 2 && old.rank < members) {
    seg.index = a.all[at(order[0])].segment;
    seg.owner = old.peer_world[at(order[0])];
    seg.size = members;
  }
  comm::Made m = comm::create_ordered(old, order, a.mask);
  comm::Comm* made = comm::made_comm(m);
  if (made) made->topo = std::move(t);
  coll::settle_offer(made, &old, seg);
  return m;
}

int product(const std::vector<int>& dims) {
  long long n = 1;
  for (int d : dims) n *= d;
  return static_cast<int>(n);
}

// The node process `rank` takes in a placement (empty: the identity; a
// process beyond the placement keeps its rank).
int node_of(const std::vector<int>& place, int rank) {
  return at(rank) < place.size() ? place[at(rank)] : rank;
}

// The grid rank of each of the grid's processes under reordering; empty
// for the identity.
std::vector<int> cart_places(const Agreement& a, const std::vector<int>& dims, const std::vector<int>& periods) {
  if (!a.reorder) return {};
  const auto levels = a.levels(product(dims));
  return levels.empty() ? std::vector<int>{} : cart_placement(dims, periods, levels);
}

// The grid rank of the caller under reordering, or its own rank.
int cart_rank_of(const comm::Comm& c, const Agreement& a, const std::vector<int>& dims,
                 const std::vector<int>& periods) {
  if (c.rank >= product(dims)) return c.rank;
  return node_of(cart_places(a, dims, periods), c.rank);
}

// Graphs are partitioned over packages, then each part over NUMA nodes, then
// over caches. The node of each process; empty for the identity.
std::vector<int> graph_places(const Agreement& a, const CommGraph& g) {
  if (!a.reorder) return {};
  const auto levels = a.levels(g.size());
  return levels.empty() ? std::vector<int>{} : graph_placement_tree(g, levels);
}

int graph_rank_of(const comm::Comm& c, const Agreement& a, const CommGraph& g) {
  if (c.rank >= g.size()) return c.rank;
  return node_of(graph_places(a, g), c.rank);
}

CommGraph graph_of(int n, const std::vector<std::vector<Edge>>& all, bool out_edges_only,
                   const std::vector<Vote>& votes) {
  std::vector<WeightedEdge> list;
  for (size_t r = 0; r < all.size(); ++r) {
    const size_t k = out_edges_only ? at(votes[r].outdeg) : all[r].size();
    for (size_t i = 0; i < k; ++i) list.push_back({all[r][i].source, all[r][i].dest, all[r][i].weight});
  }
  return make_comm_graph(n, list);
}

std::shared_ptr<Topology> dist_graph(Adjacency adj, bool weighted, int max_outdegree) {
  auto t = std::make_shared<Topology>();
  t->kind = Topology::Kind::dist_graph;
  t->dist_max_outdegree = max_outdegree;
  t->sources = std::move(adj.sources);
  t->destinations = std::move(adj.destinations);
  t->weighted = weighted;
  if (weighted) {
    t->source_weights = std::move(adj.source_weights);
    t->dest_weights = std::move(adj.dest_weights);
  }
  return t;
}

}  // namespace

comm::Made cart_create(const comm::Comm& old, const std::vector<int>& dims, const std::vector<int>& periods,
                       bool reorder, const comm::LocalError& local) {
  Agreement a;
  comm::Made failed;
  if (!agree(old, local, reorder, Vote{}, &a, &failed, true)) return failed;
  auto t = std::make_shared<Topology>();
  t->kind = Topology::Kind::cart;
  t->dims = dims;
  for (int p : periods) t->periods.push_back(p ? 1 : 0);
  return attach(old, a, product(dims), cart_places(a, dims, periods), std::move(t));
}

comm::Made cart_sub(const comm::Comm& c, const int* remain_dims, const comm::LocalError& local) {
  int color = 0, key = 0;
  auto sub = std::make_shared<Topology>();
  sub->kind = Topology::Kind::cart;
  if (local.code == MPI_SUCCESS) {
    const Topology& t = *c.topo;
    std::vector<int> coords(t.dims.size());
    t.cart_coords(c.rank, coords.data());
    for (size_t i = 0; i < t.dims.size(); ++i) {
      if (remain_dims[i]) {
        key = key * t.dims[i] + coords[i];
        sub->dims.push_back(t.dims[i]);
        sub->periods.push_back(t.periods[i]);
      } else {
        color = color * t.dims[i] + coords[i];
      }
    }
  }
  comm::SegmentOffer seg;
  seg.offer = coll::reserve_offer(c);
  comm::Made m = comm::split(c, color, key, local, 0, &seg);
  comm::Comm* made = comm::made_comm(m);
  if (made) made->topo = std::move(sub);
  coll::settle_offer(made, &c, seg);
  return m;
}

comm::Made graph_create(const comm::Comm& old, int nnodes, const int* index, const int* edges, bool reorder,
                        const comm::LocalError& local) {
  Agreement a;
  comm::Made failed;
  if (!agree(old, local, reorder, Vote{}, &a, &failed, true)) return failed;
  auto t = std::make_shared<Topology>();
  t->kind = Topology::Kind::graph;
  t->index.assign(index, index + nnodes);
  if (nnodes > 0) t->edges.assign(edges, edges + index[nnodes - 1]);
  const auto place = a.reorder ? graph_places(a, graph_of_index(nnodes, index, edges)) : std::vector<int>{};
  return attach(old, a, nnodes, place, std::move(t));
}

comm::Made dist_graph_create(const comm::Comm& old, const std::vector<Edge>& mine, bool weighted, bool reorder,
                             const comm::LocalError& local) {
  Agreement a;
  comm::Made failed;
  Vote v;
  v.count = static_cast<std::int32_t>(mine.size());
  if (!agree(old, local, reorder, v, &a, &failed, true)) return failed;
  std::vector<int> counts;
  for (const Vote& x : a.all) counts.push_back(x.count);
  const auto all = gather_edges(old, mine, counts);
  const auto place = a.reorder ? graph_places(a, graph_of(old.size(), all, false, a.all)) : std::vector<int>{};
  const int node = node_of(place, old.rank);
  std::vector<int> outdeg(at(old.size()), 0);
  for (const auto& edges : all)
    for (const Edge& e : edges) ++outdeg[at(e.source)];
  const int widest = outdeg.empty() ? 0 : *std::max_element(outdeg.begin(), outdeg.end());
  return attach(old, a, old.size(), place, dist_graph(adjacency_of(all, node), weighted, widest));
}

comm::Made dist_graph_create_adjacent(const comm::Comm& old, Adjacency mine, bool weighted, bool reorder,
                                      const comm::LocalError& local) {
  Agreement a;
  comm::Made failed;
  Vote v;
  v.outdeg = static_cast<std::int32_t>(mine.destinations.size());
  v.count = v.outdeg + static_cast<std::int32_t>(mine.sources.size());
  v.weighted = weighted;
  if (!agree(old, local, reorder, v, &a, &failed, true)) return failed;
  int widest = 0;
  for (const Vote& x : a.all) widest = std::max(widest, static_cast<int>(x.outdeg));
  if (!a.reorder || a.levels(old.size()).empty())
    return attach(old, a, old.size(), {}, dist_graph(std::move(mine), weighted, widest));
  // Round 2: every rank's lists (out-edges first, then in-edges, each in
  // the order given), so that the process taking node k gets rank k's lists.
  std::vector<Edge> lists;
  for (size_t i = 0; i < mine.destinations.size(); ++i)
    lists.push_back({old.rank, mine.destinations[i], weighted ? mine.dest_weights[i] : 1});
  for (size_t i = 0; i < mine.sources.size(); ++i)
    lists.push_back({mine.sources[i], old.rank, weighted ? mine.source_weights[i] : 1});
  std::vector<int> counts;
  for (const Vote& x : a.all) counts.push_back(x.count);
  const auto all = gather_edges(old, lists, counts);
  const auto place = graph_places(a, graph_of(old.size(), all, true, a.all));
  const int node = node_of(place, old.rank);
  if (node == old.rank) return attach(old, a, old.size(), place, dist_graph(std::move(mine), weighted, widest));
  Adjacency theirs;
  const auto& rec = all[at(node)];
  const size_t outdeg = at(a.all[at(node)].outdeg);
  for (size_t i = 0; i < rec.size(); ++i) {
    if (i < outdeg) {
      theirs.destinations.push_back(rec[i].dest);
      theirs.dest_weights.push_back(rec[i].weight);
    } else {
      theirs.sources.push_back(rec[i].source);
      theirs.source_weights.push_back(rec[i].weight);
    }
  }
  return attach(old, a, old.size(), place, dist_graph(std::move(theirs), a.all[at(node)].weighted != 0, widest));
}

Mapped cart_map(const comm::Comm& c, const std::vector<int>& dims, const std::vector<int>& periods,
                const comm::LocalError& local) {
  Agreement a;
  comm::Made failed;
  if (!agree(c, local, true, Vote{}, &a, &failed)) return {failed.code, failed.why, MPI_UNDEFINED};
  if (c.rank >= product(dims)) return {MPI_SUCCESS, "", MPI_UNDEFINED};
  return {MPI_SUCCESS, "", cart_rank_of(c, a, dims, periods)};
}

Mapped graph_map(const comm::Comm& c, int nnodes, const int* index, const int* edges, const comm::LocalError& local) {
  Agreement a;
  comm::Made failed;
  if (!agree(c, local, true, Vote{}, &a, &failed)) return {failed.code, failed.why, MPI_UNDEFINED};
  if (c.rank >= nnodes) return {MPI_SUCCESS, "", MPI_UNDEFINED};
  return {MPI_SUCCESS, "", graph_rank_of(c, a, graph_of_index(nnodes, index, edges))};
}

}  // namespace ringmpi::topo
