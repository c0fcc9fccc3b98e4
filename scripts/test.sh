#!/bin/sh
# Second command of the quick start: builds and runs the whole test suite
# (doctest unit tests, MPI programs under mpiexec, fault tests), then prints
# "N passed, N failed" (skipped tests in neither). Exit status 0 only when
# nothing failed.
cd "$(dirname "$0")/.." || exit 1
. scripts/deps.sh
ringmpi_ensure_packages || { echo "0 passed, 1 failed"; exit 1; }
dir="${RINGMPI_BUILD_DIR:-build}"
# Warnings are errors when this script configures the folder itself (CI: a
# clean clone, no build folder yet). A folder that exists (made by setup.sh,
# whose build is not -Dwerror=true: meson.build) keeps its options, so the
# second command of the quick start builds only the tests instead of the
# whole library again; `meson configure build -Dwerror=true` switches an
# existing folder (and rebuilds it).
ringmpi_build "$dir" -Dwerror=true || { echo "0 passed, 1 failed"; exit 1; }
log="$dir/meson-logs/test-summary.txt"
meson test -C "$dir" --num-processes 2 --print-errorlogs "$@" 2>&1 | tee "$log"
ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$log" | tail -1)
xfail=$(sed -n 's/^Expected Fail: *\([0-9]*\).*/\1/p' "$log" | tail -1)
fail=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$log" | tail -1)
xpass=$(sed -n 's/^Unexpected Pass: *\([0-9]*\).*/\1/p' "$log" | tail -1)
timeout=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' "$log" | tail -1)
skipped=$(sed -n 's/^Skipped: *\([0-9]*\).*/\1/p' "$log" | tail -1)
passed=$(( ${ok:-0} + ${xfail:-0} ))
failed=$(( ${fail:-0} + ${xpass:-0} + ${timeout:-0} ))
if [ -z "$ok" ]; then failed=$(( failed + 1 )); fi  # meson test did not get to a summary
# A test that exits 77 (meson's skip: its precondition does not hold here)
# is neither passed nor failed; say how many, above the last line.
if [ "${skipped:-0}" -gt 0 ]; then echo "$skipped skipped (not counted below; see $log)"; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
