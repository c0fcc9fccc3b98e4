"""A rank that crashes, aborts or hits a fatal MPI error takes the job down:
the others are killed (also what they forked), mpiexec prints one line
naming the rank and the cause, after the rank's own last words."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl


def one_line(r):
    msgs = fl.mpiexec_lines(r)
    fl.check_eq(len(msgs), 1, "number of mpiexec lines", r)
    return msgs[0]


def test_segfault_while_others_wait_in_barrier(ctx):
    for np in (1, 2, 4, 8):
        bad = np // 2
        spec = "*:barrier,finalize;%d:segv" % bad
        r = ctx.mpiexec(["-n", str(np), ctx.prog("fl_rank")], env={"FL_SPEC": spec})
        fl.check_status(r, 128 + 11)
        line = one_line(r)
        fl.check_in("rank %d (pid" % bad, line, "rank named", r)
        fl.check_in("SIGSEGV", line, "signal named", r)
        fl.check_no_survivors(r)


def test_segfault_while_others_sleep(ctx):
    spec = "*:sleep=60,finalize;3:sleep=0.1,segv"
    r = ctx.mpiexec(["-n", "4", ctx.prog("fl_rank")], env={"FL_SPEC": spec})
    fl.check_status(r, 139)
    fl.check_in("SIGSEGV", one_line(r), "signal named", r)
    fl.check_no_survivors(r)


def test_segfault_while_others_wait_in_recv(ctx):
    for np in (2, 8):
        spec = "*:recv,finalize;1:sleep=0.1,segv"
        r = ctx.mpiexec(["-n", str(np), ctx.prog("fl_rank")], env={"FL_SPEC": spec})
        fl.check_status(r, 139)
        line = one_line(r)
        fl.check_in("rank 1 (pid", line, "rank named", r)
        fl.check_in("SIGSEGV", line, "signal named", r)
        fl.check_no_survivors(r)


def test_mpi_abort_status_and_message(ctx):
    for np in (1, 2, 4, 8):
        bad = np - 1
        spec = "*:barrier,finalize;%d:abort=5" % bad
        r = ctx.mpiexec(["-n", str(np), ctx.prog("fl_rank")], env={"FL_SPEC": spec})
        fl.check_status(r, 5)
        line = one_line(r)
        fl.check_in("rank %d (pid" % bad, line, "rank named", r)
        fl.check_in("MPI_Abort with error code 5", line, "abort code", r)
        fl.check_in("MPI_Abort(MPI_COMM_WORLD, 5)", line, "exit note text", r)
        fl.check_no_survivors(r)


def test_fatal_mpi_error_is_named(ctx):
    spec = "*:barrier,finalize;1:fatal"
    r = ctx.mpiexec(["-n", "3", ctx.prog("fl_rank")], env={"FL_SPEC": spec})
    fl.check_status(r, 1)  # a fatal MPI error: the rank exits 1, and mpiexec with it
    line = one_line(r)
    fl.check_in("rank 1 (pid", line, "rank named", r)
    fl.check_in("fatal MPI error", line, "cause", r)
    fl.check_in("MPI_Comm_rank", line, "exit note text", r)
    fl.check_no_survivors(r)


def test_last_words_come_before_the_verdict(ctx):
    spec = "*:barrier,finalize;1:lines=500,err=last words of rank 1,segv"
    r = ctx.mpiexec(["-n", "2", ctx.prog("fl_rank")], env={"FL_SPEC": spec})
    fl.check_status(r, 139)
    err = r.lines("err")
    fl.check("last words of rank 1" in err, "the rank's stderr was forwarded", r)
    verdict = [i for i, l in enumerate(err) if l.startswith("mpiexec:")]
    fl.check(verdict and err.index("last words of rank 1") < verdict[0], "rank output precedes mpiexec's line", r)
    fl.check_eq(len([l for l in r.lines() if l.startswith("rank 1 line")]), 500, "rank 1's stdout lines", r)


def test_what_a_rank_forked_goes_too(ctx):
    children = ctx.path("children-%s" % ctx.poll)
    spec = "*:child={0},barrier,finalize;2:child={0},sleep=0.2,exit=4".format(children)
    r = ctx.mpiexec(["-n", "3", ctx.prog("fl_rank")], env={"FL_SPEC": spec})
    fl.check_status(r, 4)
    kids = fl.read_records(children, "CHILD")
    fl.check_eq(sorted(kids), [0, 1, 2], "grandchildren started", r)
    fl.check_eq(fl.wait_gone(list(kids.values())), [], "grandchildren left alive", r)
    fl.check_no_survivors(r)


def test_only_the_first_failure_counts(ctx):
    # Every rank fails; the status is that of whichever failed first, and
    # there is still exactly one line.
    r = ctx.mpiexec(["-n", "4", ctx.prog("fl_rank")], env={"FL_SPEC": "*:exit=9"})
    fl.check_status(r, 9)
    one_line(r)


if __name__ == "__main__":
    fl.main([test_segfault_while_others_wait_in_barrier, test_segfault_while_others_sleep,
             test_segfault_while_others_wait_in_recv,
             test_mpi_abort_status_and_message, test_fatal_mpi_error_is_named,
             test_last_words_come_before_the_verdict, test_what_a_rank_forked_goes_too,
             test_only_the_first_failure_counts])
