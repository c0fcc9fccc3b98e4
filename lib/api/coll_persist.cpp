// Persistent collectives (MPI-4.0 §6.12) and persistent neighbourhood
// collectives (§8.8): MPI_Bcast_init and the others.
//
// What _init decides and what each start does. The _init call checks the
// arguments (communicator, root, counts, datatypes, op, the count and
// displacement arrays, the info object), copies the arrays (the caller may
// reuse them) and takes a private handle on each derived datatype, so that
// MPI_Type_free after _init does not end the request's use of it (MPI-4.0
// §5.1.9 "freeing a datatype does not affect any other datatype or
// operation that uses it"). It communicates nothing: the standard makes
// _init calls collective but lets them be local (§6.12: "the
// initialization call ... follows the ordering rules of nonblocking
// collectives"), and nothing here needs a round.
// Where the communicator's segment is attached (at _init, or at the first
// start that finds it), the common families, the int forms of gatherv,
// scatterv, allgatherv, alltoallv, alltoallw, reduce_scatter(_block) and the
// neighbourhood forms get a plan (coll/persistent_plan.hpp, set_planner
// below; the v forms' block lists from the arrays copied here, the
// neighbourhood forms' with the topology's neighbour lists, plan_neighbors): the algorithm, block lists, modes and the reduction
// decided once, so each MPI_Start only checks that the communicator (and a
// reduction's op handle) is still valid, writes this member's data into the
// segment and queues its reads, with no inner request (two ranks with small
// data: sends its message and takes the peer's from the ring in the wait;
// three or more where the blocking call goes by messages: that call's tree,
// sends or chain, coll/persistent_messages.hpp). Elsewhere (no plan
// for the family or the size -- alltoallw in place, the _c v/w forms,
// gatherv, scatterv, alltoall(v|w) and the neighbourhood forms without
// single copy, erroneous aliasing or NULL buffers --,
// intercommunicators, forced messages, --check)
// each MPI_Start runs the nonblocking form's body (coll_forms.hpp) on the
// stored arguments: the argument checks again, then the same engine choice
// as MPI_I* (the segment's nonblocking algorithms once it is attached, else
// a schedule of internal messages). docs/design/persistent-partitioned.md
// states the invariants (every member takes the plan or none does).
//
// Ordering. The operation of each start takes its sequence number (the
// segment's collective number, or the schedule tag) when it starts, so the
// starts of persistent collectives on one communicator must come in the same
// order on all its processes, relative to each other and to the other
// collectives on it, as MPI-4.0 §6.12 requires ("all processes ... start
// the persistent collective operations in the same order"); MPI_Startall
// starts its array in index order.
//
// The request: a persistent extension request (api/persistent.hpp). Its
// operation (PersistentColl) runs its plan, or holds the inner request of
// the running epoch and finishes when that one completes, taking its error
// class and message.
#include <algorithm>
#include <climits>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "api/coll_args.hpp"
#include "api/coll_forms.hpp"
#include "api/large_count.hpp"
#include "api/persistent.hpp"
#include "coll/persistent_plan.hpp"
#include "coll/plan.hpp"
#include "coll/seg.hpp"
#include "core/counters.hpp"
#include "core/info.hpp"
#include "dtype/op.hpp"
#include "p2p/engine.hpp"
#include "p2p/extension.hpp"
#include "p2p/wait.hpp"
#include "topo/neighbors.hpp"
#include "topo/topology.hpp"

using namespace ringmpi;
using namespace ringmpi::api;

namespace ringmpi::api {

int check_info_arg(Call& call, MPI_Info info, const char* arg) {
  if (info == MPI_INFO_NULL || core::info_state().table.get(info)) return MPI_SUCCESS;
  return call.fail(MPI_ERR_INFO, "argument %s=0x%x is not a valid info object (freed, or not an info handle)", arg,
                   static_cast<unsigned>(info));
}

bool spin_persistent(p2p::Request* r) {
  // As Segment::wait_posted: 32 looks with a pause between them, none
  // oversubscribed (the member waited for may need this core).
  if (!static_cast<const PersistentOp*>(r->ext.get())->spins() || p2p::oversubscribed()) return r->complete;
  for (int spin = 0; spin < 32; ++spin) {
    if (p2p::poll_extension(r)) return true;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }
  return r->complete;
}

int start_persistent(Call& call, p2p::Request* r) {
  auto* op = static_cast<PersistentOp*>(r->ext.get());  // every persistent extension request holds one
  if (int e = op->start(call)) return e;
  p2p::restart_extension(r, op->poll_at_start());
  op->fill_status(*r);
  return MPI_SUCCESS;
}

}  // namespace ringmpi::api

namespace {

class PersistentColl final : public PersistentOp {
 public:
  // Runs the nonblocking form on the stored arguments; *inner gets its request.
  using Starter = std::function<int(Call&, MPI_Request*)>;

  ~PersistentColl() override {
    if (inner_) p2p::release(&inner_h_, inner_);  // freed while active (MPI_Finalize): the engine drops it
    for (MPI_Datatype h : own_types_) dtype::release_handle(h);
  }

  void set_starter(Starter s) { starter_ = std::move(s); }

  // A handle on h's datatype owned by the request (h itself when predefined
  // or invalid: the check at start reports it).
  MPI_Datatype hold(MPI_Datatype h) {
    const dtype::Datatype* t = dtype::lookup(h);
    if (!t || t->predefined) return h;
    const MPI_Datatype own = dtype::new_handle(dtype::lookup_shared(h));
    if (own == MPI_DATATYPE_NULL) return h;  // table full: the caller's handle, as the nonblocking form uses
    own_types_.push_back(own);
    return own;
  }
  // Copies of the caller's arrays (n entries; nullptr stays nullptr).
  const int* ints(const int* a, int n) { return copy(ints_, a, n); }
  const MPI_Aint* aints(const MPI_Aint* a, int n) { return copy(aints_, a, n); }
  const MPI_Count* counts(const MPI_Count* a, int n) { return copy(counts_, a, n); }
  const int* counts(const int* a, int n) { return ints(a, n); }  // either width (int and _c forms share code)
  const MPI_Datatype* types(const MPI_Datatype* a, int n) {
    if (!a) return nullptr;
    types_.emplace_back();
    for (int i = 0; i < n; ++i) types_.back().push_back(hold(a[i]));
    return types_.back().data();
  }

  // The plan of this collective on the communicator's segment (family: its
  // RINGMPI_COLL_* family), made by `planner` at _init if the segment is
  // attached then, else at the first start that finds it; `op`: a reduction's
  // operation, whose handle each start checks (MPI_ERR_OP once freed, as the
  // nonblocking form would say).
  using Planner = std::function<std::unique_ptr<coll::PersistentPlan>(coll::Segment&)>;
  void set_planner(MPI_Comm comm, tunables::Id family, Planner planner, MPI_Op op = MPI_OP_NULL) {
    comm_ = comm;
    family_ = family;
    planner_ = std::move(planner);
    op_ = op;
    if (comm::Comm* c = comm::lookup(comm))
      if (std::shared_ptr<coll::Segment> s = coll::persistent_segment(*c, family_)) plan_for(*s);
  }

  int start(Call& call) override {
    if (planner_) {
      comm::Comm* c;
      if (int e = coll_comm(call, comm_, &c)) return e;
      if (op_ != MPI_OP_NULL && !dtype::lookup_op(op_))
        return call.fail(MPI_ERR_OP, "the request's op=0x%x was freed since its _init call",
                         static_cast<unsigned>(op_));
      // The usual start: the plan made for the segment c has now, on the
      // same communicator object, with the settings it was made under (an
      // MPI_T write may force the family off the segment): no plan or
      // setting lookup, the counts kept by the plan's own pointer.
      if (plan_ && c == plan_comm_ && c->context == plan_context_ && c->coll.segment.get() == planned_for_ &&
          plan_generation_ == coll::settings_generation()) {
        plan_->start(*c, c->coll.segment);
        planned_ = true;
        ++*plan_calls_;
        coll::count_total(coll::family_of(family_), plan_->algo());
        core::count(core::Counter::coll_persistent_planned);
        return MPI_SUCCESS;
      }
      // Every member finds the segment attached, or not, at the same start
      // (it attaches at one blocking collective on all of them), and every
      // plan_* decides from what all members know: they all take the plan
      // or all the nonblocking form.
      const std::uint64_t generation = coll::settings_generation();
      if (std::shared_ptr<coll::Segment> s = coll::persistent_segment(*c, family_))
        if (coll::PersistentPlan* p = plan_for(*s)) {
          plan_counts_ = coll::shared_plan(*c);  // c's plan, kept: plan_calls_ points into it
          plan_calls_ = &plan_counts_->calls[static_cast<std::size_t>(coll::family_of(family_))]
                                     [static_cast<std::size_t>(p->algo())];
          plan_comm_ = c;
          plan_context_ = c->context;
          plan_generation_ = generation;
          p->start(*c, s);
          planned_ = true;
          coll::count(*c, coll::family_of(family_), p->algo());
          core::count(core::Counter::coll_persistent_planned);
          return MPI_SUCCESS;
        }
      plan_comm_ = nullptr;  // no plan now: the next start looks again
    }
    inner_h_ = MPI_REQUEST_NULL;
    if (int e = starter_(call, &inner_h_)) return e;
    inner_ = p2p::lookup(inner_h_);
    return MPI_SUCCESS;
  }
  bool poll_at_start() const override { return !planned_ || !plan_->reads(); }
  bool spins() const override { return planned_ && plan_->reads(); }
  bool poll() override {
    if (planned_) {
      if (!plan_->poll()) return false;
      planned_ = false;
      error_ = plan_->error();
      if (error_ != MPI_SUCCESS)
        why_ = error_ == MPI_ERR_TRUNCATE ? "a member's block is longer than the root's receive block for it"
                                          : "applying the reduction operation failed";
      return true;
    }
    if (!inner_->complete) return false;
    error_ = inner_->cancelled ? MPI_SUCCESS : inner_->st_error;
    if (error_ != MPI_SUCCESS) {
      char why[512];
      p2p::describe_error(*inner_, why, sizeof why);
      why_ = why;
    }
    p2p::finish(&inner_h_, inner_, MPI_STATUS_IGNORE);
    inner_ = nullptr;
    return true;
  }
  int error() const override { return error_; }
  const char* describe() const override { return why_.c_str(); }

 private:
  template <class T>
  static const T* copy(std::vector<std::vector<T>>& store, const T* a, int n) {
    if (!a) return nullptr;
    store.emplace_back(a, a + (n > 0 ? n : 0));
    return store.back().data();
  }
  // The plan for segment s (made once per segment), or null where the
  // nonblocking form runs instead.
  coll::PersistentPlan* plan_for(coll::Segment& s) {
    if (&s != planned_for_) {
      plan_ = planner_(s);
      planned_for_ = &s;
    }
    return plan_.get();
  }
  Starter starter_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  tunables::Id family_{};
  Planner planner_;
  MPI_Op op_ = MPI_OP_NULL;
  std::unique_ptr<coll::PersistentPlan> plan_;
  const coll::Segment* planned_for_ = nullptr;  // the segment plan_ was made for (compared, never used)
  // The start that last ran plan_ by the general path: its communicator
  // object and context id (compared, never used otherwise), the settings generation then,
  // and c's plan (coll/plan.hpp) with the counter of this family's segment
  // calls; a start that finds all three unchanged takes the plan at once.
  const comm::Comm* plan_comm_ = nullptr;
  std::uint32_t plan_context_ = 0;
  std::uint64_t plan_generation_ = 0;
  std::shared_ptr<coll::Plan> plan_counts_;
  std::uint64_t* plan_calls_ = nullptr;
  bool planned_ = false;                        // the running epoch is plan_'s
  p2p::Request* inner_ = nullptr;  // the running epoch's request (nonblocking form), or null
  MPI_Request inner_h_ = MPI_REQUEST_NULL;
  std::vector<MPI_Datatype> own_types_;
  // Each copy keeps its address: the outer vector moves the inner ones,
  // whose buffers stay put.
  std::vector<std::vector<int>> ints_;
  std::vector<std::vector<MPI_Aint>> aints_;
  std::vector<std::vector<MPI_Count>> counts_;
  std::vector<std::vector<MPI_Datatype>> types_;
  int error_ = MPI_SUCCESS;
  std::string why_;
};

int group_size(const comm::Comm& c) { return c.inter ? c.remote_size() : c.size(); }

using Family = tunables::Id;

// The reduction a plan keeps (the op object copied at _init, as a
// nonblocking reduction copies it at its start): false where a handle is
// not valid (an argument that is not significant here).
bool reduction_of(MPI_Datatype t, int count, MPI_Op op, coll::Reduction* r) {
  const dtype::Datatype* dt = dtype::lookup(t);
  const dtype::Op* o = dtype::lookup_op(op);
  if (!dt || !o) return false;
  *r = coll::Reduction{*o, t, dt, count};
  return true;
}

// The checks every _init makes first: the request and info arguments and
// the communicator (scan/exscan: an intracommunicator).
int begin(Call& call, MPI_Comm comm, MPI_Info info, MPI_Request* request, comm::Comm** c, bool intra_only = false) {
  if (int e = call.not_null(request, "request")) return e;
  if (int e = coll_comm(call, comm, c, intra_only)) return e;
  return check_info_arg(call, info);
}

// The request for op; *request gets its handle.
int finish_init(Call& call, std::unique_ptr<PersistentColl> op, MPI_Comm comm, MPI_Request* request) {
  if (int e = p2p::make_persistent_extension(std::move(op), comm, request))
    return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

// A (count, datatype) side significant on this rank.
int side(Call& call, const void* buf, int count, MPI_Datatype t, const char* b, const char* n, const char* ty) {
  const dtype::Datatype* dt;
  return check_buffer(call, buf, count, t, b, n, ty, &dt);
}

// counts/displs of n entries and their datatype.
int vside(Call& call, int n, const void* buf, const int* counts, const int* displs, MPI_Datatype t, const char* b,
          const char* cn, const char* dn, const char* ty) {
  const dtype::Datatype* dt;
  if (int e = call.datatype(t, ty, &dt)) return e;
  return check_vector(call, n, buf, counts, displs, *dt, b, cn, dn);
}

// count, datatype and op of a reduction.
int rside(Call& call, int count, MPI_Datatype t, MPI_Op op) {
  const dtype::Datatype* dt;
  if (int e = call.count(count, "count")) return e;
  if (int e = call.datatype(t, "datatype", &dt)) return e;
  return check_op(call, op, *dt);
}

int root_of(Call& call, const comm::Comm& c, int root) { return check_root(call, c, root); }

// MPI_IN_PLACE as sendbuf is an intracommunicator option only (MPI-4.1 §6.2.2).
int no_inter_in_place(Call& call, const comm::Comm& c, const void* sendbuf) {
  return c.inter ? not_in_place(call, sendbuf, "sendbuf") : MPI_SUCCESS;
}

// The neighbourhood of comm: its in- and out-degree; MPI_ERR_TOPOLOGY without a topology.
int degrees(Call& call, comm::Comm& c, MPI_Comm comm, int* in, int* out) {
  if (!c.topo)
    return call.fail(MPI_ERR_TOPOLOGY, "%s has no virtual topology (Cartesian, graph or distributed graph)",
                     describe_comm(comm).c_str());
  auto n = topo::cached_neighbors(*c.topo, c.rank);
  *in = static_cast<int>(n->sources.size());
  *out = static_cast<int>(n->destinations.size());
  return MPI_SUCCESS;
}

// Whether the nonblocking form's check_alias (coll_args.hpp) would refuse
// these blocks with MPI_ERR_BUFFER (a send block and a receive block with
// the same first data byte): no plan is made then, so that each start still
// runs the nonblocking form, which reports it. Checked once, here.
bool aliased(const void* sbuf, int sn, const int* scounts, const int* sdispls, const dtype::Datatype* st,
             const void* rbuf, int rn, const int* rcounts, const int* rdispls, const dtype::Datatype* rt) {
  if (!st || !rt || st->size == 0 || rt->size == 0) return false;
  const auto first = [](const void* buf, const int* displs, int i, const dtype::Datatype& t) {
    return first_data_byte(buf, displs ? static_cast<std::ptrdiff_t>(displs[i]) * t.extent : 0, t);
  };
  std::vector<std::uintptr_t> starts;
  for (int j = 0; j < rn; ++j)
    if (rcounts[j] > 0) starts.push_back(first(rbuf, rdispls, j, *rt));
  std::sort(starts.begin(), starts.end());
  for (int i = 0; i < sn; ++i)
    if (scounts[i] > 0 && std::binary_search(starts.begin(), starts.end(), first(sbuf, sdispls, i, *st))) return true;
  return false;
}

// As aliased, for the uniform forms: `sn` blocks of scount elements of st
// one after the other, against `rn` blocks of rcount of rt.
bool aliased_uniform(const void* sbuf, int sn, int scount, const dtype::Datatype* st, const void* rbuf, int rn,
                     int rcount, const dtype::Datatype* rt) {
  std::vector<int> sc(static_cast<std::size_t>(sn), scount), sd(static_cast<std::size_t>(sn));
  std::vector<int> rc(static_cast<std::size_t>(rn), rcount), rd(static_cast<std::size_t>(rn));
  for (int i = 0; i < sn; ++i) sd[static_cast<std::size_t>(i)] = i * scount;
  for (int j = 0; j < rn; ++j) rd[static_cast<std::size_t>(j)] = j * rcount;
  return aliased(sbuf, sn, sc.data(), sd.data(), st, rbuf, rn, rc.data(), rd.data(), rt);
}

// The neighbourhood plan (coll::plan_neighbor): the exchange's block lists
// and c's neighbour lists made once here (the topology of a communicator
// never changes), so a start that takes it neither checks the arguments
// again nor looks the neighbours up. blocks(i) gives block i of a side
// (false: a count beyond an int, no plan); `gather`: the allgather forms
// (one send block for every destination).
template <class SendBlock, class RecvBlock>
void plan_neighbors(PersistentColl& op, const comm::Comm& c, MPI_Comm comm, const void* sendbuf, void* recvbuf,
                    bool gather, SendBlock send_block, RecvBlock recv_block) {
  // MPI_IN_PLACE (erroneous here) and NULL buffers with data: each start
  // runs the nonblocking form, which reports them.
  if (c.inter || !c.topo || sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE) return;
  std::shared_ptr<const topo::Neighbors> n = topo::cached_neighbors(*c.topo, c.rank);
  const int out = static_cast<int>(n->destinations.size()), in = static_cast<int>(n->sources.size());
  coll::BlockList sends, recvs;
  for (int i = 0; i < (gather ? std::min(out, 1) : out); ++i) {
    coll::Block b;
    if (!send_block(i, &b)) return;
    sends.push_back(b);
  }
  if (gather && out > 0) sends.assign(static_cast<std::size_t>(out), sends[0]);
  for (int i = 0; i < in; ++i) {
    coll::Block b;
    if (!recv_block(i, &b)) return;
    recvs.push_back(b);
  }
  for (const coll::Block& b : sends)
    if (b.count > 0 && sendbuf == nullptr) return;
  for (const coll::Block& b : recvs)
    if (b.count > 0 && recvbuf == nullptr) return;
  const coll::NeighborArgs a{sendbuf, std::move(sends), recvbuf, std::move(recvs), &n->destinations, &n->sources,
                             &n->recv_order, gather};
  const int max_out = c.topo->max_outdegree();
  op.set_planner(comm, Family::coll_neighbor, [a, n, max_out](coll::Segment& s) {
    return coll::plan_neighbor(s, a, max_out, n);
  });
}

// Block i of a uniform side (count elements of t each) and of a v side.
auto uniform_block(int count, const dtype::Datatype* t) {
  return [=](int i, coll::Block* b) {
    if (!t) return false;
    *b = coll::Block{static_cast<std::ptrdiff_t>(i) * count * t->extent, count, t};
    return true;
  };
}
template <class Count, class Displ>
auto v_block(const Count* counts, const Displ* displs, const dtype::Datatype* t) {
  return [=](int i, coll::Block* b) {
    if (!t || counts[i] > INT_MAX) return false;
    *b = coll::Block{static_cast<std::ptrdiff_t>(displs[i]) * t->extent, static_cast<int>(counts[i]), t};
    return true;
  };
}
// Block i of a w side (byte displacements, a datatype each).
template <class Count>
auto w_block(const Count* counts, const MPI_Aint* displs, const MPI_Datatype* types) {
  return [=](int i, coll::Block* b) {
    const dtype::Datatype* t = dtype::lookup(types[i]);
    if (!t || counts[i] > INT_MAX) return false;
    *b = coll::Block{static_cast<std::ptrdiff_t>(displs[i]), static_cast<int>(counts[i]), t};
    return true;
  };
}

int scan_init(const char* name, bool exclusive, const void* sendbuf, void* recvbuf, int count,
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c, true)) return e;
  if (int e = rside(call, count, datatype, op)) return e;
  auto p = std::make_unique<PersistentColl>();
  const MPI_Datatype t = p->hold(datatype);
  p->set_starter([=](Call& k, MPI_Request* r) {
    return forms::scan(k, sendbuf, recvbuf, count, t, op, comm, exclusive, r);
  });
  coll::Reduction red;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (reduction_of(t, count, op, &red) &&
      !(sendbuf != MPI_IN_PLACE && aliased_uniform(sendbuf, 1, count, red.type, recvbuf, 1, count, red.type)))
    p->set_planner(comm, Family::coll_scan, [=](coll::Segment& s) {
      return coll::plan_scan(s, red, mine, recvbuf, exclusive);
    }, op);
  return finish_init(call, std::move(p), comm, request);
}

int send_side(Call& call, const void* buf, int count, MPI_Datatype t) {
  return side(call, buf, count, t, "sendbuf", "sendcount", "sendtype");
}
int recv_side(Call& call, const void* buf, int count, MPI_Datatype t) {
  return side(call, buf, count, t, "recvbuf", "recvcount", "recvtype");
}

// The request of a form with one send and one receive datatype: holds both
// and starts with start(k, st, rt, r) on the held handles.
// plan(*op, st, rt): sets op's planner (PersistentColl::set_planner) from
// the held handles, or nothing.
template <class Start, class PlanSetup>
int two_type_init(Call& call, MPI_Datatype sendtype, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request,
                  Start start, PlanSetup plan) {
  auto op = std::make_unique<PersistentColl>();
  const MPI_Datatype st = op->hold(sendtype), rt = op->hold(recvtype);
  op->set_starter([=](Call& k, MPI_Request* r) { return start(k, st, rt, r); });
  plan(*op, st, rt);
  return finish_init(call, std::move(op), comm, request);
}

using PairForm = int (*)(Call&, const void*, int, MPI_Datatype, void*, int, MPI_Datatype, MPI_Comm, MPI_Request*);
using RootedForm = int (*)(Call&, const void*, int, MPI_Datatype, void*, int, MPI_Datatype, int, MPI_Comm,
                           MPI_Request*);

// MPI_Allgather_init and MPI_Alltoall_init (neighbor false), and their
// neighbourhood forms (neighbor true): one (buf, count, datatype) side to
// send and one to receive, the same checks and stored arguments; only the
// nonblocking form differs. The neighbourhood forms need a topology and
// take no MPI_IN_PLACE.
int pair_init(const char* name, PairForm form, bool neighbor, const void* sendbuf, int sendcount,
              MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
              MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (neighbor) {
    int in, out;
    if (int e = degrees(call, *c, comm, &in, &out)) return e;
  } else {
    if (int e = no_inter_in_place(call, *c, sendbuf)) return e;
  }
  if (neighbor || sendbuf != MPI_IN_PLACE)
    if (int e = send_side(call, sendbuf, sendcount, sendtype)) return e;
  if (int e = recv_side(call, recvbuf, recvcount, recvtype)) return e;
  auto start = [=](Call& k, MPI_Datatype st, MPI_Datatype rt, MPI_Request* r) {
    return form(k, sendbuf, sendcount, st, recvbuf, recvcount, rt, comm, r);
  };
  const bool in_place = sendbuf == MPI_IN_PLACE;
  auto plan = [=](PersistentColl& op, MPI_Datatype st, MPI_Datatype rt) {
    const dtype::Datatype* sdt = in_place ? nullptr : dtype::lookup(st);
    const dtype::Datatype* rdt = dtype::lookup(rt);
    if (neighbor) {
      if (comm::Comm* cc = comm::lookup(comm))
        plan_neighbors(op, *cc, comm, sendbuf, recvbuf, form == forms::neighbor_allgather,
                       uniform_block(sendcount, sdt), uniform_block(recvcount, rdt));
      return;
    }
    if (!rdt || (!in_place && !sdt)) return;
    comm::Comm* cc = comm::lookup(comm);
    if (!cc) return;
    const int n = cc->size();
    if (!in_place && aliased_uniform(sendbuf, form == forms::allgather ? 1 : n, sendcount, sdt, recvbuf, n, recvcount, rdt))
      return;  // erroneous: each start reports it (the nonblocking form)
    if (form == forms::allgather)
      op.set_planner(comm, Family::coll_allgather, [=](coll::Segment& s) {
        return coll::plan_allgather(s, coll::Typed{sendbuf, sendcount, sdt}, in_place, recvbuf, recvcount, *rdt);
      });
    else if (form == forms::alltoall)
      op.set_planner(comm, Family::coll_alltoall, [=](coll::Segment& s) {
        return coll::plan_alltoall(s, sendbuf, sendcount, in_place ? *rdt : *sdt, recvbuf, recvcount, *rdt, in_place);
      });
  };
  return two_type_init(call, sendtype, recvtype, comm, request, start, plan);
}

// The checks of a rooted form (gather, scatter and their v forms) after
// begin(): the root, then each member's side, member() (the send side of a
// gather, the receive side of a scatter; skipped as MPI_IN_PLACE, and at an
// intercommunicator's root), then at the root the root's side, at_root().
template <class Member, class AtRoot>
int rooted_checks(Call& call, const comm::Comm& c, int root, const void* member_buf, Member member,
                  AtRoot at_root) {
  if (int e = root_of(call, c, root)) return e;
  const bool here = is_root(c, root);
  if (takes_part(c, root) && !(c.inter && here) && member_buf != MPI_IN_PLACE)
    if (int e = member()) return e;
  if (here)
    if (int e = at_root()) return e;
  return MPI_SUCCESS;
}

// MPI_Gather_init (gathers) and MPI_Scatter_init.
int rooted_init(const char* name, RootedForm form, bool gathers, const void* sendbuf, int sendcount,
                MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  auto sends = [&] { return send_side(call, sendbuf, sendcount, sendtype); };
  auto receives = [&] { return recv_side(call, recvbuf, recvcount, recvtype); };
  if (int e = gathers ? rooted_checks(call, *c, root, sendbuf, sends, receives)
                      : rooted_checks(call, *c, root, recvbuf, receives, sends))
    return e;
  auto start = [=](Call& k, MPI_Datatype st, MPI_Datatype rt, MPI_Request* r) {
    return form(k, sendbuf, sendcount, st, recvbuf, recvcount, rt, root, comm, r);
  };
  // The plan (intracommunicators): the arguments significant on this rank,
  // and the block size every member knows (the root's count for its blocks,
  // a member's own count, equal by the matching rule).
  const bool here = !c->inter && c->rank == root;
  auto plan = [=](PersistentColl& op, MPI_Datatype st, MPI_Datatype rt) {
    if (c->inter) return;
    if (gathers) {
      const bool in_place = here && sendbuf == MPI_IN_PLACE;
      const dtype::Datatype* sdt = in_place ? nullptr : dtype::lookup(st);
      const dtype::Datatype* rdt = here ? dtype::lookup(rt) : nullptr;
      if ((!in_place && !sdt) || (here && !rdt)) return;
      if (here && !in_place && aliased_uniform(sendbuf, 1, sendcount, sdt, recvbuf, c->size(), recvcount, rdt)) return;
      const long long block = here ? static_cast<long long>(recvcount) * static_cast<long long>(rdt->size)
                                   : static_cast<long long>(sendcount) * static_cast<long long>(sdt->size);
      op.set_planner(comm, Family::coll_gather, [=](coll::Segment& s) {
        return coll::plan_gather(s, coll::Typed{sendbuf, sendcount, sdt}, in_place, recvbuf, recvcount, rdt, root,
                                 block);
      });
      return;
    }
    const bool in_place = here && recvbuf == MPI_IN_PLACE;
    const dtype::Datatype* sdt = here ? dtype::lookup(st) : nullptr;
    const dtype::Datatype* rdt = in_place ? nullptr : dtype::lookup(rt);
    if ((here && !sdt) || (!in_place && !rdt)) return;
    if (here && !in_place && aliased_uniform(sendbuf, c->size(), sendcount, sdt, recvbuf, 1, recvcount, rdt)) return;
    const long long block = here ? static_cast<long long>(sendcount) * static_cast<long long>(sdt->size)
                                 : static_cast<long long>(recvcount) * static_cast<long long>(rdt->size);
    op.set_planner(comm, Family::coll_scatter, [=](coll::Segment& s) {
      return coll::plan_scatter(s, sendbuf, sendcount, sdt, coll::Typed{recvbuf, recvcount, rdt}, in_place, root,
                                block);
    });
  };
  return two_type_init(call, sendtype, recvtype, comm, request, start, plan);
}

// The counts, displacements and datatypes of n blocks (alltoallw and its
// neighbourhood form, whose displacements are int and MPI_Aint; the _c
// neighbourhood form's counts are MPI_Count).
template <class Count, class Displ>
int wside(Call& call, int n, const Count* counts, const Displ* displs, const MPI_Datatype* types, const char* cn,
          const char* dn, const char* tn) {
  if (n > 0 && (counts == nullptr || displs == nullptr || types == nullptr))
    return call.fail(MPI_ERR_ARG, "argument %s is NULL", counts == nullptr ? cn : displs == nullptr ? dn : tn);
  for (int i = 0; i < n; ++i) {
    const dtype::Datatype* t;
    const std::string arg = std::string(tn) + "[" + std::to_string(i) + "]";
    if (int e = call.datatype(types[i], arg.c_str(), &t)) return e;
    if (counts[i] < 0)
      return call.fail(MPI_ERR_COUNT, "argument %s[%d]=%lld is negative", cn, i, static_cast<long long>(counts[i]));
  }
  return MPI_SUCCESS;
}

// MPI_Neighbor_alltoallw_init and its _c form: the same steps for either
// count width; `run` is the nonblocking form each start runs.
template <class Count, class Run>
int neighbor_alltoallw_init_as(const char* name, const void* sendbuf, const Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf,
                               const Count recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm, MPI_Info info, MPI_Request* request, Run run) {
  Call call(name);
  comm::Comm* c;
  int in, out;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = degrees(call, *c, comm, &in, &out)) return e;
  if (int e = wside(call, out, sendcounts, sdispls, sendtypes, "sendcounts", "sdispls", "sendtypes")) return e;
  if (int e = wside(call, in, recvcounts, rdispls, recvtypes, "recvcounts", "rdispls", "recvtypes")) return e;
  auto op = std::make_unique<PersistentColl>();
  const Count* sc = op->counts(sendcounts, out);
  const MPI_Aint* sd = op->aints(sdispls, out);
  const MPI_Datatype* st = op->types(sendtypes, out);
  const Count* rc = op->counts(recvcounts, in);
  const MPI_Aint* rd = op->aints(rdispls, in);
  const MPI_Datatype* rt = op->types(recvtypes, in);
  op->set_starter([=](Call& k, MPI_Request* r) { return run(k, sendbuf, sc, sd, st, recvbuf, rc, rd, rt, comm, r); });
  plan_neighbors(*op, *c, comm, sendbuf, recvbuf, false, w_block(sc, sd, st), w_block(rc, rd, rt));
  return finish_init(call, std::move(op), comm, request);
}

}  // namespace

extern "C" {

int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  Call call("MPI_Barrier_init");
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  auto op = std::make_unique<PersistentColl>();
  op->set_starter([comm](Call& k, MPI_Request* r) { return forms::barrier(k, comm, r); });
  op->set_planner(comm, Family::coll_barrier, [](coll::Segment& s) { return coll::plan_barrier(s); });
  return finish_init(call, std::move(op), comm, request);
}

static int bcast_init_as(const char* name, void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                   MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = root_of(call, *c, root)) return e;
  if (takes_part(*c, root))
    if (int e = side(call, buffer, count, datatype, "buffer", "count", "datatype")) return e;
  auto op = std::make_unique<PersistentColl>();
  const MPI_Datatype t = op->hold(datatype);
  op->set_starter(
      [=](Call& k, MPI_Request* r) { return forms::bcast(k, buffer, count, t, root, comm, r); });
  if (const dtype::Datatype* dt = dtype::lookup(t))
    op->set_planner(comm, Family::coll_bcast,
                    [=](coll::Segment& s) { return coll::plan_bcast(s, coll::Typed{buffer, count, dt}, root); });
  return finish_init(call, std::move(op), comm, request);
}

int MPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                   MPI_Request* request) {
  return bcast_init_as("MPI_Bcast_init", buffer, count, datatype, root, comm, info, request);
}

static int gather_init_as(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return rooted_init(name, forms::gather, true, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     root, comm, info, request);
}

int MPI_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return gather_init_as("MPI_Gather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request);
}

static int gatherv_init_as(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  const int n = group_size(*c);
  auto member = [&] { return send_side(call, sendbuf, sendcount, sendtype); };
  auto at_root_side = [&] {
    return vside(call, n, recvbuf, recvcounts, displs, recvtype, "recvbuf", "recvcounts", "displs", "recvtype");
  };
  if (int e = rooted_checks(call, *c, root, sendbuf, member, at_root_side)) return e;
  const bool at_root = is_root(*c, root);
  auto op = std::make_unique<PersistentColl>();
  const MPI_Datatype st = op->hold(sendtype), rt = op->hold(recvtype);
  const int* rc = at_root ? op->ints(recvcounts, n) : recvcounts;
  const int* d = at_root ? op->ints(displs, n) : displs;
  op->set_starter([=](Call& k, MPI_Request* r) {
    return forms::gatherv(k, sendbuf, sendcount, st, recvbuf, rc, d, rt, root, comm, r);
  });
  // The plan (intracommunicators): the root's blocks from the copied counts
  // and displacements, a member's own send block.
  if (!c->inter) {
    const bool in_place = at_root && sendbuf == MPI_IN_PLACE;
    const dtype::Datatype* sdt = in_place ? nullptr : dtype::lookup(st);
    const dtype::Datatype* rdt = at_root ? dtype::lookup(rt) : nullptr;
    if ((in_place || sdt) && (!at_root || rdt) &&
        !(at_root && !in_place && aliased(sendbuf, 1, &sendcount, nullptr, sdt, recvbuf, n, rc, d, rdt)) &&
        !pair_empty(*c, [&] {
          return at_root ? std::size_t(rc[1 - root]) * rdt->size : std::size_t(sendcount) * sdt->size;
        }))
      op->set_planner(comm, Family::coll_gather, [=](coll::Segment& s) {
        return coll::plan_gatherv(s, coll::Typed{sendbuf, in_place ? 0 : sendcount, sdt ? sdt : rdt}, in_place,
                                  recvbuf, rc, d, rdt, root);
      });
  }
  return finish_init(call, std::move(op), comm, request);
}

int MPI_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request* request) {
  return gatherv_init_as("MPI_Gatherv_init", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, info, request);
}

static int scatter_init_as(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return rooted_init(name, forms::scatter, false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     recvtype, root, comm, info, request);
}

int MPI_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return scatter_init_as("MPI_Scatter_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request);
}

static int scatterv_init_as(const char* name, const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                      void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  const int n = group_size(*c);
  auto member = [&] { return recv_side(call, recvbuf, recvcount, recvtype); };
  auto at_root_side = [&] {
    return vside(call, n, sendbuf, sendcounts, displs, sendtype, "sendbuf", "sendcounts", "displs", "sendtype");
  };
  if (int e = rooted_checks(call, *c, root, recvbuf, member, at_root_side)) return e;
  const bool at_root = is_root(*c, root);
  auto op = std::make_unique<PersistentColl>();
  const MPI_Datatype st = op->hold(sendtype), rt = op->hold(recvtype);
  const int* sc = at_root ? op->ints(sendcounts, n) : sendcounts;
  const int* d = at_root ? op->ints(displs, n) : displs;
  op->set_starter([=](Call& k, MPI_Request* r) {
    return forms::scatterv(k, sendbuf, sc, d, st, recvbuf, recvcount, rt, root, comm, r);
  });
  if (!c->inter) {
    const bool in_place = at_root && recvbuf == MPI_IN_PLACE;
    const dtype::Datatype* sdt = at_root ? dtype::lookup(st) : nullptr;
    const dtype::Datatype* rdt = in_place ? nullptr : dtype::lookup(rt);
    if ((!at_root || sdt) && (in_place || rdt) &&
        !(at_root && !in_place && aliased(sendbuf, n, sc, d, sdt, recvbuf, 1, &recvcount, nullptr, rdt)) &&
        !pair_empty(*c, [&] {
          return at_root ? std::size_t(sc[1 - root]) * sdt->size : std::size_t(recvcount) * rdt->size;
        }))
      op->set_planner(comm, Family::coll_scatter, [=](coll::Segment& s) {
        return coll::plan_scatterv(s, sendbuf, sc, d, sdt, coll::Typed{recvbuf, in_place ? 0 : recvcount, rdt ? rdt : sdt},
                                   in_place, root);
      });
  }
  return finish_init(call, std::move(op), comm, request);
}

int MPI_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                      void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request* request) {
  return scatterv_init_as("MPI_Scatterv_init", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, info, request);
}

static int allgather_init_as(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return pair_init(name, forms::allgather, false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, info, request);
}

int MPI_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return allgather_init_as("MPI_Allgather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}

static int allgatherv_init_as(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = no_inter_in_place(call, *c, sendbuf)) return e;
  const int n = group_size(*c);
  if (sendbuf != MPI_IN_PLACE)
    if (int e = side(call, sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype")) return e;
  if (int e = vside(call, n, recvbuf, recvcounts, displs, recvtype, "recvbuf", "recvcounts", "displs", "recvtype"))
    return e;
  auto op = std::make_unique<PersistentColl>();
  const MPI_Datatype st = op->hold(sendtype), rt = op->hold(recvtype);
  const int* rc = op->ints(recvcounts, n);
  const int* d = op->ints(displs, n);
  op->set_starter([=](Call& k, MPI_Request* r) {
    return forms::allgatherv(k, sendbuf, sendcount, st, recvbuf, rc, d, rt, comm, r);
  });
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const dtype::Datatype* sdt = in_place ? nullptr : dtype::lookup(st);
  const dtype::Datatype* rdt = dtype::lookup(rt);
  if (!c->inter && rdt && (in_place || sdt) &&
      !(!in_place && aliased(sendbuf, 1, &sendcount, nullptr, sdt, recvbuf, n, rc, d, rdt)))
    op->set_planner(comm, Family::coll_allgather, [=](coll::Segment& s) {
      return coll::plan_allgatherv(s, coll::Typed{sendbuf, in_place ? 0 : sendcount, sdt ? sdt : rdt}, in_place,
                                   recvbuf, rc, d, *rdt);
    });
  return finish_init(call, std::move(op), comm, request);
}

int MPI_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request* request) {
  return allgatherv_init_as("MPI_Allgatherv_init", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, info, request);
}

static int alltoall_init_as(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return pair_init(name, forms::alltoall, false, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, info, request);
}

int MPI_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return alltoall_init_as("MPI_Alltoall_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}

static int alltoallv_init_as(const char* name, const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                       void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                       MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = no_inter_in_place(call, *c, sendbuf)) return e;
  const int n = group_size(*c);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place)
    if (int e = vside(call, n, sendbuf, sendcounts, sdispls, sendtype, "sendbuf", "sendcounts", "sdispls", "sendtype"))
      return e;
  if (int e = vside(call, n, recvbuf, recvcounts, rdispls, recvtype, "recvbuf", "recvcounts", "rdispls", "recvtype"))
    return e;
  auto op = std::make_unique<PersistentColl>();
  const MPI_Datatype st = in_place ? sendtype : op->hold(sendtype), rt = op->hold(recvtype);
  const int* sc = in_place ? sendcounts : op->ints(sendcounts, n);
  const int* sd = in_place ? sdispls : op->ints(sdispls, n);
  const int* rc = op->ints(recvcounts, n);
  const int* rd = op->ints(rdispls, n);
  op->set_starter([=](Call& k, MPI_Request* r) {
    return forms::alltoallv(k, sendbuf, sc, sd, st, recvbuf, rc, rd, rt, comm, r);
  });
  const dtype::Datatype* sdt = in_place ? nullptr : dtype::lookup(st);
  const dtype::Datatype* rdt = dtype::lookup(rt);
  if (!c->inter && rdt && (in_place || sdt) && !(!in_place && aliased(sendbuf, n, sc, sd, sdt, recvbuf, n, rc, rd, rdt)))
    op->set_planner(comm, Family::coll_alltoall, [=](coll::Segment& s) {
      return coll::plan_alltoallv(s, sendbuf, sc, sd, sdt ? *sdt : *rdt, recvbuf, rc, rd, *rdt, in_place);
    });
  return finish_init(call, std::move(op), comm, request);
}

int MPI_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                       void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                       MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return alltoallv_init_as("MPI_Alltoallv_init", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, info, request);
}

static int alltoallw_init_as(const char* name, const void* sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                       const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = no_inter_in_place(call, *c, sendbuf)) return e;
  const int n = group_size(*c);
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place)
    if (int e = wside(call, n, sendcounts, sdispls, sendtypes, "sendcounts", "sdispls", "sendtypes")) return e;
  if (int e = wside(call, n, recvcounts, rdispls, recvtypes, "recvcounts", "rdispls", "recvtypes")) return e;
  auto op = std::make_unique<PersistentColl>();
  const int* sc = in_place ? sendcounts : op->ints(sendcounts, n);
  const int* sd = in_place ? sdispls : op->ints(sdispls, n);
  const MPI_Datatype* st = in_place ? sendtypes : op->types(sendtypes, n);
  const int* rc = op->ints(recvcounts, n);
  const int* rd = op->ints(rdispls, n);
  const MPI_Datatype* rt = op->types(recvtypes, n);
  op->set_starter([=](Call& k, MPI_Request* r) {
    return forms::alltoallw(k, sendbuf, sc, sd, st, recvbuf, rc, rd, rt, comm, r);
  });
  // The plan (not in place): the blocks from the copied arrays and the held
  // types; none where the nonblocking form would report an error at each
  // start (a NULL buffer with data, a send block aliasing a receive block).
  if (!c->inter && !in_place) {
    std::vector<coll::Typed> src(static_cast<std::size_t>(n)), dst(static_cast<std::size_t>(n));
    std::vector<std::uintptr_t> starts;
    bool ok = true;
    for (int j = 0; ok && j < n; ++j) {
      const dtype::Datatype* s = dtype::lookup(st[j]);
      const dtype::Datatype* r = dtype::lookup(rt[j]);
      ok = s && r && !(sc[j] > 0 && sendbuf == nullptr) && !(rc[j] > 0 && recvbuf == nullptr);
      if (!ok) break;
      src[static_cast<std::size_t>(j)] = coll::Typed{static_cast<const std::byte*>(sendbuf) + sd[j], sc[j], s};
      dst[static_cast<std::size_t>(j)] = coll::Typed{static_cast<std::byte*>(recvbuf) + rd[j], rc[j], r};
      if (rc[j] > 0 && r->size > 0) starts.push_back(first_data_byte(recvbuf, rd[j], *r));
    }
    std::sort(starts.begin(), starts.end());
    for (int j = 0; ok && j < n; ++j)
      if (sc[j] > 0 && src[static_cast<std::size_t>(j)].type->size > 0)
        ok = !std::binary_search(starts.begin(), starts.end(),
                                 first_data_byte(sendbuf, sd[j], *src[static_cast<std::size_t>(j)].type));
    if (ok)
      op->set_planner(comm, Family::coll_alltoall, [src, dst](coll::Segment& s) {
        return coll::plan_alltoallw(s, src, dst);
      });
  }
  return finish_init(call, std::move(op), comm, request);
}

int MPI_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                       const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return alltoallw_init_as("MPI_Alltoallw_init", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, info, request);
}

static int reduce_init_as(const char* name, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = root_of(call, *c, root)) return e;
  if (takes_part(*c, root))
    if (int e = rside(call, count, datatype, op)) return e;
  auto p = std::make_unique<PersistentColl>();
  const MPI_Datatype t = p->hold(datatype);
  p->set_starter([=](Call& k, MPI_Request* r) { return forms::reduce(k, sendbuf, recvbuf, count, t, op, root, comm, r); });
  coll::Reduction red;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (!c->inter && reduction_of(t, count, op, &red) &&
      !(c->rank == root && sendbuf != MPI_IN_PLACE &&
        aliased_uniform(sendbuf, 1, count, red.type, recvbuf, 1, count, red.type)))
    p->set_planner(comm, Family::coll_reduce, [=](coll::Segment& s) {
      return coll::plan_reduce(s, red, mine, recvbuf, root);
    }, op);
  return finish_init(call, std::move(p), comm, request);
}

int MPI_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                    MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return reduce_init_as("MPI_Reduce_init", sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
}

static int allreduce_init_as(const char* name, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = no_inter_in_place(call, *c, sendbuf)) return e;
  if (int e = rside(call, count, datatype, op)) return e;
  auto p = std::make_unique<PersistentColl>();
  const MPI_Datatype t = p->hold(datatype);
  p->set_starter([=](Call& k, MPI_Request* r) { return forms::allreduce(k, sendbuf, recvbuf, count, t, op, comm, r); });
  coll::Reduction red;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (!c->inter && reduction_of(t, count, op, &red) &&
      !(sendbuf != MPI_IN_PLACE && aliased_uniform(sendbuf, 1, count, red.type, recvbuf, 1, count, red.type)))
    p->set_planner(comm, Family::coll_allreduce, [=](coll::Segment& s) {
      return coll::plan_reduce(s, red, mine, recvbuf, -1);
    }, op);
  return finish_init(call, std::move(p), comm, request);
}

int MPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return allreduce_init_as("MPI_Allreduce_init", sendbuf, recvbuf, count, datatype, op, comm, info, request);
}

static int reduce_scatter_init_as(const char* name, const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = no_inter_in_place(call, *c, sendbuf)) return e;
  if (recvcounts == nullptr) return call.fail(MPI_ERR_ARG, "argument recvcounts is NULL");
  for (int i = 0; i < c->size(); ++i)
    if (recvcounts[i] < 0) return call.fail(MPI_ERR_COUNT, "argument recvcounts[%d]=%d is negative", i, recvcounts[i]);
  if (int e = rside(call, 0, datatype, op)) return e;
  auto p = std::make_unique<PersistentColl>();
  const MPI_Datatype t = p->hold(datatype);
  const int* rc = p->ints(recvcounts, c->size());
  p->set_starter(
      [=](Call& k, MPI_Request* r) { return forms::reduce_scatter(k, sendbuf, recvbuf, rc, t, op, comm, r); });
  long long total = 0;
  for (int i = 0; i < c->size(); ++i) total += rc[i];
  coll::Reduction red;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  const int whole = static_cast<int>(std::min<long long>(total, INT_MAX));
  if (!c->inter && total <= INT_MAX && reduction_of(t, whole, op, &red) &&
      !(sendbuf != MPI_IN_PLACE && aliased(sendbuf, 1, &whole, nullptr, red.type, recvbuf, 1, &rc[c->rank], nullptr, red.type)))
    p->set_planner(comm, Family::coll_reduce_scatter, [=](coll::Segment& s) {
      return coll::plan_reduce_scatter(s, red, mine, recvbuf, rc);
    }, op);
  return finish_init(call, std::move(p), comm, request);
}

int MPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return reduce_scatter_init_as("MPI_Reduce_scatter_init", sendbuf, recvbuf, recvcounts, datatype, op, comm, info, request);
}

static int reduce_scatter_block_init_as(const char* name, const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = no_inter_in_place(call, *c, sendbuf)) return e;
  if (int e = call.count(recvcount, "recvcount")) return e;
  if (int e = rside(call, 0, datatype, op)) return e;
  auto p = std::make_unique<PersistentColl>();
  const MPI_Datatype t = p->hold(datatype);
  p->set_starter([=](Call& k, MPI_Request* r) {
    return forms::reduce_scatter_block(k, sendbuf, recvbuf, recvcount, t, op, comm, r);
  });
  // The plan: reduce_scatter's, with the equal counts written out once.
  const int n = c->size();
  coll::Reduction red;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  const int whole = static_cast<long long>(recvcount) * n <= INT_MAX ? recvcount * n : 0;
  if (!c->inter && static_cast<long long>(recvcount) * n <= INT_MAX && reduction_of(t, whole, op, &red) &&
      !(sendbuf != MPI_IN_PLACE && aliased(sendbuf, 1, &whole, nullptr, red.type, recvbuf, 1, &recvcount, nullptr, red.type))) {
    const std::vector<int> counts(static_cast<std::size_t>(n), recvcount);
    const int* rc = p->ints(counts.data(), n);
    p->set_planner(comm, Family::coll_reduce_scatter, [=](coll::Segment& s) {
      return coll::plan_reduce_scatter(s, red, mine, recvbuf, rc);
    }, op);
  }
  return finish_init(call, std::move(p), comm, request);
}

int MPI_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return reduce_scatter_block_init_as("MPI_Reduce_scatter_block_init", sendbuf, recvbuf, recvcount, datatype, op, comm, info, request);
}

static int scan_init_as(const char* name, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                  MPI_Info info, MPI_Request* request) {
  return scan_init(name, false, sendbuf, recvbuf, count, datatype, op, comm, info, request);
}

int MPI_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                  MPI_Info info, MPI_Request* request) {
  return scan_init_as("MPI_Scan_init", sendbuf, recvbuf, count, datatype, op, comm, info, request);
}

static int exscan_init_as(const char* name, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Info info, MPI_Request* request) {
  return scan_init(name, true, sendbuf, recvbuf, count, datatype, op, comm, info, request);
}

int MPI_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Info info, MPI_Request* request) {
  return exscan_init_as("MPI_Exscan_init", sendbuf, recvbuf, count, datatype, op, comm, info, request);
}

static int neighbor_allgather_init_as(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                MPI_Request* request) {
  return pair_init(name, forms::neighbor_allgather, true, sendbuf, sendcount, sendtype,
                   recvbuf, recvcount, recvtype, comm, info, request);
}

int MPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                MPI_Request* request) {
  return neighbor_allgather_init_as("MPI_Neighbor_allgather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}

static int neighbor_allgatherv_init_as(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  int in, out;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = degrees(call, *c, comm, &in, &out)) return e;
  if (int e = side(call, sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype")) return e;
  if (int e = vside(call, in, recvbuf, recvcounts, displs, recvtype, "recvbuf", "recvcounts", "displs", "recvtype"))
    return e;
  auto op = std::make_unique<PersistentColl>();
  const MPI_Datatype st = op->hold(sendtype), rt = op->hold(recvtype);
  const int* rc = op->ints(recvcounts, in);
  const int* d = op->ints(displs, in);
  op->set_starter([=](Call& k, MPI_Request* r) {
    return forms::neighbor_allgatherv(k, sendbuf, sendcount, st, recvbuf, rc, d, rt, comm, r);
  });
  plan_neighbors(*op, *c, comm, sendbuf, recvbuf, true, uniform_block(sendcount, dtype::lookup(st)),
                 v_block(rc, d, dtype::lookup(rt)));
  return finish_init(call, std::move(op), comm, request);
}

int MPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request* request) {
  return neighbor_allgatherv_init_as("MPI_Neighbor_allgatherv_init", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, info, request);
}

static int neighbor_alltoall_init_as(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) {
  return pair_init(name, forms::neighbor_alltoall, true, sendbuf, sendcount, sendtype,
                   recvbuf, recvcount, recvtype, comm, info, request);
}

int MPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) {
  return neighbor_alltoall_init_as("MPI_Neighbor_alltoall_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, info, request);
}

static int neighbor_alltoallv_init_as(const char* name, const void* sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  int in, out;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = degrees(call, *c, comm, &in, &out)) return e;
  if (int e = vside(call, out, sendbuf, sendcounts, sdispls, sendtype, "sendbuf", "sendcounts", "sdispls", "sendtype"))
    return e;
  if (int e = vside(call, in, recvbuf, recvcounts, rdispls, recvtype, "recvbuf", "recvcounts", "rdispls", "recvtype"))
    return e;
  auto op = std::make_unique<PersistentColl>();
  const MPI_Datatype st = op->hold(sendtype), rt = op->hold(recvtype);
  const int* sc = op->ints(sendcounts, out);
  const int* sd = op->ints(sdispls, out);
  const int* rc = op->ints(recvcounts, in);
  const int* rd = op->ints(rdispls, in);
  op->set_starter([=](Call& k, MPI_Request* r) {
    return forms::neighbor_alltoallv(k, sendbuf, sc, sd, st, recvbuf, rc, rd, rt, comm, r);
  });
  plan_neighbors(*op, *c, comm, sendbuf, recvbuf, false, v_block(sc, sd, dtype::lookup(st)),
                 v_block(rc, rd, dtype::lookup(rt)));
  return finish_init(call, std::move(op), comm, request);
}

int MPI_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return neighbor_alltoallv_init_as("MPI_Neighbor_alltoallv_init", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, info, request);
}

int MPI_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                MPI_Info info, MPI_Request* request) {
  return neighbor_alltoallw_init_as("MPI_Neighbor_alltoallw_init", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                    recvcounts, rdispls, recvtypes, comm, info, request, forms::neighbor_alltoallw);
}


}  // extern "C"

// ---- the large-count (_c) forms (MPI-4.1 annex A) ----
// Each runs what the nonblocking _c form runs (docs/design/large-counts.md),
// decided once at _init:
//  - bcast, the reductions and the six uniform forms (gather, scatter,
//    allgather, alltoall and the two neighbourhood ones): their counts as
//    the nonblocking _c forms narrow them (Counted: a count beyond the
//    limit becomes one element of a contiguous type; forms::uniform_c,
//    api::large_reduction), then the int form's _init, whose request takes
//    its own handle on that type (hold) until MPI_Request_free;
//  - the v and w forms: the _c exchange (forms::WideExchange), its blocks
//    and their types made at _init and kept by the request, each start
//    running them as one schedule, as MPI_I*v_c does;
//  - the neighbourhood v and w forms: the stored MPI_Count/MPI_Aint arrays,
//    each start running the nonblocking _c form's body on them;
//  - a reduction beyond INT_MAX with a user op, and a reduce-scatter whose
//    counts sum beyond INT_MAX: the nonblocking _c form at each start (one
//    schedule of pieces of 2^30 elements, coll.cpp), its datatype held and
//    its counts copied at _init (pieces_init).
// The narrowing happens in a call of the _c name, which ends before the
// int form's call begins (calls do not nest).

namespace {

// The counts of the uniform forms (forms::uniform_c).
int narrow_uniform(const char* name, forms::Uniform kind, const void* sendbuf, MPI_Count sendcount,
                   MPI_Datatype sendtype, const void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, Counted* s, Counted* r) {
  Call call(name);
  return forms::uniform_c(call, kind, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, s, r);
}

// A count of a bcast (op MPI_OP_NULL) or a reduction: as the nonblocking
// _c forms take it; a negative one goes on (the int form reports it).
int narrow_one(const char* name, MPI_Count v, MPI_Datatype t, const char* arg, Counted* out,
               MPI_Op op = MPI_OP_NULL) {
  if (v < 0) {
    out->count = -1;
    out->datatype = t;
    return MPI_SUCCESS;
  }
  Call call(name);
  return op == MPI_OP_NULL ? out->set(call, v, t, arg, "datatype")
                           : large_reduction(call, v, t, op, arg, "persistent", out);
}

// A v or w form: describe(call, x) checks its arguments and makes its
// blocks (forms::gatherv_c ...) once; every start runs them.
template <class Describe>
int exchange_init(const char* name, MPI_Comm comm, MPI_Info info, MPI_Request* request, Describe describe) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c)) return e;
  auto x = std::make_shared<forms::WideExchange>();
  if (int e = describe(call, x.get())) return e;
  auto op = std::make_unique<PersistentColl>();
  op->set_starter([x](Call& k, MPI_Request* r) { return forms::exchange(k, *x, r); });
  return finish_init(call, std::move(op), comm, request);
}

// A reduction whose nonblocking _c form runs as a schedule of pieces
// (forms::reduces_in_pieces: beyond INT_MAX with a user op; a reduce-scatter
// beyond INT_MAX): _init checks the communicator, root (rooted: reduce),
// datatype and op; each start runs that nonblocking _c form,
// start(call, held datatype, request).
template <class Start>
int pieces_init(const char* name, MPI_Comm comm, MPI_Info info, MPI_Request* request, bool intra_only, bool rooted,
                int root, MPI_Datatype datatype, MPI_Op op, Start start) {
  Call call(name);
  comm::Comm* c;
  if (int e = begin(call, comm, info, request, &c, intra_only)) return e;
  if (rooted)
    if (int e = root_of(call, *c, root)) return e;
  if (!rooted || takes_part(*c, root))
    if (int e = rside(call, 0, datatype, op)) return e;
  auto p = std::make_unique<PersistentColl>();
  const MPI_Datatype t = p->hold(datatype);
  p->set_starter([=](Call& k, MPI_Request* r) { return start(k, t, r); });
  return finish_init(call, std::move(p), comm, request);
}

// Whether a reduction of `count` elements with op runs in pieces.
bool in_pieces(MPI_Count count, MPI_Op op) { return count > INT_MAX && forms::reduces_in_pieces(op); }

// n MPI_Count counts of a neighbourhood _c form: not NULL (n > 0), none negative.
int wide_counts(Call& call, int n, const MPI_Count* counts, const char* cn) {
  if (n > 0 && counts == nullptr) return call.fail(MPI_ERR_ARG, "argument %s is NULL", cn);
  for (int i = 0; i < n; ++i)
    if (counts[i] < 0) return call.fail(MPI_ERR_COUNT, "argument %s[%d]=%lld is negative", cn, i, counts[i]);
  return MPI_SUCCESS;
}
// A v side of a neighbourhood _c form: its counts, displacements and datatype.
int wide_vside(Call& call, int n, const MPI_Count* counts, const MPI_Aint* displs, MPI_Datatype t, const char* cn,
               const char* dn, const char* tn) {
  const dtype::Datatype* dt;
  if (int e = call.datatype(t, tn, &dt)) return e;
  if (int e = wide_counts(call, n, counts, cn)) return e;
  if (n > 0 && displs == nullptr) return call.fail(MPI_ERR_ARG, "argument %s is NULL", dn);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Bcast_init_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request* request) {
  Counted n;
  if (int e = narrow_one("MPI_Bcast_init_c", count, datatype, "count", &n)) return e;
  return bcast_init_as("MPI_Bcast_init_c", buffer, n.count, n.datatype, root, comm, info, request);
}

int MPI_Gather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                      MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request* request) {
  Counted s, r;
  if (int e = narrow_uniform("MPI_Gather_init_c", forms::Uniform::gather, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, root, comm, &s, &r))
    return e;
  return gather_init_as("MPI_Gather_init_c", sendbuf, s.count, s.datatype, recvbuf, r.count, r.datatype, root, comm,
                        info, request);
}

int MPI_Scatter_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request* request) {
  Counted s, r;
  if (int e = narrow_uniform("MPI_Scatter_init_c", forms::Uniform::scatter, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, root, comm, &s, &r))
    return e;
  return scatter_init_as("MPI_Scatter_init_c", sendbuf, s.count, s.datatype, recvbuf, r.count, r.datatype, root,
                         comm, info, request);
}

int MPI_Allgather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request* request) {
  Counted s, r;
  if (int e = narrow_uniform("MPI_Allgather_init_c", forms::Uniform::allgather, sendbuf, sendcount, sendtype,
                             recvbuf, recvcount, recvtype, 0, comm, &s, &r))
    return e;
  return allgather_init_as("MPI_Allgather_init_c", sendbuf, s.count, s.datatype, recvbuf, r.count, r.datatype, comm,
                           info, request);
}

int MPI_Alltoall_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request* request) {
  Counted s, r;
  if (int e = narrow_uniform("MPI_Alltoall_init_c", forms::Uniform::alltoall, sendbuf, sendcount, sendtype, recvbuf,
                             recvcount, recvtype, 0, comm, &s, &r))
    return e;
  return alltoall_init_as("MPI_Alltoall_init_c", sendbuf, s.count, s.datatype, recvbuf, r.count, r.datatype, comm,
                          info, request);
}

int MPI_Neighbor_allgather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) {
  Counted s, r;
  if (int e = narrow_uniform("MPI_Neighbor_allgather_init_c", forms::Uniform::neighbor, sendbuf, sendcount, sendtype,
                             recvbuf, recvcount, recvtype, 0, comm, &s, &r))
    return e;
  return neighbor_allgather_init_as("MPI_Neighbor_allgather_init_c", sendbuf, s.count, s.datatype, recvbuf, r.count,
                                    r.datatype, comm, info, request);
}

int MPI_Neighbor_alltoall_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) {
  Counted s, r;
  if (int e = narrow_uniform("MPI_Neighbor_alltoall_init_c", forms::Uniform::neighbor, sendbuf, sendcount, sendtype,
                             recvbuf, recvcount, recvtype, 0, comm, &s, &r))
    return e;
  return neighbor_alltoall_init_as("MPI_Neighbor_alltoall_init_c", sendbuf, s.count, s.datatype, recvbuf, r.count,
                                   r.datatype, comm, info, request);
}

int MPI_Reduce_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  if (in_pieces(count, op))
    return pieces_init("MPI_Reduce_init_c", comm, info, request, false, true, root, datatype, op,
                       [=](Call& k, MPI_Datatype t, MPI_Request* r) {
                         return forms::reduce_c(k, sendbuf, recvbuf, count, t, op, root, comm, r);
                       });
  Counted n;
  if (int e = narrow_one("MPI_Reduce_init_c", count, datatype, "count", &n, op)) return e;
  return reduce_init_as("MPI_Reduce_init_c", sendbuf, recvbuf, n.count, n.datatype, op, root, comm, info, request);
}

int MPI_Allreduce_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  if (in_pieces(count, op))
    return pieces_init("MPI_Allreduce_init_c", comm, info, request, false, false, 0, datatype, op,
                       [=](Call& k, MPI_Datatype t, MPI_Request* r) {
                         return forms::allreduce_c(k, sendbuf, recvbuf, count, t, op, comm, r);
                       });
  Counted n;
  if (int e = narrow_one("MPI_Allreduce_init_c", count, datatype, "count", &n, op)) return e;
  return allreduce_init_as("MPI_Allreduce_init_c", sendbuf, recvbuf, n.count, n.datatype, op, comm, info, request);
}

int MPI_Reduce_scatter_block_init_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                    MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  // Blocks summing beyond INT_MAX: the nonblocking _c form (pieces) at each start.
  const comm::Comm* c = comm::lookup(comm);
  if (c && recvcount > INT_MAX / std::max(c->size(), 1))
    return pieces_init("MPI_Reduce_scatter_block_init_c", comm, info, request, false, false, 0, datatype, op,
                       [=](Call& k, MPI_Datatype t, MPI_Request* r) {
                         return forms::reduce_scatter_block_c(k, sendbuf, recvbuf, recvcount, t, op, comm, r);
                       });
  Counted n;
  if (int e = narrow_one("MPI_Reduce_scatter_block_init_c", recvcount, datatype, "recvcount", &n, op)) return e;
  return reduce_scatter_block_init_as("MPI_Reduce_scatter_block_init_c", sendbuf, recvbuf, n.count, n.datatype, op,
                                      comm, info, request);
}

int MPI_Scan_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  if (in_pieces(count, op))
    return pieces_init("MPI_Scan_init_c", comm, info, request, true, false, 0, datatype, op,
                       [=](Call& k, MPI_Datatype t, MPI_Request* r) {
                         return forms::scan_c(k, sendbuf, recvbuf, count, t, op, comm, false, r);
                       });
  Counted n;
  if (int e = narrow_one("MPI_Scan_init_c", count, datatype, "count", &n, op)) return e;
  return scan_init_as("MPI_Scan_init_c", sendbuf, recvbuf, n.count, n.datatype, op, comm, info, request);
}

int MPI_Exscan_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                      MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  if (in_pieces(count, op))
    return pieces_init("MPI_Exscan_init_c", comm, info, request, true, false, 0, datatype, op,
                       [=](Call& k, MPI_Datatype t, MPI_Request* r) {
                         return forms::scan_c(k, sendbuf, recvbuf, count, t, op, comm, true, r);
                       });
  Counted n;
  if (int e = narrow_one("MPI_Exscan_init_c", count, datatype, "count", &n, op)) return e;
  return exscan_init_as("MPI_Exscan_init_c", sendbuf, recvbuf, n.count, n.datatype, op, comm, info, request);
}

// The v and w forms: the blocks of the nonblocking _c forms (forms::WideExchange).

int MPI_Gatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                       const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return exchange_init("MPI_Gatherv_init_c", comm, info, request, [&](Call& call, forms::WideExchange* x) {
    return forms::gatherv_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, x);
  });
}

int MPI_Scatterv_init_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                        MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return exchange_init("MPI_Scatterv_init_c", comm, info, request, [&](Call& call, forms::WideExchange* x) {
    return forms::scatterv_c(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm,
                             x);
  });
}

int MPI_Allgatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return exchange_init("MPI_Allgatherv_init_c", comm, info, request, [&](Call& call, forms::WideExchange* x) {
    return forms::allgatherv_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, x);
  });
}

int MPI_Alltoallv_init_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                         MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return exchange_init("MPI_Alltoallv_init_c", comm, info, request, [&](Call& call, forms::WideExchange* x) {
    return forms::alltoallv_c(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                              comm, x);
  });
}

int MPI_Alltoallw_init_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                         const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                         const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                         MPI_Request* request) {
  return exchange_init("MPI_Alltoallw_init_c", comm, info, request, [&](Call& call, forms::WideExchange* x) {
    return forms::alltoallw_c(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                              comm, x);
  });
}

int MPI_Reduce_scatter_init_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  std::vector<int> v;
  MPI_Count total = 0;
  {
    Call call("MPI_Reduce_scatter_init_c");
    comm::Comm* c;
    if (int e = call.comm(comm, "comm", &c)) return e;
    if (recvcounts) {
      v.resize(static_cast<std::size_t>(c->size()));
      for (int i = 0; i < c->size(); ++i) {
        if (recvcounts[i] < 0)
          return call.fail(MPI_ERR_COUNT, "argument recvcounts[%d]=%lld is negative", i, recvcounts[i]);
        total += recvcounts[i];
        v[static_cast<std::size_t>(i)] = static_cast<int>(std::min<MPI_Count>(recvcounts[i], INT_MAX));
      }
    }
  }
  if (total > INT_MAX) {
    // The nonblocking _c form at each start (pieces), on a copy of the counts.
    auto counts = std::make_shared<std::vector<MPI_Count>>(recvcounts, recvcounts + v.size());
    return pieces_init("MPI_Reduce_scatter_init_c", comm, info, request, false, false, 0, datatype, op,
                       [=](Call& k, MPI_Datatype t, MPI_Request* r) {
                         return forms::reduce_scatter_c(k, sendbuf, recvbuf, counts->data(), t, op, comm, r);
                       });
  }
  return reduce_scatter_init_as("MPI_Reduce_scatter_init_c", sendbuf, recvbuf, recvcounts ? v.data() : nullptr,
                                datatype, op, comm, info, request);
}

// The neighbourhood v and w forms: the nonblocking _c body on copies of the arrays.

int MPI_Neighbor_allgatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  Call call("MPI_Neighbor_allgatherv_init_c");
  comm::Comm* c;
  int in, out;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = degrees(call, *c, comm, &in, &out)) return e;
  const dtype::Datatype* st;
  if (int e = call.datatype(sendtype, "sendtype", &st)) return e;
  if (sendcount < 0) return call.fail(MPI_ERR_COUNT, "argument sendcount=%lld is negative", sendcount);
  if (int e = wide_vside(call, in, recvcounts, displs, recvtype, "recvcounts", "displs", "recvtype")) return e;
  auto op = std::make_unique<PersistentColl>();
  const MPI_Datatype sh = op->hold(sendtype), rh = op->hold(recvtype);
  const MPI_Count* rc = op->counts(recvcounts, in);
  const MPI_Aint* d = op->aints(displs, in);
  op->set_starter([=](Call& k, MPI_Request* r) {
    return forms::neighbor_allgatherv_c(k, sendbuf, sendcount, sh, recvbuf, rc, d, rh, comm, r);
  });
  if (sendcount <= INT_MAX)
    plan_neighbors(*op, *c, comm, sendbuf, recvbuf, true, uniform_block(static_cast<int>(sendcount), dtype::lookup(sh)),
                   v_block(rc, d, dtype::lookup(rh)));
  return finish_init(call, std::move(op), comm, request);
}

int MPI_Neighbor_alltoallv_init_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                  MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                                  const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) {
  Call call("MPI_Neighbor_alltoallv_init_c");
  comm::Comm* c;
  int in, out;
  if (int e = begin(call, comm, info, request, &c)) return e;
  if (int e = degrees(call, *c, comm, &in, &out)) return e;
  if (int e = wide_vside(call, out, sendcounts, sdispls, sendtype, "sendcounts", "sdispls", "sendtype")) return e;
  if (int e = wide_vside(call, in, recvcounts, rdispls, recvtype, "recvcounts", "rdispls", "recvtype")) return e;
  auto op = std::make_unique<PersistentColl>();
  const MPI_Datatype sh = op->hold(sendtype), rh = op->hold(recvtype);
  const MPI_Count* sc = op->counts(sendcounts, out);
  const MPI_Aint* sd = op->aints(sdispls, out);
  const MPI_Count* rc = op->counts(recvcounts, in);
  const MPI_Aint* rd = op->aints(rdispls, in);
  op->set_starter([=](Call& k, MPI_Request* r) {
    return forms::neighbor_alltoallv_c(k, sendbuf, sc, sd, sh, recvbuf, rc, rd, rh, comm, r);
  });
  plan_neighbors(*op, *c, comm, sendbuf, recvbuf, false, v_block(sc, sd, dtype::lookup(sh)),
                 v_block(rc, rd, dtype::lookup(rh)));
  return finish_init(call, std::move(op), comm, request);
}

int MPI_Neighbor_alltoallw_init_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                  const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                  MPI_Info info, MPI_Request* request) {
  return neighbor_alltoallw_init_as("MPI_Neighbor_alltoallw_init_c", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                    recvcounts, rdispls, recvtypes, comm, info, request, forms::neighbor_alltoallw_c);
}

}  // extern "C"
