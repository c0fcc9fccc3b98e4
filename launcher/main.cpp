// PLACEHOLDER launcher (being replaced): fork/exec N ranks, wait for all.
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include "shm/arena.hpp"
using namespace ringmpi::shm;
int main(int argc, char** argv) {
  int n = 1, i = 1;
  for (; i < argc; ++i) {
    if (!strcmp(argv[i], "-n") || !strcmp(argv[i], "-np")) n = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--timeout")) ++i;
    else break;
  }
  std::string err;
  int fd = Arena::create(n, kDefaultRingCapacity, 0, &err);
  if (fd < 0) { fprintf(stderr, "%s\n", err.c_str()); return 1; }
  for (int r = 0; r < n; ++r) {
    if (fork() == 0) {
      fcntl(fd, F_SETFD, 0);
      setenv(kEnvArenaFd, std::to_string(fd).c_str(), 1);
      setenv(kEnvRank, std::to_string(r).c_str(), 1);
      setenv(kEnvSize, std::to_string(n).c_str(), 1);
      execvp(argv[i], argv + i);
      _exit(127);
    }
  }
  int rc = 0, st;
  while (wait(&st) > 0) if (rc == 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return rc;
}
