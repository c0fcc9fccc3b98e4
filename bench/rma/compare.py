#!/usr/bin/env python3
"""One-sided communication speed: ringmpi vs MPICH vs Open MPI.

Builds rma_bench.c with mpicc.mpich and mpicc.openmpi into a temporary
folder (ringmpi's binary comes from a meson build folder), runs the three at
np = 2, taking turns for --rounds rounds, keeps the best figure of each
(lowest latency, highest bandwidth) and prints a table with the ratio to the
better peer (latency: ringmpi / best peer, target <= 0.5; bandwidth:
ringmpi / best peer, target >= 1.2).

  bench/rma/compare.py [--build build] [--rounds 3] [--iters 20000]

Exit status 0 when every run worked, 1 otherwise, 2 when something needed
is missing.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OMPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def run(cmd, timeout):
    env = dict(os.environ, **OMPI_ENV)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    if p.returncode != 0:
        print("compare.py: %s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stderr), file=sys.stderr)
        return None
    out = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 4:
            out[(f[0], int(f[1]))] = (float(f[2]), f[3])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--timeout", type=float, default=300)
    a = ap.parse_args()
    ours = os.path.join(a.build, "bench", "rma", "rma_bench")
    mpiexec = os.path.join(a.build, "launcher", "mpiexec")
    for p in (ours, mpiexec):
        if not os.path.exists(p):
            print("compare.py: %s is missing; build ringmpi first (ninja -C %s)" % (p, a.build), file=sys.stderr)
            return 2
    tmp = tempfile.mkdtemp(prefix="rma_bench_")
    impls = {"ringmpi": [mpiexec, "-n", "2", ours]}
    for name, cc, launcher in (("mpich", "mpicc.mpich", ["mpiexec.mpich", "-n", "2"]),
                               ("openmpi", "mpicc.openmpi", ["mpirun.openmpi", "--allow-run-as-root", "-n", "2"])):
        if not shutil.which(cc) or not shutil.which(launcher[0]):
            print("compare.py: %s or %s not found; skipping %s" % (cc, launcher[0], name), file=sys.stderr)
            continue
        exe = os.path.join(tmp, "rma_bench_" + name)
        subprocess.run([cc, "-O2", "-o", exe, os.path.join(HERE, "rma_bench.c")], check=True)
        impls[name] = launcher + [exe]
    best = {name: {} for name in impls}
    ok = True
    for _ in range(a.rounds):
        for name, cmd in impls.items():
            got = run(cmd + ["-i", str(a.iters)], a.timeout)
            if got is None:
                ok = False
                continue
            for k, (v, unit) in got.items():
                lower_better = unit == "us"
                old = best[name].get(k)
                if old is None or (v < old[0] if lower_better else v > old[0]):
                    best[name][k] = (v, unit)
    keys = sorted(best["ringmpi"], key=lambda k: (k[0], k[1]))
    peers = [n for n in impls if n != "ringmpi"]
    print("%-16s %9s %12s %12s %12s %8s" % ("figure", "bytes", "ringmpi", "mpich", "openmpi", "ratio"))
    for k in keys:
        v, unit = best["ringmpi"][k]
        row = [best[p].get(k, (None,))[0] for p in ("mpich", "openmpi")]
        vals = [x for x in row if x is not None]
        ratio = ""
        if vals:
            ref = min(vals) if unit == "us" else max(vals)
            ratio = "%.2f" % (v / ref) if ref > 0 else ""
        fmt = lambda x: "-" if x is None else "%.3f" % x
        print("%-16s %9d %12s %12s %12s %8s  %s" % (k[0], k[1], fmt(v), fmt(row[0]), fmt(row[1]), ratio, unit))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
