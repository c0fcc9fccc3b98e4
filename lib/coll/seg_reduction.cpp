// Reductions on the shared segment (see coll/seg.hpp).
//
// Small vectors (up to Segment::fold_whole() bytes, RINGMPI_COLL_FOLD_WHOLE_MAX): every contribution goes into its
// owner's slot region and the ranks that need the result fold all of them,
// x(n-1) first, then op(x_j, acc) for j = n-2 .. 0 (the same right fold as
// the message-passing code in reduction.cpp).
// Larger vectors, by blocks: rank i folds block i of the vector (the same
// right fold, over that block of every contribution) and publishes it; the
// ranks that need the whole result copy the other blocks. Contributions and
// reduced blocks travel through slots when the vector fits a slot region, else
// they are read straight from their owner's memory.
// Scans: small vectors through slots too, rank i folding contributions 0 ..
// i left to right, ((x0 op x1) op ...) op xi, as the rank chain does; larger
// ones along the chain, each rank reading its predecessor's partial result
// straight from its memory (in pieces, pipelined, unless two ranks with a
// core each split every hop). Both paths, and the message code, give the
// same bits.
// Only contiguous datatypes come here: their memory is their packed stream,
// so a block of elements is a byte range.
#include <cstring>
#include <optional>
#include <tuple>

#include "coll/partition.hpp"
#include "coll/seg.hpp"
#include "coll/seg_common.hpp"
#include "coll/seg_fits.hpp"
#include "dtype/op.hpp"

namespace ringmpi::coll {

using namespace seg;

namespace {

std::size_t bytes_of(const Reduction& r, int count) { return static_cast<std::size_t>(count) * r.type->size; }

// Which ranks need the folded vector.
enum class Want { root, all, own_block };

// Small vectors: every rank's contribution in its slot; `who` fold it all.
// The root of a reduce has no reader: it folds its own vector from its
// buffer and publishes nothing, unless that buffer is the result
// (MPI_IN_PLACE: fold_down writes the result before it reads x(root)).
int fold_whole(Segment& s, const Reduction& r, const void* mine, void* result, int root, bool all) {
  const std::size_t m = bytes_of(r, r.count);
  const std::uint64_t k = s.begin();
  const bool publish = all || s.me() != root || result == mine;
  if (publish) core::copy_bulk(s.reserve(k, m), mine, m);
  if (!all && s.me() != root) {  // reads nothing: post and done with one fence and one wake-up
    s.post_done(k);
    return MPI_SUCCESS;
  }
  if (publish) {
    s.post(k);
    if (all) s.wake_all();  // (a reduce root's post has no reader to wake)
  }
  const int err = fold_down(r, s.size() - 1, [&](int j) -> const std::byte* {
    if (j == s.me() && !publish) return static_cast<const std::byte*>(mine);
    s.wait_posted(j, k);
    return s.data(j, k);
  }, result);
  s.finish(k);
  return err;
}

// By blocks: block i (counts[i] elements from displs[i]) folded by rank i.
int by_blocks(Segment& s, const Reduction& r, const void* mine, void* result, const std::vector<int>& counts,
              const std::vector<int>& displs, Want want, int root) {
  core::count(core::Counter::seg_by_blocks);
  const int n = s.size();
  const int me = s.me();
  const std::size_t m = bytes_of(r, r.count);
  // A forced way (segment_blocks and _chunks: through the slots; fits.cpp
  // checked that they hold it), else the size.
  const Algo way = s.way();
  const bool in_slot = way == Algo::segment_address ? false
                       : way == Algo::segment       ? m <= s.inline_max()
                                                    : true;
  const std::uint64_t k = s.begin();
  const auto off = [&](int j) { return bytes_of(r, displs[static_cast<std::size_t>(j)]); };
  const auto len = [&](int j) { return bytes_of(r, counts[static_cast<std::size_t>(j)]); };
  SegmentLine& line = s.line(me);
  // Through the slots, this member's own block is read by nobody else: it
  // folds it from `mine` and copies only the others' blocks into its region
  // (at np 2 half the copy), unless the result it writes during the fold
  // (a reduce-scatter's, straight into the result) overlaps that block
  // (MPI_IN_PLACE): then the block goes through the slot as the others'.
  const std::byte* const own_block = static_cast<const std::byte*>(mine) + off(me);
  const auto* const res = static_cast<const std::byte*>(result);
  const bool own_direct = in_slot && (want != Want::own_block || own_block + len(me) <= res ||
                                      res + len(me) <= own_block);
  if (in_slot) {
    std::byte* region = s.reserve(k, m);
    if (own_direct) {
      core::copy_bulk(region, mine, off(me));
      core::copy_bulk(region + off(me) + len(me), own_block + len(me), m - off(me) - len(me));
    } else {
      core::copy_bulk(region, mine, m);
    }
  } else {
    line.addr = reinterpret_cast<std::uint64_t>(mine);
  }
  s.post(k);
  s.wake_all();

  // Fold my block into acc: straight into the result for a reduce-scatter
  // through the slots (every operand is read from a slot, this member's own
  // too, so even MPI_IN_PLACE's result may be written at once); the
  // temporaries (a scratch-pool take and give each) only where used.
  const bool into_result = want == Want::own_block && in_slot;
  std::optional<Temp> acc_tmp, piece_tmp, own_tmp;
  if (!into_result) acc_tmp.emplace(len(me));
  if (!in_slot) {
    piece_tmp.emplace(len(me));
    own_tmp.emplace(len(me));
    core::copy_bulk(own_tmp->get(), static_cast<const std::byte*>(mine) + off(me), len(me));
  }
  std::byte* const acc = into_result ? static_cast<std::byte*>(result) : acc_tmp->get();
  std::byte* const piece = piece_tmp ? piece_tmp->get() : nullptr;
  const std::byte* const own = own_tmp ? own_tmp->get() : nullptr;
  const auto source = [&](int j) -> const std::byte* {
    if (in_slot) {
      if (j == me && own_direct) return own_block;
      s.wait_posted(j, k);
      return s.data(j, k) + off(me);
    }
    if (j == me) return own;
    s.wait_posted(j, k);
    if (len(me) > 0) {
      core::count(core::Counter::seg_single_copy);
      s.read(j, s.line(j).addr + off(me), piece, len(me));
    }
    return piece;
  };
  int err = MPI_SUCCESS;
  core::copy_bulk(acc, source(n - 1), len(me));
  for (int j = n - 2; j >= 0; --j) {
    const int e = apply(r, source(j), acc, counts[static_cast<std::size_t>(me)]);
    if (err == MPI_SUCCESS) err = e;
  }

  // Publish it where the others copy it from, and take theirs.
  const bool gather = want == Want::all || (want == Want::root && me == root);
  if (want != Want::own_block) {
    if (in_slot) {
      core::copy_bulk(s.data(me, k) + off(me), acc, len(me));  // nobody else reads this part of my region
    } else if (want == Want::all || me == root) {
      core::copy_bulk(static_cast<std::byte*>(result) + off(me), acc, len(me));
      line.bytes = reinterpret_cast<std::uint64_t>(result);
    } else {
      line.bytes = reinterpret_cast<std::uint64_t>(acc);  // block me at acc (offset 0)
      line.bytes -= off(me);
    }
    s.post_ready(k);
    if (want == Want::all)
      s.wake_all();
    else
      s.wake(root);
  }
  if (gather) {
    if (in_slot) core::copy_bulk(static_cast<std::byte*>(result) + off(me), acc, len(me));
    for (int j = 0; j < n; ++j) {
      if (j == me || len(j) == 0) continue;
      s.wait_ready(j, k);
      std::byte* dst = static_cast<std::byte*>(result) + off(j);
      if (in_slot) {
        core::copy_bulk(dst, s.data(j, k) + off(j), len(j));
      } else {
        core::count(core::Counter::seg_single_copy);
        s.read(j, s.line(j).bytes + off(j), dst, len(j));
      }
    }
  }
  s.finish(k);
  if (!in_slot) s.wait_all_done(k);  // the others read my contribution and my block until then
  if (want == Want::own_block && !into_result) core::copy_bulk(result, acc, len(me));  // (MPI_IN_PLACE: only now)
  return err;
}

// Whether x op y == y op x bit for bit for every x, y of r's type: the
// predefined sums, products, bitwise and logical ops (IEEE addition and
// multiplication commute exactly). Not MPI_MAX/MPI_MIN (a NaN operand makes
// the result depend on the order), nor user ops, commutative or not.
bool operands_commute(const Reduction& r) {
  const MPI_Op h = r.op.builtin;
  return h == MPI_SUM || h == MPI_PROD || h == MPI_BAND || h == MPI_BOR || h == MPI_BXOR || h == MPI_LAND ||
         h == MPI_LOR || h == MPI_LXOR;
}

// MPI_Reduce on two ranks, each with a core of its own: the root reads the
// other vector straight from its owner's memory and folds it, one copy and
// one pass, with no second round (by blocks needs one: measured at 64 KiB,
// 11 us by blocks against Open MPI's 8 us, which reads the same way).
bool pair_reduce_applies(const Segment& s, const Reduction& r) {
  if (s.way() != Algo::segment) return s.way() == Algo::segment_address && s.size() == 2;
  return s.size() == 2 && bytes_of(r, r.count) > s.fold_whole() && s.prefer_single_copy(bytes_of(r, r.count));
}

// Two ranks with a core each, by single copy: this rank's block of x0 op x1
// (`count` elements) into `res`, reading the other's block of x at
// `theirs` in its memory and folding its own (`own`) in, in rank order:
// rank 0's own block is the `in` side, rank 1's where the operands commute
// bit for bit, else the fold goes through a temporary. `res` may be `own`
// (MPI_IN_PLACE); then it is written only once the other's block is read.
int pair_fold(Segment& s, const Reduction& r, const std::byte* own, std::uint64_t theirs, std::byte* res, int count) {
  const std::size_t len = bytes_of(r, count);
  if (len == 0) return MPI_SUCCESS;
  const int other = 1 - s.me();
  const bool in_place = res == own;
  const bool swap_ok = operands_commute(r);
  core::count(core::Counter::seg_single_copy);
  if (!in_place && (other == 1 || swap_ok)) {  // theirs read into the result, then mine op result
    s.read(other, theirs, res, len);
    return apply(r, own, res, count);
  }
  Temp t(len);
  s.read(other, theirs, t.get(), len);
  if (other == 0 || swap_ok) {  // theirs op result, the result holding mine (in place, or copied)
    if (!in_place) core::copy_bulk(res, own, len);
    return apply(r, t.get(), res, count);
  }
  const int err = apply(r, own, t.get(), count);  // rank 0, in place, an op whose operands must stay in order
  core::copy_bulk(res, t.get(), len);
  return err;
}

int pair_reduce(Segment& s, const Reduction& r, const void* mine, void* result, int root) {
  const std::uint64_t k = s.begin();
  const int me = s.me();
  if (me != root) {
    s.line(me).addr = reinterpret_cast<std::uint64_t>(mine);
    s.post(k);
    s.wake(root);
    s.finish(k);
    s.wait_done(root, k);  // the root reads my vector until then
    return MPI_SUCCESS;
  }
  const int other = 1 - me;
  s.wait_posted(other, k);
  const int err = pair_fold(s, r, static_cast<const std::byte*>(mine), s.line(other).addr, static_cast<std::byte*>(result),
                            r.count);
  s.finish(k);
  return err;
}

// Whether a two-rank reduction beyond a slot region takes the pair paths
// below (or any size with the way forced to segment_address). Vectors that
// fit a slot region stay on by_blocks' slots: allreduce of 64 KiB 8.4-9.9
// us there, 15-17 by the pair path's system calls.
bool pair_by_address(const Segment& s, const Reduction& r) {
  return pair_reduce_applies(s, r) && (s.way() == Algo::segment_address || bytes_of(r, r.count) > s.inline_max());
}

// The start of both pair paths below: this rank's vector published by
// address (`addr`; `also`, where given, in `bytes`), the other's awaited;
// returns the collective's sequence number.
std::uint64_t pair_publish(Segment& s, const void* mine, const void* also = nullptr) {
  const int other = 1 - s.me();
  const std::uint64_t k = s.begin();
  s.line(s.me()).addr = reinterpret_cast<std::uint64_t>(mine);
  if (also != nullptr) s.line(s.me()).bytes = reinterpret_cast<std::uint64_t>(also);
  s.post(k);
  s.wake(other);
  s.wait_posted(other, k);
  return k;
}

// MPI_Allreduce: rank 0 folds the lower half of the vector, rank 1 the
// upper (pair_fold), then each reads the other's folded half. Per rank two
// half-vector reads and a half fold, where by_blocks also copies its own
// block, the first operand and the folded block through temporaries (three
// more half-vector copies). Every write goes to this rank's result at the
// half the other reads nothing from until the ready word says so: in place
// (result == mine) the other reads x(me) only in its own half, before it
// posts ready.
int pair_allreduce(Segment& s, const Reduction& r, const void* mine, void* result) {
  const int me = s.me(), other = 1 - me;
  const int lower = r.count / 2;
  const int count[2] = {lower, r.count - lower};
  const std::size_t off[2] = {0, bytes_of(r, lower)};
  const std::uint64_t k = pair_publish(s, mine, result);  // the folded halves in `bytes`
  const int err = pair_fold(s, r, static_cast<const std::byte*>(mine) + off[me], s.line(other).addr + off[me],
                            static_cast<std::byte*>(result) + off[me], count[me]);
  s.post_ready(k);
  s.wake(other);
  const std::size_t their_len = bytes_of(r, count[other]);
  if (their_len > 0) {
    s.wait_ready(other, k);
    s.read(other, s.line(other).bytes + off[other], static_cast<std::byte*>(result) + off[other], their_len);
  }
  s.finish(k);
  s.wait_done(other, k);  // the other reads my vector and my folded half until then
  return err;
}

// MPI_Reduce_scatter(_block), not in place: rank i's block of x0 op x1
// straight into its result (pair_fold), one read and one fold, where
// by_blocks copies its own block, the first operand and the folded block.
int pair_reduce_scatter(Segment& s, const Reduction& r, const void* mine, void* result, const int* counts) {
  const int me = s.me(), other = 1 - me;
  const std::size_t off = me == 0 ? 0 : bytes_of(r, counts[0]);
  const std::uint64_t k = pair_publish(s, mine);
  const int err = pair_fold(s, r, static_cast<const std::byte*>(mine) + off, s.line(other).addr + off,
                            static_cast<std::byte*>(result), counts[me]);
  s.finish(k);
  s.wait_done(other, k);  // the other reads my vector until then
  return err;
}

// With more ranks than cores, a vector larger than a slot region goes
// through the slots in chunks of at most inline_max() bytes, each a
// by-blocks reduction of its own, with its own sequence number (every
// member cuts the same chunks from the same count and type; the ops work
// element by element, so chunks give the same bits), instead of by single
// copy: there every writer waits until all n readers got a core, and the
// n^2 blocks cost a process_vm_readv each. Measured (32 ranks on 2 cores,
// whose slot regions hold 16 KiB; bench/coll, us): MPI_Reduce 64 KiB 1660
// by single copy against 16 KiB 167 through the slots, MPI_Allreduce 2870
// against 224; alternating runs, single copy / chunks, 64 KiB: MPI_Reduce
// 2380-2700 / 1110-1180, MPI_Allreduce 4590-5460 / 1570-1850.
bool chunks_apply(const Segment& s, const Reduction& r) {
  if (s.way() != Algo::segment) return s.way() == Algo::segment_chunks;
  return s.oversubscribed() && bytes_of(r, r.count) > s.inline_max() && r.type->size <= s.inline_max();
}

// By blocks of equal counts: the whole vector at once, or where
// chunks_apply() chunk by chunk, in order; the first error.
int by_even_blocks(Segment& s, const Reduction& r, const void* mine, void* result, Want want, int root) {
  const bool chunks = chunks_apply(s, r);
  const int per = chunks ? static_cast<int>(s.inline_max() / r.type->size) : r.count;
  s.took(chunks                                                           ? Algo::segment_chunks
         : s.way() == Algo::segment_address || bytes_of(r, r.count) > s.inline_max() ? Algo::segment_address
                                                                                     : Algo::segment_blocks);
  int err = MPI_SUCCESS;
  for (int first = 0; first < r.count; first += per) {
    Reduction piece = r;
    piece.count = std::min(per, r.count - first);
    const std::size_t at = bytes_of(r, first);
    const std::vector<int> counts = even_counts(piece.count, s.size());
    const int e = by_blocks(s, piece, static_cast<const std::byte*>(mine) + at,
                            result ? static_cast<std::byte*>(result) + at : nullptr, counts,
                            prefix(s.size(), counts.data()), want, root);
    if (err == MPI_SUCCESS) err = e;
  }
  return err;
}

}  // namespace

// `chunked`: the caller folds by_even_blocks, whose chunks need no single copy.
bool seg::reducible(const Segment& s, const Reduction& r, bool chunked) {
  if (!r.type->contiguous()) return false;
  const std::size_t m = bytes_of(r, r.count);
  return m <= s.inline_max() || s.single_copy() || (chunked && chunks_apply(s, r));
}

namespace {
// Whether a reduction folds whole vectors: the way forced, else the size.
bool whole(const Segment& s, const Reduction& r) {
  return s.way() == Algo::segment ? bytes_of(r, r.count) <= s.fold_whole() : s.way() == Algo::segment_whole;
}
}  // namespace

int seg_reduce(Segment& s, const Reduction& r, const void* mine, void* result, int root) {
  core::count(core::Counter::seg_reduce);
  if (r.count == 0) return MPI_SUCCESS;
  if (whole(s, r)) {
    if (fold_two_level_applies(s, r, tunables::Id::coll_reduce)) return fold_two_level(s, r, mine, result, root, false);
    s.took(Algo::segment_whole);
    return fold_whole(s, r, mine, result, root, false);
  }
  if (pair_reduce_applies(s, r)) {
    s.took(Algo::segment_address);
    return pair_reduce(s, r, mine, result, root);
  }
  return by_even_blocks(s, r, mine, result, Want::root, root);
}

int seg_allreduce(Segment& s, const Reduction& r, const void* mine, void* result) {
  core::count(core::Counter::seg_allreduce);
  if (r.count == 0) return MPI_SUCCESS;
  if (whole(s, r)) {
    if (fold_two_level_applies(s, r, tunables::Id::coll_allreduce)) return fold_two_level(s, r, mine, result, -1, true);
    s.took(Algo::segment_whole);
    return fold_whole(s, r, mine, result, -1, true);
  }
  if (pair_by_address(s, r)) {
    s.took(Algo::segment_address);
    return pair_allreduce(s, r, mine, result);
  }
  return by_even_blocks(s, r, mine, result, Want::all, -1);
}

int seg_reduce_scatter(Segment& s, const Reduction& r, const void* mine, void* result, const int* counts) {
  core::count(core::Counter::seg_reduce_scatter);
  if (r.count == 0) return MPI_SUCCESS;
  if (mine != result && pair_by_address(s, r)) {
    s.took(Algo::segment_address);
    return pair_reduce_scatter(s, r, mine, result, counts);
  }
  const std::vector<int> c(counts, counts + s.size());
  s.took(s.way() == Algo::segment_address || bytes_of(r, r.count) > s.inline_max() ? Algo::segment_address
                                                                                   : Algo::segment_blocks);
  return by_blocks(s, r, mine, result, c, prefix(s.size(), counts), Want::own_block, -1);
}

namespace {

// The chain through the slots: partial(i) = x0 op ... op xi, written by
// rank i into its own slot region from rank i - 1's. A rank waits only for
// its predecessor's post (as a chain of messages does) and returns as soon
// as its own is published (as every slot region lets it): with more ranks
// than cores neither a rank below nor a reader above must get a core first.
int scan_slot_chain(Segment& s, const Reduction& r, const void* mine, void* result, bool exclusive) {
  const std::size_t m = bytes_of(r, r.count);
  const int me = s.me();
  const bool publishes = me + 1 < s.size();  // the last rank's partial has no reader
  const std::uint64_t k = s.begin();
  std::byte* own = publishes ? s.reserve(k, m) : nullptr;
  int err = MPI_SUCCESS;
  if (me == 0) {
    if (own) core::copy_bulk(own, mine, m);
    if (!exclusive && result != mine) core::copy_bulk(result, mine, m);
  } else {
    s.wait_posted(me - 1, k);
    const std::byte* prev = s.data(me - 1, k);
    if (own) {  // partial(me) = partial(me - 1) op x(me), before MPI_IN_PLACE's result overwrites x(me)
      core::copy_bulk(own, mine, m);
      err = apply(r, prev, own, r.count);
      core::copy_bulk(result, exclusive ? prev : own, m);
    } else if (exclusive) {
      core::copy_bulk(result, prev, m);
    } else {
      if (result != mine) core::copy_bulk(result, mine, m);
      err = apply(r, prev, result, r.count);
    }
  }
  s.post_done(k);  // every read of collective k is done: publish and finish with one wake-up
  return err;
}

// The chain by single copy, in pieces: partial(i) = x0 op ... op xi
// travels from rank i to rank i + 1 in up to kScanPieces pieces (whole
// elements, at least kScanPieceMin bytes each), rank i publishing how many
// are ready (Line::pieces) as it folds them, so that rank i + 1 reads and
// folds the first piece while rank i still folds the next: with two cores
// two ranks of the chain can work at once, where a chain of whole vectors
// has one working and every other rank waiting. Per byte a middle rank reads
// its predecessor's piece (process_vm_readv) and folds it, as the
// whole-vector chain did, but less around it: an inclusive scan with an op
// whose operands commute bit for bit reads the partial straight into its
// result and folds x(i) into it (no copy of x(i) into the result first);
// x(i)'s piece is copied where the fold wants it before the wait for the
// predecessor's piece, not on the critical path; rank i - 1 is released
// (rank i's done) right after rank i's last read, not after its fold; rank
// 0 publishes its own vector, copying nothing first. Measured with the
// machine loaded by other jobs (medians move by tens of percent between
// runs; bench/results/2026-12-07-issue36-scan.md): MPI_Scan in 4 pieces
// about 0.9 of the whole-vector chain's time over 256 KiB-1 MiB at np 4
// and 8 (geometric mean of 20 cells in four runs; 16 and 64 KiB pieces
// lost: each hand-over needs the reader scheduled). MPI_Exscan in 4 pieces
// took about 1.25 of the old chain's time in the same runs, in one piece
// about 1.0, so its partial goes whole.
constexpr int kScanPieces = 4;
constexpr std::size_t kScanPieceMin = 64 * 1024;

int scan_pieces(Segment& s, std::uint64_t k, const Reduction& r, const void* mine, void* result, bool exclusive) {
  const std::size_t m = bytes_of(r, r.count);
  const int me = s.me();
  const bool publishes = me + 1 < s.size();
  // Elements per piece: kScanPieces pieces of at least kScanPieceMin bytes
  // (at least one element); MPI_Exscan's partial in one piece.
  const int want = exclusive ? 1 : kScanPieces;
  const int per = std::max((r.count + want - 1) / want,
                           static_cast<int>(std::max<std::size_t>(1, kScanPieceMin / r.type->size)));
  const int pieces = (r.count + per - 1) / per;
  const auto* own = static_cast<const std::byte*>(mine);
  auto* res = static_cast<std::byte*>(result);
  if (me == 0) {  // partial(0) is x0, read where it is
    if (publishes) {
      s.line(me).bytes = reinterpret_cast<std::uint64_t>(mine);
      s.post_pieces(k, static_cast<std::uint64_t>(pieces));
      s.wake(me + 1);
    }
    if (!exclusive && result != mine) core::copy_bulk(result, mine, m);
    s.finish(k);
    if (publishes) s.wait_done(me + 1, k);  // rank 1 reads x0 until then
    return MPI_SUCCESS;
  }
  // An exclusive rank's partial goes to a temporary (its result is
  // partial(me - 1)), an inclusive one's is its result.
  Temp next(exclusive && publishes ? m : 0);
  std::byte* const partial = exclusive ? next.get() : res;
  if (publishes) s.line(me).bytes = reinterpret_cast<std::uint64_t>(partial);
  const bool straight = !exclusive && result != mine && operands_commute(r);
  Temp prev(exclusive || straight ? 0 : std::min(m, bytes_of(r, per)));
  const auto piece = [&](int c) {  // first element, count, byte offset, bytes
    const int first = c * per, cnt = std::min(per, r.count - first);
    return std::tuple{cnt, bytes_of(r, first), bytes_of(r, cnt)};
  };
  // What needs no partial: x(me)'s piece c where the fold wants it (an
  // exclusive rank's partial; an inclusive rank's result unless read
  // straight into it), before the wait for piece c, and before MPI_IN_PLACE's
  // result (an exclusive rank's partial(me - 1)) overwrites it.
  const auto prepare = [&](int c) {
    const auto [cnt, at, len] = piece(c);
    if (exclusive ? publishes : !straight && result != mine) core::copy_bulk(partial + at, own + at, len);
  };
  int err = MPI_SUCCESS;
  prepare(0);
  for (int c = 0; c < pieces; ++c) {
    const auto [cnt, at, len] = piece(c);
    s.wait_pieces(me - 1, k, static_cast<std::uint64_t>(c) + 1);
    const std::uint64_t from = s.line(me - 1).bytes + at;
    const bool last_read = c + 1 == pieces;
    // partial(me - 1)'s piece into the result (exclusive: it is the
    // result; straight: folded there), else into prev.
    std::byte* const into = exclusive || straight ? res + at : prev.get();
    s.read(me - 1, from, into, len);
    if (last_read) s.finish(k);  // partial(me - 1) read: rank me - 1 may return
    int e = MPI_SUCCESS;
    if (exclusive) {
      if (publishes) e = apply(r, res + at, partial + at, cnt);  // partial(me - 1) op x(me)
    } else if (straight) {
      e = apply(r, own + at, res + at, cnt);  // x(me) op partial(me - 1), the same bits
    } else {
      e = apply(r, prev.get(), res + at, cnt);  // partial(me - 1) op x(me)
    }
    if (err == MPI_SUCCESS) err = e;
    if (publishes) {
      s.post_pieces(k, static_cast<std::uint64_t>(c) + 1);
      s.wake(me + 1);
    }
    if (!last_read) prepare(c + 1);
  }
  if (publishes) s.wait_done(me + 1, k);  // rank me + 1 reads partial(me) until then
  return err;
}

}  // namespace

int seg_scan(Segment& s, const Reduction& r, const void* mine, void* result, bool exclusive) {
  const std::size_t m = bytes_of(r, r.count);
  // With more ranks than cores, scans up to a slot region take a chain:
  // rank i waits only for rank i - 1, where the fold below makes it wait for
  // the posts of every rank below it (so more ranks must get a core before
  // it goes on). Up to RINGMPI_COLL_SCAN_CHAIN_MAX bytes the chain is one of messages,
  // above it one through the slots (scan_slot_chain). Measured (bench/coll,
  // idle 2-core machine, us): fold / message chain at np = 8: exscan 4 B
  // 1.9-2.1 / 0.74-0.81, 1 KiB 4.6-4.9 / 2.0-2.4, 64 KiB 179-196 / 110-125;
  // message chain / slot chain, best of 3 alternating runs: np = 4 exscan
  // 16 B 0.18 / 0.42, 256 B 0.31 / 0.31, 1 KiB 0.64 / 0.43, 16 KiB 6.5 /
  // 3.5, 64 KiB 26 / 13; np = 8 exscan 256 B 0.89 / 0.93, 1 KiB 1.6 / 1.1,
  // 16 KiB 24 / 7.9, 64 KiB 65 / 28 (scan alike). Larger vectors keep the
  // segment's single-copy chain below: chunk by chunk through the slots
  // (as by_even_blocks does for reductions) it took twice as long at np = 32 (exscan 64 KiB 920
  // against 420-490 us), each chunk a pass along the whole chain. The
  // message chain's upper bound is RINGMPI_COLL_SCAN_CHAIN_MAX (256 bytes;
  // coll/select.cpp chooses it).
  core::count(core::Counter::seg_scan);
  if (r.count == 0) return MPI_SUCCESS;
  // A forced way (fits.cpp checked it), else the sizes.
  const Algo way = s.way();
  if (way == Algo::segment_chain || (way == Algo::segment && s.oversubscribed() && m <= s.inline_max())) {
    s.took(Algo::segment_chain);
    return scan_slot_chain(s, r, mine, result, exclusive);
  }
  const int me = s.me();
  const std::uint64_t k = s.begin();
  int err = MPI_SUCCESS;
  // An exscan at two ranks with a core each is one copy, rank 0's vector
  // into rank 1's result: from RINGMPI_COLL_SPLIT_MIN it is split like any
  // such copy (the chain below) rather than going through the slot (rank
  // 0's copy in, rank 1's copy out). bench/coll b2b at np 2, 2 interleaved
  // rounds, us, slot / split / Open MPI: 32 KiB 5.3-6.8 / 4.7-5.4 / 6.0-7.5,
  // 64 KiB 10.2-11.6 / 6.9-7.4 / 8.5-10.0, 128 KiB 20-25 / 11.8-12.7 / 13.8
  // (an inclusive scan's rank 1 folds rank 0's vector and keeps the slot:
  // 64 KiB 15.8-17.8 through it, 20-21 split).
  const bool pair_copy = exclusive && s.size() == 2 && !s.oversubscribed() && s.single_copy() &&
                         m >= s.split_min();
  if (way == Algo::segment_slot || (way == Algo::segment && m <= s.inline_max() && !pair_copy)) {
    s.took(Algo::segment_slot);
    const int last = exclusive ? me - 1 : me;
    // Rank i's vector is read by the ranks above it only: the last rank
    // publishes nothing (no copy, no post, no wake-up before its fold), so
    // at np = 2 an exscan costs rank 1 a read and its done, as a message
    // would. An inclusive scan's last rank folds its own vector last, read
    // from its buffer, unless that is the result (MPI_IN_PLACE: the fold
    // overwrites it first), when it goes through the slot as before.
    const bool publish = me + 1 < s.size() || (!exclusive && result == mine);
    if (publish) core::copy_bulk(s.reserve(k, m), mine, m);
    if (last < 0) {  // rank 0 of an exscan reads nothing: one wake-up for post and done
      s.post_done(k);
      return MPI_SUCCESS;
    }
    if (publish) {
      s.post(k);
      s.wake_all();
    }
    err = fold_up(r, last, [&](int j) -> const std::byte* {
      if (j == me && !publish) return static_cast<const std::byte*>(mine);
      s.wait_posted(j, k);
      return s.data(j, k);
    }, result);
    s.finish(k);
    return err;
  }
  // The chain: partial(i) = x0 op ... op xi, handed from rank i to rank
  // i + 1 by single copy. With a core per rank and 64 KiB or more
  // (segment_split), each hop is one copy split in two: rank i + 1 reads the
  // first half (rank i's line `bytes`, ready) while rank i, idle otherwise,
  // writes the second half into rank i + 1's buffer (published in its
  // line's `dest` with posted), so the hop takes both cores' copying
  // bandwidth, as point-to-point's split rendezvous does. Otherwise
  // (segment_address) in pieces, pipelined along the chain (scan_pieces).
  core::count(core::Counter::seg_single_copy);
  const int n = s.size();
  const bool split =
      way == Algo::segment_split || (way == Algo::segment && !s.oversubscribed() && m >= s.split_min());
  s.took(split ? Algo::segment_split : Algo::segment_address);
  if (!split) return scan_pieces(s, k, r, mine, result, exclusive);
  const std::size_t half = split_half(m);  // the part the reader copies
  Temp prev(me > 0 && !exclusive ? m : 0), next(exclusive && me + 1 < n ? m : 0);
  std::byte* dest = static_cast<std::byte*>(exclusive ? result : prev.get());  // partial(me - 1) goes here
  if (me > 0) {
    s.line(me).dest = reinterpret_cast<std::uint64_t>(dest);
    s.post(k);
    s.wake(me - 1);
  }
  const auto take_partial = [&] {  // partial(me - 1) into dest
    s.wait_ready(me - 1, k);
    if (half != 0) s.read(me - 1, s.line(me - 1).bytes, dest, half);
    s.wait_pushed(me - 1, k);
  };
  std::uint64_t partial;
  if (exclusive) {
    if (me + 1 < n) core::copy_bulk(next.get(), mine, m);  // before MPI_IN_PLACE overwrites it
    if (me > 0) {
      take_partial();
      if (me + 1 < n) err = apply(r, result, next.get(), r.count);  // partial(me) = partial(me-1) op x(me)
    }
    partial = reinterpret_cast<std::uint64_t>(me == 0 ? mine : next.get());
  } else {
    if (result != mine) core::copy_bulk(result, mine, m);
    if (me > 0) {
      take_partial();
      err = apply(r, prev.get(), result, r.count);
    }
    partial = reinterpret_cast<std::uint64_t>(result);
  }
  s.finish(k);
  if (me + 1 < n) {
    s.line(me).bytes = partial;
    s.post_ready(k);
    s.wake(me + 1);
    s.wait_posted(me + 1, k);
    s.write(me + 1, reinterpret_cast<const std::byte*>(partial) + half, s.line(me + 1).dest + half, m - half);
    s.line(me).pushed.store(k, std::memory_order_release);
    s.wake(me + 1);
    s.wait_done(me + 1, k);
  }
  return err;
}

}  // namespace ringmpi::coll
