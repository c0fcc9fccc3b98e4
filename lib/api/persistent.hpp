// Persistent requests whose operation is made of many transfers (MPI-4.0):
// persistent collectives (coll_persist.cpp) and partitioned communication
// (partitioned.cpp). The request is a persistent extension request
// (p2p/extension.hpp, make_persistent_extension): inactive and complete after
// its _init call, started by MPI_Start/MPI_Startall (start_persistent), then
// polled by progress() like a nonblocking collective until it finishes, and
// made inactive again by the completion call that returns it.
#pragma once

#include "api/call.hpp"
#include "p2p/request.hpp"

namespace ringmpi::api {

class PersistentOp : public p2p::Extension {
 public:
  // Starts one epoch of the operation. An error is reported through `call`
  // (fail) and returned; the request then stays inactive.
  virtual int start(Call& call) = 0;
  // After the request is active again: the status fields its completion
  // reports (st_source, st_tag, st_count), where they are not the empty ones.
  virtual void fill_status(p2p::Request&) const {}
  // Whether the request is polled once in MPI_Start, after start(): no for
  // an epoch whose remaining steps are reads of other members' starts (a
  // planned collective that reads, coll/persistent_plan.hpp), which the next
  // progress (MPI_Wait, MPI_Test, any call) does, as MPI_I* leaves them.
  virtual bool poll_at_start() const { return true; }
  // Whether MPI_Wait looks at the running epoch directly a few times before
  // its general loop (spin_persistent): an epoch whose remaining steps read
  // only other members' stores, which a member with a core of its own sees
  // within a few cache-line transfers, as a blocking segment collective
  // looks at the posted word before it waits.
  virtual bool spins() const { return false; }
};

// MPI_Wait on an active persistent extension request r: up to a few direct
// polls when its operation spins() and the job has a core per rank; true
// once r is complete.
bool spin_persistent(p2p::Request* r);

// MPI_Start of an inactive persistent extension request r (r->kind == ext):
// start() its operation, then activate r.
int start_persistent(Call& call, p2p::Request* r);

// MPI_INFO_NULL or a valid info object, else MPI_ERR_INFO through `call`.
int check_info_arg(Call& call, MPI_Info info, const char* arg = "info");

}  // namespace ringmpi::api
