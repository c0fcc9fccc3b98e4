#!/usr/bin/env python3
"""Launch time of `mpiexec -n NP ./hello` (examples/hello.c: MPI_Init, rank,
size, Barrier, Finalize): ringmpi against MPICH's and Open MPI's launchers,
in one run, interleaved, median of several repetitions each.

    python3 bench/launch/bench_launch.py --build build [--np 8] [--reps 21]
    ninja -C build bench-launch          (the same, through meson)

Prints one line per launcher and the ratio ringmpi / fastest peer.
A peer whose packages are missing is reported and skipped.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
HELLO = os.path.join(HERE, "..", "..", "examples", "hello.c")


def build_peer(cc, out):
    if not shutil.which(cc):
        return None
    r = subprocess.run([cc, "-O2", "-o", out, HELLO], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        print("  %s failed: %s" % (cc, r.stdout.decode(errors="replace").strip()), file=sys.stderr)
        return None
    return out


def time_once(cmd, env, np):
    start = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=120)
    elapsed = time.perf_counter() - start
    hellos = r.stdout.decode(errors="replace").count("hello from rank")
    if r.returncode != 0 or hellos != np:
        raise RuntimeError("%s: status %d, %d hello lines\n%s" % (cmd[0], r.returncode, hellos,
                                                                   r.stderr.decode(errors="replace")))
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="ringmpi build directory")
    ap.add_argument("--np", type=int, default=8)
    ap.add_argument("--reps", type=int, default=21)
    args = ap.parse_args()

    build = os.path.abspath(args.build)
    tmp = tempfile.mkdtemp(prefix="ringmpi-bench-launch-")
    env = dict(os.environ)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    env.pop("MPIEXEC_TIMEOUT", None)
    np = str(args.np)
    launchers = [("ringmpi", [os.path.join(build, "launcher", "mpiexec"), "-n", np,
                              os.path.join(build, "examples", "hello")])]
    mpich = build_peer("mpicc.mpich", os.path.join(tmp, "hello_mpich"))
    if mpich and shutil.which("mpiexec.mpich"):
        launchers.append(("MPICH", ["mpiexec.mpich", "-n", np, mpich]))
    else:
        print("MPICH not available (mpich, libmpich-dev); skipped")
    ompi = build_peer("mpicc.openmpi", os.path.join(tmp, "hello_ompi"))
    if ompi and shutil.which("mpirun.openmpi"):
        launchers.append(("Open MPI", ["mpirun.openmpi", "--oversubscribe", "--allow-run-as-root", "-n", np, ompi]))
    else:
        print("Open MPI not available (openmpi-bin, libopenmpi-dev); skipped")

    times = {name: [] for name, _ in launchers}
    try:
        for name, cmd in launchers:  # warm-up: page cache, dynamic linker caches
            time_once(cmd, env, args.np)
        for _ in range(args.reps):  # interleaved, so machine noise hits everyone alike
            for name, cmd in launchers:
                times[name].append(time_once(cmd, env, args.np))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    med = {name: statistics.median(t) for name, t in times.items()}
    print("mpiexec -n %d hello, median of %d runs (min..max):" % (args.np, args.reps))
    for name, t in times.items():
        print("  %-9s %8.1f ms   (%.1f..%.1f)" % (name, med[name] * 1e3, min(t) * 1e3, max(t) * 1e3))
    peers = {n: m for n, m in med.items() if n != "ringmpi"}
    if peers:
        best = min(peers, key=peers.get)
        print("ratio ringmpi / %s (fastest peer): %.3fx" % (best, med["ringmpi"] / peers[best]))
        for n, m in peers.items():
            print("  ringmpi / %s: %.3fx" % (n, med["ringmpi"] / m))


if __name__ == "__main__":
    main()
