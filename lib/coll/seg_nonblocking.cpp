// Nonblocking collectives on the shared segment (coll/seg.hpp; the steps of
// one: coll/seg_op.hpp; the data movement ones: seg_nonblocking_movement.cpp).
//
// Only the forms in which every member writes all it contributes at its
// start run here: MPI_Ibarrier, and MPI_Ibcast, MPI_Ireduce, MPI_Iallreduce,
// MPI_Ireduce_scatter(_block), MPI_Iscan, MPI_Iexscan of data that fits a slot region (reductions up to
// Segment::fold_whole() bytes, as their blocking fold-whole form, or a whole slot
// region between two members). What is left after
// the start are reads, and they need nothing but the other members' starts:
// a member's part completes through the others' actions on the segment,
// whether or not they call MPI again. The root of MPI_Ibcast and the
// non-roots of MPI_Ireduce are complete when the start returns.
//
// Order. A member completes its segment collectives in sequence order
// (Segment::drain, and Segment::finish for a blocking one behind pending
// nonblocking ones), so its `done` word keeps meaning "everything up to k"
// (segment.hpp). Completing in order never waits on anything but starts,
// which every member makes in the same order.
//
// A communicator runs nonblocking collectives on its segment only once the
// segment is attached (attaching takes a round of messages, which a
// nonblocking call must not wait for); attachment happens at the same
// blocking collective on every member, so all of them choose alike.
#include <cstring>
#include <new>

#include "coll/seg.hpp"
#include "coll/seg_fits.hpp"
#include "coll/seg_op.hpp"
#include "dtype/op.hpp"

namespace ringmpi::coll {

using namespace seg;

namespace seg {
namespace {
constexpr std::size_t kPoolStep = 64;
constexpr std::size_t kPoolClasses = 8;  // blocks up to 512 bytes; larger ones go to the heap
constexpr int kPoolKeep = 256;           // blocks kept per class at most
struct FreeBlock {
  FreeBlock* next;
};
FreeBlock* free_blocks[kPoolClasses];
int free_count[kPoolClasses];
}  // namespace

void* Pooled::operator new(std::size_t bytes) {
  const std::size_t c = (bytes - 1) / kPoolStep;
  if (c >= kPoolClasses) return ::operator new(bytes);
  if (FreeBlock* b = free_blocks[c]) {
    free_blocks[c] = b->next;
    --free_count[c];
    return b;
  }
  return ::operator new((c + 1) * kPoolStep);  // the class's size: any type of the class may reuse it
}

void Pooled::operator delete(void* p, std::size_t bytes) {
  const std::size_t c = (bytes - 1) / kPoolStep;
  if (c >= kPoolClasses || free_count[c] >= kPoolKeep) {
    ::operator delete(p);
    return;
  }
  free_blocks[c] = new (p) FreeBlock{free_blocks[c]};
  ++free_count[c];
}
}  // namespace seg

namespace {

class IbarrierOp final : public p2p::Extension, public Pooled {
 public:
  IbarrierOp(std::shared_ptr<Segment> seg, std::uint64_t b) : seg_(std::move(seg)), b_(b) {}
  bool poll() override { return seg_->all_ibarrier(b_); }
  int error() const override { return MPI_SUCCESS; }
  const char* describe() const override { return ""; }

 private:
  std::shared_ptr<Segment> seg_;
  std::uint64_t b_;
};

// Whether a reduction of m bytes folds whole vectors from the slots: up to
// Segment::fold_whole(), or a whole slot region between two members (each folds what a
// by-blocks round would split in two, but all of it after the starts, in
// its own progress, where the message schedule's second round waits for
// the other member's next MPI call).
bool foldable(const Segment& s, const Reduction& r, std::size_t m) {
  return r.type->contiguous() && m <= (s.size() == 2 ? s.inline_max() : s.fold_whole());
}

// The vectors of nonblocking reductions and scans. A member's region holds
// its vector's address (published by address) or 0, then at kVectorData
// the vector itself. By address (from 16 KiB with a core per rank, not in
// place: there the result overwrites the vector while others still read
// it) the start copies nothing, the readers copy in their own progress,
// overlapping their computation, and the member completes once they are
// done. Each member chooses (in place is its own business), so the mode is
// in the region. np = 2, alternating runs, slot / address: iexscan 64 KiB
// 6.4-7.3 / 7.9 us, overlap 4-10 / 98 %; iscan 64 KiB 8.8-12.1 / 11.6-12.0
// us, 84 / 98 %; at 32 KiB iexscan 3.5-3.8 / 5.2 us. The threshold was
// 64 KiB for that latency; overlap decides it now, and the peers' latency
// leaves room: in a slower period of this machine (cross-core copies slow)
// slot / address at 16 KiB: iexscan 5.8-7.7 / 3.9-4.1 us, overlap 2-7 /
// 92-93 %; iallreduce 10.5 / 5.0-5.1 us, 29 / 94 %; ireduce 5.6 / 4.9-5.9
// us, 20-25 / 92 % (Open MPI, quiet machine: 4.5, 4.5, 4.9 us, 92-93 %);
// at 8 KiB the address path cost more than it hid, hence 16 KiB
// (Segment::prefer_single_copy for nonblocking collectives).
// 16: a small vector shares its mode word's cache line, aligned for every
// predefined type (regions start on a cache line).
constexpr std::size_t kVectorData = 16;

bool vector_by_address(const Segment& s, std::size_t m, const void* mine, const void* result) {
  return s.prefer_single_copy(m, true) && mine != result;
}

// Whether a vector of m bytes can be published: by address, or with its
// mode word in a slot region.
bool vector_fits(const Segment& s, std::size_t m, bool by_address) {
  return by_address ? s.single_copy() : kVectorData + m <= s.inline_max();
}

void publish_vector(Segment& s, std::uint64_t k, const void* mine, std::size_t m, bool by_address) {
  std::byte* region = s.reserve(k, by_address ? kVectorData : kVectorData + m);
  const std::uint64_t addr = by_address ? reinterpret_cast<std::uint64_t>(mine) : 0;
  std::memcpy(region, &addr, sizeof addr);
  if (!by_address) core::copy_bulk(region + kVectorData, mine, m);
  s.post(k);
  s.wake_all();
}

// Bytes [offset, offset + len) of member j's vector of collective k
// (posted): in its slot region, read by single copy into *copy, or, for
// this member by address, in `mine` itself (not in place, so no fold into
// the result has changed it). One copy buffer serves a whole fold: each
// vector is used before the next is asked for.
const std::byte* vector_of(const Segment& s, std::uint64_t k, int j, std::size_t offset, std::size_t len,
                           const void* mine, bool mine_by_address, std::unique_ptr<Temp>* copy) {
  if (j == s.me() && mine_by_address) return static_cast<const std::byte*>(mine) + offset;
  const std::byte* at = s.data(j, k);
  std::uint64_t from;
  std::memcpy(&from, at, sizeof from);
  if (from == 0) return at + kVectorData + offset;
  if (!*copy) *copy = std::make_unique<Temp>(len);
  s.read(j, from + offset, (*copy)->get(), len);
  return (*copy)->get();
}

}  // namespace

bool seg::ivector_fits(const Segment& s, const Reduction& r, const void* mine, const void* result, bool fold) {
  const std::size_t m = static_cast<std::size_t>(r.count) * r.type->size;
  if (fold ? !foldable(s, r, m) : !r.type->contiguous()) return false;
  return vector_fits(s, m, vector_by_address(s, m, mine, result));
}


int iseg_barrier(const std::shared_ptr<Segment>& s, MPI_Comm comm, MPI_Request* request) {
  core::count(core::Counter::seg_barrier);
  const std::uint64_t b = s->arrive_ibarrier();
  return p2p::start_extension(std::make_unique<IbarrierOp>(s, b), comm, request);
}

int iseg_bcast(const std::shared_ptr<Segment>& sp, const Typed& buf, MPI_Datatype type, int root, MPI_Comm comm,
               MPI_Request* request) {
  Segment& s = *sp;
  const std::size_t m = buf.bytes();
  // Up to a slot region. The root's buffer goes into its region, or, from
  // 16 KiB with a core per rank (Segment::prefer_single_copy, nonblocking),
  // by address as an allgather's own block
  // does (own_block_by_address): then the start copies nothing, the readers
  // copy in their own progress, overlapping their computation, and the
  // root's request completes once they are done. np = 2, alternating runs,
  // slot / address: 32 KiB 6.2 / 9.0-9.6 us, overlap 60 / 95 %; 64 KiB
  // 12.1 / 14.3-15.9 us, 64 / 97 %; in a slower period of this machine
  // 32 KiB 18-20 / 22 us, 64 KiB 40-41 / 41-43 us, overlap 52 / 97 % (Open
  // MPI at 64 KiB: 12.7 us, 95 %). At 16 KiB, A/B: 2.35 / 4.7 us, overlap
  // 56 / 96 % (Open MPI 5.2 us, 92 %), hence 16 KiB, as for every
  // nonblocking collective. Larger messages take the schedule, whose split
  // single copy is twice as fast at 1 MiB.
  core::count(core::Counter::seg_bcast);
  const std::uint64_t k = s.begin();
  if (s.me() == root) {
    std::shared_ptr<Published> pub = publish_own_block(s, k, buf, m, true);
    s.wake_all();
    auto op = make_op(sp, k, always, nothing, readers_done(s, k, pub != nullptr));
    op->keep(std::move(pub));
    return start_op(std::move(op), s, comm, request);
  }
  auto op = make_op(sp, k, [&s, k, root] { return posted(s, root, k); },
                    [&s, k, root, buf] {
                      take_own_block(s, k, root, buf, true);
                      return MPI_SUCCESS;
                    });
  op->keep(keep_type(type, buf.type));
  return start_op(std::move(op), s, comm, request);
}

// MPI_Ireduce (root >= 0) and MPI_Iallreduce (root -1) of small vectors:
// every member's contribution published at the start (publish_vector: in
// its slot, or by address from 64 KiB between two members with a core
// each); the members that need the result fold all of them in rank order
// once all are posted. np = 2, 64 KiB, alternating runs, slot / address:
// iallreduce 11.6-11.8 / 10.1-10.2 us, overlap 40 / 98 %; ireduce
// 11.1-11.6 / 10.0-10.1 us, 61 / 95 %.
int iseg_reduce(const std::shared_ptr<Segment>& sp, const Reduction& r, const void* mine, void* result, int root,
                MPI_Comm comm, MPI_Request* request) {
  Segment& s = *sp;
  const std::size_t m = static_cast<std::size_t>(r.count) * r.type->size;
  const bool by_address = vector_by_address(s, m, mine, result);
  core::count(root >= 0 ? core::Counter::seg_reduce : core::Counter::seg_allreduce);
  const std::uint64_t k = s.begin();
  publish_vector(s, k, mine, m, by_address);
  const auto released = readers_done(s, k, by_address);
  if (root >= 0 && s.me() != root) return start_op(make_op(sp, k, always, nothing, released), s, comm, request);
  const int n = s.size();
  auto op = make_op(
      sp, k, [&s, k, n] { return all_posted(s, k, 0, n - 1); },
      [&s, k, n, r, result, m, mine, by_address] {
        std::unique_ptr<Temp> copy;
        return fold_down(r, n - 1, [&](int j) { return vector_of(s, k, j, 0, m, mine, by_address, &copy); }, result);
      },
      released);
  op->keep(keep_type(r.type_handle, r.type));
  return start_op(std::move(op), s, comm, request);
}

// MPI_Ireduce_scatter(_block) of small vectors: every member's whole vector
// published at the start (publish_vector: in its slot, or by address from
// 64 KiB between two members with a core each); each folds its own block of
// all of them, in rank order, once all are posted.
int iseg_reduce_scatter(const std::shared_ptr<Segment>& sp, const Reduction& r, const void* mine, void* result,
                        const int* counts, MPI_Comm comm, MPI_Request* request) {
  Segment& s = *sp;
  const std::size_t m = static_cast<std::size_t>(r.count) * r.type->size;
  const bool by_address = vector_by_address(s, m, mine, result);
  core::count(core::Counter::seg_reduce_scatter);
  const std::uint64_t k = s.begin();
  publish_vector(s, k, mine, m, by_address);
  const int n = s.size();
  std::size_t at = 0;  // bytes before this member's block
  for (int j = 0; j < s.me(); ++j) at += static_cast<std::size_t>(counts[j]) * r.type->size;
  Reduction block = r;
  block.count = counts[s.me()];
  const std::size_t len = static_cast<std::size_t>(block.count) * r.type->size;
  auto op = make_op(
      sp, k, [&s, k, n] { return all_posted(s, k, 0, n - 1); },
      [&s, k, n, block, at, len, result, mine, by_address] {
        if (block.count == 0) return MPI_SUCCESS;
        std::unique_ptr<Temp> copy;
        return fold_down(block, n - 1, [&](int j) { return vector_of(s, k, j, at, len, mine, by_address, &copy); },
                         result);
      },
      readers_done(s, k, by_address));
  op->keep(keep_type(r.type_handle, r.type));
  return start_op(std::move(op), s, comm, request);
}

int iseg_scan(const std::shared_ptr<Segment>& sp, const Reduction& r, const void* mine, void* result, bool exclusive,
              MPI_Comm comm, MPI_Request* request) {
  Segment& s = *sp;
  const std::size_t m = static_cast<std::size_t>(r.count) * r.type->size;
  const bool by_address = vector_by_address(s, m, mine, result);
  core::count(core::Counter::seg_scan);
  const std::uint64_t k = s.begin();
  publish_vector(s, k, mine, m, by_address);
  const int last = exclusive ? s.me() - 1 : s.me();
  auto op = make_op(
      sp, k, [&s, k, last] { return all_posted(s, k, 0, last); },
      [&s, k, last, r, result, m, mine, by_address] {
        if (last < 0) return MPI_SUCCESS;
        std::unique_ptr<Temp> copy;
        return fold_up(r, last, [&](int j) { return vector_of(s, k, j, 0, m, mine, by_address, &copy); }, result);
      },
      readers_done(s, k, by_address));
  op->keep(keep_type(r.type_handle, r.type));
  return start_op(std::move(op), s, comm, request);
}

}  // namespace ringmpi::coll
