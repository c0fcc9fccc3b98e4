// The collective rules file (RINGMPI_COLL_RULES, written by ringmpi-tune;
// format in docs/guide/collective-algorithms.md, "Rules files"): which
// algorithm the default choice of a family prefers in a band of
// communicator sizes and message sizes. Parsed here, below everything
// else, so that mpiexec checks a file before it starts a job and the
// library (coll/select.cpp) reads the same rules at its first collective.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ringmpi::tunables {

// Which jobs a rule holds for (its optional fifth field).
enum class CollCores : std::uint8_t {
  any,             // "*" or no fifth field
  bound,           // "bound": every rank of the job has a core of its own
  oversubscribed,  // "oversubscribed": the job has more ranks than cores
};

// One line of a rules file. Bands are inclusive; np_hi and bytes_hi are
// UINT64_MAX for an open end.
struct CollRule {
  int family = 0;  // index in the RINGMPI_COLL_<FAMILY> tunables (0: barrier ... 10: neighbor)
  bool exscan = false;  // family "exscan": the scan family's MPI_Exscan (and MPI_Iexscan) only
  std::uint64_t np_lo = 0, np_hi = 0;
  std::uint64_t bytes_lo = 0, bytes_hi = 0;
  bool any_bytes = false;  // bytes "*": the rule holds for the v forms too
  CollCores cores = CollCores::any;
  std::string algorithm;   // one of the family's names, or "auto" (no preference: the next level decides)
  int line = 0;
};

// The file the library reads, from an environment (lookup returns nullptr
// for an unset variable): RINGMPI_COLL_RULES when set (empty: none), else
// the first of $XDG_CONFIG_HOME/ringmpi/coll-rules (or
// $HOME/.config/ringmpi/coll-rules) and <prefix>/share/ringmpi/coll-rules
// that exists; "" when there is none.
std::string coll_rules_path(const std::function<const char*(const char*)>& lookup);

// Parses a rules file's text; false with *why ("line 3: ...") otherwise.
bool parse_coll_rules(const std::string& text, std::vector<CollRule>* out, std::string* why);

// Reads and parses the file at path; false with a one-line *why naming the
// file (and the line) otherwise.
bool load_coll_rules(const std::string& path, std::vector<CollRule>* out, std::string* why);

// mpiexec's check before a job: "" when the environment's rules file (if
// any) is acceptable, else one line naming the file, the line and the problem.
std::string check_coll_rules(const std::function<const char*(const char*)>& lookup);

}  // namespace ringmpi::tunables
