#include "group/validate.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <utility>

#include "mpi.h"

namespace ringmpi::group {
namespace {

Problem problem(int error_class, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
Problem problem(int error_class, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return Problem{error_class, buf};
}

std::string valid_ranks(i64 size) {
  char buf[96];
  if (size == 0)
    std::snprintf(buf, sizeof buf, "the group is empty, it has no ranks");
  else
    std::snprintf(buf, sizeof buf, "valid ranks are 0..%lld", static_cast<long long>(size - 1));
  return buf;
}

}  // namespace

Problem check_rank_list(const char* arg, i64 size, int n, const int* ranks) {
  for (int i = 0; i < n; ++i)
    if (ranks[i] < 0 || ranks[i] >= size)
      return problem(MPI_ERR_RANK, "argument %s[%d]=%d is not a rank of the group (%s)", arg, i, ranks[i],
                     valid_ranks(size).c_str());
  std::vector<std::pair<int, int>> sorted(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) sorted[static_cast<std::size_t>(i)] = {ranks[i], i};
  std::sort(sorted.begin(), sorted.end());
  int first = -1, again = -1;  // the earliest repeat in argument order
  for (std::size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i].first == sorted[i - 1].first && (again < 0 || sorted[i].second < again)) {
      // sorted[i - 1] is the first occurrence when a value repeats more than twice
      // only if it is the start of the run; find that start.
      std::size_t s = i - 1;
      while (s > 0 && sorted[s - 1].first == sorted[i].first) --s;
      first = sorted[s].second;
      again = sorted[i].second;
    }
  if (again >= 0)
    return problem(MPI_ERR_RANK, "argument %s[%d]=%d repeats %s[%d]; each rank may be named once", arg, again,
                   ranks[again], arg, first);
  return {};
}

Problem check_ranges(i64 size, int n, const int (*ranges)[3], std::vector<Prog>* out) {
  out->clear();
  out->reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const i64 first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    char triple[96];
    std::snprintf(triple, sizeof triple, "ranges[%d]={%lld, %lld, %lld}", i, static_cast<long long>(first),
                  static_cast<long long>(last), static_cast<long long>(stride));
    if (stride == 0) return problem(MPI_ERR_ARG, "argument %s has stride 0", triple);
    if (first < 0 || first >= size)
      return problem(MPI_ERR_RANK, "argument %s: first rank %lld is not a rank of the group (%s)", triple,
                     static_cast<long long>(first), valid_ranks(size).c_str());
    if ((stride > 0 && first > last) || (stride < 0 && first < last))
      return problem(MPI_ERR_ARG, "argument %s: stride %lld runs away from last rank %lld (first %s last needs a %s stride)",
                     triple, static_cast<long long>(stride), static_cast<long long>(last),
                     first > last ? ">" : "<", first > last ? "negative" : "positive");
    const i64 count = (last - first) / stride + 1;
    const i64 reached = first + (count - 1) * stride;
    if (reached < 0 || reached >= size)
      return problem(MPI_ERR_RANK, "argument %s reaches rank %lld, which is not a rank of the group (%s)", triple,
                     static_cast<long long>(reached), valid_ranks(size).c_str());
    out->push_back(make_prog(first, stride, count));
  }

  // Distinctness: only progressions whose spans overlap can share a rank.
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  const auto& ps = *out;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return ps[a].lo() < ps[b].lo(); });
  std::vector<int> active;
  for (int i : order) {
    const Prog cur = increasing(ps[static_cast<std::size_t>(i)]);
    std::erase_if(active, [&](int k) { return ps[static_cast<std::size_t>(k)].hi() < cur.first; });
    for (int k : active) {
      const Prog j = intersect_index(cur, ps[static_cast<std::size_t>(k)]);
      if (j.count == 0) continue;
      const int a = std::min(i, k), b = std::max(i, k);
      return problem(MPI_ERR_RANK, "argument ranges: rank %lld is named by both ranges[%d] and ranges[%d]; each rank may be named once",
                     static_cast<long long>(cur.at(j.first)), a, b);
    }
    active.push_back(i);
  }
  return {};
}

}  // namespace ringmpi::group
