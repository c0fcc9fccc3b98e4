#!/usr/bin/env python3
"""MPI_Comm_spawn of 1 and 4 children until their first message:
ringmpi against MPICH and Open MPI, one run each (spawn_bench.c).

    python3 bench/spawn/compare.py --build build [--reps 20]

A peer that is not installed, or whose process manager cannot spawn on this
machine, is reported and skipped.
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
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return p.stdout if p.returncode == 0 else None, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--reps", default="20")
    a = ap.parse_args()
    # 1 + 4 children per repetition, each takes a slot for the job's life.
    usize = str(8 + 5 * int(a.reps))
    out, err = run([os.path.join(a.build, "launcher", "mpiexec"), "-n", "1", "--universe-size", usize,
                    os.path.join(a.build, "bench", "spawn", "spawn_bench"), a.reps])
    print("ringmpi:\n" + (out or "failed: " + err))
    with tempfile.TemporaryDirectory() as tmp:
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
            out, err = run([mpiexec, "-n", "1"] + extra + [exe, a.reps])
            print("%s:\n%s" % (impl, out or "cannot spawn here, skipped: " + err.strip()[-300:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
