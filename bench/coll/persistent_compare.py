#!/usr/bin/env python3
"""Persistent collectives: ringmpi against its blocking calls and against MPICH's persistent collectives.

persistent.c is compiled twice, with ringmpi's mpicc (<build>/tools/mpicc)
and with mpicc.mpich, into a temporary folder. Each round runs both
implementations once per np, taking turns (the order alternates each round)
so that they share the noise of a busy machine; every point keeps the best
figure over the rounds (each run already keeps its best short loop). The
launch flags are bench/osu/compare.py's (command()); np above the core count
is oversubscribed.

Prints per np a table: collective, size, ringmpi blocking and persistent
(us), persistent / blocking (the issue's target: <= 0.8 for small data),
MPICH persistent (us), ringmpi persistent / MPICH persistent (target <= 1.0).

  bench/coll/persistent_compare.py [--build build] [--np 2,4,8] [--sizes 4,64,1K,16K,64K,1M]
                                   [--colls LIST] [--rounds 2] [--json FILE]
"""

import argparse
import importlib.util
import json
import os
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


def build(tmp, build_dir):
    src = os.path.join(HERE, "persistent.c")
    exes = {"ringmpi": os.path.join(tmp, "persistent_ringmpi"), "mpich": os.path.join(tmp, "persistent_mpich")}
    cc = {"ringmpi": os.path.join(build_dir, "tools", "mpicc"), "mpich": osu.PEERS["mpich"]["cc"]}
    for impl, exe in exes.items():
        subprocess.run([cc[impl], "-O2", "-o", exe, src], check=True)
    return exes


def run(impl, launcher, np, exe, args, timeout):
    cmd = osu.command(impl, launcher, np, exe, args)
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout).stdout
    except subprocess.TimeoutExpired:
        print("# %s np %d timed out" % (impl, np), file=sys.stderr)
        return {}
    rows = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 5:
            rows[(f[0], int(f[1]))] = (float(f[2]), float(f[3]))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(REPO, "build"))
    p.add_argument("--np", default="2,4,8")
    p.add_argument("--sizes", default="4,64,1K,16K,64K,1M")
    p.add_argument("--colls", default="barrier,bcast,reduce,allreduce,allgather,alltoall,gather,scatter,scan,exscan")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--json")
    a = p.parse_args()
    launcher = os.path.join(a.build, "launcher", "mpiexec")
    best = {}  # (impl, np, coll, size) -> [blocking, persistent]
    with tempfile.TemporaryDirectory() as tmp:
        exes = build(tmp, a.build)
        order = ["ringmpi", "mpich"]
        for r in range(a.rounds):
            for np in [int(x) for x in a.np.split(",")]:
                for impl in (order if r % 2 == 0 else order[::-1]):
                    rows = run(impl, launcher, np, exes[impl], ["-c", a.colls, "-l", a.sizes], a.timeout)
                    for (coll, size), (b, q) in rows.items():
                        k = (impl, np, coll, size)
                        old = best.get(k, [float("inf"), float("inf")])
                        best[k] = [min(old[0], b), min(old[1], q)]
    for np in [int(x) for x in a.np.split(",")]:
        print("np %d (us; best of %d rounds)" % (np, a.rounds))
        print("%-10s %8s %9s %9s %6s %9s %6s" % ("coll", "size", "blocking", "persist", "p/b", "mpich-p", "p/mp"))
        for coll in a.colls.split(","):
            sizes = sorted({k[3] for k in best if k[1] == np and k[2] == coll})
            for size in sizes:
                rb, rp = best.get(("ringmpi", np, coll, size), [float("nan")] * 2)
                mb, mp = best.get(("mpich", np, coll, size), [float("nan")] * 2)
                print("%-10s %8d %9.3f %9.3f %6.2f %9.3f %6.2f" % (coll, size, rb, rp, rp / rb, mp, rp / mp))
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{"impl": k[0], "np": k[1], "coll": k[2], "size": k[3], "blocking_us": v[0],
                        "persistent_us": v[1]} for k, v in best.items()], f, indent=1)


if __name__ == "__main__":
    main()
