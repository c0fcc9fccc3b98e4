"""A spawned process that crashes, or exits before MPI_Init, takes the whole
job down with one line naming it (which spawn, its rank, the program), and
nothing is left behind (spawn_bad.c child-crash / child-early-exit)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

PROG = None


def test_child_crash(ctx):
    r = ctx.mpiexec(["-n", "2", PROG, "child-crash"])
    fl.check(r.rc != 0, "the job failed", r)
    lines = fl.mpiexec_lines(r)
    fl.check(any("spawn 1 rank" in l and "SIGSEGV" in l and "spawn_bad" in l for l in lines),
             "one mpiexec line names the spawned process and the signal", r)
    fl.check_no_survivors(r)


def test_child_exits_before_init(ctx):
    r = ctx.mpiexec(["-n", "1", PROG, "child-early-exit"])
    fl.check(r.rc != 0, "the job failed", r)
    lines = fl.mpiexec_lines(r)
    fl.check(any("spawn 1 rank" in l and "before calling MPI_Init" in l for l in lines),
             "one mpiexec line names the child that never called MPI_Init", r)
    fl.check_no_survivors(r)


def test_tag_output(ctx):
    r = ctx.mpiexec(["-n", "1", "--tag-output", PROG, "child-crash"])
    fl.check(r.rc != 0, "the job failed", r)
    fl.check_in("[1.0] spawned child 0 here", r.out, "the child's line tagged with its spawn and rank", r)
    fl.check_no_survivors(r)


def test_deadlock_covers_children(ctx):
    r = ctx.mpiexec(["-n", "1", PROG, "child-deadlock"])
    fl.check_status(r, 123)
    fl.check_in("rank 0 waits for spawn 1 rank 0", r.err, "the report names the spawned process waited for", r)
    fl.check_in("spawn 1 rank 0 (process 1,", r.err, "the report has a line for the spawned process", r)
    fl.check_no_survivors(r)


def test_timeout_covers_children(ctx):
    r = ctx.mpiexec(["-n", "1", "--no-deadlock-check", "--timeout", "1", PROG, "child-deadlock"])
    fl.check_status(r, 124)
    fl.check_in("spawn 1 rank 0", r.err, "the timeout report lists the spawned process", r)
    fl.check_no_survivors(r)


if __name__ == "__main__":
    argv = sys.argv[1:]
    if "--prog" in argv:
        i = argv.index("--prog")
        PROG = argv[i + 1]
        del argv[i:i + 2]
    fl.main([test_child_crash, test_child_exits_before_init, test_tag_output, test_deadlock_covers_children,
             test_timeout_covers_children], argv)
