// mpiexec's command line. Parsing is a pure function of argv and an
// environment lookup, so the unit tests can drive every case.
//
// Options end at the first argument that does not start with '-' (or after
// "--"); that argument is the program and everything after it is passed to
// every rank verbatim, including arguments that look like options.
// Long options take one or two dashes (MPICH spells them -genv, Open MPI
// --bind-to) and "--opt=value" as well as "--opt value".
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ringmpi::launcher {

// Exit status of mpiexec for a command line it refuses.
inline constexpr int kExitUsage = 2;

enum class Bind { automatic, core, numa, none };

struct Options {
  int nranks = 1;
  std::vector<std::string> program;  // program name, then its arguments
  Bind bind = Bind::automatic;
  bool tag_output = false;
  bool report_bindings = false;
  bool verbose = false;
  double timeout_s = 0;  // 0: no time limit
  bool deadlock_check = true;  // --no-deadlock-check turns it off
  std::string trace_path;  // --trace FILE: Chrome trace-event JSON written there ("" = off)
  bool check = false;          // --check: ranks verify arguments across ranks (shm::kFlagCheck)
  int universe_size = 0;       // --universe-size N: MPI_UNIVERSE_SIZE (0: the cores hwloc sees, at least nranks)
  // Variables set in every rank's environment, in command-line order (a later
  // setting of the same name wins). Everything else is inherited from mpiexec.
  std::vector<std::pair<std::string, std::string>> env;
};

struct ParseResult {
  enum class Action { run, help, version, error } action = Action::run;
  Options options;
  std::string error;  // one sentence, for Action::error
};

using EnvLookup = std::function<const char*(const char*)>;

ParseResult parse_options(const std::vector<std::string>& args, const EnvLookup& getenv);

const std::string& usage_text();
const char* bind_name(Bind b);

}  // namespace ringmpi::launcher
