#!/usr/bin/env python3
"""Issue 36's tables, reproduced: ringmpi against MPICH and Open MPI side by side.

Builds the same benchmark sources against the three MPIs -- ringmpi with the
build folder's tools/mpicc (run with its launcher/mpiexec), MPICH with
mpicc.mpich (mpiexec.mpich), Open MPI with mpicc.openmpi (mpirun.openmpi
--oversubscribe, allowed to run as root) -- and runs them interleaved: each
round runs every job once per implementation back to back (A, B, C, the
order rotating from round to round) so that the three share the noise of a
busy machine; every figure is the median of the rounds (three by default).

The jobs (every source lives in bench/, standard MPI C):
  coll b2b    bench/coll/coll.c -M b2b: every blocking collective, calls back
              to back, root i % np, the slowest rank's time per call; np 2, 4, 8;
              also prints the floor (one cache line bounced between two cores
              through shared memory, no MPI) and at np 2 the bound
              2 x floor x transfers beside each small row
  coll osu    bench/coll/coll.c -M osu: OSU Micro-Benchmarks' way (root 0, each
              call timed alone, a barrier after it, mean over ranks); np 2, 4, 8
  imb         bench/imb/imb_pattern.c: IMB-MPI1's loops (PingPong, Allgather(v),
              Alltoall(v), Reduce, Reduce_scatter(_block), Reduce_local), np 2,
              -msglog 0:20 sizes; t_avg (not IMB itself: IMB is not installed)
  latency     bench/osu/latency.c, np 2, 0 B .. 1 MiB (one-way, best batch)
  bw          bench/osu/bw.c, np 2, 1 B .. 1 MiB (MB/s)
  acc         bench/osu/acc_latency.c, np 2, MPI_Accumulate (double, SUM) +
              MPI_Win_flush, 8 B .. 1 MiB, and a put of the same size beside it
Sizes: 0 B and every power of two 4 B .. 1 MiB (coll); --quick: 0, 4 B,
64 KiB, 1 MiB, one round, short repetitions (a few minutes).

Where np exceeds the cores, MPICH is left out unless --mpich-oversubscribed:
MPICH 4.0.2 (ch4:ucx) spins in every wait, and with more ranks than cores a
coll run takes minutes (OSU mode at np 4 on 2 cores: over 180 s), so the
"better peer" there is Open MPI alone, as in the issue's own np 4 and 8
figures.

Output: markdown on stdout (and --out FILE): per job a table of ratios
ringmpi / better peer and ringmpi / Open MPI (times: ringmpi's time over the
peer's, bandwidth: the peer's MB/s over ringmpi's, so above 1.0 ringmpi is
behind everywhere); every cell above 1.0 is bold and listed in the summary
at the top. --json FILE keeps every run's every figure.

  bench/compare.py [--build build] [--quick] [--out FILE] [--json FILE]
                   [--jobs coll_b2b,coll_osu,imb,latency,bw,acc] [--np 2,4,8]

Exit status: 0 when every run worked, 1 when some run failed or timed out,
2 when something needed is missing (a peer, the build).
"""

import argparse
import importlib.util
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
OSU_DIR = os.path.join(HERE, "osu")
sys.path.insert(0, OSU_DIR)


def _load_osu_compare():
    spec = importlib.util.spec_from_file_location("osu_compare", os.path.join(OSU_DIR, "compare.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


osu = _load_osu_compare()  # command() (launch flags), PEERS, OMPI_ENV, versions(), human(), die()

IMPLS = ["ringmpi", "mpich", "openmpi"]
JOBS = ["coll_b2b", "coll_osu", "imb", "latency", "bw", "acc"]
BLOCKING = ["barrier", "bcast", "scatter", "scatterv", "gather", "gatherv", "allgather", "alltoall",
            "reduce", "allreduce", "reduce_scatter", "scan", "exscan"]
IMB = ["PingPong", "Allgather", "Allgatherv", "Alltoall", "Alltoallv", "Reduce", "Reduce_scatter",
       "Reduce_scatter_block", "Reduce_local"]
SOURCES = {  # program: source file, relative to bench/
    "coll": "coll/coll.c", "imb": "imb/imb_pattern.c", "latency": "osu/latency.c", "bw": "osu/bw.c",
    "acc": "osu/acc_latency.c",
}
FULL_COLL_SIZES = "0," + ",".join(str(1 << e) for e in range(2, 21))
QUICK_COLL_SIZES = "0,4,64K,1M"
FULL_IMB_SIZES = "0," + ",".join(str(1 << e) for e in range(0, 21))  # IMB -msglog 0:20
QUICK_IMB_SIZES = "0,4,32K,64K,1M"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(REPO, "build"),
                   help="ringmpi meson build folder (default: %(default)s)")
    p.add_argument("--quick", action="store_true", help="sizes 0, 4 B, 64 KiB, 1 MiB, one round (a few minutes)")
    p.add_argument("--rounds", type=int, help="interleaved rounds, the median kept (default 3, quick 1; 0 with "
                   "--merge: only render the merged runs)")
    p.add_argument("--jobs", default=",".join(JOBS), help="subset of " + ",".join(JOBS))
    p.add_argument("--np", default="2,4,8", help="rank counts of the coll jobs (default: %(default)s)")
    p.add_argument("--coll-sizes", help="coll sizes (default 0 and 4 B .. 1 MiB; quick %s)" % QUICK_COLL_SIZES)
    p.add_argument("--imb-sizes", help="imb sizes (default 0 and 1 B .. 1 MiB; quick %s)" % QUICK_IMB_SIZES)
    p.add_argument("--rep-seconds", type=float, help="aimed length of one timed repetition (default 0.008, quick 0.004)")
    p.add_argument("--timeout", type=float, help="seconds allowed to one run (default 600, quick 180)")
    p.add_argument("--budget", type=float,
                   help="no new round starts when it would end past this many seconds (default 3000, quick 600)")
    p.add_argument("--mpich-oversubscribed", action="store_true",
                   help="also run MPICH where np > cores (by default not: it spins in every wait and takes "
                   "minutes per run there; the better peer is then Open MPI, as in the issue's np 4 and 8 figures)")
    p.add_argument("--no-build", action="store_true", help="do not run ninja in --build (its lib and mpiexec are current)")
    p.add_argument("--out", help="also write the markdown here")
    p.add_argument("--json", help="write every run's figures here")
    p.add_argument("--merge", action="append", default=[],
                   help="add the rounds of an earlier run's --json (e.g. to finish a run that --budget cut "
                   "short: --rounds 1 --merge first.json); the order of the new rounds keeps rotating")
    p.add_argument("--stat", default="median", choices=["median", "best"],
                   help="figure kept per point over the rounds: the median (default) or the best (lowest time, "
                   "highest MB/s: descheduling only ever adds time, so on a loaded machine the best is the "
                   "steadier view)")
    p.add_argument("--note", default="", help="a line put under the title (e.g. what else loads the machine)")
    a = p.parse_args()
    a.jobs = [j for j in a.jobs.split(",") if j]
    for j in a.jobs:
        if j not in JOBS:
            osu.die("unknown job '%s' in --jobs (known: %s)" % (j, ", ".join(JOBS)))
    a.np = [int(x) for x in a.np.split(",") if x]
    if a.rounds is None:
        a.rounds = 1 if a.quick else 3
    if a.rounds < 0 or (a.rounds == 0 and not a.merge):
        osu.die("--rounds 0 only renders the runs of --merge files")
    a.coll_sizes = a.coll_sizes or (QUICK_COLL_SIZES if a.quick else FULL_COLL_SIZES)
    a.imb_sizes = a.imb_sizes or (QUICK_IMB_SIZES if a.quick else FULL_IMB_SIZES)
    a.rep_seconds = a.rep_seconds or (0.004 if a.quick else 0.008)
    a.timeout = a.timeout or (180 if a.quick else 600)
    a.budget = a.budget or (600 if a.quick else 3000)
    return a


def build(args, tmp):
    """{impl: {program: exe}}; ringmpi through the build's own wrapper."""
    mpicc = os.path.join(args.build, "tools", "mpicc")
    launcher = os.path.join(args.build, "launcher", "mpiexec")
    if not os.path.isfile(os.path.join(args.build, "build.ninja")):
        osu.die("no meson build folder at %s; configure one first: meson setup %s" % (args.build, args.build))
    if not args.no_build:
        # The library's target carries its version (libringmpi.so.0.1.0): ask ninja for it.
        t = subprocess.run(["ninja", "-C", args.build, "-t", "targets", "all"], capture_output=True, text=True).stdout
        libs = [line.split(":")[0] for line in t.splitlines()
                if line.startswith("libringmpi.so") and line.rstrip().endswith("_LINKER")]
        r = subprocess.run(["ninja", "-C", args.build] + libs[:1] + ["launcher/mpiexec"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            osu.die("building ringmpi failed:\n" + (r.stdout + r.stderr)[-3000:])
    for f in (mpicc, launcher):
        if not os.path.exists(f):
            osu.die("%s is missing; build ringmpi first (ninja -C %s)" % (f, args.build))
    compilers = {"ringmpi": mpicc, "mpich": osu.PEERS["mpich"]["cc"], "openmpi": osu.PEERS["openmpi"]["cc"]}
    progs = sorted(set("coll" if j.startswith("coll") else j for j in args.jobs))
    exes = {}
    for impl in IMPLS:
        for prog in progs:
            exe = os.path.join(tmp, "%s_%s" % (impl, prog))
            src = os.path.join(HERE, SOURCES[prog])
            r = subprocess.run([compilers[impl], "-O2", "-o", exe, src], capture_output=True, text=True)
            if r.returncode != 0:
                osu.die("building %s with %s failed:\n%s" % (src, compilers[impl], r.stderr[-3000:]))
            exes.setdefault(impl, {})[prog] = exe
    return exes, launcher


def job_list(args):
    """[(job, np, program, arguments)] in the order a round runs them."""
    t = str(args.rep_seconds)
    out = []
    for j in args.jobs:
        if j in ("coll_b2b", "coll_osu"):
            mode = j.split("_")[1]
            for n in args.np:
                out.append((j, n, "coll", ["-c", "blocking", "-l", args.coll_sizes, "-T", t, "-r", "2",
                                           "-M", mode, "-R", "rotate"]))
        elif j == "imb":
            out.append((j, 2, "imb", ["-l", args.imb_sizes, "-T", t, "-r", "2"]))
        else:
            scale = "0.25" if args.quick else "1"
            lo = {"latency": "0", "bw": "1", "acc": "8"}[j]
            out.append((j, 2, j, ["-n", lo, "-m", "1M", "-s", scale, "-r", "2" if args.quick else "3"]))
    return out


def parse(job, text):
    """{key: value} from a run's output; keys are (name, size). Comments
    (from '#') are dropped, except coll's floor line."""
    fig = {}
    for line in text.splitlines():
        if line.startswith("# floor_ns "):
            try:
                fig[("floor_ns", 0)] = float(line.split()[2])
            except (ValueError, IndexError):
                pass
            continue
        f = line.split("#")[0].split()
        if not f:
            continue
        try:
            if job.startswith("coll"):
                fig[(f[0], int(f[1]))] = float(f[2])
            elif job == "imb":
                fig[(f[0], int(f[1]))] = float(f[4])  # t_avg, IMB's usual column
            elif job == "latency":
                fig[("latency", int(f[0]))] = float(f[1])
            elif job == "bw":
                fig[("bw", int(f[0]))] = float(f[1])
            elif job == "acc":
                fig[("acc", int(f[0]))] = float(f[1])
                fig[("put", int(f[0]))] = float(f[2])
        except (ValueError, IndexError):
            pass
    return fig


def run(cmd, timeout):
    out, errtext, status, wall, err = osu.run_raw(cmd, timeout)
    if err is None and status != 0:
        err = osu.exit_error(status, out, errtext)
    return out, wall, err


HIGHER_BETTER = {"bw"}


def median_of(runs, stat="median"):
    """{key: median (or best) over rounds} from [{key: value}] (missing rounds skipped)."""
    keys = set(k for r in runs for k in r)
    if stat == "best":
        return {k: (max if k[0] in HIGHER_BETTER else min)([r[k] for r in runs if k in r]) for k in keys}
    return {k: statistics.median([r[k] for r in runs if k in r]) for k in keys}


def ratio(med, job, n, key, peers):
    """ringmpi against `peers`: time ratio (above 1.0: ringmpi behind), or None."""
    ring = med.get(("ringmpi", job, n), {}).get(key)
    vals = [med.get((p, job, n), {}).get(key) for p in peers]
    vals = [v for v in vals if v is not None and v > 0]
    if ring is None or ring <= 0 or not vals:
        return None
    if key[0] in HIGHER_BETTER:
        return max(vals) / ring
    return ring / min(vals)


def cell(r):
    if r is None:
        return "-"
    s = "%.2f" % r
    return "**%s**" % s if r > 1.0 else s


def fmt_us(v):
    if v is None:
        return "-"
    return "%.3f" % v if v < 1 else ("%.2f" % v if v < 100 else "%.0f" % v)


class Report:
    def __init__(self):
        self.lines = []
        self.behind = []  # (table, row, column, ratio) above 1.0 against the better peer
        self.cells = 0

    def add(self, s=""):
        self.lines.append(s)

    def note(self, table, row, col, r):
        if r is not None:
            self.cells += 1
            if r > 1.0:
                self.behind.append((table, row, col, r))


def sizes_of(med, job, name):
    return sorted(set(s for (impl, j, n), d in med.items() if j == job for (k, s) in d if k == name))


def coll_table(rep, med, job, nps, title, explain):
    rep.add("\n## %s\n\n%s\n" % (title, explain))
    head = "| call | size |" + "".join(" np %d ringmpi µs | np %d /best | np %d /OMPI |" % (n, n, n) for n in nps)
    rep.add(head)
    rep.add("|---|---|" + "---|---|---|" * len(nps))
    for c in BLOCKING:
        for s in sizes_of(med, job, c):
            row = "| %s | %s |" % (c, osu.human(s))
            for n in nps:
                ring = med.get(("ringmpi", job, n), {}).get((c, s))
                rb = ratio(med, job, n, (c, s), ["mpich", "openmpi"])
                ro = ratio(med, job, n, (c, s), ["openmpi"])
                rep.note(title, "%s %s" % (c, osu.human(s)), "np %d" % n, rb)
                row += " %s | %s | %s |" % (fmt_us(ring), cell(rb), cell(ro))
            rep.add(row)


def floor_table(rep, med, args):
    floors = [med.get((i, "coll_b2b", 2), {}).get(("floor_ns", 0)) for i in IMPLS]
    floors = [f for f in floors if f is not None and f > 0]
    if not floors:
        return
    fl = statistics.median(floors)
    rep.add("\n## np 2 against the floor (rotating root, back to back)\n")
    rep.add("Floor: one cache line bounced between two cores through shared memory, no MPI: **%.1f ns** per "
            "one-way transfer (median of the np-2 runs' own measures: %s ns). Each small collective at np 2 "
            "cannot avoid K = 1 cache-line transfer per call on the slowest rank's path "
            "(docs/design/collectives.md, \"Cache-line floor at np = 2\"); the target is time <= 2 x floor x K, "
            "i.e. the columns /bound <= 1.0.\n" % (fl, ", ".join("%.1f" % f for f in floors)))
    bound = 2 * fl * 1e-3
    rep.add("| call | size | bound µs | ringmpi µs | ringmpi /bound | MPICH /bound | Open MPI /bound |")
    rep.add("|---|---|---|---|---|---|---|")
    for c in BLOCKING:
        for s in sizes_of(med, "coll_b2b", c):
            if not (s <= 32 and (s > 0 or c == "barrier")):
                continue
            v = {i: med.get((i, "coll_b2b", 2), {}).get((c, s)) for i in IMPLS}
            rep.add("| %s | %s | %.3f | %s | %s |" % (c, osu.human(s), bound, fmt_us(v["ringmpi"]), " | ".join(
                cell(None if v[i] is None else v[i] / bound) for i in IMPLS)))


def simple_table(rep, med, job, names, title, explain, unit="µs", geo=False, extra=None):
    rep.add("\n## %s\n\n%s\n" % (title, explain))
    heads = ["%s" % ("benchmark" if len(names) > 1 else "figure"), "size", "ringmpi %s" % unit, "MPICH %s" % unit,
             "Open MPI %s" % unit, "/best", "/OMPI"] + ([extra[0]] if extra else [])
    rep.add("| " + " | ".join(heads) + " |")
    rep.add("|" + "---|" * len(heads))
    geos = {}
    for name in names:
        for s in sizes_of(med, job, name):
            v = [med.get((i, job, 2), {}).get((name, s)) for i in IMPLS]
            rb = ratio(med, job, 2, (name, s), ["mpich", "openmpi"])
            ro = ratio(med, job, 2, (name, s), ["openmpi"])
            rep.note(title, "%s %s" % (name, osu.human(s)), "np 2", rb)
            if ro is not None:
                geos.setdefault(name, []).append(ro)
            fmt = (lambda x: "-" if x is None else "%.0f" % x) if unit == "MB/s" else fmt_us
            row = [name, osu.human(s)] + [fmt(x) for x in v] + [cell(rb), cell(ro)]
            if extra:
                row.append(extra[1](med, name, s))
            rep.add("| " + " | ".join(row) + " |")
    if geo and geos:
        rep.add("\nGeometric mean over sizes of ringmpi / Open MPI: " + "; ".join(
            "%s %.2f" % (n, math.exp(sum(math.log(x) for x in g) / len(g))) for n, g in geos.items()) +
            "; all: %.2f." % math.exp(sum(math.log(x) for g in geos.values() for x in g) /
                                     sum(len(g) for g in geos.values())))


def slower_than_larger(med, job, name):
    """ringmpi's sizes whose time exceeds that of some larger size (issue 36, point 2)."""
    d = med.get(("ringmpi", job, 2), {})
    sizes = sorted(s for (k, s) in d if k == name)
    out = []
    for i, s in enumerate(sizes):
        later = [d[(name, t)] for t in sizes[i + 1:]]
        if later and d[(name, s)] > min(later) * 1.05:  # 5%: below that it is noise on a shared machine
            out.append("%s (%.2f µs)" % (osu.human(s), d[(name, s)]))
    return out


def render(med, args, header, failures):
    rep = Report()
    nps = args.np
    if "coll_b2b" in args.jobs:
        coll_table(rep, med, "coll_b2b", nps, "Collectives, rotating root, back to back",
                   "bench/coll/coll.c -M b2b -R rotate: call i has root i % np, calls back to back, the slowest "
                   "rank's mean time per call (the issue's first table). /best: ringmpi / better of MPICH and "
                   "Open MPI; /OMPI: ringmpi / Open MPI. Bold: above 1.0 (ringmpi behind).")
        floor_table(rep, med, args)
    if "coll_osu" in args.jobs:
        coll_table(rep, med, "coll_osu", nps, "Collectives, OSU style (fixed root)",
                   "bench/coll/coll.c -M osu: root 0, each call timed alone with a barrier after it, the mean "
                   "over ranks (osu_bcast's Avg Latency). reduce_scatter is MPI_Reduce_scatter_block with SIZE "
                   "bytes per rank.")
    if "imb" in args.jobs:
        simple_table(rep, med, "imb", IMB, "IMB-pattern, np 2",
                     "bench/imb/imb_pattern.c (IMB-MPI1's loops written again, not IMB), t_avg; sizes of "
                     "-msglog 0:20 (reductions at multiples of 4 B).", geo=True)
        gaps = slower_than_larger(med, "imb", "PingPong")
        rep.add("\nPingPong sizes slower than a larger size (ringmpi): %s." % (", ".join(gaps) or "none"))
    if "latency" in args.jobs:
        simple_table(rep, med, "latency", ["latency"], "Point to point latency (OSU style), np 2",
                     "bench/osu/latency.c: one-way time, half a round trip, best batch of each run.")
        gaps = slower_than_larger(med, "latency", "latency")
        rep.add("\nSizes slower than a larger size (ringmpi): %s." % (", ".join(gaps) or "none"))
    if "bw" in args.jobs:
        simple_table(rep, med, "bw", ["bw"], "Point to point bandwidth (OSU style), np 2",
                     "bench/osu/bw.c, MB/s (higher is better); the ratios are better peer's MB/s / ringmpi's, "
                     "so above 1.0 ringmpi is behind here too.", unit="MB/s")
    if "acc" in args.jobs:
        def acc_put(m, name, s):
            a = m.get(("ringmpi", "acc", 2), {}).get(("acc", s))
            p = m.get(("ringmpi", "acc", 2), {}).get(("put", s))
            return "-" if not a or not p else "%.2f" % (a / p)
        simple_table(rep, med, "acc", ["acc"], "One-sided accumulate latency (osu_acc_latency style), np 2",
                     "bench/osu/acc_latency.c: MPI_Accumulate of doubles with MPI_SUM + MPI_Win_flush under a "
                     "lock; the last column is ringmpi's accumulate / ringmpi's put of the same size (issue: "
                     "<= 1.2 at 1 MiB).", extra=("ringmpi acc/put", acc_put))
    top = [header, ""]
    top.append("**Summary**: %d cells compared with the better peer; %d above 1.0 (ringmpi behind):"
               % (rep.cells, len(rep.behind)))
    top.append("")
    by_table = {}  # table -> (call, np) -> ["size ratio"]
    for t, row, col, r in rep.behind:
        name, size = row.rsplit(" ", 1)
        by_table.setdefault(t, {}).setdefault((name, col), []).append("%s %.2f" % (size, r))
    for t, groups in by_table.items():
        top.append("- %s (%d cells):" % (t, sum(len(g) for g in groups.values())))
        for (name, col), items in groups.items():
            top.append("  - %s %s: %s" % (name, col, ", ".join(items)))
    if failures:
        top.append("")
        top.append("Failed runs (their figures are missing from the medians):")
        top += ["- " + f for f in failures]
    return "\n".join(top + rep.lines) + "\n"


def load_merged(paths):
    """Runs and the number of rounds kept in earlier --json files."""
    runs, rounds = {}, 0
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        most = 0
        for key, rnds in data.items():
            impl, job, np_text = key.split()
            k = (impl, job, int(np_text.split("=")[1]))
            for r in rnds:
                fig = {}
                for kk, v in r.items():
                    name, size = kk.rsplit(" ", 1)
                    fig[(name, int(size))] = v
                runs.setdefault(k, []).append(fig)
            most = max(most, len(rnds))
        rounds += most
    return runs, rounds


def main():
    args = parse_args()
    osu.check_peers(IMPLS)
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as tmp:
        exes, launcher = build(args, tmp) if args.rounds else ({}, None)
        jobs = job_list(args)
        load = os.getloadavg()
        started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        print("bench/compare.py: %s; %d cores; load average %.2f %.2f %.2f; %d round(s)%s"
              % (started, len(os.sched_getaffinity(0)), *load, args.rounds, " (quick)" if args.quick else ""),
              file=sys.stderr)
        ncores = len(os.sched_getaffinity(0))
        runs, rounds_before = load_merged(args.merge)  # (impl, job, np) -> [figures per round]
        failures = []
        t_start = time.monotonic()
        rounds_done = rounds_before
        for rnd in range(rounds_before, rounds_before + args.rounds):
            spent = time.monotonic() - t_start
            if rnd > rounds_before and spent + spent / (rnd - rounds_before) > args.budget:
                print("stopped after %d round(s): another would end past the %gs budget" % (rnd, args.budget),
                      file=sys.stderr)
                break
            order = IMPLS[rnd % 3:] + IMPLS[:rnd % 3]
            for job, n, prog, pargs in jobs:
                for impl in order:
                    if impl == "mpich" and n > ncores and not args.mpich_oversubscribed:
                        continue
                    cmd = osu.command(impl, launcher, n, exes[impl][prog], pargs)
                    out, wall, err = run(cmd, args.timeout)
                    fig = parse(job, out)
                    runs.setdefault((impl, job, n), []).append(fig)
                    if err or not fig:
                        failures.append("%s %s np %d round %d: %s" % (impl, job, n, rnd + 1, err or "no figures"))
                    print("  round %d: %-8s np %d %-8s %6.1fs%s" % (rnd + 1, job, n, impl, wall,
                                                                   "  FAILED" if err else ""), file=sys.stderr)
                    sys.stderr.flush()
            rounds_done += 1
        elapsed = time.monotonic() - t_start
        load_end = os.getloadavg()
    med = {k: median_of([r for r in v if r], args.stat) for k, v in runs.items()}
    when = ("Run %s" % started if args.rounds else
            "Rendered %s from the runs kept in %s" % (started, ", ".join(os.path.basename(m) for m in args.merge)))
    header = ("# ringmpi against MPICH and Open MPI (issue 36's tables)\n\n"
              "%s, %d cores, load average %.2f at the start and %.2f at the end; %d interleaved round(s) "
              "(A/B/C per job, order rotating), %s of the rounds%s; %.0f s of runs. %s%s\n\n%s"
              % (when, ncores, load[0], load_end[0], rounds_done,
                 "median" if args.stat == "median" else "best (--stat best)", " (--quick)" if args.quick else "", elapsed, "; ".join(osu.versions(["mpich", "openmpi"])) +
                 "; ringmpi " + os.path.abspath(args.build) + ".",
                 "" if args.mpich_oversubscribed else
                 " Where np > %d (cores) MPICH did not run (it spins in every wait: minutes per run), so "
                 "/best there is against Open MPI alone." % ncores, args.note))
    text = render(med, args, header, failures)
    sys.stdout.write(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"%s %s np=%d" % k: [{"%s %d" % kk: vv for kk, vv in r.items()} for r in v]
                       for k, v in runs.items()}, f, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
