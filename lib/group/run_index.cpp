#include "group/run_index.hpp"

#include <algorithm>

namespace ringmpi::group {

void RunIndex::add(const Prog& p, i64 pos) {
  if (p.count <= kShort) {
    for (i64 j = 0; j < p.count; ++j) points_.push_back({p.at(j), pos + j});
    return;
  }
  const i64 s = abs64(p.stride);
  auto [slot, fresh] = class_of_.try_emplace(s, classes_.size());
  if (fresh) classes_.push_back(Class{s, {}});
  Class* c = &classes_[slot->second];
  const bool up = p.stride > 0;
  const i64 lo = p.lo();
  c->entries.push_back({mod(lo, s), lo, p.count, up ? pos : pos + p.count - 1, up ? 1 : -1});
}

void RunIndex::finish() {
  class_of_.clear();
  std::sort(points_.begin(), points_.end(), [](const Point& a, const Point& b) { return a.v < b.v; });
  for (Class& c : classes_)
    std::sort(c.entries.begin(), c.entries.end(), [](const Entry& a, const Entry& b) {
      return a.residue != b.residue ? a.residue < b.residue : a.lo < b.lo;
    });
}

i64 RunIndex::find(i64 v) const {
  if (!points_.empty()) {
    auto it = std::lower_bound(points_.begin(), points_.end(), v, [](const Point& p, i64 x) { return p.v < x; });
    if (it != points_.end() && it->v == v) return it->pos;
  }
  for (const Class& c : classes_) {
    const i64 r = mod(v, c.stride);
    // Last entry with (residue, lo) <= (r, v).
    auto it = std::upper_bound(c.entries.begin(), c.entries.end(), std::pair<i64, i64>{r, v},
                               [](const std::pair<i64, i64>& x, const Entry& e) {
                                 return x.first != e.residue ? x.first < e.residue : x.second < e.lo;
                               });
    if (it == c.entries.begin()) continue;
    --it;
    if (it->residue != r) continue;
    const i64 k = (v - it->lo) / c.stride;
    if (k < it->count) return it->pos_lo + it->dir * k;
  }
  return -1;
}

}  // namespace ringmpi::group
