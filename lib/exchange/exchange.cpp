#include "exchange/exchange.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/runtime.hpp"
#include "p2p/internal_transfer.hpp"

namespace ringmpi::exchange {

namespace {

void send_to(const Peers& p, int to, const void* buf, std::size_t bytes, int tag) {
  p2p::send_internal(buf, bytes, p.world[to], tag, p.context, p.id(p.me));
}

std::size_t recv_from(const Peers& p, int from, void* buf, std::size_t max, int tag) {
  return p2p::recv_internal(buf, max, p.id(from), tag, p.context, nullptr, p.world[from]);
}

void and_into(std::uint64_t* acc, const std::byte* in, int words) {
  for (int w = 0; w < words; ++w) {
    std::uint64_t v;
    std::memcpy(&v, in + 8 * w, 8);
    acc[w] &= v;
  }
}

// Bruck's dissemination allgather: before the step of distance d, `acc` holds
// the blocks of participants me .. me+d-1; the step sends them to me-d and
// appends those of me+d .. (at most n-d of them). The mask travels with them;
// AND is idempotent, so windows that wrap around are harmless.
void dissemination(const Peers& p, const void* mine, std::size_t block, void* all, std::uint64_t* mask,
                   int words, int tag) {
  const int n = p.size();
  const std::size_t mbytes = std::size_t(words) * 8;
  std::vector<std::byte> acc(std::size_t(n) * block);
  if (block) std::memcpy(acc.data(), mine, block);
  std::vector<std::byte> msg(mbytes + std::size_t(n) * block);
  for (int d = 1; d < n; d *= 2) {
    const int cnt = std::min(d, n - d);
    std::memcpy(msg.data(), mask, mbytes);
    if (block) std::memcpy(msg.data() + mbytes, acc.data(), std::size_t(cnt) * block);
    send_to(p, (p.me - d + n) % n, msg.data(), mbytes + std::size_t(cnt) * block, tag);
    recv_from(p, (p.me + d) % n, msg.data(), mbytes + std::size_t(cnt) * block, tag);
    and_into(mask, msg.data(), words);
    if (block) std::memcpy(acc.data() + std::size_t(d) * block, msg.data() + mbytes, std::size_t(cnt) * block);
  }
  auto* out = static_cast<std::byte*>(all);
  for (int i = 0; i < n && block; ++i)
    std::memcpy(out + std::size_t((p.me + i) % n) * block, acc.data() + std::size_t(i) * block, block);
}

// Binomial gather to participant 0, then a binomial broadcast: no cycle of
// senders, whatever the message size.
void tree(const Peers& p, const void* mine, std::size_t block, void* all, std::uint64_t* mask, int words,
          int tag) {
  const int n = p.size();
  const std::size_t mbytes = std::size_t(words) * 8;
  // [mask][blocks of me .. me+have-1]
  std::vector<std::byte> buf(mbytes + std::size_t(n) * block);
  if (block) std::memcpy(buf.data() + mbytes, mine, block);
  int have = 1;
  std::vector<std::byte> in(mbytes + std::size_t(n) * block);
  for (int m = 1; m < n; m <<= 1) {
    if (p.me & m) {
      std::memcpy(buf.data(), mask, mbytes);
      send_to(p, p.me - m, buf.data(), mbytes + std::size_t(have) * block, tag);
      break;
    }
    if (p.me + m < n) {
      const int cnt = std::min(m, n - p.me - m);
      recv_from(p, p.me + m, in.data(), mbytes + std::size_t(cnt) * block, tag);
      and_into(mask, in.data(), words);
      if (block)
        std::memcpy(buf.data() + mbytes + std::size_t(have) * block, in.data() + mbytes, std::size_t(cnt) * block);
      have += cnt;
    }
  }
  if (p.me == 0) std::memcpy(buf.data(), mask, mbytes);
  std::size_t bytes = buf.size();
  bcast(p, 0, buf.data(), buf.size(), &bytes, tag);
  std::memcpy(mask, buf.data(), mbytes);
  if (block) std::memcpy(all, buf.data() + mbytes, std::size_t(n) * block);
}

}  // namespace

std::size_t eager_safe_bytes() {
  static const std::size_t v = tunables::value(tunables::Id::internal_eager_safe, kEagerSafeBytes);
  return v;
}

void allgather_and(const Peers& p, const void* mine, std::size_t block, void* all, std::uint64_t* mask,
                   int words, int tag) {
  const int n = p.size();
  if (n == 1) {
    if (block) std::memcpy(all, mine, block);
    return;
  }
  const std::size_t largest = std::size_t(words) * 8 + std::size_t((n + 1) / 2) * block;
  if (largest <= eager_safe_bytes()) {
    core::count(core::Counter::exchange_dissemination);
    dissemination(p, mine, block, all, mask, words, tag);
  } else {
    core::count(core::Counter::exchange_tree);
    tree(p, mine, block, all, mask, words, tag);
  }
}

void bcast(const Peers& p, int root, void* buf, std::size_t max_bytes, std::size_t* bytes, int tag) {
  const int n = p.size();
  if (n == 1) return;
  const int vr = (p.me - root + n) % n;
  int m = 1;
  for (; m < n; m <<= 1) {
    if (vr & m) {
      *bytes = recv_from(p, (vr - m + root) % n, buf, max_bytes, tag);
      break;
    }
  }
  for (m >>= 1; m > 0; m >>= 1)
    if (vr + m < n) send_to(p, (vr + m + root) % n, buf, *bytes, tag);
}

void barrier(const Peers& p) {
  const int n = p.size();
  for (int d = 1; d < n; d *= 2) {
    send_to(p, (p.me + d) % n, nullptr, 0, kTagBarrier);
    recv_from(p, (p.me - d + n) % n, nullptr, 0, kTagBarrier);
  }
}

}  // namespace ringmpi::exchange
