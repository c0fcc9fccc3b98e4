#include "group/builder.hpp"

#include <cassert>

namespace ringmpi::group {

void SeqBuilder::point(i64 v) { add_point(v - origin_); }

void SeqBuilder::prog(const Prog& p) { add_prog(Prog{p.first - origin_, p.stride, p.count}); }

void SeqBuilder::add_point(i64 v) {
  ++size_;
  if (!out_.empty() && out_.back().simple()) {
    Piece& b = out_.back();
    if (b.reps == 1) {
      assert(v != b.base);
      b.period = v - b.base;
      b.reps = 2;
      pair_ = true;
      return;
    }
    if (v == b.base + b.reps * b.period) {
      ++b.reps;
      pair_ = false;
      return;
    }
    if (b.reps == 2 && pair_) {
      const i64 second = b.base + b.period;
      b.reps = 1;
      b.period = 0;
      out_.push_back(Piece{second, v - second, 2, nullptr});
      pair_ = true;
      return;
    }
  }
  out_.push_back(Piece{v, 0, 1, nullptr});
  pair_ = false;
}

void SeqBuilder::add_prog(const Prog& p) {
  if (p.count <= 0) return;
  if (p.count == 1) {
    add_point(p.first);
    return;
  }
  size_ += p.count;
  if (!out_.empty() && out_.back().simple()) {
    Piece& b = out_.back();
    if (b.reps == 1 && p.first - b.base == p.stride) {
      b.period = p.stride;
      b.reps = 1 + p.count;
      pair_ = false;
      return;
    }
    if (b.reps >= 2 && b.period == p.stride && p.first == b.base + b.reps * b.period) {
      b.reps += p.count;
      pair_ = false;
      return;
    }
    if (b.reps == 2 && pair_ && p.first - (b.base + b.period) == p.stride) {
      const i64 second = b.base + b.period;
      b.reps = 1;
      b.period = 0;
      out_.push_back(Piece{second, p.stride, 1 + p.count, nullptr});
      pair_ = false;
      return;
    }
  }
  out_.push_back(Piece{p.first, p.stride, p.count, nullptr});
  pair_ = false;
}

void SeqBuilder::piece(const Piece& given) {
  if (given.size() <= 0) return;
  Piece p = given;
  p.base -= origin_;
  if (p.simple()) {
    add_prog(p.prog());
    return;
  }
  const Pattern& pt = *p.pat;
  if (p.reps == 1 || flat_) {
    for (i64 k = 0; k < p.reps; ++k)
      for (const Prog& r : pt.runs) add_prog(Prog{p.base + k * p.period + r.first, r.stride, r.count});
    return;
  }
  if (pt.runs.size() == 1) {
    const Prog& r = pt.runs[0];
    if (r.count == 1) {
      add_prog(Prog{p.base + r.first, p.period, p.reps});
      return;
    }
    if (p.period == r.stride * r.count) {
      add_prog(Prog{p.base + r.first, r.stride, r.count * p.reps});
      return;
    }
  }
  size_ += p.size();
  pair_ = false;
  if (!out_.empty() && !out_.back().simple()) {
    Piece& b = out_.back();
    if (b.period == p.period && b.pat->same_as(pt) && p.base == b.base + b.reps * b.period) {
      b.reps += p.reps;
      return;
    }
  }
  out_.push_back(p);
}

std::vector<Piece> SeqBuilder::take() {
  std::vector<Piece> r = std::move(out_);
  out_.clear();
  size_ = 0;
  pair_ = false;
  return r;
}

std::vector<Prog> SeqBuilder::take_progs() {
  std::vector<Prog> r;
  r.reserve(out_.size());
  for (const Piece& p : out_) {
    assert(p.simple());
    r.push_back(p.prog());
  }
  take();
  return r;
}

}  // namespace ringmpi::group
