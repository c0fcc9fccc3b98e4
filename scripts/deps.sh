# Sourced by setup.sh and test.sh: makes sure the Debian packages ringmpi
# needs are installed. As root it installs what is missing with apt-get;
# otherwise it prints the exact apt-get line and fails.
RINGMPI_PACKAGES="gcc g++ gfortran meson ninja-build pkg-config cmake python3 libhwloc-dev hwloc liburing-dev doctest-dev libbenchmark-dev"

ringmpi_missing_packages() {
  missing=""
  for p in $RINGMPI_PACKAGES "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing="$missing $p"
    fi
  done
  printf '%s' "${missing# }"
}

ringmpi_ensure_packages() {
  missing="$(ringmpi_missing_packages "$@")"
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" = 0 ]; then
    echo "ringmpi: installing missing Debian packages: $missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing >/dev/null || {
      echo "ringmpi: apt-get install failed; run by hand: apt-get install $missing" >&2
      return 1
    }
  else
    echo "ringmpi: missing Debian packages. Run as root:" >&2
    echo "  apt-get install -y $missing" >&2
    return 1
  fi
}

# Configures (once) and builds the tree in $1 with any extra meson options.
ringmpi_build() {
  dir="$1"; shift
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "$@" >/dev/null || return 1
  elif [ $# -gt 0 ]; then
    meson configure "$dir" "$@" >/dev/null || return 1  # e.g. -Dwerror=true on a folder setup.sh made
  fi
  ninja -C "$dir" >/dev/null || ninja -C "$dir"
}
