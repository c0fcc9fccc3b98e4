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
#include <string_view>
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
  bool coll_report = false;    // --coll-report: the collective algorithms' table after the job
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

// The documentation of the command line, from the tables the parser itself
// reads: --help (usage_text) and the mpiexec(1) man page (tools/man, through
// tools/man/man_tables.cpp) are both made from these, so an option added to
// the parser's table is documented in both. Text is plain: one paragraph
// per string, no line breaks; the readers wrap it.
struct OptionDoc {
  std::string_view names;  // every spelling, as shown, separated by spaces: "-n -np -c"
  std::string_view args;   // the names of its values ("N", "VAR VALUE"), "" for a flag
  std::string_view help;   // what it does
};
struct ExitDoc {
  std::string_view status;  // "0", "128+S"
  std::string_view meaning;
};
struct UsageDoc {
  std::string_view synopsis;  // "mpiexec [options] program [args...]"
  std::string_view about;     // what mpiexec does
  std::string_view syntax;    // how options are written
  std::string_view io;        // environment, standard input and output
  std::string_view failures;  // a failing rank, signals
};
std::vector<OptionDoc> option_docs();
std::vector<ExitDoc> exit_docs();
const UsageDoc& usage_doc();

}  // namespace ringmpi::launcher
