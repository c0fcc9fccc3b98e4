// Shared memory for the participants of an internal collective (see shared_mapping.hpp).
#include "exchange/shared_mapping.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace ringmpi::exchange {
namespace {

struct Address {
  std::int32_t pid;
  std::int32_t fd;  // -1: participant 0 could not make the memfd
  std::int32_t err;
};

}  // namespace

SharedMapping map_shared(const Peers& p, std::size_t bytes, const char* name) {
  SharedMapping m;
  m.bytes = bytes;
  Address addr{static_cast<std::int32_t>(getpid()), -1, 0};
  int own_fd = -1;
  if (p.me == 0) {
    own_fd = static_cast<int>(memfd_create(name, MFD_CLOEXEC));
    if (own_fd < 0 || ftruncate(own_fd, static_cast<off_t>(bytes)) != 0) {
      addr.err = errno;
      if (own_fd >= 0) close(own_fd);
      own_fd = -1;
    }
    addr.fd = own_fd;
  }
  std::size_t got = sizeof addr;
  bcast(p, 0, &addr, sizeof addr, &got);
  int fd = own_fd;
  int my_err = 0;
  if (addr.fd < 0) {
    my_err = addr.err != 0 ? addr.err : EIO;
  } else if (p.me != 0) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/fd/%d", addr.pid, addr.fd);
    fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) my_err = errno;
  }
  if (fd >= 0) {
    void* q = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (q == MAP_FAILED)
      my_err = errno;
    else
      m.base = static_cast<std::byte*>(q);
  }
  std::vector<std::int32_t> errs(static_cast<std::size_t>(p.size()));
  std::uint64_t ok = my_err == 0 ? 1 : 0;
  allgather_and(p, &my_err, sizeof my_err, errs.data(), &ok, 1);
  if (fd >= 0) close(fd);  // the mappings keep the memfd alive
  if (ok != 1) {
    unmap_shared(m);
    int bad = 0;
    while (bad + 1 < p.size() && errs[static_cast<std::size_t>(bad)] == 0) ++bad;
    m.err = errs[static_cast<std::size_t>(bad)];
    m.failed = bad;
  }
  return m;
}

void unmap_shared(SharedMapping& m) {
  if (m.base != nullptr) munmap(m.base, m.bytes);
  m.base = nullptr;
}

}  // namespace ringmpi::exchange
