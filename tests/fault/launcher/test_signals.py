"""Signals and time: SIGTERM/SIGINT to mpiexec are passed on to the ranks
(SIGKILL if they linger), SIGKILL of mpiexec takes the ranks down, and the
time limit kills the job with status 124. Nothing survives any of it."""
import os
import signal
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl


def started(ctx, np, spec, name, extra=()):
    """Starts a job whose ranks record their pids in a file; waits for all of them."""
    pidfile = ctx.path("%s-%d-%s.pids" % (name, np, ctx.poll))
    p, tag = ctx.start(list(extra) + ["-n", str(np), ctx.prog("fl_rank")],
                       env={"FL_SPEC": spec.replace("PIDS", pidfile)})
    pids = fl.wait_for_records(pidfile, "PID", np)
    return p, tag, pids


def test_sigterm_is_forwarded_to_every_rank(ctx):
    for np in (1, 2, 4):
        termfile = ctx.path("term-%d-%s" % (np, ctx.poll))
        p, tag, pids = started(ctx, np, "*:termfile=%s,pidfile=PIDS,sleep=60,finalize" % termfile, "term")
        p.send_signal(signal.SIGTERM)
        r = ctx.finish(p)
        fl.check_status(r, 128 + signal.SIGTERM)
        with open(termfile) as f:
            got = sorted(int(l.split()[1]) for l in f if l.startswith("TERM "))
        fl.check_eq(got, list(range(np)), "ranks that got SIGTERM", r)
        msgs = fl.mpiexec_lines(r)
        fl.check_eq(len(msgs), 1, "mpiexec lines", r)
        fl.check_in("received SIGTERM", msgs[0], "message", r)
        fl.check_eq(fl.wait_gone(list(pids.values())), [], "ranks left", r)
        fl.check_no_survivors(tag)


def test_sigint_is_forwarded(ctx):
    p, tag, pids = started(ctx, 4, "*:pidfile=PIDS,barrier,sleep=60,finalize", "int")
    p.send_signal(signal.SIGINT)
    r = ctx.finish(p)
    fl.check_status(r, 128 + signal.SIGINT)
    fl.check_in("received SIGINT", r.err, "message", r)
    fl.check_eq(fl.wait_gone(list(pids.values())), [], "ranks left", r)
    fl.check_no_survivors(tag)


def test_ranks_ignoring_sigterm_are_killed(ctx):
    p, tag, pids = started(ctx, 2, "*:ignoreterm,pidfile=PIDS,sleep=60,finalize", "ignore")
    p.send_signal(signal.SIGTERM)
    r = ctx.finish(p)
    fl.check_status(r, 128 + signal.SIGTERM)
    fl.check_eq(fl.wait_gone(list(pids.values())), [], "ranks left", r)
    fl.check_no_survivors(tag)


def test_sigkill_of_mpiexec_leaves_nothing(ctx):
    for np in (1, 2, 4, 8):
        p, tag, pids = started(ctx, np, "*:pidfile=PIDS,barrier,sleep=60,finalize", "kill")
        fl.check_eq(sorted(fl.arena_holders(list(pids.values()) + [p.pid])),
                    sorted(list(pids.values()) + [p.pid]), "every rank and mpiexec map the arena")
        p.kill()
        p.communicate()
        left = fl.wait_gone(list(pids.values()))
        fl.check_eq(left, [], "ranks alive after SIGKILL of mpiexec (np=%d)" % np)
        fl.check_eq(fl.arena_holders(fl.tagged_pids(tag)), [], "arena holders")
        fl.check_no_survivors(tag, "after SIGKILL of mpiexec")
    # The arena is a memfd: it lives while a process maps it or holds its fd.
    fl.check_eq(fl.memfd_holders(ctx.suite), {}, "processes holding ringmpi memfds")


def test_timeout_kills_the_job_with_124(ctx):
    for np in (1, 4):
        r = ctx.mpiexec(["--timeout", "1", "-n", str(np), ctx.prog("fl_rank")],
                        env={"FL_SPEC": "*:barrier,sleep=60,finalize"})
        fl.check_status(r, 124)
        msgs = fl.mpiexec_lines(r)
        fl.check_eq(len(msgs), 1, "mpiexec lines", r)
        fl.check_in("timeout", msgs[0], "message", r)
        fl.check_no_survivors(r)


def test_mpiexec_timeout_variable(ctx):
    r = ctx.mpiexec(["-n", "2", ctx.prog("fl_rank")], env={"FL_SPEC": "*:spin", "MPIEXEC_TIMEOUT": "1"})
    fl.check_status(r, 124)
    fl.check_in("MPIEXEC_TIMEOUT", r.err, "message names the setting", r)
    fl.check_no_survivors(r)


def test_a_job_within_its_time_limit_is_untouched(ctx):
    r = ctx.mpiexec(["--timeout", "60", "-n", "4", ctx.prog("hello")])
    fl.check_status(r, 0)
    fl.check_eq(fl.mpiexec_lines(r), [], "mpiexec lines", r)


if __name__ == "__main__":
    fl.main([test_sigterm_is_forwarded_to_every_rank, test_sigint_is_forwarded,
             test_ranks_ignoring_sigterm_are_killed, test_sigkill_of_mpiexec_leaves_nothing,
             test_timeout_kills_the_job_with_124, test_mpiexec_timeout_variable,
             test_a_job_within_its_time_limit_is_untouched])
