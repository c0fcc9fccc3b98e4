// The collective rules file's parser (tunables/coll_rules.hpp).
#include "tunables/coll_rules.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <sys/stat.h>

#include "tunables/tunables.hpp"

namespace ringmpi::tunables {

// Where meson install puts the machine's rules (tunables/coll_rules_path.cpp.in).
extern const char* const kInstalledCollRules;

namespace {

constexpr std::uint64_t kOpen = std::numeric_limits<std::uint64_t>::max();
constexpr int kFamilies = static_cast<int>(Id::coll_neighbor) - static_cast<int>(Id::coll_barrier) + 1;

// "bcast" for RINGMPI_COLL_BCAST: the family names are the tunables' own.
std::string family_name(int f) {
  std::string n = spec(static_cast<int>(Id::coll_barrier) + f).name + std::strlen("RINGMPI_COLL_");
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return n;
}

bool is_word_of(const char* words, const std::string& w) {
  std::istringstream in(words);
  std::string x;
  while (in >> x)
    if (x == w) return true;
  return false;
}

// A number with an optional binary suffix (K, M, G; KiB, MiB, GiB too).
bool parse_size(const std::string& t, std::uint64_t* out) {
  std::size_t i = 0;
  std::uint64_t v = 0;
  if (t.empty() || !std::isdigit(static_cast<unsigned char>(t[0]))) return false;
  for (; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i) {
    if (v > (kOpen - 9) / 10) return false;
    v = v * 10 + static_cast<std::uint64_t>(t[i] - '0');
  }
  const std::string suffix = t.substr(i);
  int shift = 0;
  if (suffix.empty()) shift = 0;
  else if (suffix == "K" || suffix == "k" || suffix == "KiB") shift = 10;
  else if (suffix == "M" || suffix == "MiB") shift = 20;
  else if (suffix == "G" || suffix == "GiB") shift = 30;
  else return false;
  if (shift && v > (kOpen >> shift)) return false;
  *out = v << shift;
  return true;
}

// "*", "N", "N-M" or "N-": an inclusive band.
bool parse_band(const std::string& t, std::uint64_t* lo, std::uint64_t* hi) {
  if (t == "*") {
    *lo = 0;
    *hi = kOpen;
    return true;
  }
  const std::size_t dash = t.find('-');
  if (dash == std::string::npos) return parse_size(t, lo) && (*hi = *lo, true);
  if (!parse_size(t.substr(0, dash), lo)) return false;
  if (dash + 1 == t.size()) {
    *hi = kOpen;
    return true;
  }
  return parse_size(t.substr(dash + 1), hi) && *lo <= *hi;
}

bool exists(const std::string& p) {
  struct stat st{};
  return ::stat(p.c_str(), &st) == 0;
}

}  // namespace

std::string coll_rules_path(const std::function<const char*(const char*)>& lookup) {
  if (const char* v = lookup("RINGMPI_COLL_RULES")) return v;  // set, even empty: that and only that
  std::string user;
  if (const char* x = lookup("XDG_CONFIG_HOME"); x && *x == '/')
    user = std::string(x) + "/ringmpi/coll-rules";
  else if (const char* h = lookup("HOME"); h && *h)
    user = std::string(h) + "/.config/ringmpi/coll-rules";
  if (!user.empty() && exists(user)) return user;
  if (exists(kInstalledCollRules)) return kInstalledCollRules;
  return "";
}

bool parse_coll_rules(const std::string& text, std::vector<CollRule>* out, std::string* why) {
  std::istringstream in(text);
  std::string line;
  int number = 0;
  std::vector<CollRule> rules;
  while (std::getline(in, line)) {
    ++number;
    if (const std::size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.empty()) continue;
    const std::string at = "line " + std::to_string(number) + ": ";
    if (f.size() != 4 && f.size() != 5) {
      *why = at + "expected '<family> <np> <bytes> <algorithm> [<cores>]', found " + std::to_string(f.size()) +
             " fields";
      return false;
    }
    CollRule r;
    r.line = number;
    r.family = -1;
    for (int i = 0; i < kFamilies; ++i)
      if (family_name(i) == f[0]) r.family = i;
    // "exscan": MPI_Exscan alone, of the scan family (which "scan" names whole).
    if (f[0] == "exscan") {
      r.family = static_cast<int>(Id::coll_scan) - static_cast<int>(Id::coll_barrier);
      r.exscan = true;
    }
    if (r.family < 0) {
      *why = at + "no collective family '" + f[0] + "' (one of:";
      for (int i = 0; i < kFamilies; ++i) *why += " " + family_name(i);
      *why += " exscan)";
      return false;
    }
    if (!parse_band(f[1], &r.np_lo, &r.np_hi) || r.np_hi == 0) {
      *why = at + "np '" + f[1] + "' is not N, N-M, N- or *";
      return false;
    }
    if (!parse_band(f[2], &r.bytes_lo, &r.bytes_hi)) {
      *why = at + "bytes '" + f[2] + "' is not N, N-M, N- or * (sizes may end in K, M or G)";
      return false;
    }
    r.any_bytes = f[2] == "*";
    const char* all = words(static_cast<Id>(static_cast<int>(Id::coll_barrier) + r.family));
    if (!is_word_of(all, f[3])) {
      *why = at + f[0] + " has no algorithm '" + f[3] + "' (one of: " + all + ")";
      return false;
    }
    r.algorithm = f[3];
    if (f.size() == 5) {
      if (f[4] == "bound") r.cores = CollCores::bound;
      else if (f[4] == "oversubscribed") r.cores = CollCores::oversubscribed;
      else if (f[4] != "*") {
        *why = at + "cores '" + f[4] + "' is not bound, oversubscribed or *";
        return false;
      }
    }
    rules.push_back(std::move(r));
  }
  *out = std::move(rules);
  return true;
}

bool load_coll_rules(const std::string& path, std::vector<CollRule>* out, std::string* why) {
  std::ifstream f(path);
  if (!f) {
    const int e = errno;
    *why = "collective rules file " + path + ": cannot read it (" + std::strerror(e) + ")";
    return false;
  }
  std::ostringstream text;
  text << f.rdbuf();
  if (!parse_coll_rules(text.str(), out, why)) {
    *why = "collective rules file " + path + ", " + *why;
    return false;
  }
  return true;
}

std::string check_coll_rules(const std::function<const char*(const char*)>& lookup) {
  const std::string path = coll_rules_path(lookup);
  if (path.empty()) return "";
  std::vector<CollRule> rules;
  std::string why;
  return load_coll_rules(path, &rules, &why) ? "" : why;
}

}  // namespace ringmpi::tunables
