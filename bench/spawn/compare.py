#!/usr/bin/env python3
"""MPI_Comm_spawn of 1 and 4 children until their first message:
ringmpi against MPICH and Open MPI (spawn_bench.c), in alternating rounds
(ringmpi, MPICH, Open MPI, ringmpi, ...) so that the load of a shared
machine falls on all of them alike.

    python3 bench/spawn/compare.py --build build [--reps 20] [--rounds 3] [--peer-reps N]

A peer that is not installed, or whose process manager cannot spawn on this
machine, is reported (with the end of its error output) and skipped.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "spawn_bench.c")


def run(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired as e:
        return None, "timed out after 120 s; output so far: %s" % (e.stdout or b"").decode(errors="replace")
    return p.stdout if p.returncode == 0 else None, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--reps", default="20")
    ap.add_argument("--rounds", type=int, default=3)
    # Open MPI 4.1.4 hangs in this container after a few spawns in one run
    # (the spawn of 4 after three of 1): give the peers fewer per run.
    ap.add_argument("--peer-reps", default=None, help="repetitions per run for MPICH and Open MPI (default: --reps)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ours = os.path.join(a.build, "bench", "spawn", "spawn_bench")
        if not os.path.exists(ours):  # a build without -Dbenchmarks=true
            ours = os.path.join(tmp, "spawn_bench")
            subprocess.run([os.path.join(a.build, "tools", "mpicc"), "-O2", "-o", ours, SRC], check=True)
        runs = {"ringmpi": [os.path.join(a.build, "launcher", "mpiexec"), "-n", "1", ours, a.reps]}
        for impl, extra in (("mpich", []), ("openmpi", ["--oversubscribe"])):
            cc, mpiexec = shutil.which("mpicc." + impl), shutil.which("mpiexec." + impl)
            if not cc or not mpiexec:
                print("%s: not installed, skipped" % impl)
                continue
            exe = os.path.join(tmp, "spawn_bench_" + impl)
            if subprocess.run([cc, "-O2", "-o", exe, SRC]).returncode != 0:
                print("%s: does not build, skipped" % impl)
                continue
            if impl == "openmpi" and os.geteuid() == 0:
                extra = extra + ["--allow-run-as-root"]
            runs[impl] = [mpiexec, "-n", "1"] + extra + [exe, a.peer_reps or a.reps]
        for k in range(a.rounds):
            for impl, cmd in list(runs.items()):
                out, err = run(cmd)
                if out is None:
                    print("%s: cannot spawn here, skipped: %s" % (impl, err.strip()[-400:]))
                    del runs[impl]
                    continue
                print("round %d, %s:\n%s" % (k + 1, impl, out.rstrip()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
