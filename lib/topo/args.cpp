#include "topo/args.hpp"

#include <string>

#include "mpi.h"

namespace ringmpi::topo {
namespace {

using std::to_string;

comm::LocalError bad(int code, std::string why) { return {code, std::move(why), comm::BadArg::none, 0}; }

std::string item(const char* name, int i, int v) { return std::string(name) + "[" + to_string(i) + "]=" + to_string(v); }

bool in_comm(int size, int r) { return r >= 0 && r < size; }

}  // namespace

comm::LocalError check_cart(int size, int ndims, const int* dims, const int* periods) {
  if (ndims < 0) return bad(MPI_ERR_DIMS, "argument ndims=" + to_string(ndims) + " is negative");
  if (ndims > 0 && (!dims || !periods)) return bad(MPI_ERR_ARG, "argument dims or periods is NULL");
  long long n = 1;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] <= 0) return bad(MPI_ERR_DIMS, "argument " + item("dims", i, dims[i]) + " is not positive");
    n *= dims[i];
    if (n > size)
      return bad(MPI_ERR_TOPOLOGY, "the grid (product of dims > " + to_string(size) +
                                       ") has more nodes than the communicator has ranks (" + to_string(size) + ")");
  }
  return {};
}

comm::LocalError check_graph(int size, int nnodes, const int* index, const int* edges, bool for_map) {
  const int lo = for_map ? 1 : 0;
  if (nnodes < lo || nnodes > size)
    return bad(MPI_ERR_ARG, "argument nnodes=" + to_string(nnodes) + " is outside " + to_string(lo) + ".." +
                                to_string(size) + " (the size of the communicator)");
  if (nnodes > 0 && !index) return bad(MPI_ERR_ARG, "argument index is NULL");
  if (nnodes > 0 && index[nnodes - 1] > 0 && !edges) return bad(MPI_ERR_ARG, "argument edges is NULL");
  const std::string why = graph_invalid(nnodes, index, edges);
  if (!why.empty()) return bad(MPI_ERR_TOPOLOGY, "argument " + why);
  return {};
}

comm::LocalError check_dist_graph(int size, int n, const int* sources, const int* degrees, const int* destinations,
                                  const int* weights, bool weighted, std::vector<Edge>* mine) {
  if (n < 0) return bad(MPI_ERR_ARG, "argument n=" + to_string(n) + " is negative");
  if (n > 0 && (!sources || !degrees)) return bad(MPI_ERR_ARG, "argument sources or degrees is NULL");
  for (int i = 0, k = 0; i < n; ++i) {
    if (!in_comm(size, sources[i]))
      return bad(MPI_ERR_RANK,
                 "argument " + item("sources", i, sources[i]) + " is outside 0.." + to_string(size - 1));
    if (degrees[i] < 0) return bad(MPI_ERR_ARG, "argument " + item("degrees", i, degrees[i]) + " is negative");
    if (degrees[i] > 0 && (!destinations || (weighted && (!weights || weights == MPI_WEIGHTS_EMPTY))))
      return bad(MPI_ERR_ARG, "argument destinations or weights is NULL (degrees[" + to_string(i) + "] > 0)");
    for (int j = 0; j < degrees[i]; ++j, ++k) {
      if (!in_comm(size, destinations[k]))
        return bad(MPI_ERR_RANK,
                   "argument " + item("destinations", k, destinations[k]) + " is outside 0.." + to_string(size - 1));
      if (weighted && weights[k] < 0)
        return bad(MPI_ERR_ARG, "argument " + item("weights", k, weights[k]) + " is negative");
      mine->push_back({sources[i], destinations[k], weighted ? weights[k] : 1});
    }
  }
  return {};
}

comm::LocalError check_adjacent(int size, int indegree, const int* sources, const int* sourceweights, int outdegree,
                                const int* destinations, const int* destweights, bool weighted, Adjacency* mine) {
  if (indegree < 0) return bad(MPI_ERR_ARG, "argument indegree=" + to_string(indegree) + " is negative");
  if (outdegree < 0) return bad(MPI_ERR_ARG, "argument outdegree=" + to_string(outdegree) + " is negative");
  auto side = [&](int deg, const int* ranks, const int* w, const char* rname, const char* wname,
                  std::vector<int>* out_ranks, std::vector<int>* out_w) -> comm::LocalError {
    if (deg == 0) return {};
    if (!ranks) return bad(MPI_ERR_ARG, std::string("argument ") + rname + " is NULL");
    if (weighted && (!w || w == MPI_WEIGHTS_EMPTY))
      return bad(MPI_ERR_ARG, std::string("argument ") + wname + " is NULL or MPI_WEIGHTS_EMPTY");
    for (int i = 0; i < deg; ++i) {
      if (!in_comm(size, ranks[i]))
        return bad(MPI_ERR_RANK, "argument " + item(rname, i, ranks[i]) + " is outside 0.." + to_string(size - 1));
      if (weighted && w[i] < 0) return bad(MPI_ERR_ARG, "argument " + item(wname, i, w[i]) + " is negative");
      out_ranks->push_back(ranks[i]);
      if (weighted) out_w->push_back(w[i]);
    }
    return {};
  };
  comm::LocalError e =
      side(indegree, sources, sourceweights, "sources", "sourceweights", &mine->sources, &mine->source_weights);
  if (e.code != MPI_SUCCESS) return e;
  return side(outdegree, destinations, destweights, "destinations", "destweights", &mine->destinations,
              &mine->dest_weights);
}

comm::LocalError check_cart_sub(const Topology& t, const int* remain_dims) {
  if (!t.dims.empty() && !remain_dims) return bad(MPI_ERR_ARG, "argument remain_dims is NULL");
  return {};
}

}  // namespace ringmpi::topo
