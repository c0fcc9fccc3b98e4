// The deadlock report's words for the call a rank waits in (issue 15): the
// call with its arguments and the world rank it waits for, from what the
// entry point noted in core::Runtime::call_args (see api::Call::note_args).
//
// Runs only when a wait is about to sleep (lib/p2p/wait.cpp, through
// core::Runtime::describe_call, installed at MPI_Init), so formatting costs the
// fast path nothing; the entry points pay a few plain stores.
#include "api/call_report.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>

#include "api/call.hpp"
#include "p2p/request.hpp"

namespace ringmpi::api {
namespace {

using Kind = core::Runtime::CallArgs::Kind;

// Appends printf-style text to a bounded buffer.
struct Text {
  char* buf;
  unsigned size;
  unsigned used = 0;
  [[gnu::format(printf, 2, 3)]] void add(const char* fmt, ...) {
    if (used + 1 >= size) return;
    va_list ap;
    va_start(ap, fmt);
    const int n = std::vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
    if (n > 0) used = used + static_cast<unsigned>(n) < size ? used + static_cast<unsigned>(n) : size - 1;
  }
};

std::string rank_text(int r) {
  if (r == MPI_ANY_SOURCE) return "MPI_ANY_SOURCE";
  if (r == MPI_PROC_NULL) return "MPI_PROC_NULL";
  if (r == MPI_ROOT) return "MPI_ROOT";
  return std::to_string(r);
}

std::string tag_text(int t) { return t == MPI_ANY_TAG ? "MPI_ANY_TAG" : std::to_string(t); }

// World rank of `peer` (a rank of comm's peer group), or -1.
int world_of(MPI_Comm comm, int peer) {
  const comm::Comm* c = comm::lookup(comm);
  if (!c || peer < 0 || static_cast<std::size_t>(peer) >= c->peer_world.size()) return -1;
  return c->peer_world[static_cast<std::size_t>(peer)];
}

void add_message(Text& t, const char* who, int peer, int tag, MPI_Comm comm, int count, MPI_Datatype type) {
  t.add("%s %s, tag %s, %s", who, rank_text(peer).c_str(), tag_text(tag).c_str(), describe_comm(comm).c_str());
  if (type != MPI_DATATYPE_NULL) t.add(", %d x %s", count, dtype::describe(type).c_str());
}

// One pending request: "receive from source 1, tag 7, MPI_COMM_WORLD, 1 x MPI_INT".
int add_request(Text& t, const p2p::Request& r) {
  if (r.kind == p2p::Kind::ext) {
    t.add("a nonblocking collective on %s", describe_comm(r.comm).c_str());
    return -1;
  }
  const bool send = r.kind == p2p::Kind::send;
  const MPI_Datatype type = r.type && r.type->predefined ? r.type->handle : MPI_DATATYPE_NULL;
  t.add("%s", send ? "send to " : "receive from ");
  add_message(t, send ? "dest" : "source", r.peer, r.tag, r.comm, r.count, type);
  return send ? r.world : world_of(r.comm, r.peer);
}

bool receives_from_root(const char* call) {
  return !std::strcmp(call, "MPI_Bcast") || !std::strcmp(call, "MPI_Scatter") || !std::strcmp(call, "MPI_Scatterv");
}

void describe(char* text, unsigned size, int* waits_for) {
  const core::Runtime& rt = core::rt();
  const core::Runtime::CallArgs& a = rt.call_args;
  Text t{text, size};
  text[0] = '\0';
  *waits_for = -1;
  t.add("%s(", rt.current_call ? rt.current_call : "MPI call");
  switch (a.kind) {
    case Kind::none:
      break;
    case Kind::send:
      add_message(t, "dest", a.peer, a.tag, a.comm, a.count, a.type);
      *waits_for = world_of(a.comm, a.peer);
      break;
    case Kind::recv:
    case Kind::probe:
      add_message(t, "source", a.peer, a.tag, a.comm, a.count, a.type);
      *waits_for = world_of(a.comm, a.peer);
      break;
    case Kind::coll:
      if (a.peer >= 0 || a.peer == MPI_ROOT) t.add("root %s, ", rank_text(a.peer).c_str());
      // A rank that receives the root's data (broadcast, scatter) waits for
      // the root; other collectives wait for several ranks: no single edge.
      if (a.peer >= 0 && rt.current_call && receives_from_root(rt.current_call)) {
        const comm::Comm* c = comm::lookup(a.comm);
        if (c && (c->inter || c->rank != a.peer)) *waits_for = world_of(a.comm, a.peer);
      }
      t.add("%s", describe_comm(a.comm).c_str());
      if (a.type != MPI_DATATYPE_NULL) {
        if (a.count >= 0)
          t.add(", %d x %s", a.count, dtype::describe(a.type).c_str());
        else
          t.add(", per-rank counts of %s", dtype::describe(a.type).c_str());
      }
      break;
    case Kind::request:
    case Kind::all_of:
    case Kind::any_of: {
      // The first request still pending: for Wait and Waitall the rank waits
      // for it (any one of them would do for the cycle); for Waitany and
      // Waitsome only when it is the only one.
      int pending = 0, first = -1;
      for (int i = 0; i < a.count; ++i) {
        const auto* r = static_cast<const p2p::Request*>(a.requests[i]);
        if (!r || r->complete) continue;
        if (pending++ == 0) first = i;
      }
      if (a.kind != Kind::request) t.add("%d of %d requests pending; ", pending, a.count);
      if (first >= 0) {
        if (a.kind != Kind::request) t.add("first: ");
        const int w = add_request(t, *static_cast<const p2p::Request*>(a.requests[first]));
        if (a.kind != Kind::any_of || pending == 1) *waits_for = w;
      }
      break;
    }
  }
  t.add(")");
}

}  // namespace

void install_call_report() { core::rt().describe_call = &describe; }

}  // namespace ringmpi::api
