// Readiness of file descriptors: the one thing the two event-loop backends
// (io_uring and poll(2)) do differently. Everything else — reading pipes,
// reaping ranks, deadlines — is common code in job.cpp, so the backends
// behave the same by construction.
//
// Contract of a Poller
// - Interest is level-triggered: once set(fd, POLLIN) is called, wait()
//   reports fd every time it is readable (or hung up / in error) until
//   set(fd, 0) removes it. The caller need not drain an fd to EAGAIN.
// - set(fd, 0) must be called before fd is closed; after it returns no
//   report about the old fd is ever delivered (a later fd with the same
//   number is a new registration).
// - wait() returns after at least one report or after timeout_ms
//   (-1: no limit); EINTR is not an error (an empty report list).
#pragma once

#include <poll.h>

#include <memory>
#include <string>
#include <vector>

namespace ringmpi::launcher {

struct Ready {
  int fd;
  short revents;  // POLLIN / POLLOUT / POLLHUP / POLLERR
};

class Poller {
 public:
  virtual ~Poller() = default;
  virtual void set(int fd, short events) = 0;
  virtual void wait(int timeout_ms, std::vector<Ready>& out) = 0;
  virtual const char* name() const = 0;
};

// io_uring (one-shot POLL_ADD re-armed on every wait, timeout in the enter
// call); nullptr with *why set when the kernel refuses io_uring.
std::unique_ptr<Poller> make_uring_poller(std::string* why);
std::unique_ptr<Poller> make_poll_poller();

}  // namespace ringmpi::launcher
