#!/usr/bin/env python3
"""Communicator creation latency: ringmpi vs MPICH vs Open MPI.

Builds comm_bench.c with mpicc.mpich and mpicc.openmpi into a temporary
folder (ringmpi's binary comes from a meson build folder), runs the three at
np = 2, 4 and 8, the implementations taking turns each round, keeps the best
figure of each over the rounds and prints a table with the ratios
(ringmpi / peer: below 1 means ringmpi is faster).

  bench/comm/compare.py [--build build] [--rounds 3] [--iters 1000] [--budget 2]

Iterations per implementation and np are sized from a short probe run so
one run takes about --budget seconds (oversubscribed MPICH needs ~0.1 s per
operation at np = 8 on two cores; ringmpi and Open MPI get many more).

Exit status 0 when every run worked, 1 otherwise, 2 when something needed
is missing.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OPS = ["comm_dup", "comm_split", "intercomm_create"]
NPS = [2, 4, 8]
PROBE_ITERS = 10
OMPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iters", type=int, default=1000, help="most iterations per operation and run")
    ap.add_argument("--budget", type=float, default=2.0, help="seconds one run should take (sizes iterations)")
    ap.add_argument("--timeout", type=float, default=300)
    a = ap.parse_args()

    ours = os.path.join(a.build, "bench", "comm", "comm_bench")
    mpiexec = os.path.join(a.build, "launcher", "mpiexec")
    for p in (ours, mpiexec):
        if not os.path.exists(p):
            print("compare.py: %s is missing; build ringmpi first (ninja -C %s)" % (p, a.build), file=sys.stderr)
            return 2
    tmp = tempfile.mkdtemp(prefix="comm_bench_")
    impls = {"ringmpi": [mpiexec, "-n", "{np}", ours]}
    for name, cc, run in (("mpich", "mpicc.mpich", ["mpiexec.mpich", "-n", "{np}"]),
                          ("openmpi", "mpicc.openmpi",
                           ["mpirun.openmpi", "--oversubscribe", "--allow-run-as-root", "-n", "{np}"])):
        if not shutil.which(cc) or not shutil.which(run[0]):
            print("compare.py: %s or %s not found; skipping %s" % (cc, run[0], name), file=sys.stderr)
            continue
        exe = os.path.join(tmp, "comm_bench_" + name)
        subprocess.run([cc, "-O2", "-o", exe, os.path.join(HERE, "comm_bench.c")], check=True)
        impls[name] = run + [exe]

    env = dict(os.environ, **OMPI_ENV)
    best = {}  # (impl, op, np) -> us
    iters = {}  # (impl, np) -> iterations, sized after a probe so a run takes ~ --budget seconds
    ok = True
    names = list(impls)
    for rnd in range(a.rounds + 1):  # round 0 is the probe
        order = names[rnd % len(names):] + names[:rnd % len(names)]
        for np in NPS:
            for impl in order:
                n = PROBE_ITERS if rnd == 0 else iters.get((impl, np), PROBE_ITERS)
                cmd = [c.replace("{np}", str(np)) for c in impls[impl]] + [str(n)]
                try:
                    p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout, env=env)
                except subprocess.TimeoutExpired:
                    print("compare.py: %s np=%d timed out" % (impl, np), file=sys.stderr)
                    ok = False
                    continue
                if p.returncode != 0:
                    print("compare.py: %s np=%d failed (%d):\n%s" % (impl, np, p.returncode, p.stderr),
                          file=sys.stderr)
                    ok = False
                found = re.findall(r"^(\w+) np=(\d+) avg_us=([\d.]+)$", p.stdout, re.M)
                if rnd == 0:
                    per_iter_s = sum(float(us) for _, _, us in found) * 1e-6 * 1.2  # + warm-up and barriers
                    iters[(impl, np)] = max(PROBE_ITERS, min(a.iters, int(a.budget / max(per_iter_s, 1e-9))))
                    continue
                for op, np_s, us in found:
                    key = (impl, op, int(np_s))
                    best[key] = min(best.get(key, float("inf")), float(us))

    peers = [n for n in names if n != "ringmpi"]
    head = "%-17s %3s %12s" % ("operation", "np", "ringmpi us") + "".join(
        " %12s %14s" % (p + " us", "ringmpi/" + p) for p in peers)
    print(head)
    print("-" * len(head))
    for op in OPS:
        for np in NPS:
            r = best.get(("ringmpi", op, np))
            line = "%-17s %3d %12s" % (op, np, "%.2f" % r if r else "-")
            for p in peers:
                v = best.get((p, op, np))
                line += " %12s %14s" % ("%.2f" % v if v else "-", "%.2f" % (r / v) if r and v else "-")
            print(line)
    shutil.rmtree(tmp, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
