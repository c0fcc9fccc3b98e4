#include <doctest/doctest.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "../../../launcher/poller.hpp"

using namespace ringmpi::launcher;

namespace {

std::vector<std::unique_ptr<Poller>> backends() {
  std::vector<std::unique_ptr<Poller>> v;
  v.push_back(make_poll_poller());
  std::string why;
  if (auto u = make_uring_poller(&why)) v.push_back(std::move(u));
  else MESSAGE("io_uring unavailable here (" << why << "); testing poll only");
  return v;
}

bool reported(const std::vector<Ready>& r, int fd, short bit) {
  for (const Ready& x : r)
    if (x.fd == fd && (x.revents & bit)) return true;
  return false;
}

}  // namespace

TEST_CASE("poller: readiness is level-triggered and removal is final, on every backend") {
  for (auto& p : backends()) {
    CAPTURE(p->name());
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    p->set(fds[0], POLLIN);
    std::vector<Ready> r;
    p->wait(0, r);
    CHECK(r.empty());
    REQUIRE(write(fds[1], "ab", 2) == 2);
    r.clear();
    p->wait(5000, r);
    CHECK(reported(r, fds[0], POLLIN));
    // Not read: still reported (level-triggered).
    r.clear();
    p->wait(5000, r);
    CHECK(reported(r, fds[0], POLLIN));
    char c;
    REQUIRE(read(fds[0], &c, 1) == 1);
    r.clear();
    p->wait(5000, r);
    CHECK(reported(r, fds[0], POLLIN));
    // Removed: nothing more about it, even though data is still there.
    p->set(fds[0], 0);
    r.clear();
    p->wait(20, r);
    CHECK(r.empty());
    // The writer goes away: a hang-up is reported as readiness.
    p->set(fds[0], POLLIN);
    REQUIRE(read(fds[0], &c, 1) == 1);
    close(fds[1]);
    r.clear();
    p->wait(5000, r);
    CHECK(reported(r, fds[0], POLLIN | POLLHUP));
    p->set(fds[0], 0);
    close(fds[0]);
  }
}

TEST_CASE("poller: a new fd with a recycled number gets no stale reports") {
  for (auto& p : backends()) {
    CAPTURE(p->name());
    int a[2];
    REQUIRE(pipe(a) == 0);
    REQUIRE(write(a[1], "x", 1) == 1);
    p->set(a[0], POLLIN);
    std::vector<Ready> r;
    p->wait(5000, r);  // armed and fired
    p->set(a[0], 0);
    close(a[0]);
    close(a[1]);
    int b[2];
    REQUIRE(pipe(b) == 0);  // most likely the same numbers again
    p->set(b[0], POLLIN);
    r.clear();
    p->wait(30, r);
    CHECK_FALSE(reported(r, b[0], POLLIN));
    p->set(b[0], 0);
    close(b[0]);
    close(b[1]);
  }
}

TEST_CASE("poller: writability and pidfd exits are reported; an idle wait times out") {
  for (auto& p : backends()) {
    CAPTURE(p->name());
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    p->set(fds[1], POLLOUT);
    std::vector<Ready> r;
    p->wait(5000, r);
    CHECK(reported(r, fds[1], POLLOUT));
    p->set(fds[1], 0);
    close(fds[0]);
    close(fds[1]);

    const pid_t child = fork();
    if (child == 0) _exit(0);
    const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, child, 0));
    REQUIRE(pidfd >= 0);
    p->set(pidfd, POLLIN);
    r.clear();
    p->wait(10000, r);
    CHECK(reported(r, pidfd, POLLIN));
    p->set(pidfd, 0);
    close(pidfd);
    waitpid(child, nullptr, 0);

    r.clear();
    p->wait(10, r);
    CHECK(r.empty());
  }
}
