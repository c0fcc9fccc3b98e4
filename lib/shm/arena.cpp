#include "shm/arena.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <string>
#include <utility>

#include "shm/bridge.hpp"
#include "tunables/tunables.hpp"

namespace ringmpi::shm {
namespace {
std::uint64_t round_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }
std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }
}  // namespace

ArenaLayout ArenaLayout::compute(std::uint32_t nranks, std::uint64_t ring_capacity, std::uint32_t sized_for) {
  ArenaLayout l{};
  if (sized_for == 0 || sized_for > nranks) sized_for = nranks;
  const std::uint64_t page = 4096;
  l.slots_offset = round_up(sizeof(ArenaHeader), kCacheLine);
  l.pending_offset = round_up(l.slots_offset + std::uint64_t(nranks) * sizeof(RankSlot), kCacheLine);
  // Past the job's own slots (rounded to a word), room for the processes
  // of a connected job (shm/bridge.hpp, kForeignRoom).
  l.pending_stride = round_up((nranks + 63) / 64 * 8 + kForeignRoom / 8, kCacheLine);
  // Rings start on a page so that a ring's pages belong to that ring alone.
  l.rings_offset = round_up(l.pending_offset + std::uint64_t(nranks) * l.pending_stride, page);
  l.ring_stride = kRingHeaderBytes + ring_capacity;
  l.coll_offset = round_up(l.rings_offset + std::uint64_t(nranks) * nranks * l.ring_stride, page);
  l.total_bytes = l.coll_offset + std::uint64_t(nranks) * kCollSegmentsPerOwner * coll_segment_bytes(nranks, sized_for);
  return l;
}

int Arena::create(std::uint32_t nranks, std::uint64_t ring_capacity, std::uint32_t flags,
                  std::string* error, std::uint32_t sized_for, std::uint32_t universe) {
  if (sized_for == 0 || sized_for > nranks) sized_for = nranks;
  if (universe == 0) universe = nranks;
  if (nranks == 0 || ring_capacity < tunables::kMinRingBytes || ring_capacity > tunables::kMaxRingBytes ||
      (ring_capacity & (ring_capacity - 1)) != 0) {
    *error = "arena: nranks must be positive and the ring capacity a power of two between " +
             std::to_string(tunables::kMinRingBytes) + " and " + std::to_string(tunables::kMaxRingBytes);
    return -1;
  }
  const ArenaLayout l = ArenaLayout::compute(nranks, ring_capacity, sized_for);
  int fd = memfd_create("ringmpi-arena", MFD_CLOEXEC);
  if (fd < 0) {
    *error = errno_text("arena: memfd_create");
    return -1;
  }
  if (ftruncate(fd, static_cast<off_t>(l.total_bytes)) != 0) {
    *error = errno_text("arena: ftruncate");
    close(fd);
    return -1;
  }
  void* p = mmap(nullptr, sizeof(ArenaHeader), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    *error = errno_text("arena: mmap");
    close(fd);
    return -1;
  }
  auto* h = new (p) ArenaHeader{};
  h->magic = kArenaMagic;
  h->layout_version = kLayoutVersion;
  h->nranks = nranks;
  h->sized_for = sized_for;
  h->universe = universe;
  h->started.store(sized_for, std::memory_order_relaxed);
  h->coll_slot_bytes = coll_slot_bytes(sized_for);
  h->coll_segment_bytes = coll_segment_bytes(nranks, sized_for);
  h->total_bytes = l.total_bytes;
  h->ring_capacity = ring_capacity;
  h->ring_stride = l.ring_stride;
  h->slots_offset = l.slots_offset;
  h->pending_offset = l.pending_offset;
  h->pending_stride = l.pending_stride;
  h->rings_offset = l.rings_offset;
  h->coll_offset = l.coll_offset;
  h->flags = flags;
  // Context ids below 16 are reserved for MPI_COMM_WORLD and MPI_COMM_SELF.
  munmap(p, sizeof(ArenaHeader));
  return fd;
}

Arena Arena::map(int fd, std::string* error) {
  Arena a;
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    *error = errno_text("arena: the descriptor passed by mpiexec is not open (fstat)");
    return a;
  }
  if (static_cast<std::uint64_t>(st.st_size) < sizeof(ArenaHeader)) {
    *error = "arena: the shared object is too small to hold a ringmpi arena header";
    return a;
  }
  void* p = mmap(nullptr, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
  if (p == MAP_FAILED) {
    *error = errno_text("arena: mmap");
    return a;
  }
  const auto* h = static_cast<const ArenaHeader*>(p);
  if (h->magic != kArenaMagic || h->layout_version != kLayoutVersion ||
      h->total_bytes != static_cast<std::uint64_t>(st.st_size)) {
    *error = "arena: layout mismatch (magic/version/size); mpiexec and libringmpi come from "
             "different ringmpi builds — rebuild the program with this installation's mpicc";
    munmap(p, st.st_size);
    return a;
  }
  a.base_ = p;
  a.bytes_ = st.st_size;
  return a;
}

Arena::Arena(Arena&& o) noexcept : base_(std::exchange(o.base_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
Arena& Arena::operator=(Arena&& o) noexcept {
  if (this != &o) {
    if (base_) munmap(base_, bytes_);
    base_ = std::exchange(o.base_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}
Arena::~Arena() {
  if (base_) munmap(base_, bytes_);
}

RankSlot& Arena::slot(std::uint32_t rank) const {
  return reinterpret_cast<RankSlot*>(base() + header().slots_offset)[rank];
}
std::atomic<std::uint64_t>* Arena::pending(std::uint32_t rank) const {
  return reinterpret_cast<std::atomic<std::uint64_t>*>(base() + header().pending_offset +
                                                        rank * header().pending_stride);
}
std::byte* Arena::ring(std::uint32_t from, std::uint32_t to) const {
  const ArenaHeader& h = header();
  return base() + h.rings_offset + (std::uint64_t(from) * h.nranks + to) * h.ring_stride;
}

std::byte* Arena::coll_segment(std::uint32_t owner, std::uint32_t index) const {
  const ArenaHeader& h = header();
  return base() + h.coll_offset + (std::uint64_t(owner) * kCollSegmentsPerOwner + index) * h.coll_segment_bytes;
}

}  // namespace ringmpi::shm
