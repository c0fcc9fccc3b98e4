#include "group/group.hpp"

#include <algorithm>

#include "core/runtime.hpp"
#include "group/builder.hpp"

namespace ringmpi::group {

GroupPtr Group::from_world_ranks(std::vector<int> world_ranks) {
  SeqBuilder b;
  for (int w : world_ranks) b.point(w);
  return from_pieces(b.take());
}

GroupPtr Group::from_runs(const std::vector<Run>& runs) {
  SeqBuilder b;
  for (const Run& r : runs) b.prog(make_prog(r.first, r.stride, r.count));
  return from_pieces(b.take());
}

GroupPtr Group::from_pieces(std::vector<Piece> pieces) {
  auto g = std::make_shared<Group>();
  g->pieces_ = std::move(pieces);
  g->rank0_.reserve(g->pieces_.size());
  for (const Piece& p : g->pieces_) {
    g->rank0_.push_back(g->size_);
    g->size_ += p.size();
  }
  g->build_lookup();
  return g;
}

const GroupPtr& Group::empty() {
  static const GroupPtr e = from_pieces({});
  return e;
}

void Group::build_lookup() {
  for (std::size_t i = 0; i < pieces_.size(); ++i) {
    if (pieces_[i].simple())
      simple_index_.add(pieces_[i].prog(), rank0_[i]);
    else
      periodic_.push_back(static_cast<std::uint32_t>(i));
  }
  simple_index_.finish();
  std::sort(periodic_.begin(), periodic_.end(),
            [this](std::uint32_t a, std::uint32_t b) { return pieces_[a].lo() < pieces_[b].lo(); });
  i64 m = 0;
  for (std::size_t i = 0; i < periodic_.size(); ++i) {
    const i64 h = pieces_[periodic_[i]].hi();
    m = i == 0 ? h : std::max(m, h);
    periodic_max_hi_.push_back(m);
  }

  const bool single_run = pieces_.size() == 1 && pieces_[0].simple();
  if (size_ == 0 || size_ > kDenseMax || single_run) return;
  if (pieces_.size() > 1) {
    dense_.reserve(static_cast<std::size_t>(size_));
    for_each([this](i64 w) { dense_.push_back(static_cast<int>(w)); });
  }
  i64 lo = pieces_[0].lo(), hi = pieces_[0].hi();
  for (const Piece& p : pieces_) {
    lo = std::min(lo, p.lo());
    hi = std::max(hi, p.hi());
  }
  // A table indexed by world rank pays when the members are not too sparse.
  if (hi - lo + 1 > 4 * size_ + 64) return;
  std::vector<int> t(static_cast<std::size_t>(hi - lo + 1), MPI_UNDEFINED);
  i64 r = 0;
  for_each([&](i64 w) { t[static_cast<std::size_t>(w - lo)] = static_cast<int>(r++); });
  table_ = std::move(t);
  table_lo_ = lo;
}

std::size_t Group::piece_of(i64 r) const {
  const auto it = std::upper_bound(rank0_.begin(), rank0_.end(), r);
  return static_cast<std::size_t>(it - rank0_.begin()) - 1;
}

i64 Group::at_slow(i64 r) const {
  const std::size_t i = piece_of(r);
  return pieces_[i].at(r - rank0_[i]);
}

i64 Group::find(i64 w) const {
  if (!table_.empty()) {
    const i64 i = w - table_lo_;
    if (i < 0 || i >= static_cast<i64>(table_.size())) return -1;
    const int r = table_[static_cast<std::size_t>(i)];
    return r == MPI_UNDEFINED ? -1 : r;
  }
  return find_pieces(w);
}

i64 Group::find_pieces(i64 w) const {
  if (pieces_.size() == 1) return pieces_[0].find(w);
  const i64 k = simple_index_.find(w);
  if (k >= 0 || periodic_.empty()) return k;
  // Periodic pieces whose span may hold w: those starting at or below w, back
  // to where no earlier piece reaches w.
  auto it = std::upper_bound(periodic_.begin(), periodic_.end(), w,
                             [this](i64 x, std::uint32_t i) { return x < pieces_[i].lo(); });
  for (std::size_t i = static_cast<std::size_t>(it - periodic_.begin()); i-- > 0;) {
    if (periodic_max_hi_[i] < w) break;
    const Piece& p = pieces_[periodic_[i]];
    if (p.hi() < w) continue;
    const i64 j = p.find(w);
    if (j >= 0) return rank0_[periodic_[i]] + j;
  }
  return -1;
}

std::vector<int> Group::to_world_ranks() const {
  std::vector<int> v;
  v.reserve(static_cast<std::size_t>(size_));
  for_each([&](i64 w) { v.push_back(static_cast<int>(w)); });
  return v;
}

State::State() {
  table.put_predefined(core::handle_index(MPI_GROUP_EMPTY), std::make_unique<GroupPtr>(Group::empty()));
}

State& state() {
  auto& p = core::rt().groups;
  if (!p) p = std::make_unique<State>();
  return *p;
}

MPI_Group new_handle(GroupPtr g) { return state().table.add(std::make_unique<GroupPtr>(std::move(g))); }

const GroupPtr* lookup(MPI_Group h) { return state().table.get(h); }

}  // namespace ringmpi::group
