"""Deadlock detection (deadlock.c): deadlocked jobs end with status 123 and a
report naming the call every rank waits in; correct programs that leave ranks
waiting for seconds (a rank computing, a rank sleeping, many sleeps and wakes
with more ranks than cores) are never flagged; --no-deadlock-check turns the
check off. No process survives any of them. (No timing assertions: --timeout
only bounds a run that would otherwise hang.)"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402


def run(ctx, n, case, extra=()):
    return ctx.mpiexec(["-n", str(n), "--timeout", "60"] + list(extra) + [ctx.prog("deadlock"), case], limit=90)


def report(r):
    return "\n".join(fl.mpiexec_lines(r)) + "\n" + r.err


def deadlocked(n, case, waits):
    def test(ctx):
        r = run(ctx, n, case)
        fl.check_status(r, 123)
        fl.check("done" not in r.out, "the program must not have finished", r)
        text = report(r)
        fl.check_in("deadlock:", text, "the report", r)
        for rank, call in waits:
            fl.check_in("rank %d waits in %s" % (rank, call), text, "rank %d's line" % rank, r)
        fl.check_no_survivors(r)
    test.__name__ = "test_%s_np%d" % (case, n)
    return test


def correct(n, case):
    def test(ctx):
        r = run(ctx, n, case)
        fl.check_status(r, 0)
        fl.check_in("done " + case, r.out, "rank 0's last line", r)
        fl.check("deadlock" not in r.err, "no deadlock report", r)
        fl.check_no_survivors(r)
    test.__name__ = "test_%s_np%d" % (case, n)
    return test


def test_no_deadlock_check(ctx):
    r = ctx.mpiexec(["-n", "3", "--timeout", "6", "--no-deadlock-check", ctx.prog("deadlock"), "recv_cycle"], limit=60)
    fl.check_status(r, 124)
    # The timeout's hang report names each rank's call.
    for rank, call in [(0, "MPI_Recv"), (1, "MPI_Recv"), (2, "MPI_Barrier")]:
        fl.check_in("rank %d waits in %s" % (rank, call), r.err, "the hang report", r)
    fl.check("deadlock:" not in r.err, "no deadlock report with --no-deadlock-check", r)
    fl.check_no_survivors(r)


if __name__ == "__main__":
    fl.main([
        deadlocked(2, "recv_cycle", [(0, "MPI_Recv"), (1, "MPI_Recv")]),
        deadlocked(5, "recv_cycle", [(0, "MPI_Recv"), (1, "MPI_Recv"), (2, "MPI_Barrier"), (4, "MPI_Barrier")]),
        deadlocked(2, "finalized", [(0, "MPI_Recv"), (1, "MPI_Finalize")]),
        correct(3, "slow_compute"),
        correct(5, "slow_sleep"),
        correct(8, "token_ring"),
        test_no_deadlock_check,
    ])
