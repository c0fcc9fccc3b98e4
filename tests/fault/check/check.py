"""mpiexec --check (check.c): each kind of mismatch across ranks (collective
root, count, op, call; gather block sizes; point-to-point type signatures on
the eager, unexpected and rendezvous paths) ends the job with a non-zero
status and exactly one message naming the call and both ranks' arguments; a
correct program that writes matching signatures differently runs unchanged
under --check, at several rank counts (more ranks than cores included), and
without it. No process survives any run."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402


def run(ctx, n, case, check=True):
    return ctx.mpiexec(["-n", str(n), "--timeout", "60"] + (["--check"] if check else []) +
                       [ctx.prog("check_args"), case], limit=90)


def mismatch(n, case, message):
    def test(ctx):
        r = run(ctx, n, case)
        fl.check(r.rc != 0, "a mismatch must fail the job", r)
        fl.check("done" not in r.out, "the program must not have finished", r)
        fl.check_eq(r.err.count(message), 1, "occurrences of %r on stderr" % message, r)
        fl.check_eq(r.err.count("mpiexec --check"), 1, "messages from the check", r)
        fl.check_no_survivors(r)
    test.__name__ = "test_%s_np%d" % (case, n)
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
                    ("topo_neighbor", 4), ("coll_alltoallw", 2)]:
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
        mismatch(2, "recv_type", "MPI_Recv on rank 1 expects MPI_DOUBLE x 2, rank 0 sent MPI_INT x 4"),
        mismatch(2, "recv_late", "MPI_Recv on rank 1 expects MPI_DOUBLE x 2, rank 0 sent MPI_INT x 4"),
        mismatch(2, "recv_large", "MPI_Recv on rank 1 expects MPI_DOUBLE x 50000, rank 0 sent MPI_INT x 100000"),
        correct(1, True),
        correct(2, True),
        correct(3, True),
        correct(5, True),
        correct(3, False),
        test_without_check_no_message,
        test_mpi_suites_under_check,
    ])
