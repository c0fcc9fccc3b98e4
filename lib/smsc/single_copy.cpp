// Single copy between processes: the loops around process_vm_readv/writev
// (see single_copy.hpp).
#include "smsc/single_copy.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>

#include "tunables/tunables.hpp"

namespace ringmpi::smsc {

namespace detail {
bool g_usable = true;
}

namespace {

constexpr std::size_t kMaxIov = IOV_MAX;
// Pieces per call once a list must be cut (longer than IOV_MAX, or resumed
// after a short count): the batches live on the stack.
constexpr std::size_t kBatch = 256;

ssize_t sys(Dir d, pid_t pid, const iovec* l, std::size_t nl, const iovec* r, std::size_t nr) {
  return d == Dir::read ? process_vm_readv(pid, l, nl, r, nr, 0) : process_vm_writev(pid, l, nl, r, nr, 0);
}

void counted(ssize_t got) {
  core::count(core::Counter::smsc_calls);
  core::count(core::Counter::smsc_bytes, static_cast<std::uint64_t>(got));
}

// A position in an iovec list.
struct Cursor {
  const iovec* v;
  std::size_t n;
  std::size_t i = 0, off = 0;
  // Up to `want` bytes from here as at most kBatch pieces in out; returns the count, *got the bytes.
  std::size_t take(std::size_t want, iovec* out, std::size_t* got) const {
    std::size_t k = 0, j = i, o = off;
    *got = 0;
    while (k < kBatch && j < n && *got < want) {
      const std::size_t len = std::min(v[j].iov_len - o, want - *got);
      if (len > 0) out[k++] = iovec{static_cast<std::byte*>(v[j].iov_base) + o, len};
      *got += len;
      ++j, o = 0;
    }
    return k;
  }
  void advance(std::size_t bytes) {
    while (bytes > 0 && i < n) {
      const std::size_t m = std::min(bytes, v[i].iov_len - off);
      bytes -= m, off += m;
      if (off == v[i].iov_len) ++i, off = 0;
    }
    while (i < n && v[i].iov_len == 0) ++i;
  }
};

// Trims a batch of pieces to `bytes`; returns the new count.
std::size_t trim(iovec* b, std::size_t k, std::size_t bytes) {
  std::size_t keep = 0, j = 0;
  while (j < k && keep + b[j].iov_len < bytes) keep += b[j++].iov_len;
  if (j < k) b[j].iov_len = bytes - keep;
  return j < k ? j + 1 : k;
}

}  // namespace

int copy(Dir d, pid_t pid, void* local, std::uint64_t remote, std::size_t bytes) {
  auto* at = static_cast<std::byte*>(local);
  while (bytes > 0) {
    const std::size_t chunk = std::min(bytes, kMaxCall);
    const iovec l{at, chunk};
    const iovec r{reinterpret_cast<void*>(remote), chunk};
    const ssize_t got = sys(d, pid, &l, 1, &r, 1);
    if (got <= 0) {
      if (got < 0 && errno == EINTR) continue;
      return got < 0 ? errno : kNoData;
    }
    counted(got);
    at += got;
    remote += static_cast<std::uint64_t>(got);
    bytes -= static_cast<std::size_t>(got);
  }
  return 0;
}

int copyv(Dir d, pid_t pid, const iovec* local, std::size_t nl, const iovec* remote, std::size_t nr,
          std::size_t bytes) {
  if (bytes == 0) return 0;
  std::size_t done = 0;
  // Whole lists in one call, the common case (the callers cut theirs at IOV_MAX).
  if (nl <= kMaxIov && nr <= kMaxIov && bytes <= kMaxCall) {
    ssize_t got;
    do got = sys(d, pid, local, nl, remote, nr);
    while (got < 0 && errno == EINTR);
    if (got < 0) return errno;
    if (got == 0) return kNoData;
    counted(got);
    if (static_cast<std::size_t>(got) == bytes) return 0;
    done = static_cast<std::size_t>(got);
  }
  // A short count, or lists too long for one call: batches from where the kernel stopped.
  Cursor lc{local, nl}, rc{remote, nr};
  lc.advance(done);
  rc.advance(done);
  iovec lb[kBatch], rb[kBatch];
  while (done < bytes) {
    const std::size_t want = std::min(kMaxCall, bytes - done);
    std::size_t lgot = 0, rgot = 0;
    std::size_t ln = lc.take(want, lb, &lgot);
    std::size_t rn = rc.take(want, rb, &rgot);
    const std::size_t n = std::min(lgot, rgot);
    if (n == 0) return kNoData;
    if (lgot > n) ln = trim(lb, ln, n);
    if (rgot > n) rn = trim(rb, rn, n);
    const ssize_t got = sys(d, pid, lb, ln, rb, rn);
    if (got <= 0) {
      if (got < 0 && errno == EINTR) continue;
      return got < 0 ? errno : kNoData;
    }
    counted(got);
    lc.advance(static_cast<std::size_t>(got));
    rc.advance(static_cast<std::size_t>(got));
    done += static_cast<std::size_t>(got);
  }
  return 0;
}

std::size_t copy_self(const iovec* local, std::size_t nl, const iovec* remote, std::size_t nr) {
  std::size_t l = 0, lo = 0, total = 0;
  for (std::size_t k = 0; k < nr && l < nl; ++k) {
    const std::byte* from = static_cast<const std::byte*>(remote[k].iov_base);
    std::size_t left = remote[k].iov_len;
    while (left > 0 && l < nl) {
      const std::size_t m = std::min(left, local[l].iov_len - lo);
      std::memcpy(static_cast<std::byte*>(local[l].iov_base) + lo, from, m);
      from += m, left -= m, lo += m, total += m;
      if (lo == local[l].iov_len) ++l, lo = 0;
    }
  }
  return total;
}

bool probe() {
  if (tunables::value(tunables::Id::force_copy_fallback, 0) == 1) return false;
  core::Runtime& rt = core::rt();
  if (rt.arena.mapped() && (rt.arena.header().flags & shm::kFlagForceCopyFallback)) return false;
  if (FILE* f = std::fopen("/proc/sys/kernel/yama/ptrace_scope", "r")) {
    int scope = 0;
    const bool ok = std::fscanf(f, "%d", &scope) == 1;
    std::fclose(f);
    if (ok && scope >= 2) return false;
  }
  prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
  volatile std::uint64_t word = 0x5a5a5a5a5a5a5a5aull, copy = 0;
  iovec local{const_cast<std::uint64_t*>(&copy), sizeof copy};
  iovec remote{const_cast<std::uint64_t*>(&word), sizeof word};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == sizeof copy && copy == word;
}

void init() { detail::g_usable = probe(); }

void disable() { detail::g_usable = false; }

}  // namespace ringmpi::smsc
