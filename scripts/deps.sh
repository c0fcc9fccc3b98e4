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

# How long apt-get waits for the dpkg/apt locks that another package-manager
# run (unattended-upgrades, a second terminal) holds, in seconds.
RINGMPI_LOCK_WAIT="${RINGMPI_LOCK_WAIT:-300}"

# apt-get "$@" (its output shown only when it fails), waiting up to
# RINGMPI_LOCK_WAIT seconds, said once, for a lock held by another run
# instead of failing at once. apt-get waits for the dpkg lock itself when
# given DPkg::Lock::Timeout; the first try uses 0 so that a wait is announced
# before it starts, and a refusal naming a lock that apt-get does not wait
# for (the package lists' lock of apt-get update in some apt versions) is
# tried again every 2 s until the same limit.
ringmpi_apt_get() {
  start=$(date +%s)
  lock_timeout=0
  said=""
  while :; do
    out=$(apt-get -o DPkg::Lock::Timeout="$lock_timeout" "$@" 2>&1) && return 0
    case "$out" in
      *"Could not get lock"*|*"Unable to lock"*|*"Unable to acquire the dpkg"*) ;;
      *) printf '%s\n' "$out" >&2; return 1 ;;
    esac
    left=$(( RINGMPI_LOCK_WAIT - ($(date +%s) - start) ))
    if [ "$left" -le 0 ]; then
      printf '%s\n' "$out" >&2
      echo "ringmpi: another package manager still holds the lock after $RINGMPI_LOCK_WAIT s; try again when it is done" >&2
      return 1
    fi
    if [ -z "$said" ]; then
      echo "ringmpi: another package manager holds the apt/dpkg lock; waiting for it (at most $RINGMPI_LOCK_WAIT s)" >&2
      said=1
    else
      sleep 2
    fi
    lock_timeout=$left
  done
}

ringmpi_ensure_packages() {
  missing="$(ringmpi_missing_packages "$@")"
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" = 0 ]; then
    echo "ringmpi: installing missing Debian packages: $missing"
    export DEBIAN_FRONTEND=noninteractive
    ringmpi_apt_get update -qq && ringmpi_apt_get install -y -qq --no-install-recommends $missing || {
      echo "ringmpi: apt-get install failed; run by hand: apt-get install $missing" >&2
      return 1
    }
  else
    echo "ringmpi: missing Debian packages. Run as root:" >&2
    echo "  apt-get install -y $missing" >&2
    return 1
  fi
}

# Builds the tree in $1. The meson options that follow apply only when the
# folder is configured here, the first time: a folder that exists keeps the
# options it has, so that test.sh after setup.sh reuses what setup.sh built
# instead of reconfiguring (a change of werror rebuilds the whole library).
ringmpi_build() {
  dir="$1"; shift
  if [ ! -f "$dir/build.ninja" ]; then
    meson setup "$dir" "$@" >/dev/null || return 1
  fi
  ninja -C "$dir" >/dev/null || ninja -C "$dir"
}
