#include "options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "tunables/tunables.hpp"

namespace ringmpi::launcher {
namespace {

constexpr int kMaxRanks = 1 << 20;
constexpr double kMaxTimeout = 1e7;  // seconds; beyond this the value is surely a typo

enum class Id { nranks, bind, tag, report, verbose, timeout, export_var, genv, noop, help, version, no_deadlock,
          trace, check, universe };

struct Spec {
  std::string_view name;
  Id id;
  int values;  // how many values follow the option
};

// Synonyms from MPICH and Open MPI so that their usual command lines work.
constexpr Spec kSpecs[] = {
    {"n", Id::nranks, 1},          {"np", Id::nranks, 1},         {"c", Id::nranks, 1},
    {"bind-to", Id::bind, 1},      {"tag-output", Id::tag, 0},    {"prepend-rank", Id::tag, 0},
    {"l", Id::tag, 0},             {"report-bindings", Id::report, 0},
    {"verbose", Id::verbose, 0},   {"v", Id::verbose, 0},         {"timeout", Id::timeout, 1},
    {"x", Id::export_var, 1},      {"genv", Id::genv, 2},         {"env", Id::genv, 2},
    {"oversubscribe", Id::noop, 0}, {"allow-run-as-root", Id::noop, 0},
    {"help", Id::help, 0},         {"h", Id::help, 0},            {"version", Id::version, 0},
    {"V", Id::version, 0},         {"no-deadlock-check", Id::no_deadlock, 0},
    {"trace", Id::trace, 1},
    {"check", Id::check, 0},
    {"universe-size", Id::universe, 1}, {"usize", Id::universe, 1},
};

const Spec* find_spec(std::string_view name) {
  for (const Spec& s : kSpecs)
    if (s.name == name) return &s;
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
  static const std::string text = R"(usage: mpiexec [options] program [args...]
       mpirun  [options] program [args...]

Starts N copies of program on this machine as one MPI job (ringmpi).
The program and its arguments are passed to every rank unchanged.

options:
  -n, -np, -c N          number of ranks (default 1)
  --bind-to core|numa|none
                         pin each rank to one core, to one NUMA node, or not
                         at all (default: core when the ranks fit on the
                         cores, none otherwise)
  --report-bindings      print where each rank is bound, on stderr
  --tag-output, -l       prefix every output line with "[rank] " ("[s.rank] "
                         for rank `rank` of the s-th MPI_Comm_spawn)
  -x VAR                 export VAR from mpiexec's environment to the ranks
  -x VAR=value           set VAR to value in every rank
  -genv VAR value        set VAR to value in every rank (also -env)
  --timeout S            kill the job after S seconds (also the environment
                         variable MPIEXEC_TIMEOUT; 0 = no limit)
  --oversubscribe        accepted; more ranks than cores is always allowed
  --allow-run-as-root    accepted; nothing is refused to root
  --no-deadlock-check    do not end a deadlocked job (see exit status 123)
  --trace FILE           record every MPI call and message of every rank and
                         write them to FILE as Chrome trace-event JSON (open
                         it in ui.perfetto.dev or chrome://tracing; render
                         it with ringmpi-trace svg|summary FILE)
  --check                check arguments across ranks: every collective verifies
                         that all ranks pass the same call, root, op and type
                         signature (count x datatype), every receive that the
                         message's signature matches its own; the first
                         mismatch ends the job with one message naming the call
                         and both ranks' arguments (exit status 1)
  --universe-size N      MPI_UNIVERSE_SIZE, the processes the job expects to
                         run at once, spawned ones included (also --usize;
                         default: the cores hwloc sees, at least N of -n);
                         the job has room for 32 processes more than that,
                         and MPI_Comm_spawn beyond the room fails with
                         MPI_ERR_SPAWN
  -v, --verbose          say which event loop and binding are used
  -h, --help             this text
  -V, --version          ringmpi's version
  --                     end of options (the next argument is the program)
Long options take one or two dashes, and --opt=value or --opt value.

Ranks inherit mpiexec's environment. Rank 0 reads mpiexec's standard input;
the other ranks read /dev/null. Standard output and error of every rank are
forwarded line by line (lines are never mixed).

exit status:
  0        every rank exited with status 0
  N        the first rank to fail exited with status N (MPI_Abort: its code)
  1        a rank exited with status 0 after MPI_Init without MPI_Finalize
  128+S    the first rank to fail was killed by signal S, or mpiexec itself
           received SIGINT/SIGTERM/SIGHUP (S) and forwarded it to the ranks
  2        bad command line
  124      the time limit (--timeout, MPIEXEC_TIMEOUT) expired
  123      deadlock: every rank still running was blocked in MPI for over a
           second with no message in flight (the report on stderr names the
           call each rank waits in, with its arguments and the rank it waits
           for, and the wait-for cycle); --no-deadlock-check turns this off
  126      the program is not executable
  127      the program was not found
  125      mpiexec itself failed (e.g. could not create the shared arena)
When a rank fails, the other ranks are killed at once and mpiexec prints one
line on stderr naming the rank and the cause. Each rank leads its own process
group; what it started there is killed when the rank exits. SIGINT, SIGTERM
and SIGHUP to mpiexec are passed on to the ranks (SIGKILL 1 s later if they
are still there); if mpiexec itself is killed, the ranks die with it.
SIGQUIT to mpiexec prints what each rank is doing (the MPI call it waits in,
or that it is not waiting in MPI) and lets the job go on; --timeout prints
the same lines.

environment (RINGMPI_* tunables are checked before the job starts):
  MPIEXEC_TIMEOUT=S            as --timeout
)" + tunables::help();
  return text;
}

}  // namespace ringmpi::launcher
