#!/usr/bin/env python3
"""Collective latency and overlap: ringmpi vs MPICH vs Open MPI at np = 2, 4, 8.

coll.c is built with mpicc.mpich and mpicc.openmpi into a temporary folder;
ringmpi's binary is the meson target bench/coll/coll of --build. Each round
runs every implementation once per np (one launch runs all the selected
collectives and sizes), the implementations taking turns (their order rotates
each round) so that they share the noise of a busy machine; each point keeps
the best figure over the rounds. np = 8 is oversubscribed on a 2-core machine;
the peers get the same launcher flags as bench/osu/compare.py gives them
(its command() is used as is).

Prints, per collective, ringmpi's time and the ratio ringmpi / better peer at
each size and np, a '!' beside every ratio that misses the issue's target:
  scatter, scatterv, exscan <= 0.5x; the other blocking ones <= 1.0x;
  barrier at np = 8 <= 0.5x Open MPI (not the better peer);
  nonblocking latency <= 1.0x; nonblocking overlap >= the better peer's.
and writes one SVG per collective (latency against size, one panel per np;
barrier and ibarrier against np) into --svg-dir.

  bench/coll/compare.py [--build build] [--svg-dir coll_svg] [--quick]

--quick: sizes 4 B and 64 KiB, one round, short repetitions (about two
minutes on an idle 2-core machine). No new round starts when it would end
past --budget seconds.

Exit status: 0 when every run worked, 1 when some run failed or timed out,
2 when something needed is missing (a peer, the build).
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OSU = os.path.join(os.path.dirname(HERE), "osu")
sys.path.insert(0, OSU)
import svgplot  # noqa: E402  (bench/osu/svgplot.py, shared)


def _load_osu_compare():
    spec = importlib.util.spec_from_file_location("osu_compare", os.path.join(OSU, "compare.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


osu = _load_osu_compare()  # command(), run-time flags, peer names, versions()

BLOCKING = ["barrier", "bcast", "scatter", "scatterv", "gather", "gatherv", "allgather", "alltoall",
            "reduce", "allreduce", "reduce_scatter", "scan", "exscan"]
NONBLOCKING = ["ibarrier", "ibcast", "iscatter", "iscatterv", "igather", "igatherv", "iallgather",
               "ialltoall", "ireduce", "iallreduce", "ireduce_scatter", "iscan", "iexscan"]
HALF_TARGET = {"scatter", "scatterv", "exscan"}
COLOURS = {"ringmpi": "#d62728", "mpich": "#1f77b4", "openmpi": "#2ca02c"}
QUICK_SIZES = "4,64K"  # the sizes of the table
FULL_SIZES = ",".join(str(1 << e) for e in range(2, 21))  # 4 B .. 1 MiB, every power of two


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(REPO, "build"),
                   help="ringmpi meson build folder (default: %(default)s)")
    p.add_argument("--svg-dir", default="coll_svg", help="folder for the SVG plots (default: %(default)s)")
    p.add_argument("--json", help="also write every figure as JSON here")
    p.add_argument("--impls", default="ringmpi,mpich,openmpi", help="subset of ringmpi,mpich,openmpi")
    p.add_argument("--colls", default="blocking,nonblocking",
                   help="collectives (names as coll.c prints them, or blocking / nonblocking)")
    p.add_argument("--np", default="2,4,8", help="rank counts (default: %(default)s)")
    p.add_argument("--sizes", help="comma-separated sizes in bytes, K/M allowed (default: every power "
                   "of two 4 B .. 1 MiB; quick: %s)" % QUICK_SIZES)
    p.add_argument("--root", default="rotate", choices=["rotate", "0"],
                   help="root of rooted collectives: call i uses root i %% np (rotate, default) or 0")
    p.add_argument("--tests", type=int, default=8,
                   help="MPI_Test calls spread over the overlap measure's compute phase (default 8)")
    p.add_argument("--quick", action="store_true", help="sizes 4 B and 64 KiB, one round, short repetitions (~2 min idle)")
    p.add_argument("--rounds", type=int, help="rounds over all implementations (default 3, quick 1)")
    p.add_argument("--reps", type=int, help="repetitions per point inside one run, best kept (default 3, quick 2)")
    p.add_argument("--rep-seconds", type=float,
                   help="aimed length of one repetition (coll -T; default 0.02, quick 0.01)")
    p.add_argument("--timeout", type=float, help="seconds allowed to one run (default 600, quick 120)")
    p.add_argument("--budget", type=float,
                   help="no new round starts when it would end past this many seconds (default 1500, quick 150)")
    a = p.parse_args()
    a.impls = [i for i in a.impls.split(",") if i]
    for i in a.impls:
        if i not in ("ringmpi",) + tuple(osu.PEERS):
            osu.die("unknown implementation '%s' in --impls (known: ringmpi, mpich, openmpi)" % i)
    names = []
    for c in (x for x in a.colls.split(",") if x):
        if c == "blocking":
            names += BLOCKING
        elif c == "nonblocking":
            names += NONBLOCKING
        elif c in BLOCKING or c in NONBLOCKING:
            names.append(c)
        else:
            osu.die("unknown collective '%s' (known: %s)" % (c, ", ".join(BLOCKING + NONBLOCKING)))
    a.colls = list(dict.fromkeys(names))
    a.np = [int(x) for x in a.np.split(",") if x]
    a.sizes = a.sizes or (QUICK_SIZES if a.quick else FULL_SIZES)
    a.rounds = a.rounds or (1 if a.quick else 3)
    a.reps = a.reps or (2 if a.quick else 3)
    a.rep_seconds = a.rep_seconds or (0.005 if a.quick else 0.02)
    a.timeout = a.timeout or (120 if a.quick else 600)
    a.budget = a.budget or (150 if a.quick else 1500)
    a.prog_args = ["-c", ",".join(a.colls), "-l", a.sizes, "-r", str(a.reps), "-T", str(a.rep_seconds),
                   "-R", a.root, "-t", str(a.tests)]
    return a


def build_ringmpi(build):
    if not os.path.isfile(os.path.join(build, "build.ninja")):
        osu.die("no meson build folder at %s; configure one first: meson setup %s && ninja -C %s"
                % (build, build, build))
    r = subprocess.run(["ninja", "-C", build, "launcher/mpiexec", "bench/coll/coll"], capture_output=True, text=True)
    if r.returncode != 0:
        osu.die("building ringmpi's coll benchmark failed:\n" + (r.stdout + r.stderr)[-3000:])
    return os.path.join(build, "bench/coll/coll")


def build_peer(name, tmp):
    exe = os.path.join(tmp, "%s_coll" % name)
    r = subprocess.run([osu.PEERS[name]["cc"], "-O2", "-o", exe, os.path.join(HERE, "coll.c")],
                       capture_output=True, text=True)
    if r.returncode != 0:
        osu.die("building coll.c with %s failed:\n%s" % (osu.PEERS[name]["cc"], r.stderr[-3000:]))
    return exe


def run(cmd, timeout):
    """Returns ({(name, size): [values]}, wall seconds, error or None). A run
    cut off still returns the lines it printed."""
    out, errtext, status, wall, err = osu.run_raw(cmd, timeout)
    points = {}
    for line in out.splitlines():
        f = line.split("#")[0].split()  # coll.c may end a row with a comment (the np-2 floor bound)
        if len(f) >= 3:
            try:
                points[(f[0], int(f[1]))] = [float(x) for x in f[2:]]
            except ValueError:
                pass
    if err is None and (status != 0 or not points):
        err = osu.exit_error(status, out, errtext)
    return points, wall, err


def merge_best(store, points):
    """Latency: the lowest. Overlap: the highest, kept apart from latency."""
    for key, v in points.items():
        old = store.get(key)
        if old is None:
            store[key] = {"lat": v[0], "overlap": v[1] if len(v) > 1 else None}
            continue
        old["lat"] = min(old["lat"], v[0])
        if len(v) > 1:
            old["overlap"] = max(old["overlap"], v[1])


def target_of(coll, np):
    """The issue's latency target for a blocking collective, as text."""
    if coll == "barrier" and np == 8:
        return "<=0.5x Open MPI"
    if coll in HALF_TARGET:
        return "<=0.5x"
    return "<=1.0x"


def ratio(res, coll, np, size, impls, what="lat"):
    ring = res.get(("ringmpi", np), {}).get((coll, size))
    if ring is None or ring[what] is None:
        return None, None
    if coll == "barrier" and np == 8 and what == "lat":
        peers = [res.get(("openmpi", np), {}).get((coll, size))]
    else:
        peers = [res.get((i, np), {}).get((coll, size)) for i in impls if i != "ringmpi"]
    peers = [p[what] for p in peers if p is not None and p[what] is not None]
    if not peers:
        return None, None
    if what == "overlap":
        best = max(peers)
        return ring[what] - best, ring[what] >= best  # difference in percentage points
    best = min(peers)
    r = ring[what] / best if best > 0 else None
    limit = 0.5 if (coll in HALF_TARGET or (coll == "barrier" and np == 8)) else 1.0
    return r, (None if r is None else r <= limit)


def fmt_us(v):
    if v is None:
        return "-"
    return "%.2f" % v if v < 100 else "%.0f" % v


def print_tables(res, args, sizes_of):
    """Per collective: each implementation's microseconds and ringmpi / better
    peer at every size and np; nonblocking ones add a block of overlap
    percentages with ringmpi minus the better peer, in points."""
    misses = []
    checked = 0
    has_ratio = "ringmpi" in args.impls and len(args.impls) > 1
    cols = list(args.impls) + (["ratio"] if has_ratio else [])
    for coll in args.colls:
        nb = coll in NONBLOCKING
        target = "<=1.0x" if nb else target_of(coll, 2)
        if coll == "barrier":
            target += ", np=8 <=0.5x Open MPI (ratio against Open MPI there)"
        if nb:
            target += "; overlap >= better peer"
        print("\n== %s: microseconds per call, ratio ringmpi / better peer; target %s; '!' misses it"
              % (coll, target))
        print("%8s" % "np" + "".join("%*s" % (9 * len(cols), "np=%d  " % n) for n in args.np))
        print("%8s" % "size" + "".join("%9s" % c[:8] for _ in args.np for c in cols))
        blocks = [("lat", "")] + ([("overlap", "overlap %")] if nb else [])
        for what, label in blocks:
            if label:
                print("  %s (best of rounds; ratio column: ringmpi minus better peer, points)" % label)
            for s in sizes_of(coll):
                line = "%8s" % osu.human(s)
                for n in args.np:
                    for i in args.impls:
                        p = res.get((i, n), {}).get((coll, s))
                        v = p[what] if p else None
                        line += "%9s" % ("-" if v is None else (fmt_us(v) if what == "lat" else "%.0f" % v))
                    if has_ratio:
                        r, met = ratio(res, coll, n, s, args.impls, what)
                        if met is not None:
                            checked += 1
                            if not met:
                                misses.append("%s %s np=%d %s: %s" % (coll, osu.human(s), n, what,
                                              "%.2fx" % r if what == "lat" else "%+.0f points" % r))
                        cell = "-" if r is None else ("%.2fx" % r if what == "lat" else "%+.0f" % r)
                        line += "%9s" % (cell + ("!" if met is False else " "))
                print(line)
    return checked, misses


def write_svgs(res, args, sizes_of):
    os.makedirs(args.svg_dir, exist_ok=True)
    paths = []
    for coll in args.colls:
        panels = []
        if coll in ("barrier", "ibarrier"):
            # No size: one panel with the rank count on the x axis (labelled as sizes by svgplot).
            series = [(i, COLOURS[i], False,
                       sorted((n, res[(i, n)][(coll, 0)]["lat"]) for n in args.np
                              if (coll, 0) in res.get((i, n), {}))) for i in args.impls]
            panels.append({"title": "%s latency against ranks (x axis: np)" % coll, "ylabel": "microseconds",
                           "series": series})
        else:
            for n in args.np:
                series = [(i, COLOURS[i], False,
                           sorted((s, res[(i, n)][(coll, s)]["lat"]) for s in sizes_of(coll)
                                  if (coll, s) in res.get((i, n), {}))) for i in args.impls]
                panels.append({"title": "%s np=%d%s" % (coll, n, " (oversubscribed)" if n > len(os.sched_getaffinity(0)) else ""),
                               "ylabel": "microseconds per call", "series": series})
        path = os.path.join(args.svg_dir, "coll_%s.svg" % coll)
        svgplot.plot(path, panels, "best of all rounds; root %s; lower is better" % args.root)
        paths.append(path)
    return paths


def main():
    args = parse_args()
    osu.check_peers(args.impls)
    exes = {}
    with tempfile.TemporaryDirectory(prefix="coll-peers-") as tmp:
        if "ringmpi" in args.impls:
            exes["ringmpi"] = build_ringmpi(args.build)
        for name in args.impls:
            if name in osu.PEERS:
                exes[name] = build_peer(name, tmp)
        launcher = os.path.join(args.build, "launcher/mpiexec")
        load = os.getloadavg()
        print("coll compare: %s; %d cores; load average %.2f %.2f %.2f; %d round(s)%s; np %s; root %s; "
              "%d MPI_Test calls in the overlap compute phase"
              % (time.strftime("%Y-%m-%d %H:%M:%S"), len(os.sched_getaffinity(0)), *load, args.rounds,
                 " (quick)" if args.quick else "", ",".join(map(str, args.np)),
                 "rotating" if args.root == "rotate" else "0", args.tests))
        for line in osu.versions(args.impls):
            print("  " + line)
        print("  coll arguments: " + " ".join(args.prog_args))
        sys.stdout.flush()

        res = {}
        failures = []
        t_start = time.monotonic()
        for rnd in range(args.rounds):
            spent = time.monotonic() - t_start
            if rnd > 0 and spent + spent / rnd > args.budget:
                print("  stopped after %d round(s): another would end past the %gs budget (--budget, --rounds)"
                      % (rnd, args.budget))
                break
            order = args.impls[rnd % len(args.impls):] + args.impls[:rnd % len(args.impls)]
            for n in args.np:
                for impl in order:
                    cmd = osu.command(impl, launcher, n, exes[impl], args.prog_args)
                    points, wall, err = run(cmd, args.timeout)
                    merge_best(res.setdefault((impl, n), {}), points)
                    if err:
                        failures.append("%s np=%d round %d: %s" % (impl, n, rnd + 1, err))
                    print("  round %d: np=%d %-8s %6.1fs%s" % (rnd + 1, n, impl, wall, "  FAILED" if err else ""))
                    sys.stdout.flush()
        elapsed = time.monotonic() - t_start

    def sizes_of(coll):
        return sorted(set(s for d in res.values() for (c, s) in d if c == coll))

    checked, misses = print_tables(res, args, sizes_of)
    if "ringmpi" in args.impls and len(args.impls) > 1:
        print("\n== targets: %d point(s) checked, %d missed" % (checked, len(misses)))
        for m in misses:
            print("  missed: " + m)
    paths = write_svgs(res, args, sizes_of)
    print("\n%d plot(s) written to %s/; runs took %.0fs; the machine is shared: figures are best-of, not clean"
          % (len(paths), args.svg_dir, elapsed))
    for f in failures:
        print("run failed: " + f)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"%s np=%d" % k: {"%s %d" % p: v for p, v in d.items()} for k, d in res.items()},
                      f, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
