"""Runs the teaching examples where meson cannot say what to expect:

  examples.py deadlock MPIEXEC EXE   the deliberate deadlock under ringmpi's
      mpiexec ends with status 123 and the report naming both receives (with
      their arguments), the ranks in MPI_Barrier and the wait-for cycle.
  examples.py mpich|openmpi SRCDIR   builds every example (but the deadlock)
      with mpicc.<impl> (the Fortran ones with mpifort.<impl>) and runs it with mpiexec.<impl> at 4 ranks: the same
      source runs on a cluster's MPI. Exit 77 (meson: skipped) when that MPI
      is not installed.
"""
import os
import shutil
import subprocess
import sys
import tempfile

EXAMPLES = ["ring", "pi", "prefix", "jacobi", "scatter_columns", "split"]
# The Fortran (mpi_f08) versions, built with that MPI's mpifort.
FORTRAN_EXAMPLES = ["pi_f08", "ring_f08", "jacobi_f08"]
EXAMPLES.append("master_worker")  # issue 32: MPI_Comm_spawn
# Examples that start processes: an installation whose process manager
# cannot spawn here (MPICH's hydra in a container answers "Error in spawn
# call" to every MPI_Comm_spawn) skips them with a line saying so.
SPAWNS = {"master_worker"}
CANNOT_SPAWN = ["Error in spawn call", "spawn is not supported", "ORTE_ERROR_LOG: Not supported"]


def fail(what, proc=None):
    print("FAIL: " + what)
    if proc is not None:
        print("exit status %s\n--- stdout ---\n%s\n--- stderr ---\n%s" % (proc.returncode, proc.stdout, proc.stderr))
    sys.exit(1)


def deadlock(mpiexec, exe):
    p = subprocess.run([mpiexec, "-n", "3", "--timeout", "60", exe], capture_output=True, text=True, timeout=90)
    if p.returncode != 123:
        fail("the deadlock example must end with status 123", p)
    for line in ["deadlock:",
                 "rank 0 waits for rank 1 in MPI_Recv(source 1, tag 7, MPI_COMM_WORLD, 1 x MPI_INT)",
                 "rank 1 waits for rank 0 in MPI_Recv(source 0, tag 7, MPI_COMM_WORLD, 1 x MPI_INT)",
                 "rank 2 waits in MPI_Barrier(MPI_COMM_WORLD)",
                 "wait-for cycle: rank 0 -> rank 1 -> rank 0"]:
        if line not in p.stderr:
            fail("the report lacks %r" % line, p)
    print(p.stderr)


def other_mpi(impl, srcdir):
    mpicc, mpiexec = shutil.which("mpicc." + impl), shutil.which("mpiexec." + impl)
    mpifort = shutil.which("mpifort." + impl)
    if not mpicc or not mpiexec:
        print("mpicc.%s or mpiexec.%s not installed: skipped" % (impl, impl))
        sys.exit(77)
    extra = ["--oversubscribe"] if impl == "openmpi" else []
    if impl == "openmpi" and os.geteuid() == 0:
        extra.append("--allow-run-as-root")
    env = dict(os.environ, OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_btl_vader_single_copy_mechanism="none")
    srcdir = os.path.abspath(srcdir)
    with tempfile.TemporaryDirectory(prefix="ringmpi-examples-") as tmp:
        programs = [(name, [mpicc, os.path.join(srcdir, name + ".c"), "-lm"]) for name in EXAMPLES]
        if mpifort:
            programs += [(name, [mpifort, os.path.join(srcdir, name + ".f90")]) for name in FORTRAN_EXAMPLES]
        else:
            print("mpifort.%s not installed: the Fortran examples are not built" % impl)
        for name, build in programs:
            exe = os.path.join(tmp, name)
            p = subprocess.run(build[:1] + ["-o", exe] + build[1:], cwd=tmp,
                               capture_output=True, text=True, timeout=120)
            if p.returncode != 0:
                fail("%s does not build with %s" % (name, os.path.basename(build[0])), p)
            # A peer that cannot spawn may also lose its own message: hydra
            # ends the job (exit status 15) while the rank that would print
            # "Error in spawn call" is still writing it. A spawning example
            # that fails silently is run again, up to three times in all.
            for _ in range(3 if name in SPAWNS else 1):
                p = subprocess.run([mpiexec, "-n", "4"] + extra + [exe], capture_output=True, text=True,
                                   timeout=120, env=env)
                if p.returncode == 0 or p.stderr.strip() or p.stdout.strip():
                    break
            if p.returncode != 0 and name in SPAWNS and any(w in p.stderr for w in CANNOT_SPAWN):
                print("%s under %s: skipped, its MPI_Comm_spawn does not work on this machine:\n%s" %
                      (name, impl, p.stderr.strip()[-400:]))
                continue
            if p.returncode != 0:
                fail("%s fails under mpiexec.%s" % (name, impl), p)
            print("%s under %s: ok" % (name, impl))


if __name__ == "__main__":
    if sys.argv[1] == "deadlock":
        deadlock(sys.argv[2], sys.argv[3])
    else:
        other_mpi(sys.argv[1], sys.argv[2])
