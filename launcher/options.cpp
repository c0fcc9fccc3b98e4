#include "options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <string_view>

#include "tunables/tunables.hpp"

namespace ringmpi::launcher {
namespace {

constexpr int kMaxRanks = 1 << 20;
constexpr double kMaxTimeout = 1e7;  // seconds; beyond this the value is surely a typo

enum class Id { nranks, bind, tag, report, verbose, timeout, export_var, genv, noop, help, version, no_deadlock,
          trace, check, universe, coll_report };

// One row per option: the parser reads names, id and values; --help and the
// man page (option_docs) read names, args and help. A new option is one row
// here (and its case in parse_options). Synonyms from MPICH and Open MPI
// are spellings of their row, so their usual command lines work.
struct Spec {
  std::string_view names;  // every spelling as shown, separated by spaces (one or two dashes parse alike)
  std::string_view args;   // the names of the values that follow, "" for none
  Id id;
  int values;  // how many values follow the option
  std::string_view help;
};

constexpr Spec kSpecs[] = {
    {"-n -np -c", "N", Id::nranks, 1, "number of ranks (default 1)"},
    {"--bind-to", "core|numa|none", Id::bind, 1,
     "pin each rank to one core, to one NUMA node, or not at all (default: core when the ranks fit on the "
     "cores, none otherwise)"},
    {"--report-bindings", "", Id::report, 0, "print where each rank is bound, on stderr"},
    {"--tag-output -l --prepend-rank", "", Id::tag, 0,
     "prefix every output line with \"[rank] \" (\"[s.rank] \" for rank `rank` of the s-th MPI_Comm_spawn)"},
    {"-x", "VAR[=value]", Id::export_var, 1,
     "-x VAR exports VAR from mpiexec's environment to the ranks; -x VAR=value sets VAR to value in every rank"},
    {"-genv -env", "VAR value", Id::genv, 2, "set VAR to value in every rank"},
    {"--timeout", "S", Id::timeout, 1,
     "kill the job after S seconds (also the environment variable MPIEXEC_TIMEOUT; 0 = no limit)"},
    {"--oversubscribe", "", Id::noop, 0, "accepted; more ranks than cores is always allowed"},
    {"--allow-run-as-root", "", Id::noop, 0, "accepted; nothing is refused to root"},
    {"--no-deadlock-check", "", Id::no_deadlock, 0, "do not end a deadlocked job (see exit status 123)"},
    {"--trace", "FILE", Id::trace, 1,
     "record every MPI call and message of every rank and write them to FILE as Chrome trace-event JSON "
     "(open it in ui.perfetto.dev or chrome://tracing; render it with ringmpi-trace svg|summary FILE)"},
    {"--coll-report", "", Id::coll_report, 0,
     "at the end of the run, print on stderr every communicator's collectives: for each family the algorithm "
     "that ran (docs/guide/collective-algorithms.md), how many calls and the time the slowest rank spent in "
     "the blocking ones"},
    {"--check", "", Id::check, 0,
     "check arguments across ranks: every collective verifies that all ranks pass the same call, root, op "
     "and type signature (count x datatype), every receive that the message's signature matches its own; the "
     "first mismatch ends the job with one message naming the call and both ranks' arguments (exit status 1)"},
    {"--universe-size --usize", "N", Id::universe, 1,
     "MPI_UNIVERSE_SIZE, the processes the job expects to run at once, spawned ones included (default: the "
     "cores hwloc sees, at least N of -n); the job has room for 32 processes more than that, and MPI_Comm_spawn "
     "beyond the room fails with MPI_ERR_SPAWN"},
    {"-v --verbose", "", Id::verbose, 0, "say which event loop and binding are used"},
    {"-h --help", "", Id::help, 0, "print this text (options, exit statuses, environment) and exit"},
    {"-V --version", "", Id::version, 0, "print ringmpi's version and exit"},
};

// The other parts of --help and mpiexec(1).
constexpr UsageDoc kUsage{
    "mpiexec [options] program [args...]",
    "Starts N copies of program on this machine as one MPI job (ringmpi). The program and its arguments are "
    "passed to every rank unchanged. mpirun is the same program.",
    "Options end at the first argument that does not start with '-', or after \"--\" (the next argument is "
    "then the program, even if it starts with '-'). Long options take one or two dashes, and --opt=value or "
    "--opt value.",
    "Ranks inherit mpiexec's environment. Rank 0 reads mpiexec's standard input; the other ranks read "
    "/dev/null. Standard output and error of every rank are forwarded line by line (lines are never mixed).",
    "When a rank fails, the other ranks are killed at once and mpiexec prints one line on stderr naming the "
    "rank and the cause. Each rank leads its own process group; what it started there is killed when the rank "
    "exits. SIGINT, SIGTERM and SIGHUP to mpiexec are passed on to the ranks (SIGKILL 1 s later if they are "
    "still there); if mpiexec itself is killed, the ranks die with it. SIGQUIT to mpiexec prints what each "
    "rank is doing (the MPI call it waits in, or that it is not waiting in MPI) and lets the job go on; "
    "--timeout prints the same lines.",
};

constexpr ExitDoc kExits[] = {
    {"0", "every rank exited with status 0"},
    {"N", "the first rank to fail exited with status N (MPI_Abort: its code; a fatal MPI error: 1)"},
    {"1", "a rank exited with status 0 after MPI_Init without MPI_Finalize"},
    {"128+S",
     "the first rank to fail was killed by signal S, or mpiexec itself received SIGINT/SIGTERM/SIGHUP (S) and "
     "forwarded it to the ranks"},
    {"2", "bad command line, or a RINGMPI_* variable out of range"},
    {"124", "the time limit (--timeout, MPIEXEC_TIMEOUT) expired"},
    {"123",
     "deadlock: every rank still running was blocked in MPI for over a second with no message in flight (the "
     "report on stderr names the call each rank waits in, with its arguments and the rank it waits for, and the "
     "wait-for cycle); --no-deadlock-check turns this off"},
    {"126", "the program is not executable"},
    {"127", "the program was not found"},
    {"125", "mpiexec itself failed (e.g. could not create the shared arena)"},
};

// Whether `name` (without its dashes) is one of the spellings in `names`.
bool spelled(std::string_view names, std::string_view name) {
  while (!names.empty()) {
    const std::size_t end = names.find(' ');
    std::string_view one = names.substr(0, end);
    while (one.starts_with('-')) one.remove_prefix(1);
    if (one == name) return true;
    if (end == std::string_view::npos) break;
    names.remove_prefix(end + 1);
  }
  return false;
}

// Greedy word wrap of `text` to `width` columns, every line indented by `indent`.
std::string wrap(std::string_view text, std::size_t indent, std::size_t width) {
  std::string out, line;
  auto flush = [&] {
    out += std::string(indent, ' ') + line + "\n";
    line.clear();
  };
  while (!text.empty()) {
    const std::size_t end = text.find(' ');
    const std::string_view word = text.substr(0, end);
    if (!line.empty() && indent + line.size() + 1 + word.size() > width) flush();
    if (!line.empty()) line += ' ';
    line += word;
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  if (!line.empty()) flush();
  return out;
}

// "-n, -np, -c N": the spellings as --help shows them.
std::string shown_names(const Spec& s) {
  std::string out;
  std::string_view names = s.names;
  while (!names.empty()) {
    const std::size_t end = names.find(' ');
    if (!out.empty()) out += ", ";
    out += names.substr(0, end);
    if (end == std::string_view::npos) break;
    names.remove_prefix(end + 1);
  }
  if (!s.args.empty()) out += " " + std::string(s.args);
  return out;
}

const Spec* find_spec(std::string_view name) {
  for (const Spec& s : kSpecs)
    if (spelled(s.names, name)) return &s;
  return nullptr;
}

std::optional<long> parse_long(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return std::nullopt;
  return v;
}

// A number of seconds: non-negative, finite, plain decimal notation.
std::optional<double> parse_seconds(const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789.") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(v) || v > kMaxTimeout) return std::nullopt;
  return v;
}

bool valid_env_name(std::string_view name) {
  return !name.empty() && name.find('=') == std::string_view::npos;
}

void set_env(Options& o, const std::string& name, const std::string& value) {
  o.env.emplace_back(name, value);
}

}  // namespace

const char* bind_name(Bind b) {
  switch (b) {
    case Bind::automatic: return "automatic";
    case Bind::core: return "core";
    case Bind::numa: return "numa";
    case Bind::none: return "none";
  }
  return "?";
}

ParseResult parse_options(const std::vector<std::string>& args, const EnvLookup& getenv) {
  ParseResult r;
  Options& o = r.options;
  auto fail = [&r](std::string msg) {
    r.action = ParseResult::Action::error;
    r.error = std::move(msg);
    return r;
  };
  bool timeout_given = false;

  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg.size() < 2 || arg[0] != '-') break;  // the program (a lone "-" too)
    std::string_view body(arg);
    body.remove_prefix(body.starts_with("--") ? 2 : 1);
    std::optional<std::string> inline_value;
    if (const auto eq = body.find('='); eq != std::string_view::npos) {
      inline_value = std::string(body.substr(eq + 1));
      body = body.substr(0, eq);
    }
    const Spec* spec = find_spec(body);
    if (!spec) return fail("unknown option '" + arg + "' (see mpiexec --help)");
    if (inline_value && spec->values != 1)
      return fail("option '" + std::string(body) + "' does not take a value with '=' (got '" + arg + "')");

    std::vector<std::string> values;
    if (inline_value) {
      values.push_back(*inline_value);
    } else {
      for (int k = 0; k < spec->values; ++k) {
        if (i + 1 >= args.size())
          return fail("option '" + arg + "' needs " + (spec->values == 1 ? "a value" : "two values") +
                      " (see mpiexec --help)");
        values.push_back(args[++i]);
      }
    }

    switch (spec->id) {
      case Id::nranks: {
        const auto n = parse_long(values[0]);
        if (!n || *n < 1 || *n > kMaxRanks)
          return fail("option '" + arg + "': '" + values[0] + "' is not a number of ranks (1.." +
                      std::to_string(kMaxRanks) + ")");
        o.nranks = static_cast<int>(*n);
        break;
      }
      case Id::bind:
        if (values[0] == "core") o.bind = Bind::core;
        else if (values[0] == "numa") o.bind = Bind::numa;
        else if (values[0] == "none") o.bind = Bind::none;
        else return fail("option '" + arg + "': '" + values[0] + "' is not one of core, numa, none");
        break;
      case Id::tag: o.tag_output = true; break;
      case Id::report: o.report_bindings = true; break;
      case Id::verbose: o.verbose = true; break;
      case Id::no_deadlock: o.deadlock_check = false; break;
      case Id::trace:
        if (values[0].empty()) return fail("option '" + arg + "' needs a file name");
        o.trace_path = values[0];
        break;
      case Id::check: o.check = true; break;
      case Id::coll_report: o.coll_report = true; break;
      case Id::universe: {
        const auto n = parse_long(values[0]);
        if (!n || *n < 1 || *n > kMaxRanks)
          return fail("option '" + arg + "': '" + values[0] + "' is not a number of processes (1.." +
                      std::to_string(kMaxRanks) + ")");
        o.universe_size = static_cast<int>(*n);
        break;
      }
      case Id::timeout: {
        const auto s = parse_seconds(values[0]);
        if (!s) return fail("option '" + arg + "': '" + values[0] + "' is not a number of seconds (0 = no limit)");
        o.timeout_s = *s;
        timeout_given = true;
        break;
      }
      case Id::export_var: {
        const std::string& v = values[0];
        const auto eq = v.find('=');
        if (eq != std::string::npos) {
          if (!valid_env_name(std::string_view(v).substr(0, eq)))
            return fail("option '" + arg + "': '" + v + "' has no variable name before '='");
          set_env(o, v.substr(0, eq), v.substr(eq + 1));
        } else {
          if (!valid_env_name(v)) return fail("option '" + arg + "': '" + v + "' is not a variable name");
          // Unset in mpiexec: nothing to export, and the ranks see it unset too.
          if (const char* value = getenv(v.c_str())) set_env(o, v, value);
        }
        break;
      }
      case Id::genv:
        if (!valid_env_name(values[0]))
          return fail("option '" + arg + "': '" + values[0] + "' is not a variable name");
        set_env(o, values[0], values[1]);
        break;
      case Id::noop: break;
      case Id::help: r.action = ParseResult::Action::help; return r;
      case Id::version: r.action = ParseResult::Action::version; return r;
    }
  }

  if (i >= args.size()) return fail("no program to run (usage: mpiexec -n N program [args...]; see mpiexec --help)");
  o.program.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  if (o.program[0].empty()) return fail("the program name is empty");

  if (!timeout_given) {
    if (const char* t = getenv("MPIEXEC_TIMEOUT"); t && *t) {
      const auto s = parse_seconds(t);
      if (!s) return fail(std::string("MPIEXEC_TIMEOUT='") + t + "' is not a number of seconds (0 = no limit)");
      o.timeout_s = *s;
    }
  }
  return r;
}

const std::string& usage_text() {
  // Options in two columns (help from column 26), other text wrapped at 79.
  constexpr std::size_t kWidth = 79, kColumn = 25;
  static const std::string text = [] {
    std::string t = "usage: " + std::string(kUsage.synopsis) + "\n       mpirun  " +
                    std::string(kUsage.synopsis.substr(std::string_view("mpiexec ").size())) + "\n\n";
    t += wrap(kUsage.about, 0, kWidth) + "\noptions:\n";
    for (const Spec& s : kSpecs) {
      const std::string left = "  " + shown_names(s);
      std::string help = wrap(s.help, kColumn, kWidth);
      if (left.size() + 1 < kColumn) help.replace(0, left.size(), left);  // on the option's line
      else t += left + "\n";
      t += help;
    }
    t += "  --" + std::string(kColumn - 4, ' ') + "end of options (the next argument is the program)\n";
    t += "\n" + wrap(kUsage.syntax, 0, kWidth) + "\n" + wrap(kUsage.io, 0, kWidth) + "\nexit status:\n";
    for (const ExitDoc& e : kExits) {
      std::string line = wrap(e.meaning, 11, kWidth);
      line.replace(0, 2 + e.status.size(), "  " + std::string(e.status));
      t += line;
    }
    t += wrap(kUsage.failures, 0, kWidth);
    t += "\nenvironment (RINGMPI_* tunables are checked before the job starts):\n";
    t += "  MPIEXEC_TIMEOUT=S            as --timeout\n";
    return t + tunables::help();
  }();
  return text;
}

std::vector<OptionDoc> option_docs() {
  std::vector<OptionDoc> out;
  for (const Spec& s : kSpecs) out.push_back({s.names, s.args, s.help});
  return out;
}

std::vector<ExitDoc> exit_docs() { return {std::begin(kExits), std::end(kExits)}; }

const UsageDoc& usage_doc() { return kUsage; }

}  // namespace ringmpi::launcher
