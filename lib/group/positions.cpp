#include "group/positions.hpp"

#include <algorithm>
#include <numeric>

#include "group/builder.hpp"
#include "group/rankset.hpp"

namespace ringmpi::group {
namespace {

constexpr i64 kCycleMax = 4096;  // repetitions x runs worth one periodic piece

// A progression of members of a together with their positions.
struct Item {
  Prog val;
  i64 pos0;
  i64 pstep;  // member j of val is at position pos0 + j*pstep
};

// A periodic piece of a group, handled by rows.
struct Family {
  const Piece* p;
  i64 pos_base;  // position (in its group) of the piece's first member
};

bool by_columns(const Piece& p) {
  const i64 s = p.psize();
  return s <= kPeriodMax && s <= p.reps * static_cast<i64>(p.pat->runs.size());
}

void split(const Group& g, std::vector<Item>& items, std::vector<Family>& fams) {
  for (std::size_t i = 0; i < g.pieces().size(); ++i) {
    const Piece& p = g.pieces()[i];
    const i64 pos = g.rank0(i);
    if (p.simple()) {
      items.push_back({p.prog(), pos, 1});
    } else if (by_columns(p)) {
      i64 k = 0;
      for (const Prog& run : p.pat->runs)
        for (i64 j = 0; j < run.count; ++j, ++k)
          items.push_back({make_prog(p.base + run.at(j), p.period, p.reps), pos + k, p.psize()});
    } else {
      fams.push_back({&p, pos});
    }
  }
}

void add_prog(const Prog& q, std::vector<Piece>& out) {
  const Prog p = increasing(make_prog(q.first, q.stride, q.count));
  out.push_back(Piece{p.first, p.count > 1 ? p.stride : 0, p.count, nullptr});
}

// Repetitions of periodic p whose rows touch the values [lo, hi] (ra..rb),
// and those whose rows lie inside it (rf..rl).
struct Reps {
  i64 ra, rb, rf, rl;
};
Reps reps_in(const Piece& p, i64 lo, i64 hi) {
  const i64 P = p.period, b = p.base, mn = p.pat->min_off, mx = p.pat->max_off;
  i64 ra, rb, rf, rl;
  if (P > 0) {
    ra = ceil_div(lo - b - mx, P);
    rb = floor_div(hi - b - mn, P);
    rf = ceil_div(lo - b - mn, P);
    rl = floor_div(hi - b - mx, P);
  } else {
    ra = ceil_div(hi - b - mn, P);
    rb = floor_div(lo - b - mx, P);
    rf = ceil_div(hi - b - mx, P);
    rl = floor_div(lo - b - mn, P);
  }
  ra = std::max<i64>(ra, 0);
  rb = std::min<i64>(rb, p.reps - 1);
  return {ra, rb, std::max(rf, ra), std::min(rl, rb)};
}

// Positions (from a flat builder, relative to `origin`) as one periodic
// piece repeated n times `shift` apart, if its repetitions do not overlap.
bool add_cycle(std::vector<Piece>& cycle, i64 shift, i64 n, std::vector<Piece>& out) {
  i64 lo = cycle[0].lo(), hi = cycle[0].hi();
  for (const Piece& c : cycle) {
    lo = std::min(lo, c.lo());
    hi = std::max(hi, c.hi());
  }
  if (hi - lo >= abs64(shift)) return false;
  SeqBuilder pb(true, lo);
  pb.append(sweep(std::move(cycle), hi + 1, Sweep::union_of));
  const i64 base = shift > 0 ? lo : lo + (n - 1) * shift;
  out.push_back(Piece{base, abs64(shift), n, Pattern::make(pb.take_progs())});
  return true;
}

// Positions of the members of item x found in periodic piece y.
void item_vs_family(const Item& x, const Piece& y, std::vector<Piece>& out) {
  if (x.val.count == 1) {
    if (y.find(x.val.first) >= 0) add_prog(Prog{x.pos0, 1, 1}, out);
    return;
  }
  const Reps rr = reps_in(y, x.val.lo(), x.val.hi());
  auto rows = [&](i64 r0, i64 r1, std::vector<Piece>& to) {
    for (i64 r = r0; r <= r1; ++r)
      for (const Prog& run : y.pat->runs) {
        const Prog j = intersect_index(x.val, Prog{y.base + r * y.period + run.first, run.stride, run.count});
        if (j.count > 0) add_prog(Prog{x.pos0 + j.first * x.pstep, j.stride * x.pstep, j.count}, to);
      }
  };
  const i64 d = abs64(x.val.stride);
  const i64 c = d / std::gcd(abs64(y.period), d);  // repetitions per cycle
  const i64 runs = static_cast<i64>(y.pat->runs.size());
  const i64 full = rr.rl - rr.rf + 1;
  if (full >= 2 * c && c * runs <= kCycleMax) {
    std::vector<Piece> cycle;
    rows(rr.rf, rr.rf + c - 1, cycle);
    const i64 n = full / c;
    const i64 shift = (c * y.period / x.val.stride) * x.pstep;  // c*period is a multiple of the stride
    if (cycle.empty() || add_cycle(cycle, shift, n, out)) {
      rows(rr.ra, rr.rf - 1, out);
      rows(rr.rf + n * c, rr.rb, out);
      return;
    }
  }
  rows(rr.ra, rr.rb, out);
}

// Positions of the members of periodic piece x (at pos_base) found in the
// progression y.
void family_vs_prog(const Family& fx, const Prog& y, std::vector<Piece>& out) {
  const Piece& x = *fx.p;
  const i64 s = x.psize();
  if (y.count == 1) {
    const i64 k = x.find(y.first);
    if (k >= 0) add_prog(Prog{fx.pos_base + k, 1, 1}, out);
    return;
  }
  const Reps rr = reps_in(x, y.lo(), y.hi());
  const i64 runs = static_cast<i64>(x.pat->runs.size());
  if (rr.ra > rr.rb) return;
  if (y.count <= (rr.rb - rr.ra + 1) * runs) {  // y is the sparser side: look its members up
    for (i64 j = 0; j < y.count; ++j)
      if (const i64 k = x.find(y.at(j)); k >= 0) add_prog(Prog{fx.pos_base + k, 1, 1}, out);
    return;
  }
  auto rows = [&](i64 r0, i64 r1, std::vector<Piece>& to) {
    for (i64 r = r0; r <= r1; ++r)
      for (std::size_t q = 0; q < x.pat->runs.size(); ++q) {
        const Prog& run = x.pat->runs[q];
        const Prog j = intersect_index(Prog{x.base + r * x.period + run.first, run.stride, run.count}, y);
        if (j.count > 0) add_prog(Prog{fx.pos_base + r * s + x.pat->prefix[q] + j.first, j.stride, j.count}, to);
      }
  };
  const i64 sy = abs64(y.stride);
  const i64 c = sy / std::gcd(abs64(x.period), sy);
  const i64 full = rr.rl - rr.rf + 1;
  if (full >= 2 * c && c * runs <= kCycleMax) {
    std::vector<Piece> cycle;
    rows(rr.rf, rr.rf + c - 1, cycle);
    const i64 n = full / c;
    if (cycle.empty() || add_cycle(cycle, c * s, n, out)) {
      rows(rr.ra, rr.rf - 1, out);
      rows(rr.rf + n * c, rr.rb, out);
      return;
    }
  }
  rows(rr.ra, rr.rb, out);
}

std::vector<Piece> by_enumeration(const Group& a, const Group& b) {
  SeqBuilder pb;
  i64 r = 0;
  a.for_each([&](i64 w) {
    if (b.find(w) >= 0) pb.point(r);
    ++r;
  });
  return pb.take();
}

bool overlap(i64 lo1, i64 hi1, i64 lo2, i64 hi2) { return lo1 <= hi2 && lo2 <= hi1; }

}  // namespace

std::vector<Piece> positions_in(const Group& a, const Group& b) {
  if (a.size() == 0 || b.size() == 0) return {};
  std::vector<Item> ia, ib;
  std::vector<Family> fa, fb;
  split(a, ia, fa);
  split(b, ib, fb);
  const i64 parts = static_cast<i64>(ia.size() + ib.size() + fa.size() + fb.size());
  if (a.size() <= 2 * parts) return by_enumeration(a, b);

  std::vector<Piece> out;
  // Progression against progression, by a stabbing search over b's spans.
  std::sort(ib.begin(), ib.end(), [](const Item& x, const Item& y) { return x.val.lo() < y.val.lo(); });
  std::vector<i64> max_hi(ib.size());
  for (std::size_t i = 0; i < ib.size(); ++i)
    max_hi[i] = i == 0 ? ib[i].val.hi() : std::max(max_hi[i - 1], ib[i].val.hi());
  // Past this many overlapping pairs, enumerating a is cheaper.
  const i64 budget = 8 * static_cast<i64>(a.size()) + (i64{1} << 20);
  i64 pairs = 0;
  for (const Item& x : ia) {
    const i64 lo = x.val.lo(), hi = x.val.hi();
    auto it = std::upper_bound(ib.begin(), ib.end(), hi, [](i64 v, const Item& y) { return v < y.val.lo(); });
    for (std::size_t i = static_cast<std::size_t>(it - ib.begin()); i-- > 0;) {
      if (max_hi[i] < lo) break;
      if (ib[i].val.hi() < lo) continue;
      if (++pairs > budget) return by_enumeration(a, b);
      const Prog j = intersect_index(x.val, ib[i].val);
      if (j.count > 0) add_prog(Prog{x.pos0 + j.first * x.pstep, j.stride * x.pstep, j.count}, out);
    }
  }
  // Against periodic pieces handled by rows.
  for (const Family& y : fb)
    for (const Item& x : ia)
      if (overlap(x.val.lo(), x.val.hi(), y.p->lo(), y.p->hi())) item_vs_family(x, *y.p, out);
  for (const Family& x : fa) {
    for (const Item& y : ib)
      if (overlap(x.p->lo(), x.p->hi(), y.val.lo(), y.val.hi())) family_vs_prog(x, y.val, out);
    for (const Family& y : fb) {
      if (!overlap(x.p->lo(), x.p->hi(), y.p->lo(), y.p->hi())) continue;
      // Rows of y, as progressions, against x.
      const Piece& q = *y.p;
      for (i64 r = 0; r < q.reps; ++r)
        for (const Prog& run : q.pat->runs) family_vs_prog(x, Prog{q.base + r * q.period + run.first, run.stride, run.count}, out);
    }
  }
  return out;
}

}  // namespace ringmpi::group
