// Merging the ranks' trace records into Chrome trace-event JSON.
//
// Output: {"traceEvents":[...],"displayTimeUnit":"ns"} with, per rank, a pid
// (= the rank) named "rank N" by a process_name metadata event, one "X"
// (complete) event per MPI call with its arguments, and per message a flow:
// "s" on the sender at the time it was handed over, "f" with "bp":"e" on the
// receiver at the time it was matched, sharing an id. Times are microseconds
// from the earliest record of the job.
//
// Matching a send to its receive: messages from one sender to one receiver
// with the same context id and tag are received in the order they were sent
// (MPI-3.1 §3.5, non-overtaking: any receive that matches the later one
// matches the earlier one too), so the k-th send of (src, dst, context, tag)
// is the k-th receive of the same four. A send without a recorded receive
// (never received, cancelled, or the receiver's buffer lost in a crash) is an
// instant event "unreceived message" instead of a flow.
#include "trace.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "shm/trace_record.hpp"
#include "mpi.h"

namespace ringmpi::launcher {
namespace {

using shm::TraceKind;
using shm::TraceRecord;

std::vector<TraceRecord> read_records(const std::string& path) {
  std::vector<TraceRecord> out;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  TraceRecord r;
  std::size_t have = 0;
  for (;;) {
    const ssize_t n = read(fd, reinterpret_cast<char*>(&r) + have, sizeof r - have);
    if (n <= 0) break;
    have += static_cast<std::size_t>(n);
    if (have == sizeof r) {
      out.push_back(r);
      have = 0;
    }
  }
  close(fd);
  return out;
}

// A fixed-size text field of a record, bounded and JSON-safe.
std::string field(const char* p, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n && p[i]; ++i) {
    const char c = p[i];
    if (c == '"' || c == '\\') s += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) s += c;
  }
  return s;
}

std::string comm_name(std::uint32_t h) {
  const auto c = static_cast<MPI_Comm>(h);
  if (c == MPI_COMM_WORLD) return "MPI_COMM_WORLD";
  if (c == MPI_COMM_SELF) return "MPI_COMM_SELF";
  char buf[32];
  std::snprintf(buf, sizeof buf, "comm 0x%x", h);
  return buf;
}

struct Writer {
  FILE* f;
  std::uint64_t origin;
  bool first = true;
  void begin_event() {
    std::fputs(first ? "\n" : ",\n", f);
    first = false;
  }
  double us(std::uint64_t t) const { return static_cast<double>(t - origin) / 1000.0; }
};

void write_call(Writer& w, int rank, const TraceRecord& r) {
  w.begin_event();
  std::fprintf(w.f, R"({"name":"%s","cat":"mpi","ph":"X","pid":%d,"tid":0,"ts":%.3f,"dur":%.3f,"args":{)",
               field(r.name, sizeof r.name).c_str(), rank, w.us(r.t0),
               static_cast<double>(r.t1 - r.t0) / 1000.0);
  bool any = false;
  auto sep = [&] {
    if (any) std::fputc(',', w.f);
    any = true;
  };
  if (r.peer != shm::kTraceNone) {
    sep();
    std::fprintf(w.f, R"("peer":%d)", r.peer);
  }
  if (r.tag != shm::kTraceNone) {
    sep();
    std::fprintf(w.f, R"("tag":%d)", r.tag);
  }
  if (static_cast<MPI_Comm>(r.comm) != MPI_COMM_NULL) {
    sep();
    std::fprintf(w.f, R"("comm":"%s")", comm_name(r.comm).c_str());
  }
  if (r.count != shm::kTraceNone) {
    sep();
    std::fprintf(w.f, R"("count":%d)", r.count);
  }
  if (r.datatype[0]) {
    sep();
    std::fprintf(w.f, R"("datatype":"%s")", field(r.datatype, sizeof r.datatype).c_str());
  }
  std::fputs("}}", w.f);
}

void write_message_args(Writer& w, int src, int dst, const TraceRecord& r) {
  std::fprintf(w.f, R"("args":{"src":%d,"dst":%d,"bytes":%)" PRIu64 R"(,"tag":%d,"context":%u}})", src, dst,
               r.bytes, r.tag, r.comm);
}

}  // namespace

TraceDir::TraceDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ringmpi-trace-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data())) path_ = buf.data();
}

TraceDir::~TraceDir() {
  if (path_.empty()) return;
  if (DIR* d = opendir(path_.c_str())) {
    while (const dirent* e = readdir(d))
      if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0)
        unlinkat(dirfd(d), e->d_name, 0);
    closedir(d);
  }
  rmdir(path_.c_str());
}

std::string merge_trace(const std::string& dir, int nranks, const std::string& out_path) {
  std::vector<std::vector<TraceRecord>> ranks(static_cast<std::size_t>(nranks));
  std::uint64_t origin = UINT64_MAX;
  for (int r = 0; r < nranks; ++r) {
    auto& recs = ranks[static_cast<std::size_t>(r)];
    recs = read_records(dir + "/rank-" + std::to_string(r) + ".bin");
    for (const TraceRecord& x : recs) origin = std::min(origin, x.t0);
  }
  if (origin == UINT64_MAX) origin = 0;

  // Receives of each (src, dst, context, tag), in match order.
  using Key = std::tuple<int, int, std::uint32_t, int>;
  std::map<Key, std::vector<const TraceRecord*>> recvs;
  for (int r = 0; r < nranks; ++r)
    for (const TraceRecord& x : ranks[static_cast<std::size_t>(r)])
      if (x.kind == static_cast<std::uint32_t>(TraceKind::recv)) recvs[Key{x.peer, r, x.comm, x.tag}].push_back(&x);
  for (auto& [key, v] : recvs)
    std::stable_sort(v.begin(), v.end(), [](const TraceRecord* a, const TraceRecord* b) { return a->t0 < b->t0; });

  FILE* f = std::fopen(out_path.c_str(), "w");
  if (!f) return "cannot write the trace file " + out_path + ": " + std::strerror(errno);
  Writer w{f, origin};
  std::fputs(R"({"displayTimeUnit":"ns","traceEvents":[)", f);
  for (int r = 0; r < nranks; ++r) {
    w.begin_event();
    std::fprintf(f, R"({"name":"process_name","ph":"M","pid":%d,"tid":0,"args":{"name":"rank %d"}})", r, r);
    w.begin_event();
    std::fprintf(f, R"({"name":"process_sort_index","ph":"M","pid":%d,"tid":0,"args":{"sort_index":%d}})", r, r);
  }
  std::map<Key, std::size_t> taken;
  std::uint64_t next_id = 1;
  for (int r = 0; r < nranks; ++r) {
    // Sends in the order they were made (a rank's records are in time order).
    for (const TraceRecord& x : ranks[static_cast<std::size_t>(r)]) {
      if (x.kind == static_cast<std::uint32_t>(TraceKind::call)) {
        write_call(w, r, x);
        continue;
      }
      if (x.kind != static_cast<std::uint32_t>(TraceKind::send)) continue;
      const Key key{r, x.peer, x.comm, x.tag};
      const auto it = recvs.find(key);
      std::size_t& k = taken[key];
      if (it == recvs.end() || k >= it->second.size()) {
        w.begin_event();
        std::fprintf(f, R"({"name":"unreceived message","cat":"message","ph":"i","s":"t","pid":%d,"tid":0,"ts":%.3f,)",
                     r, w.us(x.t0));
        write_message_args(w, r, x.peer, x);
        continue;
      }
      const TraceRecord& rx = *it->second[k++];
      const std::uint64_t id = next_id++;
      w.begin_event();
      std::fprintf(f, R"({"name":"message","cat":"message","ph":"s","id":%)" PRIu64 R"(,"pid":%d,"tid":0,"ts":%.3f,)",
                   id, r, w.us(x.t0));
      write_message_args(w, r, x.peer, x);
      w.begin_event();
      std::fprintf(f,
                   R"({"name":"message","cat":"message","ph":"f","bp":"e","id":%)" PRIu64 R"(,"pid":%d,"tid":0,"ts":%.3f,)",
                   id, x.peer, w.us(rx.t0));
      write_message_args(w, r, x.peer, rx);
    }
  }
  std::fputs("\n]}\n", f);
  const bool ok = std::ferror(f) == 0;
  if (std::fclose(f) != 0 || !ok) return "cannot write the trace file " + out_path;
  return "";
}

}  // namespace ringmpi::launcher
