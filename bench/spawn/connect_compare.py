#!/usr/bin/env python3
"""MPI_Comm_connect / MPI_Comm_accept between two jobs of separate launcher
runs (connect_bench.c): ringmpi against MPICH and Open MPI, in alternating
rounds (the order rotating each round) so that the load of a shared machine
falls on all of them alike.

    python3 bench/spawn/connect_compare.py [--build build] [--np 1,2] [--reps 10] [--rounds 3]
                                           [--baseline DIR]

Each measurement is two runs of the same binary: a server job that opens a
port and writes its name to a file, then a client job (started once the file
exists) that reads it and connects --reps times (connect_bench.c says what
each figure times). ringmpi's runs get `--bind-to none` (two jobs each
binding from core 0 would share cores; docs/guide says so). Open MPI 4.x
connects two jobs only through a name server: an `ompi-server
--no-daemonize -r FILE` started here, and `--ompi-server file:FILE` on both
runs. Every run has a timeout and runs in a process group of its own that is
killed when it outlives it (bench/osu/compare.py, run_raw). An implementation
that cannot connect two jobs is reported with the end of what it printed and
left out of later rounds.

--baseline DIR adds "ringmpi-base": the same launcher and binary run with
LD_LIBRARY_PATH=DIR, a folder holding another build's libringmpi.so.0 (a
copy of the library before a change), in the same alternating rounds; the
table then has a column ringmpi / ringmpi-base.

Prints, per np, a table of the medians (over the rounds) of each round's
median, and the ratio ringmpi / better peer; exit status 1 when a ringmpi run
failed (a peer that cannot connect two jobs is reported, not an error).
"""
import argparse
import importlib.util
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OSU = os.path.join(os.path.dirname(HERE), "osu")
SRC = os.path.join(HERE, "connect_bench.c")
sys.path.insert(0, OSU)


def _load_osu_compare():
    spec = importlib.util.spec_from_file_location("osu_compare", os.path.join(OSU, "compare.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


osu = _load_osu_compare()  # run_raw(), PEERS, die(), versions()

FIGURES = ["connect", "accept", "roundtrip", "disconnect", "total"]


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default=os.path.join(REPO, "build"), help="ringmpi meson build folder")
    p.add_argument("--impls", default="ringmpi,mpich,openmpi", help="subset of ringmpi,mpich,openmpi")
    p.add_argument("--np", default="1,2", help="ranks of each job, comma-separated (default 1,2)")
    p.add_argument("--reps", type=int, default=10, help="connections per run (default 10)")
    p.add_argument("--pause-ms", type=int, default=20,
                   help="the client sleeps this long before each connect (default 20)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--baseline", help="folder with another libringmpi.so.0: adds ringmpi-base (LD_LIBRARY_PATH)")
    p.add_argument("--timeout", type=float, default=60, help="seconds allowed to one run (default 60)")
    a = p.parse_args()
    a.impls = [i for i in a.impls.split(",") if i]
    a.np = [int(x) for x in a.np.split(",") if x]
    if a.baseline:
        if not os.path.exists(os.path.join(a.baseline, "libringmpi.so.0")):
            osu.die("--baseline %s holds no libringmpi.so.0" % a.baseline)
        a.baseline = os.path.abspath(a.baseline)
        if "ringmpi" not in a.impls:
            a.impls.insert(0, "ringmpi")
    for i in a.impls:
        if i != "ringmpi" and i not in osu.PEERS:
            osu.die("unknown implementation '%s' (known: ringmpi, mpich, openmpi)" % i)
    return a


def build(a, tmp):
    exes = {}
    if "ringmpi" in a.impls:
        r = subprocess.run(["ninja", "-C", a.build, "launcher/mpiexec", "bench/spawn/connect_bench"],
                           capture_output=True, text=True)
        exe = os.path.join(a.build, "bench", "spawn", "connect_bench")
        if r.returncode != 0 or not os.path.exists(exe):  # a build without -Dbenchmarks=true
            exe = os.path.join(tmp, "connect_bench_ringmpi")
            subprocess.run([os.path.join(a.build, "tools", "mpicc"), "-O2", "-o", exe, SRC], check=True)
        exes["ringmpi"] = exe
        if a.baseline:
            exes["ringmpi-base"] = exe
    for impl in a.impls:
        if impl == "ringmpi":
            continue
        cc, run = osu.PEERS[impl]["cc"], osu.PEERS[impl]["run"]
        if not shutil.which(cc) or not shutil.which(run):
            print("%s: not installed (%s / %s), skipped" % (impl, cc, run))
            continue
        exe = os.path.join(tmp, "connect_bench_" + impl)
        r = subprocess.run([cc, "-O2", "-o", exe, SRC], capture_output=True, text=True)
        if r.returncode != 0:
            print("%s: connect_bench.c does not build, skipped:\n%s" % (impl, r.stderr[-1000:]))
            continue
        exes[impl] = exe
    return exes


class OmpiServer:
    """Open MPI's name server for the whole comparison (its own process group)."""

    def __init__(self, tmp):
        self.uri = os.path.join(tmp, "ompi-server.uri")
        self.proc = None
        exe = shutil.which("ompi-server")
        if not exe:
            return
        self.proc = subprocess.Popen([exe, "--no-daemonize", "-r", self.uri], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, env=dict(os.environ, **osu.OMPI_ENV),
                                     start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (os.path.exists(self.uri) and os.path.getsize(self.uri) > 0):
            time.sleep(0.05)

    def flags(self):
        return ["--ompi-server", "file:" + self.uri] if self.proc else []

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def command(impl, exe, np, role, portfile, a, ompi):
    args = [exe, role, portfile, str(a.reps), str(a.pause_ms)]
    if impl in ("ringmpi", "ringmpi-base"):
        env = ["env", "LD_LIBRARY_PATH=" + a.baseline] if impl == "ringmpi-base" else []
        return env + [os.path.join(a.build, "launcher", "mpiexec"), "--bind-to", "none", "-n", str(np)] + args
    if impl == "mpich":
        return [osu.PEERS[impl]["run"], "-n", str(np)] + args
    return ([osu.PEERS[impl]["run"], "--oversubscribe", "--bind-to", "none"] + ompi.flags()
            + ["-n", str(np)] + args)


def parse(out):
    figs = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 5 and f[0] in FIGURES:
            try:
                figs[f[0]] = {"first": float(f[1]), "best": float(f[2]), "median": float(f[3])}
            except ValueError:
                pass
    return figs


def pair(impl, exe, np, a, ompi, tmp, k):
    """One server run and one client run. Returns (figures, None) or (None, why)."""
    portfile = os.path.join(tmp, "port-%s-%d-%d" % (impl, np, k))
    result = {}

    def serve():
        result["server"] = osu.run_raw(command(impl, exe, np, "server", portfile, a, ompi), a.timeout)

    t = threading.Thread(target=serve)
    t.start()
    deadline = time.monotonic() + a.timeout
    while not os.path.exists(portfile) and t.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    client = None
    if os.path.exists(portfile):
        client = osu.run_raw(command(impl, exe, np, "client", portfile, a, ompi), a.timeout)
    t.join()
    sout, serr, sstatus, _, stimeout = result["server"]
    if client is None:
        return None, "the server wrote no port name (%s): %s" % (
            stimeout or "exit status %s" % sstatus, (serr.strip() or sout.strip())[-700:])
    cout, cerr, cstatus, _, ctimeout = client
    if ctimeout or cstatus != 0:
        return None, "the client failed (%s): %s" % (ctimeout or "exit status %s" % cstatus,
                                                     (cerr.strip() or cout.strip())[-700:])
    if stimeout or sstatus != 0:
        return None, "the server failed (%s): %s" % (stimeout or "exit status %s" % sstatus,
                                                     (serr.strip() or sout.strip())[-700:])
    figs = parse(cout)
    figs.update(parse(sout))
    missing = [f for f in FIGURES if f not in figs]
    if missing:
        return None, "no %s figure in the output:\n%s\n%s" % (", ".join(missing), sout, cout)
    return figs, None


def report(np, data, impls):
    print("\n## np %d + %d (ms; median over the rounds of each run's median over its connections, "
          "[range of the rounds], best)" % (np, np))
    have = [i for i in impls if data.get(i)]
    base = "ringmpi-base" in have
    print("| | " + " | ".join(have) + " | ringmpi / better peer |" + (" ringmpi / ringmpi-base |" if base else ""))
    print("|---" * (len(have) + 2 + base) + "|")
    for fig in FIGURES:
        cells, med = [], {}
        for i in have:
            meds = [r[fig]["median"] for r in data[i]]
            bests = [r[fig]["best"] for r in data[i]]
            med[i] = statistics.median(meds)
            cells.append("%.3f [%.3f-%.3f] %.3f" % (med[i], min(meds), max(meds), min(bests)))
        peers = [med[i] for i in have if not i.startswith("ringmpi")]
        ratio = "%.2f" % (med["ringmpi"] / min(peers)) if "ringmpi" in med and peers and min(peers) > 0 else "-"
        if base:
            ratio += " | %.2f" % (med["ringmpi"] / med["ringmpi-base"]) if "ringmpi" in med and med["ringmpi-base"] > 0 else " | -"
        print("| %s | %s | %s |" % (fig, " | ".join(cells), ratio))
    firsts = ", ".join("%s %s" % (i, "/".join("%.2f" % r["connect"]["first"] for r in data[i])) for i in have)
    print("first connect of each run (ms): " + firsts)


def main():
    a = parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        exes = build(a, tmp)
        ompi = OmpiServer(tmp) if "openmpi" in exes else None
        try:
            with open("/proc/loadavg") as f:
                load_before = f.read().split()[:3]
            print("# %s; load average before: %s" % ("; ".join(osu.versions(list(exes))), " ".join(load_before)))
            data = {np: {i: [] for i in exes} for np in a.np}
            active = {np: list(exes) for np in a.np}
            for k in range(a.rounds):
                for np in a.np:
                    order = active[np][k % max(1, len(active[np])):] + active[np][:k % max(1, len(active[np]))]
                    for impl in order:
                        figs, why = pair(impl, exes[impl], np, a, ompi, tmp, k)
                        if figs is None:
                            failed = failed or impl.startswith("ringmpi")
                            print("round %d, np %d, %s: cannot connect two jobs here, left out: %s"
                                  % (k + 1, np, impl, why))
                            active[np].remove(impl)
                            continue
                        data[np][impl].append(figs)
                        print("round %d, np %d, %s: connect %.3f ms, accept %.3f, roundtrip %.3f, total %.3f (medians)"
                              % (k + 1, np, impl, figs["connect"]["median"], figs["accept"]["median"],
                                 figs["roundtrip"]["median"], figs["total"]["median"]))
            with open("/proc/loadavg") as f:
                print("# load average after: " + " ".join(f.read().split()[:3]))
            for np in a.np:
                report(np, data[np], list(exes))
        finally:
            if ompi:
                ompi.stop()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
