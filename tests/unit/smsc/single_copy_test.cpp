// The single-copy module (lib/smsc): copies between this process and
// another one (a forked child, or this process by its own pid), iovec lists
// longer than IOV_MAX with pieces that do not line up, a transfer cut short
// by memory that is not there, and the errors the callers turn into their
// fallbacks and messages.
#include <doctest/doctest.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/counters.hpp"
#include "core/runtime.hpp"
#include "smsc/single_copy.hpp"

using namespace ringmpi;

namespace {

std::uint64_t counter(core::Counter c) { return core::counter_value(static_cast<int>(c)); }

std::uint64_t addr(const void* p) { return reinterpret_cast<std::uint64_t>(p); }

void fill(std::vector<unsigned char>& v, unsigned seed) {
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<unsigned char>((i * 131 + seed) >> 3);
}

// Cuts [base, base+bytes) into pieces of lengths from `lens`, cycling, with
// a gap of `gap` bytes after each piece (so the pieces are separate).
std::vector<iovec> pieces(unsigned char* base, std::size_t bytes, std::vector<std::size_t> lens, std::size_t gap) {
  std::vector<iovec> v;
  std::size_t at = 0, taken = 0;
  for (std::size_t k = 0; taken < bytes; ++k) {
    const std::size_t len = std::min(lens[k % lens.size()], bytes - taken);
    v.push_back(iovec{base + at, len});
    at += len + gap;
    taken += len;
  }
  return v;
}

// Gathers the bytes an iovec list describes.
std::vector<unsigned char> gather(const std::vector<iovec>& v) {
  std::vector<unsigned char> out;
  for (const iovec& p : v) {
    const auto* b = static_cast<const unsigned char*>(p.iov_base);
    out.insert(out.end(), b, b + p.iov_len);
  }
  return out;
}

}  // namespace

TEST_CASE("single copy here: the probe says yes and a contiguous read and write through our own pid work") {
  REQUIRE(smsc::probe());
  std::vector<unsigned char> from(3 << 20), to(from.size());
  fill(from, 1);
  const std::uint64_t calls = counter(core::Counter::smsc_calls), bytes = counter(core::Counter::smsc_bytes);
  CHECK(smsc::read(getpid(), to.data(), addr(from.data()), from.size()) == 0);
  CHECK(to == from);
  CHECK(counter(core::Counter::smsc_calls) == calls + 1);
  CHECK(counter(core::Counter::smsc_bytes) == bytes + from.size());
  fill(from, 2);
  CHECK(smsc::write(getpid(), from.data(), addr(to.data()), from.size()) == 0);
  CHECK(to == from);
  CHECK(smsc::read(getpid(), to.data(), addr(from.data()), 0) == 0);  // nothing to move: no call
  CHECK(counter(core::Counter::smsc_calls) == calls + 2);
}

TEST_CASE("iovec lists longer than IOV_MAX, pieces of different lengths on each side, both directions") {
  constexpr std::size_t kBytes = 200000;
  std::vector<unsigned char> src(kBytes * 2), dst(kBytes * 3);
  fill(src, 3);
  // Local: 3000+ pieces of 1..97 bytes; remote: pieces of 5..300 bytes; neither lines up with the other.
  std::vector<iovec> local = pieces(dst.data(), kBytes, {1, 7, 97, 13, 64, 2, 31}, 1);
  std::vector<iovec> remote = pieces(src.data(), kBytes, {300, 5, 128, 77}, 0);
  REQUIRE(local.size() > IOV_MAX);
  const std::uint64_t calls = counter(core::Counter::smsc_calls);
  CHECK(smsc::copyv(smsc::Dir::read, getpid(), local.data(), local.size(), remote.data(), remote.size(), kBytes) == 0);
  CHECK(counter(core::Counter::smsc_calls) - calls >= local.size() / 256);  // cut into batches
  CHECK(gather(local) == gather(remote));
  // The other way: our pieces written into the "remote" ones.
  std::vector<unsigned char> back(kBytes * 2, 0);
  std::vector<iovec> far = pieces(back.data(), kBytes, {3, 1000, 9}, 2);
  CHECK(smsc::copyv(smsc::Dir::write, getpid(), local.data(), local.size(), far.data(), far.size(), kBytes) == 0);
  CHECK(gather(far) == gather(remote));
  // Within IOV_MAX on both sides: one call.
  std::vector<iovec> few_l = pieces(dst.data(), 50000, {500, 301}, 4), few_r = pieces(src.data(), 50000, {1000}, 8);
  const std::uint64_t before = counter(core::Counter::smsc_calls);
  CHECK(smsc::copyv(smsc::Dir::read, getpid(), few_l.data(), few_l.size(), few_r.data(), few_r.size(), 50000) == 0);
  CHECK(counter(core::Counter::smsc_calls) == before + 1);
  CHECK(gather(few_l) == gather(few_r));
}

TEST_CASE("a transfer cut short: the bytes before the hole arrive, then the hole's error (EFAULT)") {
  const long page = sysconf(_SC_PAGESIZE);
  auto* region = static_cast<unsigned char*>(mmap(nullptr, static_cast<std::size_t>(page) * 3, PROT_READ | PROT_WRITE,
                                                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  REQUIRE(region != MAP_FAILED);
  for (long i = 0; i < page * 2; ++i) region[i] = static_cast<unsigned char>(i * 7);
  REQUIRE(mprotect(region + page * 2, static_cast<std::size_t>(page), PROT_NONE) == 0);
  std::vector<unsigned char> to(static_cast<std::size_t>(page) * 3, 0);
  // Contiguous: the kernel returns two pages, the next call fails.
  const std::uint64_t calls = counter(core::Counter::smsc_calls);
  CHECK(smsc::read(getpid(), to.data(), addr(region), to.size()) == EFAULT);
  CHECK(counter(core::Counter::smsc_calls) == calls + 1);  // the short call moved data, the failed one did not
  CHECK(std::memcmp(to.data(), region, static_cast<std::size_t>(page) * 2) == 0);
  // Lists: the short count resumes in the middle of a piece on both sides.
  std::fill(to.begin(), to.end(), 0);
  const auto pg = static_cast<std::size_t>(page);
  const iovec l[3] = {{to.data(), 100}, {to.data() + 100, pg * 2}, {to.data() + 100 + pg * 2, 50}};
  const iovec r[2] = {{region, pg + 1}, {region + pg + 1, pg + 149}};
  CHECK(smsc::copyv(smsc::Dir::read, getpid(), l, 3, r, 2, static_cast<std::size_t>(page) * 2 + 150) == EFAULT);
  CHECK(std::memcmp(to.data(), region, static_cast<std::size_t>(page) * 2) == 0);
  // No memory at all at the address: what rma/transfer.cpp reports as MPI_ERR_RMA_RANGE.
  CHECK(smsc::read(getpid(), to.data(), addr(region + page * 2), 16) == EFAULT);
  munmap(region, static_cast<std::size_t>(page) * 3);
}

TEST_CASE("another process: a forked child's memory read and written, then its pid gone (ESRCH, not a refusal)") {
  std::vector<unsigned char> buf(1 << 20);
  fill(buf, 9);
  int to_child[2], to_parent[2];
  REQUIRE(pipe(to_child) == 0);
  REQUIRE(pipe(to_parent) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // the child: its own pattern at the same address, then waits for the parent's write
    fill(buf, 10);
    char c = 0;
    if (write(to_parent[1], &c, 1) != 1 || read(to_child[0], &c, 1) != 1) _exit(2);
    std::vector<unsigned char> want(buf.size());
    fill(want, 11);
    _exit(buf == want ? 0 : 1);
  }
  char c = 0;
  REQUIRE(read(to_parent[0], &c, 1) == 1);
  std::vector<unsigned char> got(buf.size()), want(buf.size());
  fill(want, 10);
  CHECK(smsc::read(child, got.data(), addr(buf.data()), buf.size()) == 0);
  CHECK(got == want);
  fill(want, 11);
  CHECK(smsc::write(child, want.data(), addr(buf.data()), buf.size()) == 0);
  REQUIRE(write(to_child[1], &c, 1) == 1);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  for (int fd : {to_child[0], to_child[1], to_parent[0], to_parent[1]}) close(fd);
  // The child is gone: its pid names nobody.
  const int err = smsc::read(child, got.data(), addr(buf.data()), 64);
  CHECK(err == ESRCH);
  CHECK_FALSE(smsc::refused(err));
  const iovec l{got.data(), 64}, r{buf.data(), 64};
  CHECK(smsc::copyv(smsc::Dir::write, child, &l, 1, &r, 1, 64) == ESRCH);
}

TEST_CASE("refusals and the process-wide switch the callers fall back on") {
  CHECK(smsc::refused(EPERM));
  CHECK(smsc::refused(EACCES));
  CHECK(smsc::refused(ENOSYS));
  CHECK_FALSE(smsc::refused(EFAULT));
  CHECK_FALSE(smsc::refused(smsc::kNoData));
  smsc::init();
  CHECK(smsc::usable() == smsc::probe());
  smsc::disable();
  CHECK_FALSE(smsc::usable());
  const std::uint64_t fallbacks = counter(core::Counter::smsc_fallback);
  smsc::count_fallback();
  CHECK(counter(core::Counter::smsc_fallback) == fallbacks + 1);
  smsc::init();
  CHECK(smsc::usable());
}

TEST_CASE("copy_self: two lists of this process by memcpy, at most the shorter total") {
  std::vector<unsigned char> src(10000), dst(12000, 0);
  fill(src, 5);
  std::vector<iovec> r = pieces(src.data(), 10000, {33, 1000}, 0), l = pieces(dst.data(), 10000, {7, 450}, 3);
  CHECK(smsc::copy_self(l.data(), l.size(), r.data(), r.size()) == 10000);
  CHECK(gather(l) == gather(r));
  CHECK(smsc::copy_self(l.data(), 2, r.data(), r.size()) == 7 + 450);
}
