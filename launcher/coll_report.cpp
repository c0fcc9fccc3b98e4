#include "coll_report.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>
#include <vector>

namespace ringmpi::launcher {
namespace {

struct Key {
  std::string comm;
  int size;
  std::string family, algo;
  bool operator<(const Key& o) const {
    return std::tie(comm, size, family, algo) < std::tie(o.comm, o.size, o.family, o.algo);
  }
};
struct Sum {
  unsigned long long calls = 0;  // the largest of any rank
  unsigned long long max_ns = 0;  // the slowest rank's total
};

std::string duration(double ns) {
  char b[32];
  if (ns >= 1e9)
    std::snprintf(b, sizeof b, "%.3f s", ns / 1e9);
  else if (ns >= 1e6)
    std::snprintf(b, sizeof b, "%.3f ms", ns / 1e6);
  else
    std::snprintf(b, sizeof b, "%.3f us", ns / 1e3);
  return b;
}

}  // namespace

std::string coll_report(const std::string& dir, int nranks, int* missing) {
  std::map<Key, Sum> rows;
  *missing = 0;
  for (int r = 0; r < nranks; ++r) {
    std::ifstream in(dir + "/coll-" + std::to_string(r) + ".txt");
    if (!in) {
      ++*missing;
      continue;
    }
    std::string line;
    while (std::getline(in, line)) {
      std::vector<std::string> f;
      std::stringstream ss(line);
      std::string field;
      while (std::getline(ss, field, '\t')) f.push_back(field);
      if (f.size() != 6) continue;
      Key k{f[0], std::atoi(f[1].c_str()), f[2], f[3]};
      Sum& s = rows[k];
      s.calls = std::max(s.calls, std::stoull(f[4]));
      s.max_ns = std::max(s.max_ns, std::stoull(f[5]));
    }
  }
  std::string out = "mpiexec: collective algorithms (--coll-report; time: the slowest rank's blocking calls)\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-20s %5s  %-15s %-14s %10s %14s %12s\n", "communicator", "ranks", "family",
                "algorithm", "calls", "time", "per call");
  out += line;
  for (const auto& [k, s] : rows) {
    std::snprintf(line, sizeof line, "  %-20s %5d  %-15s %-14s %10llu %14s %12s\n", k.comm.c_str(), k.size,
                  k.family.c_str(), k.algo.c_str(), s.calls, duration(static_cast<double>(s.max_ns)).c_str(),
                  duration(s.calls ? static_cast<double>(s.max_ns) / static_cast<double>(s.calls) : 0).c_str());
    out += line;
  }
  if (rows.empty()) out += "  (no collective ran)\n";
  return out;
}

}  // namespace ringmpi::launcher
