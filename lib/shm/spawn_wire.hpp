// The spawn request a process sends to mpiexec, and mpiexec's answer
// (docs/design/dynamic-processes.md). One request per connection to
// mpiexec's abstract SOCK_SEQPACKET socket (shm::kEnvLauncher), one
// datagram each way; mpiexec accepts only peers of its own uid.
//
// Encoding: little-endian int32 words and strings (an int32 length, then
// the bytes), in the order of the fields below. A malformed message is
// refused, never half read.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace ringmpi::shm {

inline constexpr std::int32_t kSpawnMagic = 0x4e575053;  // "SPWN"
// Larger requests are refused (a datagram must fit the socket buffer).
inline constexpr std::size_t kSpawnMaxMessage = 160 * 1024;

struct SpawnCommand {
  std::string program;            // as the user wrote it
  std::vector<std::string> args;  // argv[1..] (not the program)
  std::int32_t maxprocs = 0;
  std::vector<std::int32_t> soft;  // allowed counts ("soft" info), empty: exactly maxprocs
  std::string wdir;               // "wdir" info, or the root's cwd
  std::string path;               // "path" info: directories searched first
};

struct SpawnRequest {
  std::int32_t context_slot = -1;     // the parent intercommunicator's slot (comm/context.hpp)
  std::int32_t root = 0;              // the root's rank among the parents (child rank 0 greets it)
  std::vector<std::int32_t> parents;  // world ranks of the parents, in comm rank order
  std::vector<SpawnCommand> commands;
};

struct SpawnReply {
  std::int32_t error = 0;  // MPI error class, 0 = started
  std::int32_t spawn_id = 0;
  std::int32_t base = 0;   // first slot of the new world
  std::int32_t size = 0;   // processes started
  std::vector<std::int32_t> counts;  // processes started per command
  std::vector<std::int32_t> codes;   // with error: per process asked for (missing ones: MPI_ERR_SPAWN)
  std::string message;               // with error: one sentence
};

class WireWriter {
 public:
  void i32(std::int32_t v) { bytes_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& s) {
    i32(static_cast<std::int32_t>(s.size()));
    bytes_ += s;
  }
  void ints(const std::vector<std::int32_t>& v) {
    i32(static_cast<std::int32_t>(v.size()));
    for (std::int32_t x : v) i32(x);
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

class WireReader {
 public:
  WireReader(const char* p, std::size_t n) : p_(p), n_(n) {}
  bool i32(std::int32_t* v) {
    if (n_ - at_ < sizeof *v) return false;
    std::memcpy(v, p_ + at_, sizeof *v);
    at_ += sizeof *v;
    return true;
  }
  bool count(std::int32_t* v) { return i32(v) && *v >= 0 && std::size_t(*v) <= n_ - at_; }
  bool str(std::string* s) {
    std::int32_t len;
    if (!count(&len)) return false;
    s->assign(p_ + at_, static_cast<std::size_t>(len));
    at_ += static_cast<std::size_t>(len);
    return true;
  }
  bool ints(std::vector<std::int32_t>* v) {
    std::int32_t len;
    if (!count(&len)) return false;
    v->resize(static_cast<std::size_t>(len));
    for (auto& x : *v)
      if (!i32(&x)) return false;
    return true;
  }
  bool done() const { return at_ == n_; }

 private:
  const char* p_;
  std::size_t n_, at_ = 0;
};

inline std::string encode(const SpawnRequest& r) {
  WireWriter w;
  w.i32(kSpawnMagic);
  w.i32(r.context_slot);
  w.i32(r.root);
  w.ints(r.parents);
  w.i32(static_cast<std::int32_t>(r.commands.size()));
  for (const SpawnCommand& c : r.commands) {
    w.str(c.program);
    w.i32(static_cast<std::int32_t>(c.args.size()));
    for (const std::string& a : c.args) w.str(a);
    w.i32(c.maxprocs);
    w.ints(c.soft);
    w.str(c.wdir);
    w.str(c.path);
  }
  return w.bytes();
}

inline bool decode(const char* p, std::size_t n, SpawnRequest* r) {
  WireReader in(p, n);
  std::int32_t magic, ncmd;
  if (!in.i32(&magic) || magic != kSpawnMagic || !in.i32(&r->context_slot) || !in.i32(&r->root) ||
      !in.ints(&r->parents) ||
      !in.count(&ncmd))
    return false;
  r->commands.resize(static_cast<std::size_t>(ncmd));
  for (SpawnCommand& c : r->commands) {
    std::int32_t argc;
    if (!in.str(&c.program) || !in.count(&argc)) return false;
    c.args.resize(static_cast<std::size_t>(argc));
    for (std::string& a : c.args)
      if (!in.str(&a)) return false;
    if (!in.i32(&c.maxprocs) || !in.ints(&c.soft) || !in.str(&c.wdir) || !in.str(&c.path)) return false;
  }
  return in.done();
}

inline std::string encode(const SpawnReply& r) {
  WireWriter w;
  w.i32(kSpawnMagic);
  w.i32(r.error);
  w.i32(r.spawn_id);
  w.i32(r.base);
  w.i32(r.size);
  w.ints(r.counts);
  w.ints(r.codes);
  w.str(r.message);
  return w.bytes();
}

inline bool decode(const char* p, std::size_t n, SpawnReply* r) {
  WireReader in(p, n);
  std::int32_t magic;
  return in.i32(&magic) && magic == kSpawnMagic && in.i32(&r->error) && in.i32(&r->spawn_id) && in.i32(&r->base) &&
         in.i32(&r->size) && in.ints(&r->counts) && in.ints(&r->codes) && in.str(&r->message) && in.done();
}

}  // namespace ringmpi::shm
