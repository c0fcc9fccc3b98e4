#!/bin/bash
# Builds OSU Micro-Benchmarks (the suite itself, 7.x; not in Debian: pass
# an unpacked source tree) with ringmpi's mpicc and runs every program
# briefly at each np, with data validation (-c) and in sessions mode (-I),
# listing each run that failed or printed an error. A smoke test of the
# field's standard benchmark suite, not a measurement.
#
#   bench/osu/run_suite.sh OSU_SRC BUILD_DIR [NP...]     (default np: 2 3 4)
#
# Known failures that are OSU 7.4's own (the first two fail under MPICH 4.0.2 too):
# osu_allreduce_persistent -c reports "Fail"; osu_mbw_mr and osu_multi_lat
# at odd np hang (ringmpi's deadlock check ends them, status 123);
# osu_fop_latency -c fails now and then: rank 0 goes on with its next
# MPI_Fetch_and_op while rank 1 reads its window to check the first (with
# the op applied at once through shared memory, the check sees two sums);
# osu_latency_mt returns without MPI_Finalize (status 1); two-process and
# multi-node programs refuse other np; neighbourhood programs need np > 2.
set -u
[ $# -ge 2 ] || { echo "usage: $0 OSU_SRC BUILD_DIR [NP...]"; exit 2; }
src=$(realpath "$1"); build=$(realpath "$2"); shift 2
nps=${*:-2 3 4}
work=$(mktemp -d /tmp/osu-suite.XXXXXX)
cp -r "$src"/. "$work"/ && cd "$work" || exit 1
./configure CC="$build/tools/mpicc" CXX="$build/tools/mpicxx" > configure.log 2>&1 || { echo "configure failed: $work/configure.log"; exit 1; }
make -j2 > make.log 2>&1 || { echo "make failed: $work/make.log"; exit 1; }
progs=$(find c -type f -perm -u+x -name 'osu_*' | sort)
echo "# $(echo "$progs" | wc -l) programs built in $work"
bad=0
for np in $nps; do
  for mode in "" "-c" "-I"; do
    for p in $progs; do
      n=$(basename "$p")
      case "$n" in osu_hello|osu_init) args="";; *) args="$mode -m 1:4096 -i 10 -x 2";; esac
      out=$(timeout 120 "$build/launcher/mpiexec" -n "$np" "$p" $args 2>&1); rc=$?
      if [ $rc -ne 0 ] || grep -qiE 'fail|error|abort' <<<"$out"; then
        bad=$((bad + 1))
        echo "np $np $n $args: status $rc: $(grep -iE 'fail|error|abort|requires|invalid|mpiexec:' <<<"$out" | head -1)"
      fi
    done
  done
done
echo "# $bad runs listed; sources and logs in $work"
