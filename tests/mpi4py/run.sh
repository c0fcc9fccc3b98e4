#!/bin/sh
# The Python binding's tests against this build, by hand: mpi4py is not a
# dependency of the suite (docs/guide/mpi4py.md).
#   tests/mpi4py/run.sh BUILD MPI4PY_SRC [CYTHON_PYTHONPATH]
# BUILD: this project's build folder; MPI4PY_SRC: an mpi4py 3.1.x or 4.x
# source tree (a release tarball, or `git archive 3.1.6` / `git archive
# 4.1.2` of its repository); CYTHON_PYTHONPATH: where Cython is, when it is
# not installed (3.1.x: Cython 0.29, e.g. the files of Debian's cython3
# package, `dpkg -x`; 4.x: Cython >= 3.0, e.g. a Cython source tree, which
# runs uncompiled). Builds the extension in place with BUILD/tools/mpicc.
# MPI4PY_TESTS=dynamic (the default) runs test_spawn and test_dynproc
# (runtests.py) and futures_pool.py at np 1, 2 and 3 (issue 32, point 6);
# MPI4PY_TESTS=all runs the whole of runtests.py at np 1, 2 and 3.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 3 ] && export PYTHONPATH="$3${PYTHONPATH:+:$PYTHONPATH}"
cd "$src"
if [ -f src/mpi4py/MPI.src ]; then  # 4.x: the module is src/mpi4py/MPI.c
  [ -f src/mpi4py/MPI.c ] || python3 conf/cythonize.py --working "$src" src/mpi4py/MPI.pyx
else                                # 3.1.x: src/mpi4py.MPI.c
  [ -f src/mpi4py.MPI.c ] || python3 conf/cythonize.py
fi
python3 setup.py -q build_ext --inplace --mpicc="$build/tools/mpicc"
export PYTHONPATH="$src/src${PYTHONPATH:+:$PYTHONPATH}"
for np in 1 2 3; do
  if [ "${MPI4PY_TESTS:-dynamic}" = all ]; then
    echo "== np $np: runtests.py (all)"
    nice "$build/launcher/mpiexec" -n $np --timeout 900 python3 test/runtests.py --no-builddir || true
    continue
  fi
  echo "== np $np: test_spawn, test_dynproc"
  "$build/launcher/mpiexec" -n $np --timeout 600 python3 test/runtests.py --no-builddir -i test_spawn -i test_dynproc
  echo "== np $np: futures_pool.py"
  "$build/launcher/mpiexec" -n $np --timeout 300 python3 "$here/futures_pool.py"
done
