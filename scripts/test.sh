#!/bin/sh
# Second command of the quick start: builds and runs the whole test suite
# (doctest unit tests, MPI programs under mpiexec, fault tests), then prints
# "N passed, N failed". Exit status 0 only when nothing failed.
cd "$(dirname "$0")/.." || exit 1
. scripts/deps.sh
ringmpi_ensure_packages || { echo "0 passed, 1 failed"; exit 1; }
dir="${RINGMPI_BUILD_DIR:-build}"
# CI builds with warnings as errors (a user's build does not: meson.build).
ringmpi_build "$dir" -Dwerror=true || { echo "0 passed, 1 failed"; exit 1; }
log="$dir/meson-logs/test-summary.txt"
meson test -C "$dir" --num-processes 2 --print-errorlogs "$@" 2>&1 | tee "$log"
ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$log" | tail -1)
xfail=$(sed -n 's/^Expected Fail: *\([0-9]*\).*/\1/p' "$log" | tail -1)
fail=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$log" | tail -1)
xpass=$(sed -n 's/^Unexpected Pass: *\([0-9]*\).*/\1/p' "$log" | tail -1)
timeout=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' "$log" | tail -1)
passed=$(( ${ok:-0} + ${xfail:-0} ))
failed=$(( ${fail:-0} + ${xpass:-0} + ${timeout:-0} ))
if [ -z "$ok" ]; then failed=$(( failed + 1 )); fi  # meson test did not get to a summary
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
