// Virtual topology entry points (MPI-3.1 chapter 7). A topology is attached
// to a communicator made by comm::split of the old one (reorder is
// accepted and ignored: on one node every placement costs the same).
#include <memory>
#include <string>
#include <vector>

#include "api/call.hpp"
#include "comm/create.hpp"
#include "topo/edge_routing.hpp"
#include "topo/topology.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

// What t points to until a check succeeds (keeps the compiler's null analysis quiet).
const topo::Topology kNoTopology{};

// A new communicator over the ranks of `old` with color 0 (others get
// MPI_COMM_NULL), carrying topology t.
int attach(Call& call, MPI_Comm old, bool member, std::shared_ptr<const topo::Topology> t, MPI_Comm* out) {
  comm::Comm* c = comm::lookup(old);
  const comm::Made m = comm::split(*c, member ? 0 : MPI_UNDEFINED, c->rank, comm::LocalError{});
  *out = m.handle;
  if (m.code != MPI_SUCCESS) return call.fail(m.code, "%s", m.why.c_str());
  if (*out != MPI_COMM_NULL) comm::lookup(*out)->topo = std::move(t);
  return MPI_SUCCESS;
}

int topo_of(Call& call, MPI_Comm h, topo::Topology::Kind kind, const char* what, comm::Comm** c,
            const topo::Topology** t) {
  if (int e = call.comm(h, "comm", c)) return e;
  if (!(*c)->topo || (*c)->topo->kind != kind)
    return call.fail(MPI_ERR_TOPOLOGY, "argument comm has no %s topology", what);
  *t = (*c)->topo.get();
  return MPI_SUCCESS;
}

int cart_of(Call& call, MPI_Comm h, comm::Comm** c, const topo::Topology** t) {
  return topo_of(call, h, topo::Topology::Kind::cart, "Cartesian", c, t);
}

int graph_of(Call& call, MPI_Comm h, comm::Comm** c, const topo::Topology** t) {
  return topo_of(call, h, topo::Topology::Kind::graph, "graph", c, t);
}

int check_cart_args(Call& call, const comm::Comm& c, int ndims, const int* dims, const int* periods) {
  if (ndims < 0) return call.fail(MPI_ERR_DIMS, "argument ndims=%d is negative", ndims);
  if (ndims > 0 && (!dims || !periods)) return call.fail(MPI_ERR_ARG, "argument dims or periods is NULL");
  long long n = 1;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] <= 0) return call.fail(MPI_ERR_DIMS, "argument dims[%d]=%d is not positive", i, dims[i]);
    n *= dims[i];
    if (n > c.size())
      return call.fail(MPI_ERR_TOPOLOGY, "the grid (product of dims > %d) has more nodes than comm has ranks (%d)",
                       c.size(), c.size());
  }
  return MPI_SUCCESS;
}

int check_rank(Call& call, const comm::Comm& c, int rank, const char* name) {
  if (rank < 0 || rank >= c.size())
    return call.fail(MPI_ERR_RANK, "argument %s=%d is outside 0..%d", name, rank, c.size() - 1);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Dims_create(int nnodes, int ndims, int dims[]) {
  Call call("MPI_Dims_create");
  if (int e = call.initialized()) return e;
  if (ndims > 0)
    if (int e = call.not_null(dims, "dims")) return e;
  if (nnodes <= 0) return call.fail(MPI_ERR_ARG, "argument nnodes=%d is not positive", nnodes);
  const std::string why = topo::dims_create(nnodes, ndims, dims);
  if (!why.empty()) return call.fail(MPI_ERR_DIMS, "%s", why.c_str());
  return MPI_SUCCESS;
}

int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm* comm_cart) {
  Call call("MPI_Cart_create");
  comm::Comm* c;
  if (int e = call.intracomm(comm_old, "comm_old", &c)) return e;
  if (int e = call.not_null(comm_cart, "comm_cart")) return e;
  if (int e = check_cart_args(call, *c, ndims, dims, periods)) return e;
  (void)reorder;
  auto t = std::make_shared<topo::Topology>();
  t->kind = topo::Topology::Kind::cart;
  t->dims.assign(dims, dims + ndims);
  for (int i = 0; i < ndims; ++i) t->periods.push_back(periods[i] ? 1 : 0);
  const bool member = c->rank < t->cart_size();
  return attach(call, comm_old, member, std::move(t), comm_cart);
}

int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
  Call call("MPI_Cart_map");
  comm::Comm* c;
  if (int e = call.intracomm(comm, "comm", &c)) return e;
  if (int e = call.not_null(newrank, "newrank")) return e;
  if (int e = check_cart_args(call, *c, ndims, dims, periods)) return e;
  long long n = 1;
  for (int i = 0; i < ndims; ++i) n *= dims[i];
  *newrank = c->rank < n ? c->rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

int MPI_Cartdim_get(MPI_Comm comm, int* ndims) {
  Call call("MPI_Cartdim_get");
  comm::Comm* c;
  const topo::Topology* t = &kNoTopology;
  if (int e = cart_of(call, comm, &c, &t)) return e;
  if (int e = call.not_null(ndims, "ndims")) return e;
  *ndims = static_cast<int>(t->dims.size());
  return MPI_SUCCESS;
}

int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]) {
  Call call("MPI_Cart_get");
  comm::Comm* c;
  const topo::Topology* t = &kNoTopology;
  if (int e = cart_of(call, comm, &c, &t)) return e;
  const int n = static_cast<int>(t->dims.size());
  if (maxdims < n) return call.fail(MPI_ERR_ARG, "argument maxdims=%d is smaller than ndims=%d", maxdims, n);
  if (n > 0 && (!dims || !periods || !coords)) return call.fail(MPI_ERR_ARG, "dims, periods or coords is NULL");
  for (int i = 0; i < n; ++i) {
    dims[i] = t->dims[i];
    periods[i] = t->periods[i];
  }
  if (n > 0) t->cart_coords(c->rank, coords);
  return MPI_SUCCESS;
}

int MPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank) {
  Call call("MPI_Cart_rank");
  comm::Comm* c;
  const topo::Topology* t = &kNoTopology;
  if (int e = cart_of(call, comm, &c, &t)) return e;
  if (int e = call.not_null(rank, "rank")) return e;
  if (t->dims.empty()) {
    *rank = 0;
    return MPI_SUCCESS;
  }
  if (int e = call.not_null(coords, "coords")) return e;
  const int r = t->cart_rank(coords);
  if (r < 0) {
    for (std::size_t i = 0; i < t->dims.size(); ++i)
      if (!t->periods[i] && (coords[i] < 0 || coords[i] >= t->dims[i]))
        return call.fail(MPI_ERR_ARG, "argument coords[%zu]=%d is outside 0..%d of a non-periodic dimension", i,
                         coords[i], t->dims[i] - 1);
  }
  *rank = r;
  return MPI_SUCCESS;
}

int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]) {
  Call call("MPI_Cart_coords");
  comm::Comm* c;
  const topo::Topology* t = &kNoTopology;
  if (int e = cart_of(call, comm, &c, &t)) return e;
  if (int e = check_rank(call, *c, rank, "rank")) return e;
  const int n = static_cast<int>(t->dims.size());
  if (maxdims < n) return call.fail(MPI_ERR_ARG, "argument maxdims=%d is smaller than ndims=%d", maxdims, n);
  if (n > 0)
    if (int e = call.not_null(coords, "coords")) return e;
  t->cart_coords(rank, coords);
  return MPI_SUCCESS;
}

int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest) {
  Call call("MPI_Cart_shift");
  comm::Comm* c;
  const topo::Topology* t = &kNoTopology;
  if (int e = cart_of(call, comm, &c, &t)) return e;
  if (int e = call.not_null(rank_source, "rank_source")) return e;
  if (int e = call.not_null(rank_dest, "rank_dest")) return e;
  if (direction < 0 || direction >= static_cast<int>(t->dims.size()))
    return call.fail(MPI_ERR_ARG, "argument direction=%d is outside 0..%d", direction,
                     static_cast<int>(t->dims.size()) - 1);
  t->cart_shift(c->rank, direction, disp, rank_source, rank_dest);
  return MPI_SUCCESS;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  Call call("MPI_Cart_sub");
  comm::Comm* c;
  const topo::Topology* t = &kNoTopology;
  if (int e = cart_of(call, comm, &c, &t)) return e;
  if (int e = call.not_null(newcomm, "newcomm")) return e;
  const int n = static_cast<int>(t->dims.size());
  if (n > 0)
    if (int e = call.not_null(remain_dims, "remain_dims")) return e;
  std::vector<int> coords(n);
  t->cart_coords(c->rank, coords.data());
  // Ranks that agree on the dropped coordinates share a sub-grid; the key
  // (row-major index over the kept ones) is their rank in it.
  int color = 0, key = 0;
  auto sub = std::make_shared<topo::Topology>();
  sub->kind = topo::Topology::Kind::cart;
  for (int i = 0; i < n; ++i) {
    if (remain_dims[i]) {
      key = key * t->dims[i] + coords[i];
      sub->dims.push_back(t->dims[i]);
      sub->periods.push_back(t->periods[i]);
    } else {
      color = color * t->dims[i] + coords[i];
    }
  }
  const comm::Made m = comm::split(*c, color, key, comm::LocalError{});
  *newcomm = m.handle;
  if (m.code != MPI_SUCCESS) return call.fail(m.code, "%s", m.why.c_str());
  comm::lookup(*newcomm)->topo = std::move(sub);
  return MPI_SUCCESS;
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm* comm_graph) {
  Call call("MPI_Graph_create");
  comm::Comm* c;
  if (int e = call.intracomm(comm_old, "comm_old", &c)) return e;
  if (int e = call.not_null(comm_graph, "comm_graph")) return e;
  if (nnodes < 0 || nnodes > c->size())
    return call.fail(MPI_ERR_ARG, "argument nnodes=%d is outside 0..%d (the size of comm_old)", nnodes, c->size());
  if (nnodes > 0 && (!index || (index[nnodes - 1] > 0 && !edges)))
    return call.fail(MPI_ERR_ARG, "argument index or edges is NULL");
  const std::string why = topo::graph_invalid(nnodes, index, edges);
  if (!why.empty()) return call.fail(MPI_ERR_TOPOLOGY, "%s", why.c_str());
  (void)reorder;
  auto t = std::make_shared<topo::Topology>();
  t->kind = topo::Topology::Kind::graph;
  t->index.assign(index, index + nnodes);
  if (nnodes > 0) t->edges.assign(edges, edges + index[nnodes - 1]);
  return attach(call, comm_old, c->rank < nnodes, std::move(t), comm_graph);
}

int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
  Call call("MPI_Graph_map");
  comm::Comm* c;
  if (int e = call.intracomm(comm, "comm", &c)) return e;
  if (int e = call.not_null(newrank, "newrank")) return e;
  if (nnodes < 1 || nnodes > c->size())
    return call.fail(MPI_ERR_ARG, "argument nnodes=%d is outside 1..%d", nnodes, c->size());
  if (!index || !edges) return call.fail(MPI_ERR_ARG, "argument index or edges is NULL");
  const std::string why = topo::graph_invalid(nnodes, index, edges);
  if (!why.empty()) return call.fail(MPI_ERR_TOPOLOGY, "%s", why.c_str());
  *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

int MPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges) {
  Call call("MPI_Graphdims_get");
  comm::Comm* c;
  const topo::Topology* t = &kNoTopology;
  if (int e = graph_of(call, comm, &c, &t)) return e;
  if (int e = call.not_null(nnodes, "nnodes")) return e;
  if (int e = call.not_null(nedges, "nedges")) return e;
  *nnodes = static_cast<int>(t->index.size());
  *nedges = static_cast<int>(t->edges.size());
  return MPI_SUCCESS;
}

int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]) {
  Call call("MPI_Graph_get");
  comm::Comm* c;
  const topo::Topology* t = &kNoTopology;
  if (int e = graph_of(call, comm, &c, &t)) return e;
  if (maxindex < 0 || maxedges < 0) return call.fail(MPI_ERR_ARG, "maxindex=%d or maxedges=%d is negative", maxindex, maxedges);
  for (int i = 0; i < maxindex && i < static_cast<int>(t->index.size()); ++i) index[i] = t->index[i];
  for (int i = 0; i < maxedges && i < static_cast<int>(t->edges.size()); ++i) edges[i] = t->edges[i];
  return MPI_SUCCESS;
}

int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors) {
  Call call("MPI_Graph_neighbors_count");
  comm::Comm* c;
  const topo::Topology* t = &kNoTopology;
  if (int e = graph_of(call, comm, &c, &t)) return e;
  if (int e = check_rank(call, *c, rank, "rank")) return e;
  if (int e = call.not_null(nneighbors, "nneighbors")) return e;
  *nneighbors = t->graph_degree(rank);
  return MPI_SUCCESS;
}

int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]) {
  Call call("MPI_Graph_neighbors");
  comm::Comm* c;
  const topo::Topology* t = &kNoTopology;
  if (int e = graph_of(call, comm, &c, &t)) return e;
  if (int e = check_rank(call, *c, rank, "rank")) return e;
  const int deg = t->graph_degree(rank);
  if (maxneighbors < 0) return call.fail(MPI_ERR_ARG, "argument maxneighbors=%d is negative", maxneighbors);
  if (deg > 0 && maxneighbors > 0)
    if (int e = call.not_null(neighbors, "neighbors")) return e;
  const int* nb = t->graph_neighbors(rank);
  for (int i = 0; i < deg && i < maxneighbors; ++i) neighbors[i] = nb[i];
  return MPI_SUCCESS;
}

static int dist_graph_adjacent(Call& call, MPI_Comm comm_old, std::vector<int> sources, std::vector<int> sw,
                               std::vector<int> dests, std::vector<int> dw, bool weighted, MPI_Comm* out) {
  auto t = std::make_shared<topo::Topology>();
  t->kind = topo::Topology::Kind::dist_graph;
  t->sources = std::move(sources);
  t->source_weights = std::move(sw);
  t->destinations = std::move(dests);
  t->dest_weights = std::move(dw);
  t->weighted = weighted;
  return attach(call, comm_old, true, std::move(t), out);
}

static bool is_unweighted(const int* w) { return w == MPI_UNWEIGHTED; }

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info,
                                   int reorder, MPI_Comm* comm_dist_graph) {
  Call call("MPI_Dist_graph_create_adjacent");
  comm::Comm* c;
  if (int e = call.intracomm(comm_old, "comm_old", &c)) return e;
  if (int e = call.not_null(comm_dist_graph, "comm_dist_graph")) return e;
  if (indegree < 0 || outdegree < 0)
    return call.fail(MPI_ERR_ARG, "indegree=%d or outdegree=%d is negative", indegree, outdegree);
  const bool weighted = !is_unweighted(sourceweights) && !is_unweighted(destweights);
  for (int i = 0; i < indegree; ++i)
    if (int e = check_rank(call, *c, sources[i], "sources[i]")) return e;
  for (int i = 0; i < outdegree; ++i)
    if (int e = check_rank(call, *c, destinations[i], "destinations[i]")) return e;
  (void)reorder;
  std::vector<int> sw, dw;
  if (weighted) {
    if (indegree > 0 && sourceweights != MPI_WEIGHTS_EMPTY) sw.assign(sourceweights, sourceweights + indegree);
    if (outdegree > 0 && destweights != MPI_WEIGHTS_EMPTY) dw.assign(destweights, destweights + outdegree);
  }
  return dist_graph_adjacent(call, comm_old, std::vector<int>(sources, sources + indegree), std::move(sw),
                             std::vector<int>(destinations, destinations + outdegree), std::move(dw), weighted,
                             comm_dist_graph);
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info, int reorder,
                          MPI_Comm* comm_dist_graph) {
  Call call("MPI_Dist_graph_create");
  comm::Comm* c;
  if (int e = call.intracomm(comm_old, "comm_old", &c)) return e;
  if (int e = call.not_null(comm_dist_graph, "comm_dist_graph")) return e;
  (void)reorder;
  // Argument errors are only noted here: they travel in route_edges' first
  // round, so every rank fails together and none waits for the others.
  const int size = c->size();
  const bool weighted = !is_unweighted(weights);
  std::vector<topo::Edge> mine;
  std::string bad;
  int bad_code = MPI_ERR_ARG;
  auto rank_ok = [&](int r, const char* what, int i) {
    if (r >= 0 && r < size) return true;
    bad = std::string("argument ") + what + "[" + std::to_string(i) + "]=" + std::to_string(r) + " is outside 0.." +
          std::to_string(size - 1);
    bad_code = MPI_ERR_RANK;
    return false;
  };
  if (n < 0) bad = "argument n=" + std::to_string(n) + " is negative";
  else if (n > 0 && (!sources || !degrees)) bad = "argument sources or degrees is NULL";
  for (int i = 0, k = 0; bad.empty() && i < n; ++i) {
    if (!rank_ok(sources[i], "sources", i)) break;
    if (degrees[i] < 0) {
      bad = "argument degrees[" + std::to_string(i) + "]=" + std::to_string(degrees[i]) + " is negative";
      break;
    }
    if (degrees[i] > 0 && (!destinations || (weighted && !weights))) {
      bad = "argument destinations or weights is NULL";
      break;
    }
    for (int j = 0; j < degrees[i]; ++j, ++k) {
      if (!rank_ok(destinations[k], "destinations", k)) break;
      mine.push_back({sources[i], destinations[k], weighted ? weights[k] : 1});
    }
  }
  topo::Adjacency adj;
  std::string why;
  if (!topo::route_edges(*c, mine, bad, &adj, &why)) {
    *comm_dist_graph = MPI_COMM_NULL;
    return call.fail(bad.empty() ? MPI_ERR_ARG : bad_code, "%s", why.c_str());
  }
  if (!weighted) adj.source_weights.clear(), adj.dest_weights.clear();
  return dist_graph_adjacent(call, comm_old, std::move(adj.sources), std::move(adj.source_weights),
                             std::move(adj.destinations), std::move(adj.dest_weights), weighted, comm_dist_graph);
}

int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted) {
  Call call("MPI_Dist_graph_neighbors_count");
  comm::Comm* c;
  const topo::Topology* t = &kNoTopology;
  if (int e = topo_of(call, comm, topo::Topology::Kind::dist_graph, "distributed graph", &c, &t)) return e;
  if (!indegree || !outdegree || !weighted) return call.fail(MPI_ERR_ARG, "an output argument is NULL");
  *indegree = static_cast<int>(t->sources.size());
  *outdegree = static_cast<int>(t->destinations.size());
  *weighted = t->weighted;
  return MPI_SUCCESS;
}

int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                             int destinations[], int destweights[]) {
  Call call("MPI_Dist_graph_neighbors");
  comm::Comm* c;
  const topo::Topology* t = &kNoTopology;
  if (int e = topo_of(call, comm, topo::Topology::Kind::dist_graph, "distributed graph", &c, &t)) return e;
  const int in = static_cast<int>(t->sources.size()), out = static_cast<int>(t->destinations.size());
  if (maxindegree < in || maxoutdegree < out)
    return call.fail(MPI_ERR_ARG, "maxindegree=%d / maxoutdegree=%d are smaller than the degrees %d / %d",
                     maxindegree, maxoutdegree, in, out);
  for (int i = 0; i < in; ++i) {
    sources[i] = t->sources[i];
    if (t->weighted && !is_unweighted(sourceweights) && i < static_cast<int>(t->source_weights.size()))
      sourceweights[i] = t->source_weights[i];
  }
  for (int i = 0; i < out; ++i) {
    destinations[i] = t->destinations[i];
    if (t->weighted && !is_unweighted(destweights) && i < static_cast<int>(t->dest_weights.size()))
      destweights[i] = t->dest_weights[i];
  }
  return MPI_SUCCESS;
}

int MPI_Topo_test(MPI_Comm comm, int* status) {
  Call call("MPI_Topo_test");
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(status, "status")) return e;
  if (!c->topo) {
    *status = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  switch (c->topo->kind) {
    case topo::Topology::Kind::cart: *status = MPI_CART; break;
    case topo::Topology::Kind::graph: *status = MPI_GRAPH; break;
    case topo::Topology::Kind::dist_graph: *status = MPI_DIST_GRAPH; break;
  }
  return MPI_SUCCESS;
}

}  // extern "C"
