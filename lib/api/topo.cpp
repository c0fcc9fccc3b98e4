// Virtual topology entry points (MPI-3.1 chapter 7): handle checks, then
// lib/topo. The collective constructors and maps judge their other arguments
// in lib/topo/args.hpp and let the verdict travel in their collective round
// (lib/topo/create.hpp), so a bad argument on one rank fails the call on
// every rank under MPI_ERRORS_RETURN instead of leaving the others waiting.
#include <memory>
#include <string>
#include <vector>

#include "api/call.hpp"
#include "comm/create.hpp"
#include "topo/args.hpp"
#include "topo/create.hpp"
#include "topo/topology.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

// What t points to until a check succeeds (keeps the compiler's null analysis quiet).
const topo::Topology kNoTopology{};

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

int check_rank(Call& call, const comm::Comm& c, int rank, const char* name) {
  if (rank < 0 || rank >= c.size())
    return call.fail(MPI_ERR_RANK, "argument %s=%d is outside 0..%d", name, rank, c.size() - 1);
  return MPI_SUCCESS;
}

// A collective constructor's outcome (*out is MPI_COMM_NULL on error).
int deliver(Call& call, const comm::Made& m, MPI_Comm* out) {
  if (out) *out = m.handle;
  if (m.code != MPI_SUCCESS) return call.fail(m.code, "%s", m.why.c_str());
  return MPI_SUCCESS;
}

int deliver(Call& call, const topo::Mapped& m, int* newrank) {
  if (m.code != MPI_SUCCESS) return call.fail(m.code, "%s", m.why.c_str());
  *newrank = m.rank;
  return MPI_SUCCESS;
}

// A NULL output handle is a rank-local error like the others: it travels.
comm::LocalError null_output(const void* out, const char* name) {
  if (out) return {};
  return {MPI_ERR_ARG, std::string("argument ") + name + " is NULL", comm::BadArg::none, 0};
}

comm::LocalError first_of(comm::LocalError a, comm::LocalError b) { return a.code != MPI_SUCCESS ? a : b; }

std::vector<int> flags(int n, const int* v) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) out.push_back(v[i] ? 1 : 0);
  return out;
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
  const comm::LocalError bad =
      first_of(null_output(comm_cart, "comm_cart"), topo::check_cart(c->size(), ndims, dims, periods));
  const bool ok = bad.code == MPI_SUCCESS;
  const std::vector<int> d = ok ? std::vector<int>(dims, dims + ndims) : std::vector<int>{};
  return deliver(call, topo::cart_create(*c, d, ok ? flags(ndims, periods) : d, reorder != 0, bad), comm_cart);
}

int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank) {
  Call call("MPI_Cart_map");
  comm::Comm* c;
  if (int e = call.intracomm(comm, "comm", &c)) return e;
  const comm::LocalError bad =
      first_of(null_output(newrank, "newrank"), topo::check_cart(c->size(), ndims, dims, periods));
  const bool ok = bad.code == MPI_SUCCESS;
  const std::vector<int> d = ok ? std::vector<int>(dims, dims + ndims) : std::vector<int>{};
  return deliver(call, topo::cart_map(*c, d, ok ? flags(ndims, periods) : d, bad), newrank);
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
  const comm::LocalError bad = first_of(null_output(newcomm, "newcomm"), topo::check_cart_sub(*t, remain_dims));
  return deliver(call, topo::cart_sub(*c, remain_dims, bad), newcomm);
}

int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm* comm_graph) {
  Call call("MPI_Graph_create");
  comm::Comm* c;
  if (int e = call.intracomm(comm_old, "comm_old", &c)) return e;
  const comm::LocalError bad = first_of(null_output(comm_graph, "comm_graph"),
                                        topo::check_graph(c->size(), nnodes, index, edges, false));
  if (bad.code != MPI_SUCCESS) nnodes = 0;
  return deliver(call, topo::graph_create(*c, nnodes, index, edges, reorder != 0, bad), comm_graph);
}

int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank) {
  Call call("MPI_Graph_map");
  comm::Comm* c;
  if (int e = call.intracomm(comm, "comm", &c)) return e;
  const comm::LocalError bad =
      first_of(null_output(newrank, "newrank"), topo::check_graph(c->size(), nnodes, index, edges, true));
  if (bad.code != MPI_SUCCESS) nnodes = 0;
  return deliver(call, topo::graph_map(*c, nnodes, index, edges, bad), newrank);
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

static bool is_unweighted(const int* w) { return w == MPI_UNWEIGHTED; }

int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int destinations[], const int destweights[], MPI_Info,
                                   int reorder, MPI_Comm* comm_dist_graph) {
  Call call("MPI_Dist_graph_create_adjacent");
  comm::Comm* c;
  if (int e = call.intracomm(comm_old, "comm_old", &c)) return e;
  const bool weighted = !is_unweighted(sourceweights) && !is_unweighted(destweights);
  topo::Adjacency mine;
  const comm::LocalError bad =
      first_of(null_output(comm_dist_graph, "comm_dist_graph"),
               topo::check_adjacent(c->size(), indegree, sources, sourceweights, outdegree, destinations, destweights,
                                    weighted, &mine));
  if (bad.code != MPI_SUCCESS) mine = {};
  return deliver(call, topo::dist_graph_create_adjacent(*c, std::move(mine), weighted, reorder != 0, bad),
                 comm_dist_graph);
}

int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info, int reorder,
                          MPI_Comm* comm_dist_graph) {
  Call call("MPI_Dist_graph_create");
  comm::Comm* c;
  if (int e = call.intracomm(comm_old, "comm_old", &c)) return e;
  const bool weighted = !is_unweighted(weights);
  std::vector<topo::Edge> mine;
  const comm::LocalError bad = first_of(
      null_output(comm_dist_graph, "comm_dist_graph"),
      topo::check_dist_graph(c->size(), n, sources, degrees, destinations, weights, weighted, &mine));
  if (bad.code != MPI_SUCCESS) mine.clear();
  return deliver(call, topo::dist_graph_create(*c, mine, weighted, reorder != 0, bad), comm_dist_graph);
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
  if ((in > 0 && !sources) || (out > 0 && !destinations))
    return call.fail(MPI_ERR_ARG, "argument %s is NULL", in > 0 && !sources ? "sources" : "destinations");
  if (t->weighted && ((in > 0 && !sourceweights) || (out > 0 && !destweights)))
    return call.fail(MPI_ERR_ARG, "argument %s is NULL (the graph is weighted; MPI_UNWEIGHTED skips the weights)",
                     in > 0 && !sourceweights ? "sourceweights" : "destweights");
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
