"""mpiexec's exit status: success, a rank's non-zero exit, missing or
unexecutable programs, bad command lines, MPI_Init without MPI_Finalize,
and the event-loop backends (io_uring, poll forced; io_uring refused is
test_uring_fallback.py, which can be skipped)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl


def test_hello_succeeds_at_every_size(ctx):
    for np in (1, 2, 4, 8):
        r = ctx.mpiexec(["-n", str(np), ctx.prog("hello")])
        fl.check_status(r, 0)
        got = sorted(int(m.group(1)) for m in re.finditer(r"hello from rank (\d+) of %d" % np, r.out))
        fl.check_eq(got, list(range(np)), "ranks that said hello", r)
        fl.check_eq(fl.mpiexec_lines(r), [], "mpiexec messages", r)
        fl.check_no_survivors(r)


def test_mpirun_is_the_same_launcher(ctx):
    mpirun = os.path.join(os.path.dirname(ctx.mpiexec_path), "mpirun")
    r = ctx.run([mpirun, "-np", "2", ctx.prog("hello")])
    fl.check_status(r, 0)
    fl.check_eq(len(re.findall("hello from rank", r.out)), 2, "hello lines", r)


def test_first_failing_rank_status_is_passed_on(ctx):
    for np in (1, 2, 4, 8):
        bad = np - 1
        spec = "*:barrier,finalize;%d:barrier,exit=7" % bad
        r = ctx.mpiexec(["-n", str(np), ctx.prog("fl_rank")], env={"FL_SPEC": spec})
        fl.check_status(r, 7)
        msgs = fl.mpiexec_lines(r)
        fl.check_eq(len(msgs), 1, "number of mpiexec lines", r)
        fl.check_in("rank %d (pid " % bad, msgs[0], "failing rank named", r)
        fl.check_in("exited with status 7", msgs[0], "cause named", r)
        fl.check_no_survivors(r)


def test_non_mpi_programs_work_too(ctx):
    r = ctx.mpiexec(["-n", "3", "sh", "-c", 'echo "r=$RINGMPI_RANK"; [ "$RINGMPI_RANK" != 2 ] || exit 3'])
    fl.check_status(r, 3)
    r = ctx.mpiexec(["-n", "2", "true"])
    fl.check_status(r, 0)


def test_missing_program_is_127_in_one_line(ctx):
    for prog in ("./no-such-program", "no-such-program-in-path"):
        r = ctx.mpiexec(["-n", "4", prog])
        fl.check_status(r, 127)
        fl.check_eq(len(r.lines("err")), 1, "stderr lines", r)
        fl.check_in("cannot run '%s'" % prog, r.err, "message", r)


def test_unexecutable_program_is_126(ctx):
    data = ctx.path("data.txt")
    with open(data, "w") as f:
        f.write("not a program\n")
    os.chmod(data, 0o644)
    for prog in (data, ctx.tmp):
        r = ctx.mpiexec(["-n", "2", prog])
        fl.check_status(r, 126)
        fl.check_eq(len(r.lines("err")), 1, "stderr lines", r)


def test_exec_failure_in_the_child_is_reported_once(ctx):
    # Passes the lookup (executable file) but execve fails: bad interpreter.
    script = ctx.path("bad-interp")
    with open(script, "w") as f:
        f.write("#!/nonexistent/interpreter\n")
    os.chmod(script, 0o755)
    r = ctx.mpiexec(["-n", "4", script])
    fl.check_status(r, 127)
    msgs = fl.mpiexec_lines(r)
    fl.check_eq(len(msgs), 1, "mpiexec lines", r)
    fl.check_in("cannot run", msgs[0], "message", r)
    fl.check_no_survivors(r)


def test_script_without_shebang_runs_like_execvp(ctx):
    script = ctx.path("plain-script")
    with open(script, "w") as f:
        f.write('echo "script rank $RINGMPI_RANK"\n')
    os.chmod(script, 0o755)
    r = ctx.mpiexec(["-n", "2", script])
    fl.check_status(r, 0)
    fl.check_eq(sorted(r.lines()), ["script rank 0", "script rank 1"], "output", r)


def test_bad_command_lines_are_refused_with_status_2(ctx):
    cases = [(["--frobnicate", "-n", "2", ctx.prog("hello")], "unknown option '--frobnicate'"),
             (["-n", "0", ctx.prog("hello")], "'0' is not a number of ranks"),
             (["-n", "two", ctx.prog("hello")], "'two'"),
             (["--bind-to", "socket", ctx.prog("hello")], "'socket'"),
             (["-n", "2"], "no program"),
             (["--timeout", "soon", ctx.prog("hello")], "'soon'")]
    for args, text in cases:
        r = ctx.mpiexec(args)
        fl.check_status(r, 2)
        fl.check_eq(r.out, "", "stdout", r)
        fl.check_in(text, r.err, "message", r)
        fl.check_eq(len(r.lines("err")), 1, "stderr lines", r)


def test_ring_size_setting_is_checked(ctx):
    for bad in ("1000", "65537", "lots"):
        r = ctx.mpiexec(["-n", "2", ctx.prog("hello")], env={"RINGMPI_RING_BYTES": bad})
        fl.check_status(r, 2)
        fl.check_in("RINGMPI_RING_BYTES='%s'" % bad, r.err, "message", r)
    r = ctx.mpiexec(["-n", "2", ctx.prog("hello")], env={"RINGMPI_RING_BYTES": "16384"})
    fl.check_status(r, 0)


def test_every_tunable_is_checked(ctx):
    # One table (lib/tunables) gives every RINGMPI_* variable its range; an
    # unsafe value stops mpiexec before any rank starts, whether it comes
    # from the environment or from -genv.
    for name, bad in (("RINGMPI_EAGER_LIMIT", "100"), ("RINGMPI_INTERNAL_EAGER_SAFE", "1000000"),
                      ("RINGMPI_CHUNK", "8"), ("RINGMPI_SPLIT_MIN", "x"), ("RINGMPI_YIELD_US", "-3"),
                      ("RINGMPI_FORCE_COPY_FALLBACK", "2"), ("RINGMPI_COLL_SPLIT_MIN", "big"),
                      ("RINGMPI_COLL_FOLD_WHOLE_MAX", "-1"), ("RINGMPI_COLL_SINGLE_COPY_MIN", "32k"),
                      ("RINGMPI_COLL_NONBLOCKING_SINGLE_COPY_MIN", "x"),
                      ("RINGMPI_COLL_BLOCK_REDUCTION_MIN", "-5"), ("RINGMPI_COLL_ALLTOALL_REDUCE_RANKS", "many")):
        r = ctx.mpiexec(["-n", "2", ctx.prog("hello")], env={name: bad})
        fl.check_status(r, 2)
        fl.check_eq(r.out, "", "stdout", r)
        fl.check_in("%s='%s' is not a" % (name, bad), r.err, "message", r)
    r = ctx.mpiexec(["-genv", "RINGMPI_EAGER_LIMIT", "10", "-n", "2", ctx.prog("hello")])
    fl.check_status(r, 2)
    fl.check_in("RINGMPI_EAGER_LIMIT='10' is not a number between 4096", r.err, "message", r)
    r = ctx.mpiexec(["-n", "2", ctx.prog("hello")], env={"RINGMPI_EAGER_LIMIT": "8192", "RINGMPI_YIELD_US": "0"})
    fl.check_status(r, 0)


def test_help_and_version(ctx):
    r = ctx.mpiexec(["--help"])
    fl.check_status(r, 0)
    for word in ("usage: mpiexec", "--bind-to", "--tag-output", "-genv", "--timeout", "124", "127",
                 "RINGMPI_RING_BYTES", "RINGMPI_EAGER_LIMIT", "RINGMPI_SPLIT_MIN", "RINGMPI_CHUNK",
                 "RINGMPI_INTERNAL_EAGER_SAFE", "RINGMPI_YIELD_US", "RINGMPI_FORCE_COPY_FALLBACK",
                 "RINGMPI_LAUNCHER_POLL"):
        fl.check_in(word, r.out, "help text", r)
    r = ctx.mpiexec(["--version"])
    fl.check_status(r, 0)
    fl.check_in("ringmpi", r.out, "version", r)


def test_exit_0_without_finalize_while_others_run_fails(ctx):
    for np in (2, 4):
        spec = "*:finalize;1:exit=0"
        r = ctx.mpiexec(["-n", str(np), ctx.prog("fl_rank")], env={"FL_SPEC": spec})
        fl.check_status(r, 1)
        msgs = fl.mpiexec_lines(r)
        fl.check_eq(len(msgs), 1, "mpiexec lines", r)
        fl.check_in("rank 1 (pid", msgs[0], "rank named", r)
        fl.check_in("without calling MPI_Finalize", msgs[0], "cause named", r)
        fl.check_no_survivors(r)
    # The others on their way out too (OSU 7.4's osu_latency_mt returns from
    # main without MPI_Finalize): they get a grace period, and what they
    # print before exiting is not lost.
    for np in (2, 3):
        r = ctx.mpiexec(["-n", str(np), ctx.prog("fl_rank")],
                        env={"FL_SPEC": "*:barrier,sleep=0.2,lines=2,exit=0;1:barrier,exit=0"})
        fl.check_status(r, 1)
        msgs = fl.mpiexec_lines(r)
        fl.check_eq(len(msgs), 1, "mpiexec lines", r)
        fl.check_in("unless", msgs[0], "grace named", r)
        for rank in [0] + list(range(2, np)):
            fl.check_in("rank %d line 1 " % rank, r.out, "rank %d's lines kept" % rank, r)
        fl.check_no_survivors(r)
    # ... but not forever: a rank that never ends is stopped after the grace.
    r = ctx.mpiexec(["-n", "2", ctx.prog("fl_rank")], env={"FL_SPEC": "*:barrier,spin;1:barrier,exit=0"})
    fl.check_status(r, 1)
    fl.check_no_survivors(r)
    # One rank: nobody is left waiting, so it is not a failure.
    r = ctx.mpiexec(["-n", "1", ctx.prog("fl_rank")], env={"FL_SPEC": "0:exit=0"})
    fl.check_status(r, 0)


def test_event_loop_backend(ctx):
    r = ctx.mpiexec(["-v", "-n", "2", ctx.prog("hello")])
    fl.check_status(r, 0)
    want = "event loop: poll (RINGMPI_LAUNCHER_POLL=1)" if ctx.poll else "event loop: io_uring"
    fl.check_in(want, r.err, "backend", r)


if __name__ == "__main__":
    fl.main([test_hello_succeeds_at_every_size, test_mpirun_is_the_same_launcher,
             test_first_failing_rank_status_is_passed_on, test_non_mpi_programs_work_too,
             test_missing_program_is_127_in_one_line, test_unexecutable_program_is_126,
             test_exec_failure_in_the_child_is_reported_once, test_script_without_shebang_runs_like_execvp,
             test_bad_command_lines_are_refused_with_status_2, test_ring_size_setting_is_checked,
             test_every_tunable_is_checked,
             test_help_and_version,
             test_exit_0_without_finalize_while_others_run_fails, test_event_loop_backend])
