"""Forced collective algorithms (RINGMPI_COLL_<FAMILY>=<algorithm>,
docs/guide/collective-algorithms.md) and mpiexec --coll-report, with
coll_forced.c:
  - an algorithm that cannot run a call fails it on every rank, fatal under
    the default error handler: non-zero exit and one line naming the call,
    MPI_ERR_UNSUPPORTED_OPERATION, the variable and why;
  - under MPI_ERRORS_RETURN the call returns that class on every rank and
    the program goes on;
  - mpiexec refuses a name the family does not have, listing the names;
  - --coll-report prints each communicator's families, algorithms and calls."""
import argparse
import os
import subprocess
import sys


def run(args, np, case, env_extra, extra=()):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("RINGMPI_COLL_"):
            del env[k]
    env.update(env_extra)
    return subprocess.run([args.mpiexec, "-n", str(np), "--timeout", "60"] + list(extra) + [args.prog, case],
                          env=env, capture_output=True, text=True, timeout=120)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--build")
    ap.add_argument("--prog", required=True)
    args = ap.parse_args()
    failures = []

    def expect(name, cond, p):
        if cond:
            print("ok   " + name)
        else:
            failures.append("%s: exit %d\n--- stdout:\n%s--- stderr:\n%s" % (name, p.returncode, p.stdout, p.stderr))

    fatal = [
        ("barrier_dup", {"RINGMPI_COLL_BARRIER": "world_counter"}, "MPI_Barrier",
         ["RINGMPI_COLL_BARRIER=world_counter cannot run this call", "not MPI_COMM_WORLD"]),
        ("iallreduce", {"RINGMPI_COLL_ALLREDUCE": "messages"}, "MPI_Iallreduce",
         ["RINGMPI_COLL_ALLREDUCE=messages cannot run this call", "no nonblocking form"]),
    ]
    for np in (1, 3):
        for case, env, call, words in fatal:
            p = run(args, np, case, env)
            lines = [l for l in p.stderr.splitlines()
                     if call in l and "MPI_ERR_UNSUPPORTED_OPERATION" in l and all(w in l for w in words)]
            expect("%s np %d" % (case, np), p.returncode != 0 and lines and "timed out" not in p.stderr, p)
    for np in (1, 2, 4):
        p = run(args, np, "returns", {"RINGMPI_COLL_BARRIER": "world_counter", "RINGMPI_COLL_ALLREDUCE": "messages"})
        expect("returns np %d" % np, p.returncode == 0 and "returns ok" in p.stdout, p)
    p = run(args, 2, "report", {"RINGMPI_COLL_BCAST": "fastest"})
    expect("bad name refused by mpiexec", p.returncode != 0 and "RINGMPI_COLL_BCAST='fastest'" in p.stderr
           and "numa_leaders segment messages schedule" in p.stderr, p)
    for np in (1, 3):
        p = run(args, np, "report", {"RINGMPI_COLL_BCAST": "schedule"}, ["--coll-report"])
        rows = [l.split() for l in p.stderr.splitlines() if l.startswith("  ")]
        want_allreduce = [r for r in rows if r[:1] == ["MPI_COMM_WORLD"] and r[2] == "allreduce" and r[4] == "10"]
        want_bcast = [r for r in rows if r[:1] == ["grid"] and r[2] == "bcast" and r[3] == "schedule" and r[4] == "3"]
        want_barrier = [r for r in rows if r[:1] == ["grid"] and r[2] == "barrier" and r[4] == "1"]
        expect("--coll-report np %d" % np, p.returncode == 0 and "collective algorithms" in p.stderr and
               want_allreduce and want_bcast and want_barrier, p)
    p = run(args, 2, "report", {})
    expect("no report without --coll-report", p.returncode == 0 and "collective algorithms" not in p.stderr, p)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
