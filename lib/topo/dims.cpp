// MPI_Dims_create's balanced factorisation (MPI-4.1 §8.5.2).
//
// The standard asks that the free dimensions be "as close to each other as
// possible, using an appropriate divisibility algorithm", returned in
// non-increasing order, and leaves the choice among equally close answers
// to the implementation. ringmpi makes MPICH's choice (src/mpi/topo/
// dims_create.c, Traeff and Luebbe's EuroMPI'15 method), so that a program
// gets the same grid here as on an MPICH cluster (issue 35); the code is our
// own, and tests/mpi/topo/topo_dims_mpich.c compares it with a table that
// MPICH's own MPI_Dims_create produced. The rule, as MPICH applies it:
// 1. a prime that occurs once and exceeds the square root of what is left
//    becomes a dimension of its own (largest first, never the smallest
//    prime, one dimension always left over); the rest is balanced alone;
// 2. if what is left has no more prime factors than dimensions: the primes,
//    largest first, then ones; a prime power p^e: as even as possible;
// 3. otherwise, among the factorisations into factors >= 2: the smallest
//    spread (largest minus smallest), and among equal spreads the one whose
//    smallest factor is largest, then whose second smallest is largest, and
//    so on. 5616 in 4 dimensions: 13 x 9 x 8 x 6, not 13 x 12 x 6 x 6.
// Not reproduced: where MPICH's int arithmetic overflows (a prime factor
// above 46340, whose square exceeds INT_MAX, is not set aside by MPICH);
// here step 1 applies as written.
//
// Cost: nnodes is factorised by trial division (at most sqrt(nnodes) steps),
// then a branch-and-bound search runs over the divisors only. The first
// (largest) factor is tried upwards from the k-th root, so a good answer is
// found at once; a branch ends as soon as it cannot reach the best spread.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "topo/topology.hpp"

namespace ringmpi::topo {
namespace {

using u64 = std::uint64_t;

// b^e, saturated at `cap` + 1 (so comparisons against cap stay exact).
u64 pow_capped(u64 b, int e, u64 cap) {
  u64 r = 1;
  for (int i = 0; i < e; ++i) {
    if (b != 0 && r > cap / b) return cap + 1;
    r *= b;
  }
  return r;
}

// Largest r with r^k <= n.
u64 floor_root(u64 n, int k) {
  u64 lo = 1, hi = n;
  while (lo < hi) {
    const u64 mid = lo + (hi - lo + 1) / 2;
    if (pow_capped(mid, k, n) <= n)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

std::vector<std::pair<u64, int>> prime_powers(u64 n) {
  std::vector<std::pair<u64, int>> primes;
  u64 m = n;
  for (u64 p = 2; p * p <= m; ++p) {
    int e = 0;
    while (m % p == 0) m /= p, ++e;
    if (e) primes.emplace_back(p, e);
  }
  if (m > 1) primes.emplace_back(m, 1);
  return primes;
}

std::vector<u64> divisors_of(const std::vector<std::pair<u64, int>>& primes) {
  std::vector<u64> divs{1};
  for (auto [p, e] : primes) {
    const std::size_t have = divs.size();
    u64 pk = 1;
    for (int i = 0; i < e; ++i) {
      pk *= p;
      for (std::size_t j = 0; j < have; ++j) divs.push_back(divs[j] * pk);
    }
  }
  std::sort(divs.begin(), divs.end());
  return divs;
}

// Ascending-order comparison of two non-increasing factor lists of the same
// length: the one whose smallest factor is larger wins, then the second
// smallest, and so on (MPICH keeps the last of equally balanced candidates
// in an enumeration that runs upwards from the smallest dimension).
bool later_in_mpich_order(const std::vector<u64>& a, const std::vector<u64>& b) {
  for (std::size_t i = a.size(); i-- > 0;)
    if (a[i] != b[i]) return a[i] > b[i];
  return false;
}

struct Search {
  const std::vector<u64>& divs;  // ascending, each >= 2
  std::vector<u64> cur, best;
  u64 best_spread = UINT64_MAX;

  bool better(u64 spread) const {
    if (spread != best_spread) return spread < best_spread;
    return later_in_mpich_order(cur, best);
  }

  // Chooses the remaining k factors (each in [2, maxf]) of rem, non-increasing.
  void run(u64 rem, int k, u64 maxf) {
    const u64 top = cur.front();
    if (k == 1) {
      if (rem > maxf || rem < 2) return;
      cur.push_back(rem);
      if (better(top - rem)) {
        best = cur;
        best_spread = top - rem;
      }
      cur.pop_back();
      return;
    }
    // The smallest factor must stay >= lo to keep the spread no worse (ties
    // are searched too: they are decided by later_in_mpich_order).
    const u64 lo = std::max<u64>(2, top > best_spread ? top - best_spread : 2);
    auto it = std::upper_bound(divs.begin(), divs.end(), std::min(maxf, rem));
    while (it != divs.begin()) {
      const u64 f = *--it;
      if (f < lo) break;
      if (pow_capped(f, k, rem) < rem) break;  // k factors <= f cannot reach rem; smaller f neither
      if (rem % f) continue;
      // The other k - 1 factors are >= lo, so rem / f must reach lo^(k-1).
      if (pow_capped(lo, k - 1, rem / f) > rem / f) continue;
      cur.push_back(f);
      run(rem / f, k - 1, f);
      cur.pop_back();
    }
  }
};

// The general case: n has more prime factors (with multiplicity) than k >= 2,
// so every factor can be >= 2. The smallest spread wins; equal spreads go by
// later_in_mpich_order.
std::vector<u64> most_balanced(u64 n, int k, const std::vector<std::pair<u64, int>>& primes) {
  std::vector<u64> divs = divisors_of(primes);
  divs.erase(divs.begin());  // 1: never a factor here (MPICH searches divisors 2..n-1)
  const u64 root = floor_root(n, k);  // the smallest factor is at most this
  Search s{divs, {}, {}};
  for (auto it = std::lower_bound(divs.begin(), divs.end(), root); it != divs.end(); ++it) {
    const u64 f = *it;
    if (pow_capped(f, k, n) < n) continue;  // k factors <= f cannot reach n
    if (s.best_spread != UINT64_MAX && f - root > s.best_spread) break;
    s.cur.assign(1, f);
    s.run(n / f, k - 1, f);
  }
  return s.best;
}

}  // namespace

std::vector<long long> balanced_factors(long long n, int k) {
  if (k <= 0) return {};
  if (k == 1) return {n};
  u64 rest = static_cast<u64>(n);
  auto primes = prime_powers(rest);  // ascending
  std::vector<u64> out;
  // A prime that occurs once and exceeds the square root of what is left must
  // be a dimension of its own; MPICH sets these aside first (largest first,
  // never the smallest prime, while more than one dimension remains, up to
  // the first prime that does not qualify) and balances only the rest, so
  // the spread it minimises leaves them out.
  while (primes.size() > 1 && static_cast<int>(out.size()) < k - 1) {
    const auto [p, e] = primes.back();
    if (e != 1 || p * p <= rest) break;
    out.push_back(p);
    rest /= p;
    primes.pop_back();
  }
  const int left = k - static_cast<int>(out.size());
  int omega = 0;  // prime factors of rest, with multiplicity
  for (auto [p, e] : primes) omega += e;
  if (omega <= left) {
    // The primes themselves, largest first, then ones: no factorisation has
    // a smaller largest factor.
    for (auto it = primes.rbegin(); it != primes.rend(); ++it)
      for (int i = 0; i < it->second; ++i) out.push_back(it->first);
    out.resize(static_cast<std::size_t>(k), 1);
  } else if (left == 1) {
    out.push_back(rest);
  } else if (primes.size() == 1) {
    // A prime power p^e: e / left factors of p each, the first e % left one more.
    const auto [p, e] = primes.front();
    for (int i = 0; i < left; ++i) out.push_back(pow_capped(p, e / left + (i < e % left ? 1 : 0), rest));
  } else {
    const std::vector<u64> tail = most_balanced(rest, left, primes);
    out.insert(out.end(), tail.begin(), tail.end());
  }
  return {out.begin(), out.end()};
}

std::string dims_create(int nnodes, int ndims, int* dims) {
  if (nnodes < 0) return "nnodes=" + std::to_string(nnodes) + " is negative";
  if (ndims < 0) return "ndims=" + std::to_string(ndims) + " is negative";
  long long fixed = 1;
  int free_dims = 0;
  for (int i = 0; i < ndims; ++i) {
    if (dims[i] < 0) return "dims[" + std::to_string(i) + "]=" + std::to_string(dims[i]) + " is negative";
    if (dims[i] == 0)
      ++free_dims;
    else if (fixed <= nnodes)  // beyond nnodes it cannot divide; stop before overflowing
      fixed *= dims[i];
  }
  if (nnodes == 0) {
    if (free_dims == 0) return "nnodes=0 but dims are all set";
    return "";
  }
  if (fixed > nnodes || nnodes % fixed != 0)
    return "nnodes=" + std::to_string(nnodes) + " is not a multiple of the product of the non-zero dims";
  const long long rest = nnodes / fixed;
  if (free_dims == 0) {
    if (rest != 1)
      return "the product of dims (" + std::to_string(fixed) + ") is not nnodes=" + std::to_string(nnodes);
    return "";
  }
  const std::vector<long long> best = balanced_factors(rest, free_dims);
  int k = 0;
  for (int i = 0; i < ndims; ++i)
    if (dims[i] == 0) dims[i] = static_cast<int>(best[static_cast<std::size_t>(k++)]);
  return "";
}

}  // namespace ringmpi::topo
