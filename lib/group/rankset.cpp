#include "group/rankset.hpp"

#include <algorithm>
#include <queue>

#include "group/builder.hpp"

namespace ringmpi::group {
namespace {

// First term of increasing p at or after x (p.first <= x assumed).
i64 first_from(const Prog& p, i64 x) { return p.first + ceil_div(x - p.first, p.stride) * p.stride; }

void emit_one(i64 x, i64 y, const Prog& p, Sweep mode, SeqBuilder& out) {
  const i64 s = p.stride;
  const i64 f = first_from(p, x);
  if (mode == Sweep::union_of) {
    if (f <= y - 1) out.prog(make_prog(f, s, (y - 1 - f) / s + 1));
    return;
  }
  if (s == 1) return;  // an active stride-1 progression covers its segment
  const i64 head_end = std::min(f, y);
  if (head_end > x) out.prog(Prog{x, 1, head_end - x});
  if (f > y - 1) return;
  const i64 cnt = (y - 1 - f) / s + 1;
  // Terms whose whole gap (t+1 .. t+s-1) lies in the segment.
  const i64 nfull = f + s <= y ? std::min(cnt, (y - s - f) / s + 1) : 0;
  if (nfull > 0)
    out.piece(Piece{f, nfull > 1 ? s : 0, nfull, Pattern::make({Prog{1, 1, s - 1}})});
  if (nfull < cnt) {
    const i64 t = f + nfull * s;
    if (t + 1 < y) out.prog(Prog{t + 1, 1, y - t - 1});
  }
}

// The active progressions repeat every `period` positions, with few terms
// in one period: one periodic piece (the terms, or the gaps between them),
// plus the partial period at the end.
void emit_periodic(i64 x, i64 y, i64 period, const std::vector<Prog>& active, Sweep mode, SeqBuilder& out) {
  std::vector<i64> terms;
  for (const Prog& p : active)
    for (i64 o = first_from(p, x) - x; o < period; o += p.stride) terms.push_back(o);
  std::sort(terms.begin(), terms.end());
  std::vector<Prog> runs;
  if (mode == Sweep::union_of) {
    SeqBuilder pb;
    for (i64 o : terms) pb.point(o);
    runs = pb.take_progs();
  } else {
    i64 prev = -1;
    for (i64 o : terms) {
      if (o > prev + 1) runs.push_back(Prog{prev + 1, 1, o - prev - 1});
      prev = o;
    }
    if (prev + 1 < period) runs.push_back(Prog{prev + 1, 1, period - prev - 1});
  }
  if (runs.empty()) return;
  const i64 reps = (y - x) / period;
  const i64 t0 = x + reps * period;
  std::vector<Prog> tail;
  for (const Prog& r : runs) {
    const i64 n = r.first >= y - t0 ? 0 : std::min(r.count, (y - t0 - 1 - r.first) / r.stride + 1);
    if (n > 0) tail.push_back(make_prog(t0 + r.first, r.stride, n));
  }
  out.piece(Piece{x, reps > 1 ? period : 0, reps, Pattern::make(std::move(runs))});
  for (const Prog& r : tail) out.prog(r);
}

// The active progressions repeat with too long a period: keep the densest
// one as runs and enumerate the terms of the others, which are sparse
// (disjoint progressions with long overlapping spans and a long common
// period cannot both be dense). Costs O(terms of the sparse ones).
void emit_split(i64 x, i64 y, const std::vector<Prog>& active, Sweep mode, SeqBuilder& out) {
  std::size_t dense = 0;
  for (std::size_t i = 1; i < active.size(); ++i)
    if (active[i].stride < active[dense].stride) dense = i;
  using Next = std::pair<i64, std::size_t>;
  std::priority_queue<Next, std::vector<Next>, std::greater<>> heap;
  for (std::size_t i = 0; i < active.size(); ++i) {
    if (i == dense) continue;
    const i64 f = first_from(active[i], x);
    if (f < y) heap.push({f, i});
  }
  i64 u = x;
  while (!heap.empty()) {
    const auto [v, i] = heap.top();
    heap.pop();
    emit_one(u, v, active[dense], mode, out);
    if (mode == Sweep::union_of) out.point(v);
    u = v + 1;
    const i64 nv = v + active[i].stride;
    if (nv < y && nv <= active[i].last()) heap.push({nv, i});
  }
  emit_one(u, y, active[dense], mode, out);
}

void emit_progs(i64 x, i64 y, const std::vector<Prog>& active, Sweep mode, SeqBuilder& out) {
  if (active.empty()) {
    if (mode == Sweep::complement_of) out.prog(Prog{x, 1, y - x});
    return;
  }
  if (active.size() == 1) {
    emit_one(x, y, active[0], mode, out);
    return;
  }
  // The pattern is worth building if it has few terms and repeats.
  i64 period = 1, terms = 0;
  for (const Prog& p : active) period = lcm_capped(period, p.stride, y - x);
  if (period <= (y - x) / 2)
    for (const Prog& p : active) terms += period / p.stride;
  if (period <= (y - x) / 2 && terms <= kPeriodMax)
    emit_periodic(x, y, period, active, mode, out);
  else
    emit_split(x, y, active, mode, out);
}

void sweep_into(std::vector<Piece> items, i64 x0, i64 x1, Sweep mode, SeqBuilder& out);

// The members of the increasing progression q in [a, b), as a simple piece.
void members_of_prog(const Prog& q, i64 a, i64 b, std::vector<Piece>& out) {
  const i64 jlo = std::max<i64>(0, ceil_div(a - q.first, q.stride));
  const i64 jhi = std::min<i64>(q.count - 1, floor_div(b - 1 - q.first, q.stride));
  if (jlo <= jhi) out.push_back(Piece{q.at(jlo), jhi > jlo ? q.stride : 0, jhi - jlo + 1, nullptr});
}

// The members of the increasing periodic piece p in [a, b), as progressions
// (rows of the repetitions there, or columns across them).
void members_in(const Piece& p, i64 a, i64 b, bool columns, std::vector<Piece>& out) {
  const i64 w0 = p.base + p.pat->min_off;
  const i64 r0 = std::max<i64>(0, floor_div(a - w0, p.period));
  const i64 r1 = std::min<i64>(p.reps - 1, floor_div(b - 1 - w0, p.period));
  if (r0 > r1) return;
  auto add = [&](const Prog& q) { members_of_prog(q, a, b, out); };
  if (columns) {
    for (const Prog& run : p.pat->runs)
      for (i64 j = 0; j < run.count; ++j) add(make_prog(p.base + run.at(j) + r0 * p.period, p.period, r1 - r0 + 1));
    return;
  }
  for (i64 r = r0; r <= r1; ++r)
    for (const Prog& run : p.pat->runs) add(Prog{p.base + r * p.period + run.first, run.stride, run.count});
}

// One increasing periodic piece p alone over [x, y).
void emit_periodic_piece(i64 x, i64 y, const Piece& p, Sweep mode, SeqBuilder& out) {
  const i64 P = p.period;
  const i64 w0 = p.base + p.pat->min_off;  // repetition r lies in [w0 + r*P, w0 + (r+1)*P)
  const i64 wf = std::max<i64>(0, ceil_div(x - w0, P));
  const i64 wl = std::min<i64>(p.reps - 1, floor_div(y - w0, P) - 1);
  std::vector<Piece> edge;
  if (wf > wl) {
    members_in(p, x, y, false, edge);
    sweep_into(std::move(edge), x, y, mode, out);
    return;
  }
  const i64 mid_lo = w0 + wf * P, mid_hi = w0 + (wl + 1) * P;
  members_in(p, x, mid_lo, false, edge);
  sweep_into(std::move(edge), x, mid_lo, mode, out);
  const i64 n = wl - wf + 1;
  if (mode == Sweep::union_of) {
    out.piece(Piece{p.base + wf * P, n > 1 ? P : 0, n, p.pat});
  } else {
    std::vector<Piece> shifted;
    for (const Prog& run : p.pat->runs)
      shifted.push_back(Piece{run.first - p.pat->min_off, run.count > 1 ? run.stride : 0, run.count, nullptr});
    SeqBuilder gaps;
    sweep_into(std::move(shifted), 0, P, Sweep::complement_of, gaps);
    const std::vector<Piece> g = gaps.take();
    i64 flat_runs = 0;
    for (const Piece& q : g) flat_runs += q.simple() ? 1 : q.reps * static_cast<i64>(q.pat->runs.size());
    if (flat_runs <= kPeriodMax || n == 1) {
      SeqBuilder flat(true);
      flat.append(g);
      std::vector<Prog> runs = flat.take_progs();
      if (!runs.empty()) out.piece(Piece{mid_lo, n > 1 ? P : 0, n, Pattern::make(std::move(runs))});
    } else {
      // The gaps repeat with a period of their own (the complement of a
      // strided run): a periodic piece per repetition, not a flat pattern.
      for (i64 r = 0; r < n; ++r)
        for (const Piece& q : g) {
          Piece moved = q;
          moved.base += mid_lo + r * P;
          out.piece(moved);
        }
    }
  }
  edge.clear();
  members_in(p, mid_hi, y, false, edge);
  sweep_into(std::move(edge), mid_hi, y, mode, out);
}

void emit(i64 x, i64 y, const std::vector<Piece>& active, Sweep mode, SeqBuilder& out) {
  bool all_simple = true;
  for (const Piece& p : active) all_simple = all_simple && p.simple();
  if (all_simple) {
    std::vector<Prog> progs;
    progs.reserve(active.size());
    for (const Piece& p : active) progs.push_back(p.prog());
    emit_progs(x, y, progs, mode, out);
    return;
  }
  if (active.size() == 1) {
    emit_periodic_piece(x, y, active[0], mode, out);
    return;
  }
  // Several pieces, some periodic. Together they repeat with the lcm of
  // their periods: if one such window holds few runs, it is the pattern.
  i64 period = 1, runs = 0;
  for (const Piece& p : active) period = lcm_capped(period, std::max<i64>(p.period, 1), y - x);
  if (period <= (y - x) / 2)
    for (const Piece& p : active)
      runs += period / std::max<i64>(p.period, 1) * (p.simple() ? 1 : static_cast<i64>(p.pat->runs.size()));
  if (period <= (y - x) / 2 && runs <= kPeriodMax) {
    std::vector<Piece> window;
    for (const Piece& p : active) {
      if (p.simple())
        members_of_prog(p.prog(), x, x + period, window);
      else
        members_in(p, x, x + period, false, window);
    }
    SeqBuilder pb(true, x);
    sweep_into(std::move(window), x, x + period, mode, pb);
    if (pb.pieces() <= static_cast<std::size_t>(4 * kPeriodMax)) {
      std::vector<Prog> pat = pb.take_progs();
      const i64 reps = (y - x) / period;
      if (!pat.empty()) out.piece(Piece{x, reps > 1 ? period : 0, reps, Pattern::make(std::move(pat))});
      const i64 t0 = x + reps * period;
      std::vector<Piece> tail;
      for (const Piece& p : active) {
        if (p.simple())
          members_of_prog(p.prog(), t0, y, tail);
        else
          members_in(p, t0, y, false, tail);
      }
      sweep_into(std::move(tail), t0, y, mode, out);
      return;
    }
  }
  // Otherwise go down to progressions (columns of short patterns, rows of
  // long ones) and sweep those.
  std::vector<Piece> progs;
  for (const Piece& p : active) {
    if (p.simple())
      progs.push_back(p);
    else
      members_in(p, x, y, p.psize() <= kPeriodMax, progs);
  }
  sweep_into(std::move(progs), x, y, mode, out);
}

// Sweeps [x0, x1) over increasing pieces (simple ones of positive stride,
// periodic ones of positive period whose repetitions do not overlap).
void sweep_into(std::vector<Piece> items, i64 x0, i64 x1, Sweep mode, SeqBuilder& out) {
  if (x0 >= x1) return;
  std::erase_if(items, [](const Piece& p) { return p.size() <= 0; });
  std::sort(items.begin(), items.end(), [](const Piece& a, const Piece& b) { return a.lo() < b.lo(); });
  std::vector<i64> cuts;
  cuts.reserve(2 * items.size() + 2);
  for (const Piece& p : items) {
    cuts.push_back(p.lo());
    cuts.push_back(p.hi() + 1);
  }
  if (mode == Sweep::complement_of) {
    cuts.push_back(x0);
    cuts.push_back(x1);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());

  std::vector<Piece> active;
  std::size_t next = 0;
  for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
    const i64 x = cuts[c], y = cuts[c + 1];
    std::erase_if(active, [x](const Piece& p) { return p.hi() < x; });
    while (next < items.size() && items[next].lo() <= x) active.push_back(items[next++]);
    emit(x, y, active, mode, out);
  }
}

}  // namespace

std::vector<Piece> sweep(std::vector<Piece> items, i64 n, Sweep mode) {
  SeqBuilder out;
  sweep_into(std::move(items), 0, n, mode, out);
  return out.take();
}

std::vector<Piece> sweep(const std::vector<Prog>& progs, i64 n, Sweep mode) {
  std::vector<Piece> items;
  items.reserve(progs.size());
  for (const Prog& q : progs) {
    const Prog p = increasing(make_prog(q.first, q.stride, q.count));
    items.push_back(Piece{p.first, p.count > 1 ? p.stride : 0, p.count, nullptr});
  }
  return sweep(std::move(items), n, mode);
}

}  // namespace ringmpi::group
