#include "group/piece.hpp"

#include <algorithm>

namespace ringmpi::group {

std::shared_ptr<const Pattern> Pattern::make(std::vector<Prog> runs) {
  auto p = std::make_shared<Pattern>();
  p->runs = std::move(runs);
  p->prefix.reserve(p->runs.size());
  bool first = true;
  for (const Prog& r : p->runs) {
    p->prefix.push_back(p->size);
    p->index.add(r, p->size);
    p->size += r.count;
    p->min_off = first ? r.lo() : std::min(p->min_off, r.lo());
    p->max_off = first ? r.hi() : std::max(p->max_off, r.hi());
    first = false;
  }
  p->index.finish();
  return p;
}

i64 Pattern::at(i64 k) const {
  if (runs.size() == 1) return runs[0].at(k);
  const auto it = std::upper_bound(prefix.begin(), prefix.end(), k) - 1;
  const std::size_t i = static_cast<std::size_t>(it - prefix.begin());
  return runs[i].at(k - *it);
}

i64 Piece::at(i64 k) const {
  if (!pat) return base + k * period;
  const i64 s = pat->size;
  return base + (k / s) * period + pat->at(k % s);
}

i64 Piece::find(i64 w) const {
  const i64 u = w - base;
  if (!pat) {
    if (reps == 1) return u == 0 ? 0 : -1;
    if (u % period != 0) return -1;
    const i64 j = u / period;
    return (j >= 0 && j < reps) ? j : -1;
  }
  if (reps == 1) return pat->find(u);
  // Repetitions r whose window [r*period + min_off, r*period + max_off] holds
  // u; the pieces the algebra builds have windows shorter than two periods.
  i64 rlo, rhi;
  if (period > 0) {
    rlo = ceil_div(u - pat->max_off, period);
    rhi = floor_div(u - pat->min_off, period);
  } else {
    rlo = ceil_div(u - pat->min_off, period);
    rhi = floor_div(u - pat->max_off, period);
  }
  rlo = std::max<i64>(rlo, 0);
  rhi = std::min<i64>(rhi, reps - 1);
  for (i64 r = rlo; r <= rhi; ++r) {
    const i64 k = pat->find(u - r * period);
    if (k >= 0) return r * pat->size + k;
  }
  return -1;
}

i64 Piece::lo() const {
  const i64 shift = std::min<i64>(0, (reps - 1) * period);
  return base + shift + (pat ? pat->min_off : 0);
}

i64 Piece::hi() const {
  const i64 shift = std::max<i64>(0, (reps - 1) * period);
  return base + shift + (pat ? pat->max_off : 0);
}

}  // namespace ringmpi::group
