"""mpiexec --check (check.c): each kind of mismatch across ranks (collective
root, count, op, call; gather block sizes; the per-rank counts of the v
forms and reduce_scatter's recvcounts; nonblocking collectives; an
intercommunicator root pairing; neighbourhood block signatures; point-to-point
type signatures on the eager, unexpected and rendezvous paths) ends the job
with a non-zero status and exactly one message naming the call and both
ranks' arguments; a correct program that writes matching signatures
differently runs unchanged under --check, at several rank counts (more ranks
than cores included), and without it, as do nonblocking collectives left
outstanding across point-to-point that orders the ranks, and the MPI test
suite's collective and neighbourhood programs. No process survives any run."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402


def run(ctx, n, case, check=True):
    return ctx.mpiexec(["-n", str(n), "--timeout", "60"] + (["--check"] if check else []) +
                       [ctx.prog("check_args"), case], limit=90)


def mismatch(n, case, message, call=None):
    """message: exactly once on stderr; call: also there (the part before a
    communicator's handle value, which the test does not pin down)."""
    def test(ctx):
        r = run(ctx, n, case)
        if call:
            fl.check_in(call, r.err, "the call", r)
        fl.check_status(r, 1)  # a mismatch ends the job with status 1 (mpiexec --help)
        fl.check("done" not in r.out, "the program must not have finished", r)
        fl.check_eq(r.err.count(message), 1, "occurrences of %r on stderr" % message, r)
        fl.check_eq(r.err.count("mpiexec --check"), 1, "messages from the check", r)
        fl.check_no_survivors(r)
    test.__name__ = "test_%s_np%d" % (case, n)
    return test


def correct_nb(n):
    # Nonblocking collectives started on rank 0 before a send that rank 1
    # receives before it starts them: the check must not make the start block.
    def test(ctx):
        r = run(ctx, n, "nb_p2p")
        fl.check_status(r, 0)
        fl.check_in("done nb_p2p", r.out, "rank 0's last line", r)
        fl.check("--check" not in r.err, "no check message", r)
        fl.check_no_survivors(r)
    test.__name__ = "test_nb_p2p_np%d" % n
    return test


def correct(n, check):
    def test(ctx):
        r = run(ctx, n, "correct", check)
        fl.check_status(r, 0)
        fl.check_in("done correct", r.out, "rank 0's last line", r)
        fl.check("--check" not in r.err, "no check message", r)
        fl.check_no_survivors(r)
    test.__name__ = "test_correct_np%d%s" % (n, "_check" if check else "")
    return test


def test_mpi_suites_under_check(ctx):
    # Correct programs of the MPI test suite (collectives, point-to-point with
    # derived types, communicators, topologies) run unchanged under --check.
    for name, n in [("coll_basic", 4), ("p2p_blocking", 2), ("dtype_sendrecv", 4), ("comm_intra", 3),
                    ("topo_neighbor", 4), ("coll_alltoallw", 2), ("coll_basic_nb", 5), ("coll_outstanding", 4),
                    ("coll_outstanding", 8), ("coll_inter", 5), ("coll_inter", 8), ("coll_idup", 3),
                    ("coll_alltoallw", 4), ("topo_neighbor", 9), ("topo_dims_distgraph", 6),
                    ("topo_shuffle_empty", 8), ("topo_cart_graph", 4)]:
        exe = os.path.join(ctx.build, "tests", "mpi", "mpi_" + name)
        fl.check(os.access(exe, os.X_OK), "%s is not built (meson test builds it)" % exe)
        r = ctx.mpiexec(["-n", str(n), "--check", "--timeout", "120", exe], limit=150)
        fl.check_status(r, 0)
        fl.check("--check" not in r.err, "no check message for the correct program %s" % name, r)
        fl.check_no_survivors(r)


def test_without_check_no_message(ctx):
    # Without --check the mismatched receive is only a (silent) reinterpretation: no check runs.
    r = run(ctx, 2, "recv_type", check=False)
    fl.check_status(r, 0)
    fl.check("--check" not in r.err, "no check message without --check", r)


if __name__ == "__main__":
    fl.main([
        mismatch(2, "bcast_root", "MPI_Bcast: rank 0 passed root 0, rank 1 passed root 1"),
        mismatch(3, "reduce_count", "MPI_Reduce: rank 0 passed count 4 of MPI_INT, rank 1 count 5"),
        mismatch(2, "allreduce_op", "MPI_Allreduce: rank 0 passed op MPI_SUM, rank 1 passed op MPI_MAX"),
        mismatch(3, "call", "MPI_Bcast: rank 0 called MPI_Bcast, rank 1 called MPI_Allreduce"),
        mismatch(3, "gather_count", "MPI_Gather: rank 0 (root) passed recvcount 4 of MPI_INT, rank 2 sendcount 3"),
        mismatch(3, "scatterv_count",
                 "MPI_Scatterv: rank 0 sends sendcounts[2]=4 of MPI_INT to rank 2, rank 2 expects recvcount 5 of MPI_INT"),
        mismatch(3, "gatherv_type",
                 "MPI_Gatherv: rank 1 sends sendcount 2 of MPI_DOUBLE to rank 0, "
                 "rank 0 expects recvcounts[1]=2 of MPI_INT"),
        mismatch(3, "alltoallv_count",
                 "MPI_Alltoallv: rank 1 sends sendcounts[2]=2 of MPI_INT to rank 2, "
                 "rank 2 expects recvcounts[1]=3 of MPI_INT"),
        mismatch(3, "reduce_scatter_counts",
                 "MPI_Reduce_scatter: rank 0 passed recvcounts[1]=2, rank 2 passed recvcounts[1]=1"),
        mismatch(2, "ibcast_root", "MPI_Ibcast: rank 0 passed root 0, rank 1 passed root 1"),
        mismatch(3, "mixed_call", "MPI_Bcast: rank 0 called MPI_Bcast, rank 1 called MPI_Ibcast"),
        mismatch(2, "iallgatherv_count",
                 "MPI_Iallgatherv: rank 1 sends sendcount 2 of MPI_INT to rank 0, "
                 "rank 0 expects recvcounts[1]=3 of MPI_INT"),
        mismatch(4, "inter_root",
                 "'halves': rank 0 of the remote group passed root 1, "
                 "rank 1 of the local group passed root MPI_PROC_NULL", "MPI_Bcast on communicator"),
        mismatch(2, "neighbor_count",
                 "'line': rank 0 sends sendcount 2 of MPI_INT to rank 1, "
                 "rank 1 expects recvcount 3 of MPI_INT", "MPI_Neighbor_alltoall on communicator"),
        mismatch(2, "ineighbor_type",
                 "'line': rank 0 sends sendcount 2 of MPI_INT to rank 1, "
                 "rank 1 expects recvcount 2 of MPI_FLOAT", "MPI_Ineighbor_alltoall on communicator"),
        mismatch(2, "recv_type", "MPI_Recv on rank 1 expects MPI_DOUBLE x 2, rank 0 sent MPI_INT x 4"),
        mismatch(2, "recv_late", "MPI_Recv on rank 1 expects MPI_DOUBLE x 2, rank 0 sent MPI_INT x 4"),
        mismatch(2, "recv_large", "MPI_Recv on rank 1 expects MPI_DOUBLE x 50000, rank 0 sent MPI_INT x 100000"),
        correct(1, True),
        correct(2, True),
        correct(3, True),
        correct(5, True),
        correct(3, False),
        correct_nb(2),
        correct_nb(5),
        test_without_check_no_message,
        test_mpi_suites_under_check,
    ])
