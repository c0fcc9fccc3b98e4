// Data-movement collectives on the shared segment (see coll/seg.hpp).
#include <algorithm>

#include "coll/seg.hpp"
#include "coll/seg_common.hpp"
#include "coll/select.hpp"
#include "tunables/tunables.hpp"

namespace ringmpi::coll {

using namespace seg;

// Root's buffer goes through its slot region (small) or is read by everybody
// straight from the root's memory (large); the root waits for the readers
// only in the second case. Two ranks with a core each split a large copy.
void seg_bcast(Segment& s, const Typed& buf, int root) {
  const std::size_t m = buf.bytes();
  // A forced way (coll/select.hpp: segment_slot, _address, _split) or the sizes.
  const Algo way = s.way();
  const bool small = way == Algo::segment_slot || (way == Algo::segment && m <= s.inline_max());
  core::count(core::Counter::seg_bcast);
  if (m == 0) return;
  if (two_level(s, tunables::Id::coll_bcast)) {
    bcast_two_level(s, buf, root);
    return;
  }
  // Two ranks with a core each and a large message: the copy is split
  // (RINGMPI_COLL_SPLIT_MIN); the reader posts where the root may write (`dest`, 0: not
  // at all), the root writes the second half and stores pushed = k.
  const bool split = way == Algo::segment_split || (way == Algo::segment && !small && s.size() == 2 &&
                                                   !s.oversubscribed() && m >= s.split_min());
  s.took(small ? Algo::segment_slot : split ? Algo::segment_split : Algo::segment_address);
  const std::uint64_t k = s.begin();
  if (s.me() == root) {
    if (small) {
      pack_to(buf, s.reserve(k, m));
      s.post_done(k);
      return;
    }
    const Published pub(buf);
    s.line(root).addr = pub.addr();
    s.post(k);
    s.wake_all();
    if (split) {  // the reader's half is read; write the other half where it said
      const int reader = 1 - root;
      s.wait_posted(reader, k);
      const std::uint64_t dest = s.line(reader).dest;
      if (dest != 0) {
        const std::size_t half = split_half(m);
        s.write(reader, reinterpret_cast<const std::byte*>(pub.addr()) + half, dest + half, m - half);
      }
      s.line(root).pushed.store(k, std::memory_order_release);
      s.wake(reader);
    }
    s.finish(k);
    s.wait_all_done(k);
    return;
  }
  if (split) {  // where the root may write: our buffer, when contiguous
    s.line(s.me()).dest = buf.type->contiguous() ? reinterpret_cast<std::uint64_t>(buf.buf) : 0;
    s.post(k);
    s.wake(root);
  }
  s.wait_posted(root, k);
  if (small) {
    unpack_from(s.data(root, k), m, buf);
  } else if (split && buf.type->contiguous()) {
    if (split_half(m) != 0) s.read(root, s.line(root).addr, const_cast<void*>(buf.buf), split_half(m));
    s.wait_pushed(root, k);
  } else {
    read_into(s, root, s.line(root).addr, m, buf);
  }
  s.finish(k);
}

namespace {

// A writer's region: how its blocks travel (kInSlot or kByAddress) and how
// many entries its table has (one word), the table, for neighbourhood
// collectives each entry's destination rank after it, then (in the slot,
// from the next line) the blocks. For a few ranks and small blocks that is
// two cache lines.
struct TableHead {
  std::uint32_t mode;
  std::uint32_t entries;
};
std::size_t table_bytes(std::size_t m, bool with_dests = false) {
  return align64(sizeof(TableHead) + m * sizeof(Entry) + (with_dests ? m * sizeof(std::int32_t) : 0));
}
TableHead& head_of(std::byte* region) { return *reinterpret_cast<TableHead*>(region); }
Entry* table_of(std::byte* region) { return reinterpret_cast<Entry*>(region + sizeof(TableHead)); }
// The packed table (kInSlotPacked): m entries of 4 bytes after the head,
// the blocks from the next 8 bytes (slot_place), so that for a few ranks
// and small blocks head, table and blocks share the region's first line.
std::size_t packed_table_bytes(std::size_t m) { return sizeof(TableHead) + m * sizeof(PackedEntry); }
PackedEntry* packed_table_of(std::byte* region) {
  return reinterpret_cast<PackedEntry*>(region + sizeof(TableHead));
}
std::int32_t* dests_of(std::byte* region) {
  return reinterpret_cast<std::int32_t*>(table_of(region) + head_of(region).entries);
}

// The slot layout of a writer's blocks, which its readers find through the
// table: after the table (`head` bytes), each block that goes (goes(j)) at
// slot_place() of its size (bytes(j)), in member order. publish_blocks and
// the small scatter root both lay out with these two, so that a reader
// cannot tell their regions apart.
template <class Goes, class Bytes>
[[gnu::always_inline]] inline std::size_t slot_total(std::size_t head, std::size_t m, Goes goes, Bytes bytes,
                                                     std::size_t* largest) {
  std::size_t total = head;
  *largest = 0;
  for (std::size_t j = 0; j < m; ++j)
    if (goes(j)) {
      const std::size_t b = bytes(j);
      total = slot_place(total, b) + b;
      *largest = std::max(*largest, b);
    }
  return total;
}
// put(j, dst, b) writes block j's b bytes at dst; its table entry goes
// into `table` (Entry, or PackedEntry when every offset fits 16 bits).
template <class E, class Goes, class Bytes, class Put>
[[gnu::always_inline]] inline void slot_fill(E* table, std::byte* region, std::size_t head, std::size_t m, Goes goes,
                                             Bytes bytes, Put put) {
  std::size_t at = head;
  for (std::size_t j = 0; j < m; ++j) {
    if (!goes(j)) continue;
    const std::size_t b = bytes(j);
    at = slot_place(at, b);
    put(j, region + at, b);
    table[j] = E{static_cast<decltype(E::where)>(at), static_cast<decltype(E::bytes)>(b)};
    at += b;
  }
}

}  // namespace

std::uint64_t seg::publish_blocks(Segment& s, std::uint64_t k, std::span<const Typed> blocks,
                                  std::span<const char> to, std::unique_ptr<Temp>* keep,
                                  const std::vector<int>* dests, bool by_address, bool nonblocking) {
  const std::size_t m = blocks.size();
  const std::size_t head = table_bytes(m, dests != nullptr);
  const auto goes = [&](std::size_t j) { return to[j] != 0; };
  const auto bytes = [&](std::size_t j) { return blocks[j].bytes(); };
  std::size_t largest;
  const std::size_t total = slot_total(head, m, goes, bytes, &largest);
  // A blocking call's forced way (Segment::way; fits.cpp checked that the slot holds it), else the sizes.
  const Algo way = nonblocking ? Algo::segment : s.way();
  const bool in_slot = way == Algo::segment_slot ||
                       (way == Algo::segment && total <= s.inline_max() &&
                        !s.prefer_single_copy(largest, nonblocking) && !by_address);
  std::byte* region = s.reserve(k, in_slot ? total : head);
  head_of(region).entries = static_cast<std::uint32_t>(m);
  if (dests) std::copy(dests->begin(), dests->end(), dests_of(region));
  Entry* table = table_of(region);
  if (in_slot) {
    slot_fill(table, region, head, m, goes, bytes,
              [&](std::size_t j, std::byte* dst, std::size_t) { pack_to(blocks[j], dst); });
  } else {
    bool all_contiguous = true;
    std::size_t packed = 0;
    for (std::size_t j = 0; j < m; ++j)
      if (to[j]) {
        all_contiguous = all_contiguous && blocks[j].type->contiguous();
        packed += align64(blocks[j].bytes());
      }
    std::byte* base = nullptr;
    if (!all_contiguous) {
      *keep = std::make_unique<Temp>(packed);
      base = (*keep)->get();
    }
    std::size_t at = 0;
    for (std::size_t j = 0; j < m; ++j) {
      if (!to[j]) continue;
      const Typed& b = blocks[j];
      if (all_contiguous) {
        table[j] = Entry{reinterpret_cast<std::uint64_t>(b.buf), b.bytes()};
      } else {
        pack_to(b, base + at);
        table[j] = Entry{reinterpret_cast<std::uint64_t>(base + at), b.bytes()};
        at += align64(b.bytes());
      }
    }
  }
  const std::uint64_t mode = in_slot ? kInSlot : kByAddress;
  head_of(region).mode = static_cast<std::uint32_t>(mode);
  s.post(k);
  return mode;
}

void seg::take_block(const Segment& s, std::uint64_t k, int i, const Typed& t, int entry) {
  std::byte* region = s.data(i, k);
  const std::size_t j = static_cast<std::size_t>(entry < 0 ? s.me() : entry);
  const std::uint32_t mode = head_of(region).mode;
  if (mode == kInSlotPacked) {
    const PackedEntry e = packed_table_of(region)[j];
    unpack_from(region + e.where, e.bytes, t);
    return;
  }
  const Entry e = table_of(region)[j];
  if (mode == kInSlot)
    unpack_from(region + e.where, e.bytes, t);
  else
    read_into(s, i, e.where, e.bytes, t);
}

bool seg::others_empty(const Segment& s, const int* counts, const dtype::Datatype& t) {
  if (t.size == 0) return true;
  for (int j = 0; j < s.size(); ++j)
    if (j != s.me() && counts[j] != 0) return false;
  return true;
}

bool seg::may_push(const Segment& s, std::size_t bytes) {
  return s.single_copy() &&
         (s.prefer_single_copy(bytes, true) ||
          table_bytes(static_cast<std::size_t>(s.size())) + align64(bytes) > s.inline_max() / 2);
}

void seg::publish_destinations(Segment& s, std::uint64_t k, std::span<const Typed> blocks, std::span<const char> push) {
  const std::size_t m = blocks.size();
  std::byte* region = s.reserve(k, table_bytes(m));
  head_of(region).entries = static_cast<std::uint32_t>(m);
  Entry* table = table_of(region);
  for (std::size_t j = 0; j < m; ++j)
    table[j] = Entry{push[j] ? reinterpret_cast<std::uint64_t>(blocks[j].buf) : 0, blocks[j].bytes()};
  head_of(region).mode = static_cast<std::uint32_t>(kByAddress);
  s.post(k);
}

bool seg::push_to(const Segment& s, std::uint64_t k, int root, std::uint64_t from, std::size_t bytes) {
  const Entry to = table_of(s.data(root, k))[s.me()];
  if (to.where == 0) return false;
  bytes = std::min<std::size_t>(bytes, to.bytes);
  core::count(core::Counter::seg_pushed);
  if (bytes) s.write(root, reinterpret_cast<const void*>(from), to.where, bytes);
  return true;
}

bool seg::push_block(const Segment& s, std::uint64_t k, int root) {
  const Entry from = table_of(s.data(s.me(), k))[root];
  return push_to(s, k, root, from.where, from.bytes);
}

int seg::take_gathered(const Segment& s, std::uint64_t k, int j, const Typed& dst, bool pushed) {
  std::byte* region = s.data(j, k);
  const std::uint64_t bytes = table_of(region)[s.me()].bytes;
  if (!pushed || head_of(region).mode == kInSlot) take_block(s, k, j, dst);
  return bytes > dst.bytes() ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

int seg::entry_for(const Segment& s, std::uint64_t k, int i, int occurrence) {
  std::byte* region = s.data(i, k);
  const std::int32_t* dests = dests_of(region);
  const std::uint32_t m = head_of(region).entries;
  for (std::uint32_t e = 0; e < m; ++e)
    if (dests[e] == s.me() && occurrence-- == 0) return static_cast<int>(e);
  return -1;
}

bool seg::table_fits(const Segment& s, std::size_t entries) {
  return table_bytes(entries, true) <= s.inline_max() / 2;
}

bool seg::tables_apply(const Segment& s, long long block) {
  const std::size_t table = table_bytes(static_cast<std::size_t>(s.size()));
  if (table > s.inline_max() / 2) return false;
  if (s.single_copy()) return true;
  if (block < 0) return false;
  const auto b = static_cast<std::size_t>(block);
  return table + static_cast<std::size_t>(s.size()) * slot_place(b, b) <= s.inline_max();
}

bool seg::blocks_in_slot(const Segment& s, std::size_t block) {
  const std::size_t table = table_bytes(static_cast<std::size_t>(s.size()));
  return table <= s.inline_max() / 2 && table + static_cast<std::size_t>(s.size()) * slot_place(block, block) <= s.inline_max();
}

bool seg::own_block_by_address(const Segment& s, std::size_t bytes, bool nonblocking) {
  const Algo way = nonblocking ? Algo::segment : s.way();  // a blocking call's forced way, else the sizes
  if (way == Algo::segment_slot || way == Algo::segment_address) return way == Algo::segment_address;
  return bytes > s.inline_max() || s.prefer_single_copy(bytes, nonblocking);
}

bool seg::allgather_applies(const Segment& s, const int* counts, const dtype::Datatype& rtype, bool* any_large,
                            bool nonblocking) {
  *any_large = false;
  for (int j = 0; j < s.size(); ++j)
    *any_large = *any_large || own_block_by_address(s, std::size_t(counts[j]) * rtype.size, nonblocking);
  return !*any_large || s.single_copy();
}

std::shared_ptr<Published> seg::publish_own_block(Segment& s, std::uint64_t k, const Typed& src, std::size_t bytes,
                                                  bool nonblocking) {
  std::shared_ptr<Published> pub;
  if (!own_block_by_address(s, bytes, nonblocking)) {
    pack_to(src, s.reserve(k, bytes));
  } else {
    pub = std::make_shared<Published>(src);
    const std::uint64_t addr = pub->addr();
    std::memcpy(s.reserve(k, sizeof addr), &addr, sizeof addr);
  }
  s.post(k);
  return pub;
}

void seg::take_own_block(const Segment& s, std::uint64_t k, int j, const Typed& dst, bool nonblocking) {
  if (!own_block_by_address(s, dst.bytes(), nonblocking)) {
    unpack_from(s.data(j, k), dst.bytes(), dst);
    return;
  }
  std::uint64_t addr;
  std::memcpy(&addr, s.data(j, k), sizeof addr);
  read_into(s, j, addr, dst.bytes(), dst);
}

Typed seg::allgather_source(const Typed& send, bool in_place, const Typed& own, bool* from_send) {
  // Publish from the send buffer and copy into the own block afterwards:
  // the others start at once, and they read memory that is not being
  // written (a block just copied into recvbuf is dirty in this core's
  // cache: 256 KiB at np = 2 took 50 us that way, 27 us this way).
  // (A send block whose size differs from the receive block is an erroneous
  // call: it goes into place first and is published from there, truncated.)
  *from_send = !in_place && send.bytes() == own.bytes();
  if (!in_place && !*from_send) copy_typed(send, own);
  return *from_send ? send : own;
}

namespace {

MemberBlocks alltoall_blocks(int n, const void* sendbuf, const int* scounts, const int* sdispls,
                             const dtype::Datatype& stype, void* recvbuf, const int* rcounts, const int* rdispls,
                             const dtype::Datatype& rtype, bool in_place, std::unique_ptr<Temp>* saved) {
  if (!in_place) return blocks_at(sendbuf, stype, scounts, sdispls, n);
  MemberBlocks blocks(static_cast<std::size_t>(n), Typed{});
  // MPI_IN_PLACE: the outgoing blocks, saved before recvbuf is overwritten,
  // as packed bytes (MPI_BYTE describes them).
  std::size_t total = 0;
  for (int j = 0; j < n; ++j) total += align64(static_cast<std::size_t>(rcounts[j]) * rtype.size);
  *saved = std::make_unique<Temp>(total);
  const dtype::Datatype* bytes = dtype::lookup(MPI_BYTE);
  std::size_t at = 0;
  for (int j = 0; j < n; ++j) {
    const Typed b = block_of(recvbuf, rtype, rdispls[j], rcounts[j]);
    pack_to(b, (*saved)->get() + at);
    blocks[static_cast<std::size_t>(j)] = Typed{(*saved)->get() + at, static_cast<int>(b.bytes()), bytes};
    at += align64(b.bytes());
  }
  return blocks;
}

}  // namespace

std::uint64_t seg::start_alltoall(Segment& s, std::uint64_t k, const void* sendbuf, const int* scounts,
                                  const int* sdispls, const dtype::Datatype& stype, void* recvbuf, const int* rcounts,
                                  const int* rdispls, const dtype::Datatype& rtype, bool in_place,
                                  std::unique_ptr<Temp>* saved, std::unique_ptr<Temp>* keep,
                                  bool nonblocking) {
  const int me = s.me();
  const MemberBlocks blocks =
      alltoall_blocks(s.size(), sendbuf, scounts, sdispls, stype, recvbuf, rcounts, rdispls, rtype, in_place, saved);
  const std::uint64_t mode = publish_blocks(s, k, blocks, others(s), keep, nullptr, false, nonblocking);
  s.wake_all();
  if (!in_place)
    copy_typed(blocks[static_cast<std::size_t>(me)], block_of(recvbuf, rtype, rdispls[me], rcounts[me]));
  return mode;
}

std::uint64_t seg::start_scatter_root(Segment& s, std::uint64_t k, const void* sendbuf, const int* counts,
                                      const int* displs, const dtype::Datatype& stype, const Typed& recv,
                                      bool in_place, std::unique_ptr<Temp>* keep,
                                      bool nonblocking) {
  const int n = s.size();
  const MemberBlocks blocks = blocks_at(sendbuf, stype, counts, displs, n);
  const std::uint64_t mode = publish_blocks(s, k, blocks, others(s), keep, nullptr, false, nonblocking);
  s.wake_all();
  if (!in_place) copy_typed(blocks[static_cast<std::size_t>(s.me())], recv);
  return mode;
}

namespace {

// The root of a blocking MPI_Scatter(v) whose blocks are contiguous and
// all fit its slot region with their table (the small calls): what
// publish_blocks does, in one pass over the counts for the sizes and one
// that writes the table and copies the blocks, with no per-member lists
// (blocks_at, others) and inline copies for small blocks. Where every
// offset fits 16 bits the table is packed (kInSlotPacked, 4-byte entries
// right after the head, the small blocks 8 bytes apart after it: np 4 with
// 4-byte blocks is one line where publish_blocks' table of 16-byte entries
// takes two before the blocks' line); else the region is publish_blocks'
// (kInSlot). take_block reads both. False,
// having done nothing, where the general path must run (a type that is
// not contiguous, blocks too large for the slot or for single copy, a way
// forced to the address). Its caller has returned already where every
// other member's block is empty (others_empty).
bool scatter_root_in_slot(Segment& s, std::uint64_t k, const void* sendbuf, const int* counts, const int* displs,
                          const dtype::Datatype& stype, const Typed& recv, bool in_place) {
  const Algo way = s.way();
  if ((way != Algo::segment && way != Algo::segment_slot) || !stype.contiguous()) return false;
  const auto n = static_cast<std::size_t>(s.size());
  const int me = s.me();
  const auto goes = [&](std::size_t j) { return static_cast<int>(j) != me; };
  const auto bytes = [&](std::size_t j) { return std::size_t(counts[j]) * stype.size; };
  // The packed table where every offset and size fits 16 bits (the small
  // calls), else publish_blocks' table.
  std::size_t largest;
  std::size_t head = packed_table_bytes(n);
  std::size_t total = slot_total(head, n, goes, bytes, &largest);
  const bool packed = total <= 0xffff;
  if (!packed) {
    head = table_bytes(n);
    total = slot_total(head, n, goes, bytes, &largest);
  }
  if (way == Algo::segment && (total > s.inline_max() || s.prefer_single_copy(largest))) return false;
  std::byte* region = s.reserve(k, total);
  head_of(region).entries = static_cast<std::uint32_t>(n);
  const auto* base = static_cast<const std::byte*>(sendbuf);
  const auto put = [&](std::size_t j, std::byte* dst, std::size_t b) {
    if (b) core::copy_bytes(dst, base + static_cast<std::ptrdiff_t>(displs[j]) * stype.extent, b);
  };
  if (packed)
    slot_fill(packed_table_of(region), region, head, n, goes, bytes, put);
  else
    slot_fill(table_of(region), region, head, n, goes, bytes, put);
  head_of(region).mode = static_cast<std::uint32_t>(packed ? kInSlotPacked : kInSlot);
  s.post(k);
  s.took(Algo::segment_slot);
  if (s.has_pending()) s.wake_all();  // as the general path: readers wait for finish()'s wake-up
  if (!in_place) copy_typed(block_of(sendbuf, stype, displs[me], counts[me]), recv);
  s.finish(k);
  return true;
}

}  // namespace

void seg_scatterv(Segment& s, const void* sendbuf, const int* counts, const int* displs, const dtype::Datatype& stype,
                  const Typed& recv, bool in_place, int root, long long block) {
  core::count(core::Counter::seg_scatter);
  if (block == 0) return;  // nothing moves, and a collective need not synchronize
  const std::uint64_t k = s.begin();
  if (s.me() == root) {
    // Nothing for anybody (every other block empty, zero-byte v forms):
    // no table and no wake-up, the readers of empty blocks do not wait
    // (checked before the slot path and the block list, which would come
    // to the same end).
    if (others_empty(s, counts, stype)) {
      if (!in_place) copy_typed(block_of(sendbuf, stype, displs[root], counts[root]), recv);
      s.finish(k);
      return;
    }
    // The table and the blocks are posted by publish_blocks; readers of a
    // table in the slot are woken by finish()'s wake-up (one fence and one
    // look at the sleepers for the whole call: the root reads nothing),
    // those of a table of addresses at once, as are all readers when
    // finish() must first complete pending nonblocking collectives.
    if (scatter_root_in_slot(s, k, sendbuf, counts, displs, stype, recv, in_place)) return;
    std::unique_ptr<Temp> keep;
    const MemberBlocks blocks = blocks_at(sendbuf, stype, counts, displs, s.size());
    const std::uint64_t mode = publish_blocks(s, k, blocks, others(s), &keep, nullptr, false, false);
    s.took(mode == kByAddress ? Algo::segment_address : Algo::segment_slot);
    if (mode == kByAddress || s.has_pending()) s.wake_all();
    if (!in_place) copy_typed(blocks[static_cast<std::size_t>(s.me())], recv);
    s.finish(k);
    if (mode == kByAddress) s.wait_all_done(k);
    return;
  }
  // A reader of no bytes reads nothing (the root knows its count is 0 too,
  // so no table entry of the root is meant for it): it takes its sequence
  // number and stores done = k without waiting for the root.
  if (recv.bytes() != 0) {
    s.wait_posted(root, k);
    take_block(s, k, root, recv);
    s.took(head_of(s.data(root, k)).mode == kByAddress ? Algo::segment_address : Algo::segment_slot);
  }
  s.finish(k);
}

// Each member's block goes through its own slot region when it fits (it
// returns at once), else the root reads it from the member's buffer (the
// member waits for the root). Both sides know the block's size.
void seg_gatherv(Segment& s, const Typed& send, bool in_place, void* recvbuf, const int* counts, const int* displs,
                 const dtype::Datatype& rtype, int root, long long block) {
  core::count(core::Counter::seg_gather);
  if (block == 0) return;
  const std::uint64_t k = s.begin();
  // Both sides of a block decide alike (the same size, the same segment).
  const Algo way = s.way();  // a forced way (fits.cpp checked it), else the sizes
  const auto by_slot = [&s, way](std::size_t m) {
    return way == Algo::segment_slot || (way == Algo::segment && m <= s.inline_max() && !s.prefer_single_copy(m));
  };
  if (s.me() != root) {
    const std::size_t m = send.bytes();
    if (m == 0) {  // the root does not read an empty block: nothing to post (others_empty)
      s.finish(k);
      return;
    }
    if (by_slot(m)) {
      s.took(Algo::segment_slot);
      pack_to(send, s.reserve(k, m));
      s.post_done(k);
      return;
    }
    s.took(Algo::segment_address);
    // A large block: pushed into the root's buffer where the root asks for
    // that (the copies then run on every member's core at once), else read
    // by the root from here. The root posts a table only when it asks some
    // member to push, and stores done = k only once those have pushed: its
    // done >= k means "not you" (done is read after posted: a root's post
    // of k + 1 comes after its done = k).
    const Published pub(send);
    s.line(s.me()).addr = pub.addr();
    s.post(k);
    s.wake(root);
    s.wait_posted_or_done(root, k);
    const bool pushed = !s.done_at(root, k) && push_to(s, k, root, pub.addr(), m);
    s.finish(k);
    if (!pushed) s.wait_done(root, k);
    return;
  }
  if (!in_place) copy_typed(send, block_of(recvbuf, rtype, displs[root], counts[root]));
  // Every other block empty (zero-byte v forms): nothing to read, nobody
  // to wait for (those members post nothing and push nothing).
  if (others_empty(s, counts, rtype)) {
    if (way != Algo::segment) s.took(way);
    s.finish(k);
    return;
  }
  // Large blocks into contiguous receive blocks are pushed (Pushes,
  // seg_common.hpp); the others are read here.
  const int n = s.size();
  MemberFlags reads = others(s), pushers;
  if (way != Algo::segment) {
    s.took(way);
  } else {  // the ways of the blocks (the counters: one way, or mixed)
    int slots = 0, addresses = 0;
    for (int j = 0; j < n; ++j)
      if (j != root && std::size_t(counts[j]) * rtype.size != 0)
        ++(by_slot(std::size_t(counts[j]) * rtype.size) ? slots : addresses);
    if (slots + addresses > 0 && (slots == 0 || addresses == 0))
      s.took(slots ? Algo::segment_slot : Algo::segment_address);
  }
  // A member whose block is empty posts nothing, and there is nothing to
  // read from it: the root does not wait for it.
  for (int j = 0; j < n; ++j)
    if (std::size_t(counts[j]) * rtype.size == 0) reads[static_cast<std::size_t>(j)] = 0;
  if (rtype.contiguous())
    for (int j = 0; j < n; ++j)
      if (j != root && !by_slot(std::size_t(counts[j]) * rtype.size)) {
        if (pushers.empty()) pushers.assign(static_cast<std::size_t>(n), 0);
        pushers[static_cast<std::size_t>(j)] = 1;
        reads[static_cast<std::size_t>(j)] = 0;
      }
  if (!pushers.empty()) {
    publish_destinations(s, k, blocks_at(recvbuf, rtype, counts, displs, n), pushers);
    s.wake_all();
  }
  each_posted(s, k, reads, [&](int j) {
    const Typed dst = block_of(recvbuf, rtype, displs[j], counts[j]);
    const std::size_t m = dst.bytes();
    if (by_slot(m))
      unpack_from(s.data(j, k), m, dst);
    else
      read_into(s, j, s.line(j).addr, m, dst);
  });
  if (!pushers.empty()) s.wait_all_done(k, pushers);
  s.finish(k);
}

// Every member publishes its block (slot or address, by its size, which all
// know) and takes everybody else's; with any block by address, everybody
// waits for everybody before returning.
void seg_allgatherv(Segment& s, const Typed& send, bool in_place, void* recvbuf, const int* counts, const int* displs,
                    const dtype::Datatype& rtype) {
  bool any_large;
  allgather_applies(s, counts, rtype, &any_large);  // it does (coll/select.hpp): whether blocks go by address
  const int n = s.size();
  std::size_t total = 0;  // every member knows every count
  for (int j = 0; j < n; ++j) total += static_cast<std::size_t>(counts[j]) * rtype.size;
  core::count(core::Counter::seg_allgather);
  if (total == 0) return;
  const std::uint64_t k = s.begin();
  const int me = s.me();
  const Typed own = block_of(recvbuf, rtype, displs[me], counts[me]);
  bool from_send;
  const Typed src = allgather_source(send, in_place, own, &from_send);
  if (s.way() != Algo::segment)
    s.took(s.way());
  else if (!any_large)
    s.took(Algo::segment_slot);
  const std::shared_ptr<Published> pub = publish_own_block(s, k, src, own.bytes());
  s.wake_all();
  if (from_send) copy_typed(send, own);
  each_posted(s, k, others(s), [&](int j) { take_own_block(s, k, j, block_of(recvbuf, rtype, displs[j], counts[j])); });
  s.finish(k);
  if (any_large) s.wait_all_done(k);
}

// Every member publishes a table of its outgoing blocks (slot or address)
// and takes its block from everybody else's table.
void seg_alltoallv(Segment& s, const void* sendbuf, const int* scounts, const int* sdispls,
                   const dtype::Datatype& stype, void* recvbuf, const int* rcounts, const int* rdispls,
                   const dtype::Datatype& rtype, bool in_place, long long block) {
  core::count(core::Counter::seg_alltoall);
  if (block == 0) return;
  const std::uint64_t k = s.begin();
  std::unique_ptr<Temp> saved, keep;
  std::uint64_t mode = kInSlot;
  if (in_place ? others_empty(s, rcounts, rtype) : others_empty(s, scounts, stype)) {  // nothing for anybody
    const int me = s.me();
    if (!in_place)
      copy_typed(block_of(sendbuf, stype, sdispls[me], scounts[me]),
                 block_of(recvbuf, rtype, rdispls[me], rcounts[me]));
  } else {
    mode = start_alltoall(s, k, sendbuf, scounts, sdispls, stype, recvbuf, rcounts, rdispls, rtype, in_place, &saved,
                          &keep);
    s.took(mode == kByAddress ? Algo::segment_address : Algo::segment_slot);  // this member's table's way
  }
  // Nothing is read from (or waited for) a member whose block to this one is
  // empty: its table entry for this member says 0 bytes (matching signatures).
  MemberFlags reads = others(s);
  for (int j = 0; j < s.size(); ++j)
    if (std::size_t(rcounts[j]) * rtype.size == 0) reads[static_cast<std::size_t>(j)] = 0;
  each_posted(s, k, reads, [&](int j) { take_block(s, k, j, block_of(recvbuf, rtype, rdispls[j], rcounts[j])); });
  s.finish(k);
  // Others read this member's buffer (or its temporary) until they are done;
  // a member that published in its slot still returns at once.
  if (mode == kByAddress) s.wait_all_done(k);
}

int family_mode(tunables::Id family) {
  return mode_now(family_of(family));
}


}  // namespace ringmpi::coll
