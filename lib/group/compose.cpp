#include "group/compose.hpp"

#include <algorithm>
#include <numeric>

namespace ringmpi::group {
namespace {

// Longest pattern the algebra materialises for one period of a result.
constexpr i64 kPatternMax = 4096;

// Terms j.. of the rank progression k + i*t that stay inside [lo, hi]: the
// index of the last one, capped at cnt - 1.
i64 last_inside(i64 j, i64 k, i64 t, i64 lo, i64 hi, i64 cnt) {
  const i64 more = t > 0 ? (hi - k) / t : (k - lo) / -t;
  return std::min(cnt - 1, j + more);
}

// cnt members of a list of simple runs (a pattern, shifted by base) starting
// at member k with rank step t.
void map_in_runs(const Pattern& pat, i64 base, i64 k, i64 t, i64 cnt, SeqBuilder& out) {
  i64 j = 0;
  while (j < cnt) {
    const i64 kk = k + j * t;
    const auto it = std::upper_bound(pat.prefix.begin(), pat.prefix.end(), kk) - 1;
    const Prog& run = pat.runs[static_cast<std::size_t>(it - pat.prefix.begin())];
    const i64 p0 = *it;
    const i64 jmax = last_inside(j, kk, t, p0, p0 + run.count - 1, cnt);
    out.prog(make_prog(base + run.at(kk - p0), t * run.stride, jmax - j + 1));
    j = jmax + 1;
  }
}

// Members k0, k0+t, ... (cnt of them, all inside periodic q), repetition by
// repetition of q through its pattern's runs.
void map_by_reps(const Piece& q, i64 k0, i64 t, i64 cnt, SeqBuilder& out) {
  const i64 s = q.psize();
  i64 j = 0;
  while (j < cnt) {
    const i64 k = k0 + j * t;
    const i64 r = k / s;
    const i64 kk = k - r * s;
    const i64 jmax = last_inside(j, kk, t, 0, s - 1, cnt);
    map_in_runs(*q.pat, q.base + r * q.period, kk, t, jmax - j + 1, out);
    j = jmax + 1;
  }
}

// Members k0, k0+t, ... (cnt of them, all inside q) of piece q.
void map_in_piece(const Piece& q, i64 k0, i64 t, i64 cnt, SeqBuilder& out) {
  if (cnt == 1) {
    out.point(q.at(k0));
    return;
  }
  if (q.simple()) {
    out.prog(Prog{q.base + k0 * q.period, t * q.period, cnt});
    return;
  }
  const i64 s = q.psize();
  const i64 r0 = k0 / s;
  if (t == 1) {  // a slice of q: partial repetition, whole ones, partial one
    const i64 head = std::min(cnt, s - (k0 - r0 * s));
    map_in_runs(*q.pat, q.base + r0 * q.period, k0 - r0 * s, 1, head, out);
    const i64 whole = (cnt - head) / s;
    if (whole > 0) out.piece(Piece{q.base + (r0 + 1) * q.period, whole > 1 ? q.period : 0, whole, q.pat});
    const i64 tail = cnt - head - whole * s;
    if (tail > 0) map_in_runs(*q.pat, q.base + (r0 + 1 + whole) * q.period, 0, 1, tail, out);
    return;
  }
  // After m terms the progression is back at the same pattern member,
  // cycle_reps repetitions of q further on: the image is periodic.
  const i64 g = std::gcd(abs64(t), s);
  const i64 m = s / g;
  const i64 cycle_reps = abs64(t) / g;
  const i64 runs = static_cast<i64>(q.pat->runs.size());
  const i64 pattern_cost = std::min(m, (cycle_reps + 1) * runs);
  if (cnt >= 2 * m && pattern_cost <= kPatternMax) {
    const i64 base = q.base + r0 * q.period;
    SeqBuilder pb(true, base);
    if (m <= (cycle_reps + 1) * runs)
      for (i64 j = 0; j < m; ++j) pb.point(q.at(k0 + j * t));
    else
      map_by_reps(q, k0, t, m, pb);
    const i64 cycles = cnt / m;
    out.piece(Piece{base, cycles > 1 ? (t / g) * q.period : 0, cycles, Pattern::make(pb.take_progs())});
    map_by_reps(q, k0 + cycles * m * t, t, cnt - cycles * m, out);
    return;
  }
  // Member by member, or repetition by repetition, whichever touches fewer things.
  const i64 reps_touched = (cnt - 1) * abs64(t) / s + 2;
  if (cnt <= reps_touched * std::min(runs, cnt)) {
    for (i64 j = 0; j < cnt; ++j) out.point(q.at(k0 + j * t));
    return;
  }
  map_by_reps(q, k0, t, cnt, out);
}

Prog clip(const Prog& p, i64 a, i64 b) {  // increasing p, values in [a, b)
  const i64 jlo = std::max<i64>(0, ceil_div(a - p.first, p.stride));
  const i64 jhi = std::min<i64>(p.count - 1, floor_div(b - 1 - p.first, p.stride));
  return jlo > jhi ? Prog{0, 1, 0} : make_prog(p.at(jlo), p.stride, jhi - jlo + 1);
}

// rp's pattern stretched by d (the slope of an affine stretch of a group);
// the last few are kept, as one composition meets the same slopes again.
class Scaled {
 public:
  explicit Scaled(std::shared_ptr<const Pattern> pat) : pat_(std::move(pat)) {}
  std::shared_ptr<const Pattern> by(i64 d) {
    if (d == 1) return pat_;
    for (const auto& [k, p] : cache_)
      if (k == d) return p;
    std::vector<Prog> runs;
    runs.reserve(pat_->runs.size());
    for (const Prog& r : pat_->runs) runs.push_back(make_prog(r.first * d, r.stride * d, r.count));
    if (cache_.size() >= 8) cache_.erase(cache_.begin());
    cache_.emplace_back(d, Pattern::make(std::move(runs)));
    return cache_.back().second;
  }

 private:
  std::shared_ptr<const Pattern> pat_;
  std::vector<std::pair<i64, std::shared_ptr<const Pattern>>> cache_;
};

// The repetitions of the increasing periodic rank piece rp that touch ranks
// [a, b): ra..rb, of which rf..rl lie wholly inside (none if rf > rl).
struct RepRange {
  i64 ra, rb, rf, rl;
};
RepRange reps_in(const Piece& rp, i64 a, i64 b) {
  const i64 L = rp.period, lo_off = rp.pat->min_off, hi_off = rp.pat->max_off;
  const i64 ra = std::max<i64>(0, ceil_div(a - rp.base - hi_off, L));
  const i64 rb = std::min<i64>(rp.reps - 1, floor_div(b - 1 - rp.base - lo_off, L));
  return {ra, rb, std::max<i64>(ra, ceil_div(a - rp.base - lo_off, L)),
          std::min<i64>(rb, floor_div(b - 1 - rp.base - hi_off, L))};
}

// Repetition r of rp, restricted to ranks [a, b), through g.
void map_rep(const Group& g, const Piece& rp, i64 r, i64 a, i64 b, SeqBuilder& out) {
  const i64 shift = rp.base + r * rp.period;
  for (const Prog& run : rp.pat->runs) {
    const Prog c = clip(Prog{shift + run.first, run.stride, run.count}, a, b);
    if (c.count > 0) map_prog(g, c.first, c.stride, c.count, out);
  }
}

// The part of rp in ranks [a, b), where g is affine: rank k is world rank
// w0 + (k - k0)*d. Whole repetitions become one periodic piece.
void emit_affine(const Piece& rp, Scaled& scaled, i64 a, i64 b, i64 k0, i64 w0, i64 d, SeqBuilder& out) {
  const RepRange rr = reps_in(rp, a, b);
  const auto& runs = rp.pat->runs;
  auto partial = [&](i64 r) {
    const i64 shift = rp.base + r * rp.period;
    // The runs of an increasing pattern are in order: start at the last
    // one beginning at or before a.
    auto it = std::upper_bound(runs.begin(), runs.end(), a - shift, [](i64 v, const Prog& q) { return v < q.first; });
    if (it != runs.begin()) --it;
    for (; it != runs.end() && shift + it->first < b; ++it) {
      const Prog c = clip(Prog{shift + it->first, it->stride, it->count}, a, b);
      if (c.count > 0) out.prog(make_prog(w0 + (c.first - k0) * d, c.stride * d, c.count));
    }
  };
  if (rr.rf > rr.rl || d == 0) {
    for (i64 r = rr.ra; r <= rr.rb; ++r) partial(r);
    return;
  }
  for (i64 r = rr.ra; r < rr.rf; ++r) partial(r);
  const i64 n = rr.rl - rr.rf + 1;
  out.piece(Piece{w0 + (rp.base + rr.rf * rp.period - k0) * d, n > 1 ? rp.period * d : 0, n, scaled.by(d)});
  for (i64 r = rr.rl + 1; r <= rr.rb; ++r) partial(r);
}

// Whole repetitions rf..rl of rp inside the periodic piece q (at rank q0):
// the composition repeats once both periods line up, after `unit`
// repetitions of rp. False if that pattern would be too long.
bool emit_common_period(const Group& g, const Piece& rp, i64 rf, i64 rl, const Piece& q, i64 q0,
                        SeqBuilder& out) {
  const i64 s = q.psize(), L = rp.period, n = rl - rf + 1;
  const i64 m = lcm_capped(L, s, kPatternMax * L);
  const i64 unit = m / L;
  if (m > kPatternMax * L || n < 2 * unit) return false;
  const i64 start = rp.base + rf * L - q0;  // q-local rank of repetition rf
  const i64 base = q.base + floor_div(start, s) * q.period;
  SeqBuilder pb(true, base);
  for (i64 u = 0; u < unit && pb.pieces() <= static_cast<std::size_t>(kPatternMax); ++u)
    for (const Prog& run : rp.pat->runs) {
      const i64 k = start + u * L + run.first;
      // A run of rp may cross repetitions of q: split it there.
      for (i64 j = 0; j < run.count;) {
        const i64 kk = k + j * run.stride;
        const i64 rr = kk / s;
        const i64 jmax = last_inside(j, kk, run.stride, rr * s, rr * s + s - 1, run.count);
        map_in_runs(*q.pat, q.base + rr * q.period, kk - rr * s, run.stride, jmax - j + 1, pb);
        j = jmax + 1;
      }
    }
  if (pb.pieces() > static_cast<std::size_t>(kPatternMax)) return false;
  const i64 cycles = n / unit;
  out.piece(Piece{base, cycles > 1 ? (m / s) * q.period : 0, cycles, Pattern::make(pb.take_progs())});
  for (i64 r = rf + cycles * unit; r <= rl; ++r) map_rep(g, rp, r, q0, q0 + q.size(), out);
  return true;
}

// The part of rp in ranks [a, b) of the periodic piece q (at rank q0), one
// affine stretch of q (a run of one repetition) at a time.
void emit_by_stretches(const Piece& rp, Scaled& scaled, i64 a, i64 b, const Piece& q, i64 q0, SeqBuilder& out) {
  const Pattern& qp = *q.pat;
  const i64 s = qp.size;
  for (i64 rq = (a - q0) / s; rq <= (b - 1 - q0) / s; ++rq)
    for (std::size_t i = 0; i < qp.runs.size(); ++i) {
      const i64 k0 = q0 + rq * s + qp.prefix[i];
      const i64 sa = std::max(a, k0), sb = std::min(b, k0 + qp.runs[i].count);
      if (sa < sb) emit_affine(rp, scaled, sa, sb, k0, q.base + rq * q.period + qp.runs[i].first, qp.runs[i].stride, out);
    }
}

// An increasing periodic rank piece through g, piece by piece of g.
void compose_periodic(const Group& g, const Piece& rp, SeqBuilder& out) {
  const i64 lo = rp.lo(), hi = rp.hi();
  Scaled scaled(rp.pat);
  for (std::size_t i = g.piece_of(lo); i < g.pieces().size() && g.rank0(i) <= hi; ++i) {
    const Piece& q = g.pieces()[i];
    const i64 q0 = g.rank0(i);
    const i64 a = std::max(lo, q0), b = std::min(hi + 1, q0 + q.size());
    if (q.simple()) {
      emit_affine(rp, scaled, a, b, q0, q.base, q.reps > 1 ? q.period : 0, out);
      continue;
    }
    const RepRange rr = reps_in(rp, a, b);
    if (rr.rf <= rr.rl) {
      // Cheapest of: one common period, q's affine stretches, rp's repetitions.
      const i64 qruns = static_cast<i64>(q.pat->runs.size());
      const i64 stretches = ((b - a) / q.psize() + 2) * qruns;
      const i64 unit = lcm_capped(rp.period, q.psize(), kPatternMax * rp.period) / rp.period;
      const i64 pattern_cost = unit * static_cast<i64>(rp.pat->runs.size()) * (rp.period / q.psize() + 2) * qruns;
      if (pattern_cost <= stretches) {
        SeqBuilder part;
        for (i64 r = rr.ra; r < rr.rf; ++r) map_rep(g, rp, r, a, b, part);
        if (emit_common_period(g, rp, rr.rf, rr.rl, q, q0, part)) {
          for (i64 r = rr.rl + 1; r <= rr.rb; ++r) map_rep(g, rp, r, a, b, part);
          out.append(part.take());
          continue;
        }
      }
      if (stretches <= (rr.rb - rr.ra + 1) * static_cast<i64>(rp.pat->runs.size())) {
        emit_by_stretches(rp, scaled, a, b, q, q0, out);
        continue;
      }
    }
    for (i64 r = rr.ra; r <= rr.rb; ++r) map_rep(g, rp, r, a, b, out);
  }
}

}  // namespace

void map_prog(const Group& g, i64 f, i64 t, i64 c, SeqBuilder& out) {
  i64 j = 0;
  while (j < c) {
    const i64 k = f + j * t;
    const std::size_t i = g.piece_of(k);
    const Piece& q = g.pieces()[i];
    const i64 p0 = g.rank0(i);
    const i64 jmax = c == 1 ? 0 : last_inside(j, k, t, p0, p0 + q.size() - 1, c);
    map_in_piece(q, k - p0, t, jmax - j + 1, out);
    j = jmax + 1;
  }
}

std::vector<Piece> compose(const Group& g, const std::vector<Piece>& ranks) {
  SeqBuilder out;
  for (const Piece& rp : ranks) {
    if (rp.simple()) {
      map_prog(g, rp.base, rp.reps > 1 ? rp.period : 1, rp.reps, out);
    } else if (rp.reps == 1) {
      for (const Prog& run : rp.pat->runs) map_prog(g, rp.base + run.first, run.stride, run.count, out);
    } else {
      compose_periodic(g, rp, out);
    }
  }
  return out.take();
}

}  // namespace ringmpi::group
