"""Bad input to the topology constructors: under MPI_ERRORS_ARE_FATAL the job
ends with one line naming the rank, the call, the class and the argument;
under MPI_ERRORS_RETURN a bad argument on one rank of a collective
constructor or map fails the call on every rank and nobody hangs
(topo_bad.c)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (np, call, class, words the message of the bad rank (the last) must contain)
CASES = {
    "dist_graph_bad_dest": (1, "MPI_Dist_graph_create", "MPI_ERR_RANK", ["destinations[0]=5", "outside 0..0"]),
    "dims_not_divisible": (1, "MPI_Dims_create", "MPI_ERR_DIMS", ["nnodes=12", "not a multiple"]),
    # np = 1: at np = 2 the good rank also fails (the verdict travels) and its
    # fatal handler may stop the job before the bad rank's line is out; the
    # "returns" mode checks every rank at np 1-4.
    "cart_create_zero_dim": (1, "MPI_Cart_create", "MPI_ERR_DIMS", ["dims[0]=0", "not positive"]),
    "graph_create_bad_edge": (1, "MPI_Graph_create", "MPI_ERR_TOPOLOGY", ["edges[0]=3", "outside 0..0"]),
    "adjacent_negative_indegree": (1, "MPI_Dist_graph_create_adjacent", "MPI_ERR_ARG", ["indegree=-1"]),
    "dist_graph_negative_weight": (1, "MPI_Dist_graph_create", "MPI_ERR_ARG", ["weights[0]=-3", "negative"]),
}


def main():
    args = fl.fatal_args()
    failures = fl.check_fatal_cases(args, {case: (np, np - 1, call, cls, words)
                                           for case, (np, call, cls, words) in CASES.items()})
    fl.check_returns(args, (1, 2, 3, 4), "all error codes as expected", failures)
    return fl.report(failures)


if __name__ == "__main__":
    sys.exit(main())
