"""Deadlock detection (deadlock.c): deadlocked jobs end with status 123 and a
report naming the call every rank waits in, with its arguments (peer, tag,
communicator, count and datatype), the rank it waits for and the wait-for cycle; correct programs that leave ranks
waiting for seconds (a rank computing, a rank sleeping, many sleeps and wakes
with more ranks than cores) are never flagged; at MPI_THREAD_MULTIPLE
(deadlock_threads.c) a cycle of threads blocked in MPI_Recv (one or two per
process, the main thread in pthread_join or in MPI_Recv itself) is reported
with every blocked call, and a process whose other thread sleeps or computes
outside MPI for 3 s is not; --no-deadlock-check turns the check off. No process survives any of them. (No timing assertions: --timeout
only bounds a run that would otherwise hang.)"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402


def run(ctx, n, case, extra=()):
    prog = "deadlock_threads" if case.startswith("thread_") else "deadlock"
    return ctx.mpiexec(["-n", str(n), "--timeout", "60"] + list(extra) + [ctx.prog(prog), case], limit=90)


def report(r):
    return "\n".join(fl.mpiexec_lines(r)) + "\n" + r.err


def deadlocked(n, case, waits, cycle=None):
    """waits: (rank, text) pairs, each line "rank R <text>" must be in the report."""
    def test(ctx):
        r = run(ctx, n, case)
        fl.check_status(r, 123)
        fl.check("done" not in r.out, "the program must not have finished", r)
        text = report(r)
        fl.check_in("deadlock:", text, "the report", r)
        for rank, call in waits:
            if isinstance(call, str):
                fl.check_in("rank %d %s" % (rank, call), text, "rank %d's line" % rank, r)
            else:
                fl.check(re.search(r"rank %d %s" % (rank, call.pattern), text) is not None,
                         "rank %d's line matches %r" % (rank, call.pattern), r)
        if cycle:
            fl.check_in("wait-for cycle: " + cycle, text, "the wait-for cycle", r)
        else:
            fl.check("wait-for cycle" not in text, "no wait-for cycle", r)
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


RECV_FROM_1 = "waits for rank 1 in MPI_Recv(source 1, tag 7, MPI_COMM_WORLD, 1 x MPI_INT)"
RECV_FROM_0 = "waits for rank 0 in MPI_Recv(source 0, tag 7, MPI_COMM_WORLD, 1 x MPI_INT)"
BARRIER = "waits in MPI_Barrier(MPI_COMM_WORLD)"


def test_no_deadlock_check(ctx):
    r = ctx.mpiexec(["-n", "3", "--timeout", "6", "--no-deadlock-check", ctx.prog("deadlock"), "recv_cycle"], limit=60)
    fl.check_status(r, 124)
    # The timeout's hang report names each rank's call.
    for rank, call in [(0, "waits for rank 1 in MPI_Recv(source 1, tag 7"), (1, "waits for rank 0 in MPI_Recv("),
                       (2, "waits in MPI_Barrier(MPI_COMM_WORLD)")]:
        fl.check_in("rank %d %s" % (rank, call), r.err, "the hang report", r)
    fl.check("deadlock:" not in r.err, "no deadlock report with --no-deadlock-check", r)
    fl.check_no_survivors(r)


if __name__ == "__main__":
    fl.main([
        deadlocked(2, "recv_cycle", [(0, RECV_FROM_1), (1, RECV_FROM_0)], "rank 0 -> rank 1 -> rank 0"),
        deadlocked(5, "recv_cycle", [(0, RECV_FROM_1), (1, RECV_FROM_0), (2, BARRIER), (4, BARRIER)],
                   "rank 0 -> rank 1 -> rank 0"),
        deadlocked(2, "finalized", [(0, "waits for rank 1 in MPI_Recv(source 1, tag 3, MPI_COMM_WORLD, 1 x MPI_INT)"),
                                    (1, "waits in MPI_Finalize")]),
        deadlocked(3, "wait_cycle", [(r, re.compile(r"waits for rank %d in MPI_Wait\(receive from source %d, tag 5, "
                                                    r"communicator 0x[0-9a-f]+ 'grid', 2 x MPI_DOUBLE\)"
                                                    % ((r + 1) % 3, (r + 1) % 3))) for r in range(3)],
                   "rank 0 -> rank 1 -> rank 2 -> rank 0"),
        deadlocked(3, "bcast_wait", [(0, "waits in MPI_Recv(source MPI_ANY_SOURCE, tag 1, MPI_COMM_WORLD, 1 x MPI_INT)")] +
                   [(r, "waits for rank 0 in MPI_Bcast(root 0, MPI_COMM_WORLD, 1 x MPI_INT)") for r in (1, 2)]),
        # MPI_THREAD_MULTIPLE (deadlock_threads.c): a process is idle when every
        # thread in MPI waits, asleep, and every other thread is blocked for good.
        deadlocked(2, "thread_cycle", [(0, RECV_FROM_1), (1, RECV_FROM_0)],
                   "rank 0 -> rank 1 -> rank 0"),
        deadlocked(2, "thread_two", [(r, re.compile(
            r"waits for rank %d in 2 threads: MPI_Recv\(source %d, tag [78], MPI_COMM_WORLD, 1 x MPI_INT\); "
            r"MPI_Recv\(source %d, tag [78], MPI_COMM_WORLD, 1 x MPI_INT\)" % (1 - r, 1 - r, 1 - r))) for r in (0, 1)],
                   "rank 0 -> rank 1 -> rank 0"),
        correct(2, "thread_sleep"),
        correct(2, "thread_compute"),
        correct(3, "slow_compute"),
        correct(5, "slow_sleep"),
        correct(8, "token_ring"),
        test_no_deadlock_check,
    ])
