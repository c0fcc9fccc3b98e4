"""A spawned process that crashes, or exits before MPI_Init, takes the whole
job down with one line naming it (which spawn, its rank, the program), and
nothing is left behind (spawn_bad.c child-crash / child-early-exit);
deadlock and timeout reports cover spawned processes; the name service and
mpiexec's spawn socket are out of reach for another user."""
import os
import socket
import sys
import tempfile

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


def test_child_fatal_error(ctx):
    r = ctx.mpiexec(["-n", "2", PROG, "child-fatal"])
    fl.check(r.rc != 0, "the job failed", r)
    fl.check(any(l.startswith("ringmpi: spawn 1 rank ") and "(process " in l and "MPI_Send" in l and
                 "MPI_ERR_RANK" in l for l in r.lines("err")),
             "the child's own message names it as spawn 1 rank R (process P)", r)
    fl.check(any("spawn 1 rank" in l and "fatal MPI error" in l for l in fl.mpiexec_lines(r)),
             "mpiexec's line names the spawned process", r)
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


def names_dir():
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isdir(xdg) and os.stat(xdg).st_uid == os.geteuid():
        return os.path.join(xdg, "ringmpi-names")
    return "/tmp/ringmpi-%d/names" % os.geteuid()


def test_names_belong_to_the_user(ctx):
    service = "ringmpi-test-private-%d" % os.getpid()
    r = ctx.mpiexec(["-n", "1", PROG, "publish"], env={"SPAWN_BAD_SERVICE": service})
    fl.check_status(r, 0)
    d = names_dir()
    path = os.path.join(d, service.encode().hex())
    try:
        st = os.stat(d)
        fl.check(st.st_uid == os.geteuid() and (st.st_mode & 0o777) == 0o700, "the names directory is 0700, ours")
        fl.check(os.path.exists(path), "the published name has its file " + path)
        if os.geteuid() == 0:
            # Another user can neither read the name nor publish beside it.
            pid = os.fork()
            if pid == 0:
                code = 0
                try:
                    os.setgroups([])
                    os.setresgid(65534, 65534, 65534)
                    os.setresuid(65534, 65534, 65534)
                    for attempt in (lambda: open(path).read(), lambda: os.listdir(d),
                                    lambda: open(os.path.join(d, "intruder"), "w")):
                        try:
                            attempt()
                            code = 1
                        except PermissionError:
                            pass
                finally:
                    os._exit(code)
            _, status = os.waitpid(pid, 0)
            fl.check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0,
                     "uid 65534 could reach the name service directory of uid %d" % os.geteuid())
    finally:
        if os.path.exists(path):
            os.unlink(path)


def ask_launcher(name, uid=None):
    """Connects to mpiexec's spawn socket (as uid, in a child), sends a
    malformed request; True when mpiexec answered."""
    pid = os.fork()
    if pid == 0:
        answered = False
        try:
            if uid is not None:
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)
            s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            s.settimeout(10)
            s.connect("\0" + name)
            s.send(b"not a spawn request")
            answered = len(s.recv(4096)) > 0
        except OSError:
            pass
        finally:
            os._exit(1 if answered else 0)
    _, status = os.waitpid(pid, 0)
    return os.WEXITSTATUS(status) == 1


def test_spawn_socket_refuses_other_users(ctx):
    if os.geteuid() != 0:
        return  # needs root to become another user
    with tempfile.TemporaryDirectory() as tmp:
        go = os.path.join(tmp, "go")
        p, tag = ctx.start(["-n", "1", PROG, "print-launcher"], env={"SPAWN_BAD_GO": go})
        try:
            line = p.stdout.readline().decode()
            fl.check(line.startswith("launcher ringmpi-"), "the rank names mpiexec's spawn socket: %r" % line)
            name = line.split()[1]
            fl.check(not ask_launcher(name, uid=65534), "mpiexec answered a process of uid 65534")
            fl.check(ask_launcher(name), "mpiexec answers a process of its own uid (a malformed request)")
        finally:
            open(go, "w").close()
            r = ctx.finish(p)
        fl.check_status(r, 0)
        fl.check_no_survivors(tag)


if __name__ == "__main__":
    argv = sys.argv[1:]
    if "--prog" in argv:
        i = argv.index("--prog")
        PROG = argv[i + 1]
        del argv[i:i + 2]
    fl.main([test_child_crash, test_child_exits_before_init, test_child_fatal_error, test_tag_output, test_deadlock_covers_children,
             test_timeout_covers_children, test_names_belong_to_the_user, test_spawn_socket_refuses_other_users],
            argv)
