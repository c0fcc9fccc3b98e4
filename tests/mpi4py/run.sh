#!/bin/sh
# The Python binding's dynamic-process tests against this build (issue 32,
# point 6), by hand: mpi4py is not a dependency of the suite.
#   tests/mpi4py/run.sh BUILD MPI4PY_SRC [CYTHON_PYTHONPATH]
# BUILD: this project's build folder; MPI4PY_SRC: an mpi4py 3.1.x source
# tree (a release tarball, or `git archive 3.1.6` of its repository);
# CYTHON_PYTHONPATH: where Cython 0.29 is, when it is not installed (e.g.
# the files of Debian's cython3 package, `dpkg -x`). Builds the extension
# in place with BUILD/tools/mpicc, then runs test_spawn and test_dynproc
# (runtests.py) and futures_pool.py at np 1, 2 and 3.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 3 ] && export PYTHONPATH="$3${PYTHONPATH:+:$PYTHONPATH}"
cd "$src"
[ -f src/mpi4py.MPI.c ] || python3 conf/cythonize.py
python3 setup.py -q build_ext --inplace --mpicc="$build/tools/mpicc"
export PYTHONPATH="$src/src${PYTHONPATH:+:$PYTHONPATH}"
for np in 1 2 3; do
  echo "== np $np: test_spawn, test_dynproc"
  "$build/launcher/mpiexec" -n $np --timeout 600 python3 test/runtests.py --no-builddir -i test_spawn -i test_dynproc
  echo "== np $np: futures_pool.py"
  "$build/launcher/mpiexec" -n $np --timeout 300 python3 "$here/futures_pool.py"
done
