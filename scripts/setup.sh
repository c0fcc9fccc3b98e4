#!/bin/sh
# First command of the quick start: installs the Debian packages that are
# missing, builds ringmpi in ./build and runs the demo under mpiexec -n 4.
set -e
cd "$(dirname "$0")/.."
. scripts/deps.sh
ringmpi_ensure_packages
ringmpi_build build
echo "ringmpi: built. Demo: build/launcher/mpiexec -n 4 build/examples/hello"
build/launcher/mpiexec -n 4 build/examples/hello
