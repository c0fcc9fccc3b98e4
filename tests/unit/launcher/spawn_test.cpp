#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "../../../launcher/spawn.hpp"

using namespace ringmpi::launcher;

TEST_CASE("spawn: program lookup follows execvp: PATH search, names with '/' as given") {
  const Resolved sh = resolve_program("sh", "/nonexistent-dir:/usr/bin:/bin");
  CHECK(sh.error.empty());
  CHECK((sh.path == "/usr/bin/sh" || sh.path == "/bin/sh"));
  CHECK(resolve_program("/bin/sh", nullptr).path == "/bin/sh");
}

TEST_CASE("spawn: a missing program is 127, a non-executable one 126, each with one sentence") {
  const Resolved missing = resolve_program("no-such-program-ringmpi", "/usr/bin:/bin");
  CHECK(missing.exit_status == 127);
  CHECK(missing.error == "cannot run 'no-such-program-ringmpi': No such file or directory (not found in PATH)");
  const Resolved gone = resolve_program("./no/such/file", nullptr);
  CHECK(gone.exit_status == 127);
  char data_path[] = "/tmp/ringmpi-data-XXXXXX";  // mode 0600: not executable, even for root
  const int fd = mkstemp(data_path);
  REQUIRE(fd >= 0);
  close(fd);
  const Resolved data = resolve_program(data_path, nullptr);
  unlink(data_path);
  CHECK(data.exit_status == 126);
  CHECK(data.error.find("Permission denied") != std::string::npos);
  const Resolved dir = resolve_program("/tmp", nullptr);
  CHECK(dir.exit_status == 126);
  CHECK(dir.error.find("Is a directory") != std::string::npos);
}

TEST_CASE("spawn: an empty PATH entry is the current directory") {
  char tmpl[] = "/tmp/ringmpi-spawn-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string dir = tmpl;
  const std::string prog = dir + "/tool";
  FILE* f = fopen(prog.c_str(), "w");
  REQUIRE(f);
  fputs("#!/bin/sh\n", f);
  fclose(f);
  chmod(prog.c_str(), 0755);
  char cwd[4096];
  REQUIRE(getcwd(cwd, sizeof cwd));
  REQUIRE(chdir(dir.c_str()) == 0);
  const Resolved r = resolve_program("tool", "/nonexistent-dir:");
  CHECK(r.path == "./tool");
  REQUIRE(chdir(cwd) == 0);
  unlink(prog.c_str());
  rmdir(dir.c_str());
}

TEST_CASE("spawn: Argv keeps NULL-terminated pointers in step with its strings") {
  Argv a({"x", "", "y z"});
  CHECK(std::string(a.data()[0]) == "x");
  CHECK(std::string(a.data()[1]).empty());
  CHECK(a.data()[3] == nullptr);
  a[0] = std::string(100, 'q');
  a.refresh();
  CHECK(std::string(a.data()[0]) == std::string(100, 'q'));
}

TEST_CASE("spawn: the ranks' environment: inherited, then settings (last wins), then ringmpi's own") {
  const char* base[] = {"PATH=/bin", "KEEP=1", "OVER=old", "RINGMPI_RANK=7", "NOEQUALS", nullptr};
  const std::vector<std::pair<std::string, std::string>> settings{
      {"OVER", "new"}, {"ADDED", "a b"}, {"ADDED", "second"}, {"RINGMPI_SIZE", "99"}, {"EMPTY", ""}};
  const std::vector<std::string> env = rank_environment(base, settings, 5, 4);
  CHECK(env == std::vector<std::string>{"PATH=/bin", "KEEP=1", "NOEQUALS", "OVER=new", "ADDED=second", "EMPTY=",
                                        "RINGMPI_ARENA_FD=5", "RINGMPI_SIZE=4", "RINGMPI_RANK=0"});
}

TEST_CASE("rank_environment: a spawned world's variables before the rank entry; inherited ringmpi ones dropped") {
  const char* base[] = {"PATH=/bin", "RINGMPI_PARENT=3:0:1", "RINGMPI_WORLD_BASE=7", "RINGMPI_LAUNCHER=x", nullptr};
  const std::vector<std::string> env =
      rank_environment(base, {}, 5, 2, {"RINGMPI_WORLD_BASE=4", "RINGMPI_PARENT=17:0:0,1"});
  CHECK(env == std::vector<std::string>{"PATH=/bin", "RINGMPI_ARENA_FD=5", "RINGMPI_SIZE=2", "RINGMPI_WORLD_BASE=4",
                                        "RINGMPI_PARENT=17:0:0,1", "RINGMPI_RANK=0"});
}
