#!/bin/sh
# Runs bench/p2p/imb_p2p.c (the IMB-MPI1 PingPong, PingPing, Sendrecv and
# Exchange patterns) at np 2 on ringmpi, MPICH and Open MPI, taking turns
# round by round so that the three share a busy machine's noise alike.
#   bench/p2p/imb_compare.sh [build-dir] [rounds] [imb_p2p options...]
# e.g. bench/p2p/imb_compare.sh build 3 -b pingpong -m 20 -l
# Prints each round's lines prefixed with the implementation; compare the
# best (or, with -l, the per-iteration median) over rounds.
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
rounds=${2:-3}
[ $# -ge 2 ] && shift 2 || shift $#
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tools/mpicc" -O2 -o "$tmp/ringmpi" "$here/imb_p2p.c"
have_mpich=0 have_ompi=0
command -v mpicc.mpich >/dev/null && mpicc.mpich -O2 -o "$tmp/mpich" "$here/imb_p2p.c" && have_mpich=1
command -v mpicc.openmpi >/dev/null && mpicc.openmpi -O2 -o "$tmp/openmpi" "$here/imb_p2p.c" && have_ompi=1
r=1
while [ "$r" -le "$rounds" ]; do
  "$build/launcher/mpiexec" -n 2 "$tmp/ringmpi" "$@" | sed 's/^/ringmpi /'
  [ $have_mpich = 1 ] && mpiexec.mpich -n 2 "$tmp/mpich" "$@" | sed 's/^/mpich /'
  [ $have_ompi = 1 ] && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpirun.openmpi --oversubscribe -n 2 "$tmp/openmpi" "$@" | sed 's/^/openmpi /'
  r=$((r + 1))
done
