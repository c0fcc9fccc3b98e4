#include "shm/bridge.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "shm/arena.hpp"

namespace ringmpi::shm {
namespace {
int g_own_arena_fd = -1;
std::uint64_t round_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }
}  // namespace

void keep_own_arena_fd(int fd) {
  if (fd >= 0) fcntl(fd, F_SETFD, FD_CLOEXEC);
  g_own_arena_fd = fd;
}
int own_arena_fd() { return g_own_arena_fd; }

int Bridge::create(std::uint32_t na, std::uint32_t nb, std::uint64_t ring_capacity, std::string* error) {
  const std::uint64_t stride = kRingHeaderBytes + ring_capacity;
  const std::uint64_t rings = round_up(sizeof(BridgeHeader), 4096);
  const std::uint64_t total = rings + 2 * std::uint64_t(na) * nb * stride;
  const int fd = memfd_create("ringmpi-bridge", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(total)) != 0) {
    *error = std::string("bridge between the jobs: ") + std::strerror(errno);
    if (fd >= 0) close(fd);
    return -1;
  }
  BridgeHeader h{kBridgeMagic, na, nb, ring_capacity, stride, rings, total};
  if (pwrite(fd, &h, sizeof h, 0) != static_cast<ssize_t>(sizeof h)) {
    *error = std::string("bridge between the jobs: ") + std::strerror(errno);
    close(fd);
    return -1;
  }
  return fd;
}

bool Bridge::map(int fd, std::string* error) {
  struct stat st {};
  BridgeHeader h{};
  if (fstat(fd, &st) != 0 || pread(fd, &h, sizeof h, 0) != static_cast<ssize_t>(sizeof h) ||
      h.magic != kBridgeMagic || h.total_bytes != static_cast<std::uint64_t>(st.st_size)) {
    *error = "the memory shared with the other job is not a ringmpi bridge of this build";
    return false;
  }
  void* p = mmap(nullptr, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
  if (p == MAP_FAILED) {
    *error = std::string("mapping the memory shared with the other job: ") + std::strerror(errno);
    return false;
  }
  base_ = static_cast<std::byte*>(p);
  return true;
}

std::byte* Bridge::ring_a_to_b(std::uint32_t i, std::uint32_t j) const {
  const BridgeHeader& h = header();
  return base_ + h.rings_offset + (std::uint64_t(i) * h.nb + j) * h.ring_stride;
}
std::byte* Bridge::ring_b_to_a(std::uint32_t j, std::uint32_t i) const {
  const BridgeHeader& h = header();
  return base_ + h.rings_offset + (std::uint64_t(h.na) * h.nb + std::uint64_t(j) * h.na + i) * h.ring_stride;
}

}  // namespace ringmpi::shm
