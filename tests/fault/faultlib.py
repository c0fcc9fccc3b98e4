"""Shared helpers for the fault tests (python3, stdlib only).

A fault test is a script run by meson as

    python3 test_x.py --mpiexec PATH --build BUILDROOT [--poll] [extra args]

Typical use:

    import faultlib as fl

    def test_something(ctx):
        r = ctx.mpiexec(["-n", "2", ctx.prog("fl_rank")], env={"FL_SPEC": "*:barrier,finalize"})
        fl.check_eq(r.rc, 0, "exit status", r)

    fl.main([test_something])

Every run has a hard time limit (no test can hang the suite), every process a
run starts carries a unique FL_TAG in its environment so that survivors can
be found by tag (robust against other jobs running on the machine), and
check_* failures print the command, status and output of the run involved.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import uuid

ARENA_NAME = "ringmpi-arena"


class Failure(Exception):
    pass


class Result:
    """What one run produced. out/err are str (undecodable bytes replaced)."""

    def __init__(self, cmd, rc, out, err, elapsed, pid, tag):
        self.cmd, self.rc, self.out, self.err = cmd, rc, out, err
        self.elapsed, self.pid, self.tag = elapsed, pid, tag

    def lines(self, stream="out"):
        return (self.out if stream == "out" else self.err).splitlines()

    def describe(self):
        def clip(s):
            return s if len(s) < 3000 else s[:1500] + "\n...[%d bytes]...\n" % len(s) + s[-1500:]
        return "command: %s\nexit status: %s (%.2f s)\n--- stdout ---\n%s\n--- stderr ---\n%s" % (
            " ".join(repr(c) for c in self.cmd), self.rc, self.elapsed, clip(self.out), clip(self.err))


def check(cond, what, result=None):
    if not cond:
        raise Failure(what + ("\n" + result.describe() if result is not None else ""))


def check_eq(got, want, what, result=None):
    check(got == want, "%s: got %r, want %r" % (what, got, want), result)


def check_in(needle, hay, what, result=None):
    check(needle in hay, "%s: %r not found" % (what, needle), result)


def check_status(result, want):
    check_eq(result.rc, want, "exit status", result)


def mpiexec_lines(result):
    """Lines mpiexec itself printed on stderr."""
    return [l for l in result.lines("err") if l.startswith("mpiexec:")]


# --- processes -------------------------------------------------------------

def is_alive(pid):
    """True if pid exists and is not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat[stat.rfind(")") + 2] not in "ZX"


def tagged_pids(tag, var="FL_TAG"):
    """Live processes whose environment holds var=tag."""
    want = (var + "=" + tag).encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/environ" % entry, "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if want in env and is_alive(int(entry)):
            found.append(int(entry))
    return found


def arena_holders(pids, name=ARENA_NAME):
    """Those of pids that map or hold an fd of a memfd whose name contains name."""
    holders = []
    for pid in pids:
        try:
            with open("/proc/%d/maps" % pid) as f:
                if name in f.read():
                    holders.append(pid)
                    continue
            for fd in os.listdir("/proc/%d/fd" % pid):
                if name in os.readlink("/proc/%d/fd/%s" % (pid, fd)):
                    holders.append(pid)
                    break
        except OSError:
            continue
    return holders


def memfd_holders(suite):
    """{pid: command} of the processes started by this test program (their
    environment holds FL_SUITE=suite) that map or hold a ringmpi memfd (the
    arena, an RMA window). ringmpi's shared memory is memfds only (no name in
    /dev/shm): it lives exactly as long as some process maps it or holds a
    descriptor of it, so a leak is a process, found in the process table."""
    out = {}
    for pid in arena_holders(tagged_pids(suite, "FL_SUITE"), "ringmpi-"):
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                out[pid] = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            pass
    return out


def wait_gone(pids, limit=10.0):
    """Waits (up to limit seconds) for pids to disappear; returns survivors."""
    deadline = time.monotonic() + limit
    while True:
        alive = [p for p in pids if is_alive(p)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.02)


def read_records(path, kind):
    """{rank: pid} from lines '<kind> <rank> <pid>' in path (fl_rank's pidfile/child)."""
    out = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3 and parts[0] == kind:
                    out[int(parts[1])] = int(parts[2])
    return out


def wait_for_records(path, kind, count, limit=20.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        recs = read_records(path, kind)
        if len(recs) >= count:
            return recs
        time.sleep(0.01)
    raise Failure("only %d of %d '%s' records appeared in %s" % (len(read_records(path, kind)), count, kind, path))


# --- the context a test gets -------------------------------------------------

class Context:
    def __init__(self, args):
        self.mpiexec_path = os.path.abspath(args.mpiexec)
        self.build = os.path.abspath(args.build)
        self.poll = args.poll
        self.extra = args.extra
        self.tmp = tempfile.mkdtemp(prefix="ringmpi-fault-")
        self.suite = uuid.uuid4().hex  # FL_SUITE of every process this program starts

    def prog(self, name):
        """A program built in the build tree (tests/fault/*/name or examples/name)."""
        candidates = [os.path.join(self.build, "examples", name)]
        fault = os.path.join(self.build, "tests", "fault")
        if os.path.isdir(fault):
            candidates += [os.path.join(fault, d, name) for d in sorted(os.listdir(fault))]
        for c in candidates:
            if os.path.isfile(c) and os.access(c, os.X_OK):
                return c
        raise Failure("program %s not built (looked in %s)" % (name, ", ".join(candidates)))

    def path(self, name):
        return os.path.join(self.tmp, name)

    def base_env(self):
        env = dict(os.environ)
        for k in ("MPIEXEC_TIMEOUT", "RINGMPI_LAUNCHER_POLL", "FL_SPEC"):
            env.pop(k, None)
        if self.poll:
            env["RINGMPI_LAUNCHER_POLL"] = "1"
        env["FL_SUITE"] = self.suite
        return env

    def run(self, cmd, env=None, stdin=subprocess.DEVNULL, input=None, limit=30.0):
        """Runs cmd to completion with a hard time limit (SIGKILL to its session)."""
        full_env = self.base_env()
        full_env.update(env or {})
        tag = full_env.setdefault("FL_TAG", uuid.uuid4().hex)
        if input is not None:
            stdin = subprocess.PIPE
        start = time.monotonic()
        p = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=full_env, start_new_session=True)
        try:
            out, err = p.communicate(input=input.encode() if isinstance(input, str) else input, timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            res = Result(cmd, None, out.decode(errors="replace"), err.decode(errors="replace"),
                         time.monotonic() - start, p.pid, tag)
            kill_tagged(tag)
            raise Failure("run did not finish within %.0f s\n%s" % (limit, res.describe()))
        return Result(cmd, p.returncode, out.decode(errors="replace"), err.decode(errors="replace"),
                      time.monotonic() - start, p.pid, tag)

    def mpiexec(self, args, **kw):
        return self.run([self.mpiexec_path] + list(args), **kw)

    def start(self, args, env=None):
        """Starts mpiexec without waiting (for signal tests). Returns (Popen, tag)."""
        full_env = self.base_env()
        full_env.update(env or {})
        tag = full_env.setdefault("FL_TAG", uuid.uuid4().hex)
        p = subprocess.Popen([self.mpiexec_path] + list(args), stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=full_env,
                             start_new_session=True)
        return p, tag

    def finish(self, p, limit=30.0):
        """Waits for a process from start(); returns a Result."""
        start = time.monotonic()
        try:
            out, err = p.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            raise Failure("mpiexec did not finish within %.0f s\nstdout: %s\nstderr: %s" % (limit, out, err))
        return Result(p.args, p.returncode, out.decode(errors="replace"), err.decode(errors="replace"),
                      time.monotonic() - start, p.pid, "")


def kill_tagged(tag):
    for pid in tagged_pids(tag):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def check_no_survivors(result_or_tag, what="after the run"):
    """No process of the run is left, and none holds an arena."""
    tag = result_or_tag if isinstance(result_or_tag, str) else result_or_tag.tag
    left = wait_gone(tagged_pids(tag))
    if left:
        holders = arena_holders(left)
        kill_tagged(tag)
        raise Failure("%s: processes survived: %s (holding an arena: %s)" % (what, left, holders))



def fatal_case_tests(prog, cases, status=None):
    """The tests, for main(), of a bad-input program whose rank 1 errs under
    MPI_ERRORS_ARE_FATAL: one per entry of cases, name -> (call, error class,
    words the message must contain), each running `prog name` on 2 ranks. A
    case passes when the job fails (with exit status `status` when given),
    the program did not report that the call succeeded, a line
    'ringmpi: rank 1: CALL:' names the class and every word, the job ended
    within 30 s and no process survives. (fortran_bad, partitioned_bad and
    p2p_bad share it.)"""
    def make_test(case, call, cls, words):
        def test(ctx):
            r = ctx.mpiexec(["-n", "2", "--timeout", "60", ctx.prog(prog), case], limit=90)
            if status is None:
                check(r.rc not in (0, None), "the job must fail", r)
            else:
                check_status(r, status)
            check("was not reported as an error" not in r.out, "the call succeeded", r)
            lines = [l for l in r.lines("err") if l.startswith("ringmpi: rank 1: " + call + ":")]
            check(lines, "a 'ringmpi: rank 1: %s:' line" % call, r)
            check(any(cls in l and all(w in l for w in words) for l in lines),
                  "the message names %s and %s" % (cls, words), r)
            check(r.elapsed < 30, "the job ended promptly", r)
            check_no_survivors(r)
        test.__name__ = "test_" + case
        return test
    return [make_test(c, *v) for c, v in cases.items()]

def parse_args(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--poll", action="store_true", help="force the poll(2) event loop")
    ap.add_argument("--only", help="run only tests whose name contains this")
    ap.add_argument("extra", nargs="*")
    return ap.parse_args(argv)


class Skipped(Exception):
    """Raised by skip(): the test's precondition does not hold on this machine."""


def skip(why):
    """Ends the current test as skipped (neither passed nor failed)."""
    raise Skipped(why)


def main(tests, argv=None):
    """Runs each test(ctx); prints one line per test. Exits 1 if any failed,
    else 77 (meson's skip) if any was skipped, else 0. A skip thus never
    counts as a pass, but it hides the passes of the script's other tests:
    a test that may skip belongs in a script of its own."""
    args = parse_args(argv)
    ctx = Context(args)
    failed = 0
    skipped = 0
    suite_start = time.monotonic()
    for t in tests:
        if args.only and args.only not in t.__name__:
            continue
        start = time.monotonic()
        try:
            t(ctx)
            print("ok   %-50s %.2f s" % (t.__name__, time.monotonic() - start), flush=True)
        except Skipped as e:
            skipped += 1
            print("SKIP %s: %s" % (t.__name__, e), flush=True)
        except Failure as e:
            failed += 1
            print("FAIL %s: %s" % (t.__name__, e), flush=True)
        except Exception:
            failed += 1
            print("FAIL %s: exception\n%s" % (t.__name__, traceback.format_exc()), flush=True)
    # Every job is over: no process may still hold ringmpi shared memory
    # (give exiting ranks the second the brief allows).
    deadline = time.monotonic() + 1.0
    while True:
        leaked = memfd_holders(ctx.suite)
        if not leaked or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    if leaked:
        failed += 1
        print("FAIL processes still holding ringmpi shared memory after the tests: %s" % leaked)
    print("%d failed, %d skipped, %.1f s%s" % (failed, skipped, time.monotonic() - suite_start,
                                              " (poll)" if args.poll else ""))
    subprocess.run(["rm", "-rf", ctx.tmp])
    sys.exit(1 if failed else 77 if skipped else 0)


# ---- bad-input programs under MPI_ERRORS_ARE_FATAL ------------------------

def fatal_args():
    """--mpiexec, --build, --prog: the command line of a bad-input script."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--prog", required=True)
    return ap.parse_args()


def run_case(args, np, case):
    """`mpiexec -n np prog case` with a time limit; the CompletedProcess."""
    return subprocess.run([args.mpiexec, "-n", str(np), "--timeout", "60", args.prog, case], capture_output=True,
                          text=True, timeout=120)


def check_fatal_cases(args, cases):
    """Runs each case of a bad-input program; returns the failures.

    cases: name -> (np, rank that errs (None: any rank), call, error class,
    words the message must contain). A case passes when the job ends with
    status 1, that of a rank stopped by a fatal MPI error (not a timeout, a
    signal or the program's own MPI_Abort), the program did not report that
    the call succeeded, and a line 'ringmpi: rank R: CALL: ... (CLASS)' names
    the class (a user-defined class with its value: '(user-defined error
    class 64)') and every word."""
    failures = []
    for case, (np, rank, call, cls, words) in cases.items():
        p = run_case(args, np, case)
        head = "ringmpi: rank %s: %s:" % ("N" if rank is None else rank, call)
        ranks = range(np) if rank is None else [rank]
        starts = tuple("ringmpi: rank %d: %s:" % (r, call) for r in ranks)
        lines = [l for l in p.stderr.splitlines() if l.startswith(starts)]
        why = None
        if p.returncode == 0:
            why = "exited 0"
        elif "not reported as an error" in p.stdout + p.stderr:
            why = "the call succeeded"
        elif "timed out" in p.stderr or "timeout" in p.stderr:
            why = "the job had to be killed by the timeout"
        elif p.returncode < 0 or p.returncode > 128:
            why = "killed by a signal (crash?)"
        elif p.returncode != 1:
            why = "exit status %d, not 1 (a fatal MPI error)" % p.returncode
        elif not lines:
            why = "no '%s' line" % head
        elif not any(re.search(r"\(%s( \d+)?\)" % re.escape(cls), l) and all(w in l for w in words)
                     for l in lines):
            why = "the message lacks (%s) or one of %s" % (cls, words)
        if why:
            failures.append("%s (np=%d): %s (exit %d)\n--- stdout:\n%s--- stderr:\n%s" %
                            (case, np, why, p.returncode, p.stdout, p.stderr))
        else:
            print("ok   %-28s %s" % (case, lines[0]))
    return failures


def report(failures):
    """Prints the failures; the exit status of a bad-input script."""
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


def check_returns(args, nps, marker, failures):
    """Runs the program's "returns" case (every bad input under
    MPI_ERRORS_RETURN) at each rank count in nps; it must exit 0 and print
    `marker`. Appends what went wrong to failures."""
    for np in nps:
        p = run_case(args, np, "returns")
        if p.returncode != 0 or marker not in p.stdout:
            failures.append("returns (np=%d): rc=%d\n--- stdout:\n%s--- stderr:\n%s" %
                            (np, p.returncode, p.stdout, p.stderr))
        else:
            print("ok   returns np=%d" % np)
