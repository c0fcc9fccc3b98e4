// The name service: one directory per user on this machine, shared by all
// of that user's jobs: $XDG_RUNTIME_DIR/ringmpi-names when that directory is
// the user's, else /tmp/ringmpi-<uid>/names. Every level ringmpi makes is
// mode 0700 and checked (a directory, not a link, owned by the user, no
// access for group or others) before use, so another user can neither read,
// publish nor remove names. One file per published name (the name in hex),
// holding the publisher's pid and the port name; it appears whole
// (written aside, then link()ed: a second publisher of the same name gets
// EEXIST). A name whose publisher has died is treated as unpublished and
// removed by the next lookup.
//
// MPI_Comm_join: both sides write {magic, job name, world rank} on the
// socket and read the other's; the side with the lower world rank opens a
// port, writes its name, accepts on MPI_COMM_SELF and closes the port; the
// other reads the name and connects on MPI_COMM_SELF (lib/comm/ports.cpp).
#include "api/names.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "comm/comm.hpp"
#include "comm/ports.hpp"

namespace ringmpi::api {
int deliver(Call& call, const comm::Made& m, MPI_Comm* newcomm);
namespace {

constexpr std::size_t kMaxService = 120;  // bytes; its hex form must fit a file name

// A private directory: made 0700 if missing, then checked.
bool private_dir(const std::string& path, std::string* why) {
  if (mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
    *why = "cannot make the name service directory " + path + ": " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
    *why = "the name service directory " + path + " is not a directory of mode 0700 owned by this user; "
           "remove it and try again";
    return false;
  }
  return true;
}

bool names_dir(std::string* dir, std::string* why) {
  const char* xdg = std::getenv("XDG_RUNTIME_DIR");
  struct stat st {};
  if (xdg && *xdg == '/' && stat(xdg, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid()) {
    *dir = std::string(xdg) + "/ringmpi-names";
    return private_dir(*dir, why);
  }
  const std::string top = "/tmp/ringmpi-" + std::to_string(geteuid());
  *dir = top + "/names";
  return private_dir(top, why) && private_dir(*dir, why);
}

bool file_of(const std::string& service, std::string* path, std::string* why) {
  if (service.empty() || service.size() > kMaxService) {
    *why = "service_name '" + service + "' must have 1 to " + std::to_string(kMaxService) + " characters";
    return false;
  }
  std::string dir;
  if (!names_dir(&dir, why)) return false;
  std::string hex;
  for (unsigned char c : service) {
    char b[3];
    std::snprintf(b, sizeof b, "%02x", c);
    hex += b;
  }
  *path = dir + "/" + hex;
  return true;
}

// The publisher's pid and port of a name file; false if there is none.
bool read_entry(const std::string& path, long* pid, std::string* port) {
  FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return false;
  char buf[MPI_MAX_PORT_NAME + 32] = {};
  const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  char* nl = std::strchr(buf, '\n');
  if (!nl) return false;
  *nl = '\0';
  *pid = std::strtol(buf, nullptr, 10);
  *port = nl + 1;
  return true;
}

bool write_all(int fd, const void* p, std::size_t n) {
  const char* c = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    c += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

bool read_all(int fd, void* p, std::size_t n) {
  char* c = static_cast<char*>(p);
  while (n > 0) {
    const ssize_t r = recv(fd, c, n, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    c += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}

struct JoinHello {
  char magic[8];
  char job[120];
  std::int32_t world;
};

}  // namespace

int publish_name(const std::string& service, const std::string& port, std::string* why) {
  std::string path;
  if (!file_of(service, &path, why)) return MPI_ERR_SERVICE;
  const std::string tmp = path + ".new." + std::to_string(getpid());
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    *why = "cannot write " + tmp + ": " + std::strerror(errno);
    return MPI_ERR_SERVICE;
  }
  const std::string text = std::to_string(getpid()) + "\n" + port;
  const bool wrote = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  int err = MPI_SUCCESS;
  if (!wrote) {
    *why = "cannot write " + tmp;
    err = MPI_ERR_SERVICE;
  } else if (link(tmp.c_str(), path.c_str()) != 0) {
    long pid;
    std::string old;
    if (errno == EEXIST && read_entry(path, &pid, &old) && pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 &&
        errno == ESRCH && unlink(path.c_str()) == 0 && link(tmp.c_str(), path.c_str()) == 0) {
      err = MPI_SUCCESS;  // the old publisher is gone
    } else {
      *why = "service_name '" + service + "' is published already (as '" + old + "'); unpublish it first";
      err = MPI_ERR_SERVICE;
    }
  }
  unlink(tmp.c_str());
  return err;
}

int unpublish_name(const std::string& service, const std::string& port, std::string* why) {
  std::string path, published;
  if (!file_of(service, &path, why)) return MPI_ERR_SERVICE;
  long pid;
  if (!read_entry(path, &pid, &published)) {
    *why = "service_name '" + service + "' is not published";
    return MPI_ERR_SERVICE;
  }
  if (published != port) {
    *why = "service_name '" + service + "' is published with port '" + published + "', not '" + port + "'";
    return MPI_ERR_SERVICE;
  }
  unlink(path.c_str());
  return MPI_SUCCESS;
}

int lookup_name(const std::string& service, std::string* port, std::string* why) {
  std::string path;
  if (!file_of(service, &path, why)) return MPI_ERR_NAME;
  long pid;
  if (!read_entry(path, &pid, port)) {
    *why = "service_name '" + service + "' is not published";
    return MPI_ERR_NAME;
  }
  if (pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
    unlink(path.c_str());
    *why = "service_name '" + service + "' was published by a process that has ended";
    return MPI_ERR_NAME;
  }
  return MPI_SUCCESS;
}

int join(Call& call, int fd, MPI_Comm* intercomm) {
  JoinHello mine{}, theirs{};
  std::memcpy(mine.magic, "RMPIJOIN", 8);
  std::snprintf(mine.job, sizeof mine.job, "%s", comm::job_name().c_str());
  mine.world = core::rt().rank;
  if (!write_all(fd, &mine, sizeof mine) || !read_all(fd, &theirs, sizeof theirs))
    return call.fail(MPI_ERR_ARG, "argument fd=%d: cannot exchange with the other side over it (%s); it must be a "
                     "connected socket whose other end calls MPI_Comm_join",
                     fd, std::strerror(errno));
  theirs.job[sizeof theirs.job - 1] = '\0';
  if (std::memcmp(theirs.magic, "RMPIJOIN", 8) != 0)
    return call.fail(MPI_ERR_ARG, "argument fd=%d: the other side is not a ringmpi process in MPI_Comm_join", fd);
  // Two jobs (separate mpiexec runs): the one whose name sorts first accepts.
  const int jobs = std::strcmp(mine.job, theirs.job);
  if (jobs == 0 && theirs.world == mine.world)
    return call.fail(MPI_ERR_ARG, "argument fd=%d connects this process to itself", fd);
  comm::Comm& self = *comm::lookup(MPI_COMM_SELF);
  char port[MPI_MAX_PORT_NAME] = {};
  if (jobs < 0 || (jobs == 0 && mine.world < theirs.world)) {
    const std::string name = comm::open_port();
    if (name.empty()) return call.fail(MPI_ERR_PORT, "this process has 64 ports open already");
    std::snprintf(port, sizeof port, "%s", name.c_str());
    if (!write_all(fd, port, sizeof port)) {
      std::string ignored;
      comm::close_port(name, &ignored);
      return call.fail(MPI_ERR_ARG, "argument fd=%d: the socket closed during MPI_Comm_join", fd);
    }
    const comm::Made m = comm::accept(self, 0, name, comm::LocalError{});
    std::string ignored;
    comm::close_port(name, &ignored);
    return deliver(call, m, intercomm);
  }
  if (!read_all(fd, port, sizeof port))
    return call.fail(MPI_ERR_ARG, "argument fd=%d: the socket closed during MPI_Comm_join", fd);
  port[sizeof port - 1] = '\0';
  return deliver(call, comm::connect(self, 0, port, comm::LocalError{}), intercomm);
}

}  // namespace ringmpi::api
