"""The MPI_T test programs are portable C: each compiles and links with
ringmpi's mpicc and with Open MPI's and MPICH's (where installed) under
-Wall -Wextra -Werror, so a tool written against ringmpi's mpi.h builds on a
cluster's MPI (MPI_T handles are ints here, pointers there).

  portable.py MPICC SRC...   exit 0: every compiler that is installed built
                             every source; 1: the first failure, with its output."""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    ours, sources = sys.argv[1], sys.argv[2:]
    compilers = [ours] + [c for c in ("mpicc.openmpi", "mpicc.mpich") if shutil.which(c)]
    with tempfile.TemporaryDirectory() as tmp:
        for cc in compilers:
            for src in sources:
                exe = os.path.join(tmp, os.path.basename(cc) + "_" + os.path.basename(src) + ".out")
                cmd = [cc, "-Wall", "-Wextra", "-Werror", "-o", exe, src, "-lpthread"]
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
                if p.returncode != 0:
                    print("FAIL: %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
                    return 1
                print("ok: " + " ".join(cmd))
    return 0


if __name__ == "__main__":
    sys.exit(main())
