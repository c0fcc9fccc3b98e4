// man_tables: prints, as JSON, the tables the man pages are made from, so
// that gen_man.py documents exactly what the programs do: mpiexec's option
// table, exit statuses and usage text (launcher/options.cpp, the same rows
// its parser and --help read) and every RINGMPI_* tunable (lib/tunables,
// the same table mpiexec checks and the library reads). Run at build time
// only; not installed.
#include <cstdio>
#include <string>
#include <string_view>

#include "../../launcher/options.hpp"
#include "mpi.h"
#include "tunables/range.hpp"
#include "tunables/tunables.hpp"

namespace {

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace

int main() {
  using namespace ringmpi;
  std::string j = "{\n  \"version\": " + quoted(RINGMPI_VERSION) + ",\n";
  j += "  \"mpi_version\": \"" + std::to_string(MPI_VERSION) + "." + std::to_string(MPI_SUBVERSION) + "\",\n";
  const launcher::UsageDoc& u = launcher::usage_doc();
  j += "  \"usage\": {\"synopsis\": " + quoted(u.synopsis) + ", \"about\": " + quoted(u.about) +
       ", \"syntax\": " + quoted(u.syntax) + ", \"io\": " + quoted(u.io) + ", \"failures\": " + quoted(u.failures) +
       "},\n  \"options\": [\n";
  const auto options = launcher::option_docs();
  for (std::size_t i = 0; i < options.size(); ++i)
    j += "    {\"names\": " + quoted(options[i].names) + ", \"args\": " + quoted(options[i].args) +
         ", \"help\": " + quoted(options[i].help) + "}" + (i + 1 < options.size() ? ",\n" : "\n");
  j += "  ],\n  \"exit_statuses\": [\n";
  const auto exits = launcher::exit_docs();
  for (std::size_t i = 0; i < exits.size(); ++i)
    j += "    {\"status\": " + quoted(exits[i].status) + ", \"meaning\": " + quoted(exits[i].meaning) + "}" +
         (i + 1 < exits.size() ? ",\n" : "\n");
  j += "  ],\n  \"tunables\": [\n";
  for (int i = 0; i < tunables::kCount; ++i) {
    const tunables::Spec& s = tunables::spec(i);
    j += "    {\"name\": " + quoted(s.name) + ", \"range\": " + quoted(tunables::range_text(s)) +
         ", \"default\": " + quoted(s.fallback) + ", \"meaning\": " + quoted(s.meaning) + "}" +
         (i + 1 < tunables::kCount ? ",\n" : "\n");
  }
  j += "  ]\n}\n";
  std::fputs(j.c_str(), stdout);
  return 0;
}
