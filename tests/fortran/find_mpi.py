"""Finds ringmpi's Fortran support the way build systems do (issue 33):

  find_mpi.py wrapper TOOLS MPIEXEC   mpifort/mpif90/mpif77 build and link a
      program (mpif.h, use mpi, use mpi_f08) that runs under mpiexec, and
      -show / --showme:* answer as MPICH's and Open MPI's wrappers do; a
      wrong argument type is a compile-time error with `use mpi`/mpi_f08;
      -fdefault-integer-8 is refused (mpifort, mpif.h)
  find_mpi.py cmake TOOLS MPIEXEC     CMake's find_package(MPI COMPONENTS
      Fortran) with MPI_Fortran_COMPILER = our mpifort finds all three
      bindings; the project builds and runs
  find_mpi.py meson TOOLS MPIEXEC     meson's dependency('mpi', language:
      'fortran', method: 'config-tool') finds mpifort (MPIFC); the project
      builds and runs

Exit 77 (meson: skipped) when cmake is not installed."""
import os
import shutil
import subprocess
import sys
import tempfile

PROGRAM = """program t
  use mpi_f08
  implicit none
  integer :: rank, n
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Allreduce(rank, n, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) print '(A, I0)', 'sum of ranks ', n
  call MPI_Finalize()
end program
"""
F77 = """      PROGRAM T77
      INCLUDE 'mpif.h'
      INTEGER IERR, N
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, N, IERR)
      IF (N .NE. 2) CALL MPI_ABORT(MPI_COMM_WORLD, 1, IERR)
      CALL MPI_FINALIZE(IERR)
      END
"""
F90 = """program t90
  use mpi
  implicit none
  integer :: ierr, n
  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  if (n /= 2) call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  call MPI_Finalize(ierr)
end program
"""


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)
    if p.returncode != 0:
        print("FAIL: %s\nexit %d\n--- stdout ---\n%s\n--- stderr ---\n%s" %
              (" ".join(cmd), p.returncode, p.stdout, p.stderr))
        sys.exit(1)
    return p.stdout


def check_run(mpiexec, exe, want=None):
    out = run([mpiexec, "-n", "2", "--timeout", "60", exe])
    if want and want not in out:
        print("FAIL: %s printed %r, not %r" % (exe, out, want))
        sys.exit(1)


def wrapper(tools, mpiexec, tmp):
    # mpif.h in free form too (its lines are valid in both forms).
    free = F77.replace("      PROGRAM T77", "program t77free").replace("\n      ", "\n")
    for name, src, text in (("mpif77", "t77.f", F77), ("mpif90", "t77free.f90", free), ("mpif90", "t90.f90", F90),
                            ("mpifort", "t.f90", PROGRAM)):
        path = os.path.join(tmp, src)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        exe = os.path.join(tmp, src.split(".")[0])
        run([os.path.join(tools, name), "-o", exe, path], cwd=tmp)
        check_run(mpiexec, exe, "sum of ranks 1" if name == "mpifort" else None)
    mpifort = os.path.join(tools, "mpifort")
    show = run([mpifort, "-show", "-o", "x", "x.f90"])
    for want in ("-lringmpi_fortran", "-lringmpi", "-I", "x.f90"):
        if want not in show:
            print("FAIL: mpifort -show lacks %s: %s" % (want, show))
            sys.exit(1)
    inc = run([mpifort, "--showme:incdirs"]).split()
    if not any(os.path.exists(os.path.join(d, "mpi_f08.mod")) for d in inc):
        print("FAIL: --showme:incdirs %s has no mpi_f08.mod" % inc)
        sys.exit(1)
    for opt in ("--showme:compile", "--showme:link", "-compile-info", "-link-info"):
        run([mpifort, opt])
    # The explicit interfaces of `use mpi` and mpi_f08 make a wrong argument
    # a compile-time error.
    for module, call in (("mpi", "call MPI_Comm_rank(MPI_COMM_WORLD, 1.5, ierr)"),
                         ("mpi_f08", "call MPI_Comm_rank(0, r)")):
        path = os.path.join(tmp, "bad_%s.f90" % module)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("program bad\n  use %s\n  integer :: ierr, r\n  %s\nend program\n" % (module, call))
        p = subprocess.run([mpifort, "-c", path, "-o", os.path.join(tmp, "bad.o")], capture_output=True, text=True,
                           timeout=120, cwd=tmp)
        if p.returncode == 0:
            print("FAIL: `use %s` accepts %r" % (module, call))
            sys.exit(1)
    # 8-byte default INTEGERs are not supported: mpifort says so, naming the
    # flag, and mpif.h does not compile without mpifort either.
    f77 = os.path.join(tmp, "t77.f")
    for flag in ("-fdefault-integer-8", "-finteger-4-integer-8"):
        p = subprocess.run([mpifort, flag, "-c", f77, "-o", os.path.join(tmp, "i8.o")], capture_output=True,
                           text=True, timeout=120, cwd=tmp)
        if p.returncode == 0 or flag not in p.stderr or "not supported" not in p.stderr:
            print("FAIL: mpifort %s: exit %d, %r" % (flag, p.returncode, p.stderr))
            sys.exit(1)
    compile_flags = run([mpifort, "--showme:compile"]).split()
    p = subprocess.run(compile_flags + ["-fdefault-integer-8", "-c", f77, "-o", os.path.join(tmp, "i8.o")],
                       capture_output=True, text=True, timeout=120, cwd=tmp)
    # (gfortran names mpif.h and the line of RMPI_INTEGER_8_UNSUPPORTED.)
    if p.returncode == 0 or "mpif.h" not in p.stderr or "Division by zero" not in p.stderr:
        print("FAIL: mpif.h compiled with -fdefault-integer-8: exit %d, %r" % (p.returncode, p.stderr))
        sys.exit(1)


def cmake(tools, mpiexec, tmp):
    if not shutil.which("cmake"):
        print("cmake not installed: skipped")
        sys.exit(77)
    with open(os.path.join(tmp, "t.f90"), "w", encoding="utf-8") as fh:
        fh.write(PROGRAM)
    with open(os.path.join(tmp, "CMakeLists.txt"), "w", encoding="utf-8") as fh:
        fh.write("""cmake_minimum_required(VERSION 3.10)
project(t Fortran)
find_package(MPI REQUIRED COMPONENTS Fortran)
foreach(v MPI_Fortran_HAVE_F77_HEADER MPI_Fortran_HAVE_F90_MODULE MPI_Fortran_HAVE_F08_MODULE)
  if(NOT ${v})
    message(FATAL_ERROR "${v} is false")
  endif()
endforeach()
add_executable(t t.f90)
target_link_libraries(t MPI::MPI_Fortran)
""")
    build = os.path.join(tmp, "build")
    run(["cmake", "-S", tmp, "-B", build, "-DMPI_Fortran_COMPILER=" + os.path.join(tools, "mpifort"),
         "-DMPIEXEC_EXECUTABLE=" + mpiexec])
    run(["cmake", "--build", build])
    check_run(mpiexec, os.path.join(build, "t"), "sum of ranks 1")


def meson(tools, mpiexec, tmp):
    with open(os.path.join(tmp, "t.f90"), "w", encoding="utf-8") as fh:
        fh.write(PROGRAM)
    with open(os.path.join(tmp, "meson.build"), "w", encoding="utf-8") as fh:
        # method: 'config-tool' (MPIFC): meson's auto method asks
        # pkg-config for Open MPI's ompi-fort first, and finds Open MPI
        # wherever it is installed.
        fh.write("project('t', 'fortran')\n"
                 "executable('t', 't.f90', dependencies: dependency('mpi', language: 'fortran', "
                 "method: 'config-tool'))\n")
    env = dict(os.environ, MPIFC=os.path.join(tools, "mpifort"), PATH=tools + os.pathsep + os.environ["PATH"])
    build = os.path.join(tmp, "build")
    run(["meson", "setup", build, tmp], env=env)
    run(["ninja", "-C", build], env=env)
    check_run(mpiexec, os.path.join(build, "t"), "sum of ranks 1")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="ringmpi-find-") as tmp:
        {"wrapper": wrapper, "cmake": cmake, "meson": meson}[sys.argv[1]](sys.argv[2], sys.argv[3], tmp)
    print("ok")
