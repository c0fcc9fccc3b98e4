#include "group/algebra.hpp"

#include <algorithm>
#include <numeric>

#include "group/builder.hpp"
#include "group/compose.hpp"
#include "group/positions.hpp"
#include "group/rankset.hpp"

namespace ringmpi::group {
namespace {

// Walks two groups as sequences of runs, to decide MPI_IDENT in O(runs).
class RunCursor {
 public:
  explicit RunCursor(const Group& g) : g_(g) {}
  bool done() const { return piece_ >= g_.pieces().size(); }
  bool at_piece_start() const { return rep_ == 0 && run_ == 0 && j_ == 0; }
  const Piece& piece() const { return g_.pieces()[piece_]; }
  Prog current() const {
    const Piece& p = piece();
    if (p.simple()) return make_prog(p.base + j_ * p.period, p.period, p.reps - j_);
    const Prog& run = p.pat->runs[run_];
    return make_prog(p.base + rep_ * p.period + run.at(j_), run.stride, run.count - j_);
  }
  void skip_piece() {
    ++piece_;
    rep_ = run_ = 0;
    j_ = 0;
  }
  void advance(i64 n) {
    const Piece& p = piece();
    j_ += n;
    if (p.simple()) {
      if (j_ == p.reps) skip_piece();
      return;
    }
    if (j_ < p.pat->runs[run_].count) return;
    j_ = 0;
    if (++run_ < p.pat->runs.size()) return;
    run_ = 0;
    if (++rep_ < p.reps) return;
    skip_piece();
  }

 private:
  const Group& g_;
  std::size_t piece_ = 0;
  i64 rep_ = 0;
  std::size_t run_ = 0;
  i64 j_ = 0;
};

bool identical(const Group& a, const Group& b) {
  RunCursor x(a), y(b);
  while (!x.done() && !y.done()) {
    if (x.at_piece_start() && y.at_piece_start() && x.piece().same_as(y.piece())) {
      x.skip_piece();
      y.skip_piece();
      continue;
    }
    const Prog p = x.current(), q = y.current();
    const i64 n = std::min(p.count, q.count);
    if (p.first != q.first || (n > 1 && p.stride != q.stride)) return false;
    x.advance(n);
    y.advance(n);
  }
  return x.done() && y.done();
}

i64 total(const std::vector<Piece>& ps) {
  i64 n = 0;
  for (const Piece& p : ps) n += p.size();
  return n;
}

GroupPtr make(SeqBuilder& b) { return Group::from_pieces(b.take()); }

}  // namespace

GroupPtr incl(const Group& g, const int* ranks, int n) {
  SeqBuilder b;
  for (int i = 0; i < n; ++i) b.point(g.world_rank(ranks[i]));
  return make(b);
}

GroupPtr excl(const GroupPtr& g, const int* ranks, int n) {
  if (n == 0) return g;
  std::vector<int> sorted(ranks, ranks + n);
  std::sort(sorted.begin(), sorted.end());
  SeqBuilder rb;
  for (int r : sorted) rb.point(r);
  return Group::from_pieces(compose(*g, sweep(rb.take_progs(), g->size(), Sweep::complement_of)));
}

GroupPtr range_incl(const Group& g, const std::vector<Prog>& ranges) {
  SeqBuilder b;
  for (const Prog& p : ranges) map_prog(g, p.first, p.stride, p.count, b);
  return make(b);
}

GroupPtr range_excl(const GroupPtr& g, const std::vector<Prog>& ranges) {
  if (ranges.empty()) return g;
  return Group::from_pieces(compose(*g, sweep(ranges, g->size(), Sweep::complement_of)));
}

GroupPtr intersection(const GroupPtr& a, const GroupPtr& b) {
  std::vector<Piece> pos = positions_in(*a, *b);
  const i64 n = total(pos);
  if (n == a->size()) return a;
  if (n == 0) return Group::empty();
  return Group::from_pieces(compose(*a, sweep(std::move(pos), a->size(), Sweep::union_of)));
}

GroupPtr difference(const GroupPtr& a, const GroupPtr& b) {
  std::vector<Piece> pos = positions_in(*a, *b);
  const i64 n = total(pos);
  if (n == 0) return a;
  if (n == a->size()) return Group::empty();
  return Group::from_pieces(compose(*a, sweep(std::move(pos), a->size(), Sweep::complement_of)));
}

GroupPtr set_union(const GroupPtr& a, const GroupPtr& b) {
  const GroupPtr extra = difference(b, a);
  if (extra->size() == 0) return a;
  if (a->size() == 0) return extra;
  SeqBuilder out;
  out.append(a->pieces());
  out.append(extra->pieces());
  return make(out);
}

int compare(const Group& a, const Group& b) {
  if (&a == &b) return MPI_IDENT;
  if (a.size() != b.size()) return MPI_UNEQUAL;
  if (identical(a, b)) return MPI_IDENT;
  return total(positions_in(a, b)) == a.size() ? MPI_SIMILAR : MPI_UNEQUAL;
}

}  // namespace ringmpi::group
