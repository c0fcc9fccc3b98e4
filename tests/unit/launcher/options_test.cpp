#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "../../../launcher/options.hpp"

using namespace ringmpi::launcher;
using Args = std::vector<std::string>;

namespace {

ParseResult parse(const Args& args, std::map<std::string, std::string> env = {}) {
  return parse_options(args, [env](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

std::string error_of(const Args& args, std::map<std::string, std::string> env = {}) {
  const ParseResult r = parse(args, std::move(env));
  REQUIRE(r.action == ParseResult::Action::error);
  return r.error;
}

}  // namespace

TEST_CASE("options: the program and its arguments are kept verbatim, option-like ones too") {
  const Args args{"-n", "4", "./prog", "a b", "", "'q'", "\"dq\"", "-n", "3", "--tag-output", "x=y"};
  const ParseResult r = parse(args);
  REQUIRE(r.action == ParseResult::Action::run);
  CHECK(r.options.nranks == 4);
  CHECK(r.options.program == Args{"./prog", "a b", "", "'q'", "\"dq\"", "-n", "3", "--tag-output", "x=y"});
  CHECK_FALSE(r.options.tag_output);
}

TEST_CASE("options: --trace FILE names the trace file, with = or as the next argument") {
  CHECK(parse({"-n", "2", "./prog"}).options.trace_path.empty());
  CHECK(parse({"--trace", "out.json", "./prog"}).options.trace_path == "out.json");
  CHECK(parse({"-trace=t.json", "./prog"}).options.trace_path == "t.json");
  CHECK(error_of({"--trace", "", "./prog"}).find("needs a file name") != std::string::npos);
  CHECK(error_of({"--trace"}).find("needs a value") != std::string::npos);
  CHECK(usage_text().find("--trace FILE") != std::string::npos);
}

TEST_CASE("options: -- ends the options, so a program may start with a dash") {
  const ParseResult r = parse({"-np", "2", "--", "-weird", "--"});
  REQUIRE(r.action == ParseResult::Action::run);
  CHECK(r.options.nranks == 2);
  CHECK(r.options.program == Args{"-weird", "--"});
}

TEST_CASE("options: rank count spellings of MPICH and Open MPI") {
  CHECK(parse({"-n", "3", "p"}).options.nranks == 3);
  CHECK(parse({"-np", "5", "p"}).options.nranks == 5);
  CHECK(parse({"--np", "6", "p"}).options.nranks == 6);
  CHECK(parse({"-c", "7", "p"}).options.nranks == 7);
  CHECK(parse({"--n=8", "p"}).options.nranks == 8);
  CHECK(parse({"p"}).options.nranks == 1);
}

TEST_CASE("options: flags, binding, timeout") {
  const ParseResult r = parse({"--bind-to", "numa", "--tag-output", "--oversubscribe", "--allow-run-as-root",
                               "-timeout=2.5", "--report-bindings", "-v", "prog"});
  REQUIRE(r.action == ParseResult::Action::run);
  CHECK(r.options.bind == Bind::numa);
  CHECK(r.options.tag_output);
  CHECK(r.options.report_bindings);
  CHECK(r.options.verbose);
  CHECK(r.options.timeout_s == doctest::Approx(2.5));
  CHECK(parse({"-bind-to", "core", "p"}).options.bind == Bind::core);
  CHECK(parse({"--bind-to=none", "p"}).options.bind == Bind::none);
  CHECK(parse({"p"}).options.bind == Bind::automatic);
  CHECK(parse({"-l", "p"}).options.tag_output);
}

TEST_CASE("options: -x exports from mpiexec's environment or sets, -genv sets, in order") {
  const ParseResult r = parse({"-x", "HOME", "-x", "A=b=c", "-x", "UNSET_VAR", "-genv", "B", "two words",
                               "-env", "C", "", "prog"},
                              {{"HOME", "/root"}});
  REQUIRE(r.action == ParseResult::Action::run);
  using P = std::pair<std::string, std::string>;
  CHECK(r.options.env == std::vector<P>{{"HOME", "/root"}, {"A", "b=c"}, {"B", "two words"}, {"C", ""}});
}

TEST_CASE("options: MPIEXEC_TIMEOUT applies unless --timeout is given") {
  CHECK(parse({"p"}, {{"MPIEXEC_TIMEOUT", "7"}}).options.timeout_s == doctest::Approx(7));
  CHECK(parse({"--timeout", "3", "p"}, {{"MPIEXEC_TIMEOUT", "7"}}).options.timeout_s == doctest::Approx(3));
  CHECK(parse({"p"}).options.timeout_s == 0);
  CHECK(error_of({"p"}, {{"MPIEXEC_TIMEOUT", "soon"}}).find("MPIEXEC_TIMEOUT='soon'") != std::string::npos);
}

TEST_CASE("options: help and version stop parsing") {
  CHECK(parse({"--help"}).action == ParseResult::Action::help);
  CHECK(parse({"-h", "--bogus"}).action == ParseResult::Action::help);
  CHECK(parse({"--version"}).action == ParseResult::Action::version);
  CHECK(std::string(usage_text()).find("--bind-to") != std::string::npos);
}

TEST_CASE("options: bad command lines are refused with a sentence naming the culprit") {
  CHECK(error_of({"--bogus", "p"}).find("unknown option '--bogus'") != std::string::npos);
  CHECK(error_of({"-q", "p"}).find("unknown option '-q'") != std::string::npos);
  CHECK(error_of({"-n"}).find("needs a value") != std::string::npos);
  CHECK(error_of({"-genv", "A"}).find("needs two values") != std::string::npos);
  CHECK(error_of({"-n", "0", "p"}).find("'0' is not a number of ranks") != std::string::npos);
  CHECK(error_of({"-n", "4x", "p"}).find("'4x'") != std::string::npos);
  CHECK(error_of({"-n", "-3", "p"}).find("'-3'") != std::string::npos);
  CHECK(error_of({"--bind-to", "socket", "p"}).find("'socket' is not one of core, numa, none") != std::string::npos);
  CHECK(error_of({"--timeout", "-1", "p"}).find("'-1' is not a number of seconds") != std::string::npos);
  CHECK(error_of({"--timeout", "nan", "p"}).find("'nan'") != std::string::npos);
  CHECK(error_of({"--tag-output=1", "p"}).find("does not take a value") != std::string::npos);
  CHECK(error_of({"-x", "=v", "p"}).find("no variable name") != std::string::npos);
  CHECK(error_of({"-n", "2"}).find("no program") != std::string::npos);
  CHECK(error_of({}).find("no program") != std::string::npos);
  CHECK(error_of({"--", ""}).find("program name is empty") != std::string::npos);
}

TEST_CASE("options: --check is off by default, on with --check or -check") {
  CHECK_FALSE(parse({"./prog"}).options.check);
  CHECK(parse({"--check", "./prog"}).options.check);
  CHECK(parse({"-check", "-n", "2", "./prog"}).options.check);
  // After the program it is the program's argument, not ours.
  const ParseResult r = parse({"./prog", "--check"});
  CHECK_FALSE(r.options.check);
  CHECK(r.options.program == Args{"./prog", "--check"});
}

TEST_CASE("options: --universe-size N (also --usize), a positive number") {
  CHECK(parse({"./prog"}).options.universe_size == 0);
  CHECK(parse({"--universe-size", "16", "./prog"}).options.universe_size == 16);
  CHECK(parse({"-usize=3", "-n", "2", "./prog"}).options.universe_size == 3);
  CHECK(parse({"--universe-size", "0", "./prog"}).action == ParseResult::Action::error);
  CHECK(parse({"--universe-size", "x", "./prog"}).action == ParseResult::Action::error);
  CHECK(usage_text().find("--universe-size, --usize N") != std::string::npos);
}
