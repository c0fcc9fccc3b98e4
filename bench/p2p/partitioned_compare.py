#!/usr/bin/env python3
"""Partitioned communication: ringmpi against MPICH (bench/p2p/partitioned.c, np = 2).

partitioned.c is compiled with ringmpi's mpicc (<build>/tools/mpicc) and with
mpicc.mpich into a temporary folder; each round runs every configuration on
both, taking turns (the order alternates each round) so that they share the
noise of a busy machine. Prints per configuration and implementation the
best median and the best minimum over the rounds of "last MPI_Pready to the
receiver's completion" (us), the ratio ringmpi / MPICH of both, and the
fraction of epochs in which partition 0 had arrived (MPI_Parrived true)
while the last partition was not yet readied.

  bench/p2p/partitioned_compare.py [--build build] [--rounds 3] [--iters 2000]
"""

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OSU = os.path.join(os.path.dirname(HERE), "osu")
sys.path.insert(0, OSU)  # compare.py imports its neighbour svgplot


def _load_osu_compare():
    spec = importlib.util.spec_from_file_location("osu_compare", os.path.join(OSU, "compare.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


osu = _load_osu_compare()  # command(), PEERS

CONFIGS = [(8, 64), (8, 4096), (8, 65536), (64, 1024)]  # (partitions, bytes per partition)
LINE = re.compile(r"median ([\d.]+) us, min ([\d.]+) us; partition 0 early in ([\d.]+)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(REPO, "build"))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--iters", type=int, default=2000)
    a = p.parse_args()
    launcher = os.path.join(a.build, "launcher", "mpiexec")
    src = os.path.join(HERE, "partitioned.c")
    best = {}
    with tempfile.TemporaryDirectory() as tmp:
        exes = {}
        for impl, cc in (("ringmpi", os.path.join(a.build, "tools", "mpicc")), ("mpich", osu.PEERS["mpich"]["cc"])):
            exes[impl] = os.path.join(tmp, "partitioned_" + impl)
            subprocess.run([cc, "-O2", "-o", exes[impl], src], check=True)
        order = ["ringmpi", "mpich"]
        for r in range(a.rounds):
            for parts, bytes_ in CONFIGS:
                for impl in (order if r % 2 == 0 else order[::-1]):
                    cmd = osu.command(impl, launcher, 2, exes[impl], [str(parts), str(bytes_), str(a.iters)])
                    try:
                        out = subprocess.run(cmd, capture_output=True, text=True, timeout=300).stdout
                    except subprocess.TimeoutExpired:
                        continue
                    m = LINE.search(out)
                    if not m:
                        continue
                    med, mn, early = (float(x) for x in m.groups())
                    k = (impl, parts, bytes_)
                    o = best.get(k, (float("inf"), float("inf"), 0.0))
                    best[k] = (min(o[0], med), min(o[1], mn), max(o[2], early))
    print("%-14s %-8s %10s %10s %6s" % ("config", "impl", "median_us", "min_us", "early"))
    for parts, bytes_ in CONFIGS:
        for impl in ("ringmpi", "mpich"):
            v = best.get((impl, parts, bytes_))
            if v:
                print("%-14s %-8s %10.3f %10.3f %6.2f" % ("%dx%d" % (parts, bytes_), impl, *v))
        rv, mv = best.get(("ringmpi", parts, bytes_)), best.get(("mpich", parts, bytes_))
        if rv and mv:
            print("%-14s %-8s %10.2f %10.2f" % ("", "ratio", rv[0] / mv[0], rv[1] / mv[1]))


if __name__ == "__main__":
    main()
