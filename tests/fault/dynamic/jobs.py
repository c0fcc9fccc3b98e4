"""Two jobs of separate mpiexec runs connect (docs/design/dynamic-processes.md,
"Connecting two jobs"): tests/mpi/dynamic/jobs_server.c accepts,
jobs_client.c connects, at 1+1, 2+2 and 3+3 ranks (3+3: more ranks than
cores), through a published name, through a file, and with MPI_Comm_join
over a Unix socket; messages both ways, intercommunicator collectives and a
merged communicator, and spawns from it rooted in either job, whose
children talk to the parents of both (jobs_common.h), or, jobs too big
for each other, fails with MPI_ERR_SPAWN; three connections in a row, also
with both jobs unbound (--bind-to none), and ping-pongs so; both jobs
finalizing without a disconnect; a client
that connects late is no deadlock. A client killed while connected ends
the server's job with a line naming it; a client connecting to two jobs
whose processes have the same slots ends with a line saying why; a process
of another user cannot connect. Nothing survives any run, and no bridge or arena is left."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

SERVER = CLIENT = None


def pair(ctx, np, mode, arg, client_mode=None, server_limit=60.0, client_env=None, launcher=(), env=None):
    """Starts the server job, then the client job; returns both results."""
    s, stag = ctx.start(list(launcher) + ["-n", str(np), "--timeout", "60", SERVER, mode, arg], env=env)
    try:
        c = ctx.mpiexec(list(launcher) + ["-n", str(np), "--timeout", "60", CLIENT, client_mode or mode, arg],
                        limit=90.0, env=dict(env or {}, **(client_env or {})))
    finally:
        r = ctx.finish(s, limit=server_limit)
    r.tag = stag
    return r, c


def check_pair(r, c, mode):
    fl.check_status(c, 0)
    fl.check_status(r, 0)
    fl.check_in("server %s done" % mode, r.out, "the server finished", r)
    fl.check_in("client %s done" % mode, c.out, "the client finished", c)
    fl.check_no_survivors(r)
    fl.check_no_survivors(c)


def test_publish(ctx):
    for np in (1, 2, 3):
        service = "ringmpi-jobs-test-%d-%d" % (os.getpid(), np)
        r, c = pair(ctx, np, "publish", service)
        check_pair(r, c, "publish")


def test_file(ctx):
    for np in (1, 2, 3):
        path = ctx.path("port-%d" % np)
        r, c = pair(ctx, np, "file", path)
        check_pair(r, c, "file")


def test_join(ctx):
    for np in (1, 2, 3):
        path = ctx.path("join-%d.sock" % np)
        r, c = pair(ctx, np, "join", path)
        check_pair(r, c, "join")


def test_connect_again(ctx):
    for np in (1, 3):
        path = ctx.path("again-%d" % np)
        r, c = pair(ctx, np, "again", path)
        check_pair(r, c, "again")


def test_unbound(ctx):
    # Both jobs --bind-to none (as the guide advises for two jobs that talk):
    # each job counts a core per process, so its waits spin, and a spinning
    # waiter stops once the peer it waits for is queued on its own core
    # (p2p/wait.cpp, peer_queued_here; whether the kernel puts them on one
    # core is its choice). Connections in a row, then ping-pongs (201 round
    # trips of 8 B, 6 of 1 MiB) and a disconnect.
    for np in (1, 3):
        path = ctx.path("unbound-again-%d" % np)
        r, c = pair(ctx, np, "again", path, launcher=["--bind-to", "none"])
        check_pair(r, c, "again")
    path = ctx.path("unbound-pingpong")
    r, c = pair(ctx, 1, "pingpong", path, launcher=["--bind-to", "none"], env={"JOBS_PP_ITERS": "1"})
    check_pair(r, c, "pingpong")


def test_no_room(ctx):
    # Jobs of 2032 slots each: neither has room for the other's slots, so a
    # spawn from their merged communicator is MPI_ERR_SPAWN, rooted in either.
    for np in (1, 2):
        path = ctx.path("noroom-%d" % np)
        r, c = pair(ctx, np, "noroom", path, launcher=["--universe-size", "2000"])
        check_pair(r, c, "noroom")


def test_finalize_without_disconnect(ctx):
    for np in (1, 2):
        path = ctx.path("nodisc-%d" % np)
        r, c = pair(ctx, np, "nodisconnect", path)
        check_pair(r, c, "nodisconnect")


def test_late_client_is_no_deadlock(ctx):
    # The server's ranks wait (accept, and the bcast after it) for 2.5 s:
    # mpiexec's detector declares a deadlock after about 1 s of all ranks
    # idle, unless the wait for another job counts as live.
    path = ctx.path("late")
    r, c = pair(ctx, 2, "file", path, client_mode="late")
    fl.check_status(c, 0)
    fl.check_status(r, 0)
    fl.check("deadlock" not in r.err, "no deadlock declared", r)
    fl.check_in("server file done", r.out, "the server finished", r)
    fl.check_no_survivors(r)
    fl.check_no_survivors(c)


def test_peer_job_dies(ctx):
    for np in (1, 2):
        path = ctx.path("wait-%d" % np)
        r, c = pair(ctx, np, "wait", path, client_mode="crash")
        fl.check(c.rc not in (0, None), "the client job failed", c)
        fl.check(r.rc not in (0, None), "the server job failed", r)
        fl.check("the receive returned" not in r.out, "the server's receive did not return normally", r)
        fl.check(any("connected to this job, ended without MPI_Finalize" in l and "of job ringmpi" in l
                     for l in r.lines("err")),
                 "a line of the server's job names the dead process and its job", r)
        fl.check("deadlock" not in r.err, "no deadlock declared", r)
        fl.check_no_survivors(r)
        fl.check_no_survivors(c)


def test_two_jobs_same_slots(ctx):
    # Connected to job B, the client connects to job C too: C's processes
    # have the slots of B's, which index the same peers here. The client's
    # job ends with a line saying so; B and C, waiting on it, end too.
    path = ctx.path("two")
    b, btag = ctx.start(["-n", "1", "--timeout", "60", SERVER, "wait", path])
    c2, ctag = ctx.start(["-n", "1", "--timeout", "60", SERVER, "wait", path + ".2"])
    try:
        a = ctx.mpiexec(["-n", "1", "--timeout", "60", CLIENT, "two", path], limit=90.0)
    finally:
        rb = ctx.finish(b, limit=60.0)
        rc = ctx.finish(c2, limit=60.0)
    fl.check(a.rc not in (0, None), "the client job failed", a)
    fl.check("connected to two jobs" not in a.out, "the second connect did not succeed", a)
    fl.check_in("is connected to a process with the same slot of another job still", a.err,
                "the client's line says why", a)
    for r, tag in ((rb, btag), (rc, ctag)):
        fl.check(r.rc not in (0, None), "each server job failed", r)
        fl.check_in("connected to this job, ended without MPI_Finalize", r.err, "its line names the client", r)
        fl.check_no_survivors(tag)
    fl.check_no_survivors(a)


def as_nobody():
    os.setgroups([])
    os.setresgid(65534, 65534, 65534)
    os.setresuid(65534, 65534, 65534)


def test_other_user_refused(ctx):
    if os.geteuid() != 0:
        return  # needs root to become another user
    d = tempfile.mkdtemp(prefix="ringmpi-jobs-")
    os.chmod(d, 0o755)
    path = os.path.join(d, "port")
    s, stag = ctx.start(["-n", "1", "--timeout", "60", SERVER, "file", path])
    try:
        full_env = ctx.base_env()
        full_env.pop("XDG_RUNTIME_DIR", None)
        import subprocess
        p = subprocess.Popen([ctx.mpiexec_path, "-n", "1", "--timeout", "30", CLIENT, "refused", path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=full_env, cwd=d,
                             preexec_fn=as_nobody, start_new_session=True)
        out, err = p.communicate(timeout=60)
        fl.check(p.returncode == 0 and b"client refused: MPI_ERR_PORT" in out,
                 "uid 65534's connect failed with MPI_ERR_PORT\n%s\n%s" % (out.decode(), err.decode()))
        # The server still accepts its own user's client afterwards.
        c = ctx.mpiexec(["-n", "1", "--timeout", "60", CLIENT, "file", path], limit=90.0)
    finally:
        r = ctx.finish(s, limit=60.0)
        r.tag = stag
    check_pair(r, c, "file")
    if os.path.exists(path):
        os.unlink(path)
    os.rmdir(d)


def main():
    global SERVER, CLIENT
    argv = sys.argv[1:]
    for flag in ("--server", "--client"):
        i = argv.index(flag)
        if flag == "--server":
            SERVER = os.path.abspath(argv[i + 1])
        else:
            CLIENT = os.path.abspath(argv[i + 1])
        del argv[i:i + 2]
    fl.main([test_publish, test_file, test_join, test_connect_again, test_unbound, test_no_room,
             test_finalize_without_disconnect,
             test_late_client_is_no_deadlock,
             test_peer_job_dies, test_two_jobs_same_slots, test_other_user_refused], argv)


if __name__ == "__main__":
    main()
