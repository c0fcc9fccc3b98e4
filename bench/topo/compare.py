#!/usr/bin/env python3
"""Halo exchange with MPI_Neighbor_alltoall on a 2-D periodic grid: ringmpi
vs MPICH vs Open MPI.

Builds topo_bench.c with mpicc.mpich and mpicc.openmpi into a temporary
folder (ringmpi's binary comes from a meson build folder), runs the three at
each --np (default 4 and 8), taking turns for --rounds rounds, keeps the best
(lowest) time of each and prints a table with ringmpi / the better peer
(target <= 0.5 for neighbor_alltoall).

  bench/topo/compare.py [--build build] [--rounds 3] [--iters 20000] [--np 4 8] [--skip mpich]

(With more ranks than cores MPICH's busy polling makes it 50-100x slower
than the others and starves everything else on the machine; --skip mpich
leaves it out.)

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
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        print("compare.py: %s timed out" % " ".join(cmd), file=sys.stderr)
        return None
    if p.returncode != 0:
        print("compare.py: %s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stderr), file=sys.stderr)
        return None
    out = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 4:
            out[(f[0], int(f[1]))] = float(f[2])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--np", type=int, nargs="+", default=[4, 8])
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--skip", nargs="*", default=[], choices=["mpich", "openmpi"])
    a = ap.parse_args()
    ours = os.path.join(a.build, "bench", "topo", "topo_bench")
    mpiexec = os.path.join(a.build, "launcher", "mpiexec")
    for p in (ours, mpiexec):
        if not os.path.exists(p):
            print("compare.py: %s is missing; build ringmpi first (ninja -C %s)" % (p, a.build), file=sys.stderr)
            return 2
    tmp = tempfile.mkdtemp(prefix="topo_bench_")
    impls = {"ringmpi": lambda n: [mpiexec, "-n", str(n), ours]}
    peers = []
    for name, cc, launcher in (("mpich", "mpicc.mpich", ["mpiexec.mpich", "-n"]),
                               ("openmpi", "mpicc.openmpi", ["mpirun.openmpi", "--allow-run-as-root",
                                                             "--oversubscribe", "-n"])):
        if name in a.skip:
            continue
        if not shutil.which(cc) or not shutil.which(launcher[0]):
            print("compare.py: %s or %s not found; skipping %s" % (cc, launcher[0], name), file=sys.stderr)
            continue
        exe = os.path.join(tmp, "topo_bench_" + name)
        subprocess.run([cc, "-O2", "-o", exe, os.path.join(HERE, "topo_bench.c")], check=True)
        impls[name] = (lambda l, e: lambda n: l + [str(n), e])(launcher, exe)
        peers.append(name)
    ok = True
    print("%-18s %3s %7s %10s %10s %10s %7s" % ("figure (us)", "np", "bytes", "ringmpi", "mpich", "openmpi", "ratio"))
    for n in a.np:
        best = {name: {} for name in impls}
        for _ in range(a.rounds):
            for name, cmd in impls.items():
                got = run(cmd(n) + ["-i", str(a.iters)], a.timeout)
                if got is None:
                    ok = False
                    continue
                for k, v in got.items():
                    if k not in best[name] or v < best[name][k]:
                        best[name][k] = v
        for k in sorted(best["ringmpi"], key=lambda k: (k[0] != "neighbor_alltoall", k[0], k[1])):
            v = best["ringmpi"][k]
            row = [best[p].get(k) if p in best else None for p in ("mpich", "openmpi")]
            vals = [x for x in row if x is not None]
            ratio = "%.2f" % (v / min(vals)) if vals and min(vals) > 0 else ""
            fmt = lambda x: "-" if x is None else "%.2f" % x
            print("%-18s %3d %7d %10s %10s %10s %7s" % (k[0], n, k[1], fmt(v), fmt(row[0]), fmt(row[1]), ratio))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
