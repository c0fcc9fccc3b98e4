#!/usr/bin/env python3
"""The cost of ringmpi's Fortran bindings, against C and against MPICH's
(issue 33's target: an 8-byte ping-pong through mpi_f08 at most 10 ns per
message above C).

  run_bench.py BUILD [ROUNDS]

builds pingpong_c.c and pingpong.F90 (mpif.h, `use mpi`, `use mpi_f08`)
with BUILD's mpicc/mpifort and, when installed, with MPICH's mpicc.mpich /
mpif90.mpich, then runs every program in turn, ROUNDS times (default 5),
alternating, so that load on a shared machine hits them all alike:
mpiexec -n 1 (MPI_Send to MPI_PROC_NULL: the call path alone) and -n 2
(the 8-byte and 4 MiB ping-pongs). Prints the best of each, and each
binding's difference from C of the same library, and (with valgrind) the
instructions of one MPI_Send to MPI_PROC_NULL, which load does not change.
Not a test: figures."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BINDINGS = [("mpif", "-DBINDING_MPIF"), ("mpi", "-DBINDING_MPI"), ("f08", "-DBINDING_F08")]
NULL = re.compile(r"MPI_PROC_NULL\s+([\d.]+) ns")
PING = re.compile(r"one-way\s+([\d.]+) ns; 4 MiB\s+([\d.]+) GB/s")


def build(tmp, name, cc, fc):
    """{variant: executable} of one library, or {} when its compilers are missing."""
    if not shutil.which(cc) or not shutil.which(fc):
        return {}
    out = {}
    exe = os.path.join(tmp, name + "_c")
    subprocess.run([cc, "-O2", "-o", exe, os.path.join(HERE, "pingpong_c.c")], check=True)
    out["C"] = exe
    for b, flag in BINDINGS:
        exe = os.path.join(tmp, "%s_%s" % (name, b))
        p = subprocess.run([fc, "-O2", "-cpp", flag, "-J", tmp, "-o", exe, os.path.join(HERE, "pingpong.F90")],
                           capture_output=True, text=True)
        if p.returncode == 0:
            out[b] = exe
        else:
            print("%s: %s binding not built: %s" % (name, b, p.stderr.strip().splitlines()[-1:]))
    return out


COLLECTED = re.compile(r"Collected : (\d+)")


def instructions(launcher, exe):
    """Instructions of one MPI_Send to MPI_PROC_NULL, the program's side
    included (mpi_f08's descriptor): callgrind's total at two batch sizes,
    the difference divided by the calls it adds (7 batches)."""
    if not shutil.which("valgrind"):
        return None
    total = []
    for k in (1000, 11000):
        p = subprocess.run(launcher + ["-n", "1", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", exe],
                           capture_output=True, text=True, timeout=600, env=dict(os.environ, PINGPONG_NULL_ITERS=str(k)))
        m = COLLECTED.search(p.stderr + p.stdout)
        if not m:
            return None
        total.append(int(m.group(1)))
    return (total[1] - total[0]) / (7 * 10000)


def main():
    build_dir = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    libs = {"ringmpi": ([os.path.join(build_dir, "launcher", "mpiexec")],
                        os.path.join(build_dir, "tools", "mpicc"), os.path.join(build_dir, "tools", "mpifort")),
            "MPICH": (["mpiexec.mpich"], "mpicc.mpich", "mpif90.mpich")}
    best = {}
    with tempfile.TemporaryDirectory(prefix="ringmpi-fbench-") as tmp:
        progs = {lib: build(tmp, lib.lower(), cc, fc) for lib, (_, cc, fc) in libs.items()}
        for lib, variants in progs.items():
            for v, exe in variants.items():
                best[(lib, v, "instr")] = instructions(libs[lib][0], exe)
        for _ in range(rounds):
            for lib, variants in progs.items():
                for v, exe in variants.items():
                    for n in (1, 2):
                        p = subprocess.run(libs[lib][0] + ["-n", str(n), exe], capture_output=True, text=True,
                                           timeout=600)
                        m = (NULL if n == 1 else PING).search(p.stdout)
                        if not m:
                            print("%s %s -n %d: no figure: %s %s" % (lib, v, n, p.stdout, p.stderr))
                            continue
                        keys = ("lat", "bw") if n == 2 else ("null",)
                        for key, val in zip(keys, m.groups()):
                            k, x = (lib, v, key), float(val)
                            best[k] = max(best.get(k, 0), x) if key == "bw" else min(best.get(k, 1e30), x)
    print("best of %d rounds (ns; GB/s), and the difference from the same library's C:" % rounds)
    print("%-8s %-5s %16s %22s %22s %10s" % ("library", "via", "instr/call", "MPI_Send to PROC_NULL", "8 B one-way",
                                              "4 MiB"))
    for lib in libs:
        for v in ["C"] + [b for b, _ in BINDINGS]:
            if (lib, v, "null") not in best:
                continue
            c_null, c_lat = best.get((lib, "C", "null")), best.get((lib, "C", "lat"))
            null, lat, bw = best[(lib, v, "null")], best.get((lib, v, "lat")), best.get((lib, v, "bw"))
            dn = "" if v == "C" else " (%+.1f)" % (null - c_null)
            dl = "" if v == "C" or lat is None else " (%+.1f)" % (lat - c_lat)
            ins, c_ins = best.get((lib, v, "instr")), best.get((lib, "C", "instr"))
            di = "" if v == "C" or ins is None or c_ins is None else " (%+.0f)" % (ins - c_ins)
            print("%-8s %-5s %16s %22s %22s %10s" % (lib, v, "-" if ins is None else "%.0f%s" % (ins, di),
                                                   "%.1f%s" % (null, dn),
                                               "-" if lat is None else "%.1f%s" % (lat, dl),
                                               "-" if bw is None else "%.2f" % bw))


if __name__ == "__main__":
    main()
