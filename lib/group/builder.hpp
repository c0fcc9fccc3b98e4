// Builds a piece sequence from members given in order, merging what it can:
// consecutive points that keep one stride become a run, runs that continue
// each other become one, degenerate periodic pieces become runs.
#pragma once

#include <vector>

#include "group/piece.hpp"

namespace ringmpi::group {

class SeqBuilder {
 public:
  // A flat builder expands periodic pieces into runs (to build patterns);
  // `origin` is subtracted from every member (patterns hold offsets).
  explicit SeqBuilder(bool flat = false, i64 origin = 0) : flat_(flat), origin_(origin) {}
  void point(i64 v);
  void prog(const Prog& p);
  void piece(const Piece& p);
  void append(const std::vector<Piece>& ps) {
    for (const Piece& p : ps) piece(p);
  }
  i64 size() const { return size_; }
  std::size_t pieces() const { return out_.size(); }
  std::vector<Piece> take();
  // The runs of a builder fed only with points and progressions (a pattern).
  std::vector<Prog> take_progs();

 private:
  void add_point(i64 v);
  void add_prog(const Prog& p);

  bool flat_;
  i64 origin_;
  std::vector<Piece> out_;
  i64 size_ = 0;
  // The last piece is a two-member run made of two points; its second member
  // may still start a longer run with the next point (0, 5, 6, 7 becomes
  // {0} {5, 6, 7} rather than {0, 5} {6, 7}).
  bool pair_ = false;
};

}  // namespace ringmpi::group
