// Collective entry points (MPI-3.1 chapter 5), blocking and nonblocking, on
// intra- and intercommunicators: argument checks (and mpiexec --check's
// agreement across ranks, api/coll_check.hpp), then
//   0. a call whose arguments say that no rank moves a byte returns at once
//      (nothing_moves: zero-byte collectives, not under --check);
//   1. else the call describes its shape (coll/select.hpp Shape: np, bytes,
//      whether it fits the shared segment, coll/fits.hpp) and its
//      communicator's plan chooses the algorithm from the family's table
//      (coll/plan.hpp select: the forced one, or the default choice; an
//      algorithm forced by RINGMPI_COLL_<FAMILY> that cannot run the call
//      fails it, naming why), counted per communicator and algorithm; a
//      call whose key (coll/plan.hpp QuickKey) is the last one's of its
//      family takes that call's algorithm without the shape (Plan::Quick);
//   2. the chosen algorithm runs: the shared segment (coll/seg.hpp, iseg_*
//      for nonblocking calls), the message code of lib/coll (movement.cpp,
//      reduction.cpp), or a schedule (coll/scheduled.hpp), run to its end or
//      started. Alltoallw and the _c v/w forms always run as a schedule.
// MPI_Barrier's blocking form is in api/comm_basic.cpp (coll/barrier.hpp).
// docs/design/collectives.md has the tables and the default choice.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "api/coll_args.hpp"
#include "api/coll_check.hpp"
#include "api/coll_forms.hpp"
#include "api/large_count.hpp"
#include "coll/fits.hpp"
#include "coll/movement.hpp"
#include "coll/plan.hpp"
#include "coll/seg.hpp"
#include "dtype/construct.hpp"
#include "dtype/op.hpp"
#include "p2p/extension.hpp"

using namespace ringmpi;
using namespace ringmpi::api;
using ringmpi::coll::Typed;

namespace {

using coll::Algo;
using coll::Block;
using coll::Family;
using Rule = CollArgs::Rule;

// The start of one call: its shape (the caller fills the call's own
// fields, then calls choose()), and the segment it may use. With a key
// (coll/plan.hpp QuickKey: intracommunicators), the plan's Quick entry
// first: when it answers (hit()), the shape is never made, and the caller
// skips its fields and fits (`if (!go.hit())`); choose() returns that
// answer, counted. Otherwise choose() selects and keeps the answer.
struct Start {
  coll::Segment* seg;
  coll::Plan* plan;  // the communicator's
  Algo quick = Algo::none;
  bool keyed = false;
  coll::QuickKey key;
  union {
    coll::Shape shape;  // made only where the call is chosen (not hit())
  };
  Start(comm::Comm& c, Family f, MPI_Request* req) { full(c, f, req); }
  [[gnu::always_inline]] Start(comm::Comm& c, Family f, MPI_Request* req, const coll::QuickKey& k)
      : keyed(true), key(k) {
    plan = &coll::plan_of(c);
    seg = coll::quick_segment(c, *plan, f, req != nullptr);
    quick = coll::quick_select(*plan, f, req != nullptr, k, seg);
    if (__builtin_expect(quick == Algo::none, 0)) full(c, f, req);
  }
  ~Start() {}  // (Shape is trivially destructible)
  Start(const Start&) = delete;
  Start& operator=(const Start&) = delete;
  bool hit() const { return quick != Algo::none; }

 private:
  void full(comm::Comm& c, Family f, MPI_Request* req) {
    new (&shape) coll::Shape();
    seg = coll::prepare(c, f, req != nullptr, false, &shape, &plan);
  }
};
static_assert(std::is_trivially_destructible_v<coll::Shape>);

// The shape of a call whose segment form is a table of blocks (gather,
// scatter, alltoall and their v forms) where the plan's Quick entry did not
// answer: its call fields are its key's (`bytes`: the uniform block's, 0
// for a v form; `pair`: what moves at np 2; `block`: the uniform block, -1
// for a v form), then coll/fits.cpp table_fits.
[[gnu::always_inline]] inline void table_shape(Start& go, const comm::Comm& c, Family f, bool uniform,
                                               std::size_t bytes, std::size_t pair, long long block) {
  if (go.hit()) return;
  if (!c.inter) {
    go.shape.uniform = uniform;
    go.shape.bytes = bytes;
    go.shape.pair_bytes = pair;
  }
  coll::table_fits(go.seg, f, block, &go.shape);
}

[[gnu::cold]] int refused(Call& call, Family f, const Start& st) {
  return call.fail(MPI_ERR_UNSUPPORTED_OPERATION, "%s", coll::select_refusal(*st.plan, f, st.shape).c_str());
}

// choose() where the plan's Quick entry did not answer: select() on the
// shape, kept for the next call of the same key.
[[gnu::noinline]] int choose_slow(Call& call, Family f, Start& st, Algo* a) {
  *a = coll::select(*st.plan, f, st.shape);
  if (__builtin_expect(*a == Algo::none, 0)) return refused(call, f, st);
  if (st.keyed) coll::quick_store(*st.plan, f, st.key, st.seg, st.shape, *a);
  return MPI_SUCCESS;
}

// agree() with the call's record built only under mpiexec --check (built
// before the inline test, its two dozen stores ran on every call).
#define AGREE(call, c, comm, req, ...) \
  (__builtin_expect(core::rt().check_mode, 0) ? agree_slow(call, c, comm, __VA_ARGS__, req) : Pending{})

// The algorithm c's plan chooses for the call (counted), or the call's
// failure naming why a forced one cannot run it.
[[gnu::always_inline]] inline int choose(Call& call, comm::Comm&, Family f, Start& st, Algo* a) {
  if (__builtin_expect(st.hit(), 1)) {
    *a = st.quick;
    return MPI_SUCCESS;
  }
  return choose_slow(call, f, st, a);
}

bool on_segment(Algo a) { return a == Algo::segment || a == Algo::numa_leaders || coll::is_way(a); }

// What an iseg_* start returned.
int started(Call& call, int e) { return e == MPI_SUCCESS ? e : call.fail(e, "%s", p2p::error_detail()); }

// The schedule a call of family f chose: run to its end (a blocking call,
// timed for mpiexec --coll-report) or started.
int scheduled(Call& call, comm::Comm& c, Family f, std::unique_ptr<coll::Schedule> s, MPI_Comm comm, MPI_Request* req,
              Pending chk) {
  if (req) return dispatch(call, std::move(s), comm, req, std::move(chk));
  const coll::Timed timed(c, f, Algo::schedule);
  return dispatch(call, std::move(s), comm, req, std::move(chk));
}

std::unique_ptr<coll::Schedule> schedule_for(comm::Comm& c, std::initializer_list<MPI_Datatype> types) {
  auto s = coll::make_schedule(c);
  for (MPI_Datatype h : types) keep_type(*s, h);
  return s;
}

// Equal counts and displacements i * count for n ranks, as the v forms
// take them (the non-v forms build one, two for all-to-all, on every call):
// kept in the object up to kInline ranks, so that a loop of small
// collectives allocates nothing here.
class Uniform {
 public:
  Uniform(int n, int count) {
    const auto m = static_cast<std::size_t>(n);
    if (m > kInline) heap_.resize(2 * m);
    counts = m > kInline ? heap_.data() : inline_;
    displs = counts + m;
    for (int i = 0; i < n; ++i) {
      counts[i] = count;
      displs[i] = i * count;
    }
  }
  Uniform(const Uniform&) = delete;  // counts and displs point into the object
  Uniform& operator=(const Uniform&) = delete;
  int* counts;
  int* displs;

 private:
  static constexpr std::size_t kInline = 64;
  int inline_[2 * kInline];
  std::vector<int> heap_;
};

int group_size(const comm::Comm& c) { return c.inter ? c.remote_size() : c.size(); }

// Whether the uniform displacements i * count of n blocks leave an int. The
// int forms of MPI_Gather, MPI_Scatter, MPI_Allgather and MPI_Alltoall then
// take the _c path, which moves each block as one element of a contiguous
// type (api/large_count.hpp): count x ranks may exceed INT_MAX although
// each count fits.
bool beyond_int(int count, int n) { return std::int64_t{count} * n > INT_MAX; }
int gather_c(Call&, const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm, MPI_Request*);
int scatter_c(Call&, const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, int, MPI_Comm,
              MPI_Request*);
int allgather_c(Call&, const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, MPI_Comm, MPI_Request*);
int alltoall_c(Call&, const void*, MPI_Count, MPI_Datatype, void*, MPI_Count, MPI_Datatype, MPI_Comm, MPI_Request*);

// What a collective waits on, for the deadlock report: root (-1 for none),
// this rank's count (-1 for per-rank counts) and datatype.
void note(MPI_Comm comm, int root, int count, MPI_Datatype type) {
  Call::note_args(core::Runtime::CallArgs::Kind::coll, root, 0, count, comm, type);
}

// The call's end when nothing_moves(): a nonblocking form gets a request
// that is already complete (a pooled one, as request-based RMA's: no
// schedule, no tag, no message).
int complete_request(Call& call, MPI_Comm comm, MPI_Request* req) {
  if (p2p::start_completed(comm, 0, req) != MPI_SUCCESS)
    return call.fail(MPI_ERR_INTERN, "no request is free for this operation");
  return MPI_SUCCESS;
}
[[gnu::always_inline]] inline int complete_empty(Call& call, MPI_Comm comm, MPI_Request* req) {
  core::count(core::Counter::coll_zero_byte);
  return req ? complete_request(call, comm, req) : MPI_SUCCESS;
}

// A committed datatype's object, or nullptr (the full checks then name it).
[[gnu::always_inline]] inline const dtype::Datatype* valid_type(MPI_Datatype h) {
  const dtype::Datatype* t = dtype::lookup(h);
  return t != nullptr && t->committed ? t : nullptr;
}

// The uniform forms' zero-byte calls (allgather, alltoall, gather and
// scatter at the root) are found before their count and displacement
// arrays are built: `empty` is true only where every check of the v path
// would pass (valid committed datatypes, no NULL buffer under a non-zero
// count, no MPI_IN_PLACE where it is refused; blocks of no bytes alias
// nothing) and nothing_moves() holds, so the answer is the v path's; any
// doubt goes on to the v path, which reports the error as before.
[[gnu::always_inline]] inline bool empty_side(const void* buf, int count, const dtype::Datatype* t) {
  return t != nullptr && count >= 0 && !(count > 0 && null_data(buf, *t));
}
// The test itself: the blocks of `count` elements of `type` (the side with
// the arrays) carry no bytes, and the other side, `own`, moves nothing
// (MPI_IN_PLACE, or empty).
[[gnu::always_inline]] inline bool uniform_empty(const comm::Comm& c, int count, MPI_Datatype type, const void* own,
                                                 int own_count, MPI_Datatype own_type) {
  const dtype::Datatype* t = valid_type(type);
  return t && std::size_t(count) * t->size == 0 &&
         (own == MPI_IN_PLACE || empty_side(own, own_count, valid_type(own_type))) && nothing_moves(c, [] { return 0; });
}

// The same at a rank other than the root of MPI_Gather or MPI_Scatter
// (intracommunicators): its one significant side (buf, count, type) is
// empty and passes the v path's checks (not MPI_IN_PLACE, check_buffer),
// so the v path would find nothing_moves() too; the trace gets the count
// and datatype check_buffer would have noted.
[[gnu::always_inline]] inline bool leaf_empty(Call& call, const comm::Comm& c, int root, const void* buf, int count,
                                              MPI_Datatype type) {
  if (c.inter || c.rank == root || buf == MPI_IN_PLACE) return false;
  const dtype::Datatype* t = valid_type(type);
  if (!empty_side(buf, count, t) || std::size_t(count) * t->size != 0 || !nothing_moves(c, [] { return 0; }))
    return false;
  call.note_count(count);
  call.note_type(type);
  return true;
}

// A uniform form's arrays (Uniform: counts checked non-negative once, all
// equal, displacements i * count): check_vector's one possible error is a
// NULL buffer under a non-zero count, so the loop runs only to report it.
[[gnu::always_inline]] inline bool vector_fine(bool uniform, int n, const void* buf, const int* counts,
                                               const dtype::Datatype& t) {
  return uniform && (n == 0 || !(counts[0] > 0 && null_data(buf, t)));
}
// Whether n blocks of `count` elements of t at displacements i * count (a
// uniform form's; one block: n 1) and those of the other side cannot share
// a first data byte, found from the two sides' extreme starts (the usual
// case, separate buffers); false sends the call to check_alias.
struct Starts {
  std::uintptr_t lo = 0, hi = 0;
  bool any = false;
};
inline Starts uniform_starts(const void* buf, int n, int count, const dtype::Datatype& t) {
  if (n <= 0 || count <= 0 || t.size == 0) return {};
  const std::uintptr_t a = first_data_byte(buf, 0, t);
  const std::uintptr_t b = first_data_byte(buf, static_cast<std::ptrdiff_t>(n - 1) * count * t.extent, t);
  return {std::min(a, b), std::max(a, b), true};
}
inline bool alias_free(const Starts& s, const Starts& r) { return !s.any || !r.any || s.hi < r.lo || r.hi < s.lo; }

int barrier(Call& call, MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  note(comm, -1, 0, MPI_DATATYPE_NULL);
  Pending chk = AGREE(call, *c, comm, req, CollArgs{});
  Start go(*c, Family::barrier, req);
  coll::barrier_fits(go.seg, &go.shape);
  Algo a;
  if (int e = choose(call, *c, Family::barrier, go, &a)) return e;
  if (on_segment(a)) return started(call, coll::iseg_barrier(c->coll.segment, comm, req));
  auto s = coll::make_schedule(*c);
  coll::sched_barrier(*s);
  return dispatch(call, std::move(s), comm, req, std::move(chk));
}

[[gnu::noinline]] int bcast_run(Call& call, comm::Comm* c, const dtype::Datatype* t, void* buffer, int count,
                                MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* req) {
  note(comm, root, count, datatype);  // (a call that returned at its head waits on nothing)
  Pending chk =
      AGREE(call, *c, comm, req, CollArgs{.rule = Rule::same, .root = root, .send = {takes_part(*c, root), count, datatype}});
  const Typed buf{buffer, count, t};
  // (Intracommunicators: every rank's buffer takes part. The shape's call
  // fields and bcast_fits are the bytes'.)
  Start go = c->inter ? Start(*c, Family::bcast, req) : Start(*c, Family::bcast, req, {buf.bytes(), 0, 0});
  if (!go.hit()) {
    if (t) go.shape.bytes = go.shape.pair_bytes = buf.bytes();
    coll::bcast_fits(go.seg, go.shape.bytes, &go.shape);
  }
  Algo a;
  if (int e = choose(call, *c, Family::bcast, go, &a)) return e;
  if (on_segment(a)) {
    if (req) return started(call, coll::iseg_bcast(c->coll.segment, buf, datatype, root, comm, req));
    const coll::Timed timed(*c, Family::bcast, a);
    const coll::WayScope way(*go.plan, Family::bcast, *go.seg, a);
    coll::seg_bcast(*go.seg, buf, root);
    return MPI_SUCCESS;
  }
  if (a == Algo::messages) {
    const coll::Timed timed(*c, Family::bcast, a);
    coll::bcast(*c, buf, root);
    return MPI_SUCCESS;
  }
  auto s = schedule_for(*c, {datatype});
  if (c->inter)
    coll::inter_bcast(*s, *c, buf, root);
  else
    coll::sched_bcast(*s, buf, root);
  return scheduled(call, *c, Family::bcast, std::move(s), comm, req, std::move(chk));
}

// Each family's entry is an always-inline head -- its argument checks and
// the zero-byte exit, inlined into the MPI_* functions -- and an
// out-of-line body (`*_run`) for a call that goes on, so a zero-byte call
// pays neither the body's frame (its saved registers and large locals)
// nor a second call.
[[gnu::always_inline]] inline int bcast(Call& call, void* buffer, int count, MPI_Datatype datatype, int root,
                                        MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  const dtype::Datatype* t = nullptr;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  if (takes_part(*c, root))
    if (int e = check_buffer(call, buffer, count, datatype, "buffer", "count", "datatype", &t)) return e;
  if (nothing_moves(*c, [&] { return std::size_t(count) * t->size; })) return complete_empty(call, comm, req);
  return bcast_run(call, c, t, buffer, count, datatype, root, comm, req);
}

// `uniform`: MPI_Gather, where every block has the same size on every rank,
// so all ranks can agree on running large ones as a schedule.
template <bool uniform = false>
int gatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, comm::Comm* c,
            MPI_Comm comm, MPI_Request* req) {
  note(comm, root, sendcount, sendtype);
  const bool root_here = is_root(*c, root);
  const bool in_place = !c->inter && root_here && sendbuf == MPI_IN_PLACE;
  const dtype::Datatype* st = nullptr;
  const dtype::Datatype* rt = nullptr;
  const bool sends = takes_part(*c, root) && !(c->inter && root_here) && !in_place;
  if (sends) {
    if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
    if (int e = check_buffer(call, sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype", &st)) return e;
  }
  if (root_here) {
    if (int e = call.datatype(recvtype, "recvtype", &rt)) return e;
    if (!vector_fine(uniform, group_size(*c), recvbuf, recvcounts, *rt))
      if (int e =
              check_vector(call, group_size(*c), recvbuf, recvcounts, displs, *rt, "recvbuf", "recvcounts", "displs"))
        return e;
    // (A send block of no elements aliases nothing: check_alias would pass it.)
    if (sends && sendcount > 0 && !(uniform && alias_free(uniform_starts(sendbuf, 1, sendcount, *st),
                                         uniform_starts(recvbuf, group_size(*c), recvcounts[0], *rt))))
      if (int e = check_alias(call, sendbuf, 1, &sendcount, nullptr, *st, recvbuf, group_size(*c), recvcounts, displs,
                              *rt))
        return e;
  }
  if (uniform && nothing_moves(*c, [&] { return root_here ? std::size_t(recvcounts[0]) * rt->size
                                                         : std::size_t(sendcount) * st->size; }))
    return complete_empty(call, comm, req);
  // Two ranks: the root knows the moving block from its counts, the
  // other rank from its own send, so MPI_Gatherv decides as MPI_Gather
  // (and both see alike whether the block is empty: pair_empty).
  const std::size_t pair = !c->inter && c->size() == 2 ? (root_here ? std::size_t(recvcounts[1 - root]) * rt->size
                                                                    : std::size_t(sendcount) * st->size)
                                                       : 0;
  if (!uniform && pair_empty(*c, [&] { return pair; })) {
    if (root_here && !in_place)
      coll::copy_typed(Typed{sendbuf, sendcount, st}, coll::block(recvbuf, *rt, displs[root], recvcounts[root]));
    return complete_empty(call, comm, req);
  }
  Pending chk = AGREE(call, *c, comm, req,
                      CollArgs{.rule = uniform ? Rule::gather : Rule::pairs,
                       .root = root,
                       .send = {sends, sendcount, sendtype},
                       .recv = {root_here, root_here && uniform ? recvcounts[0] : 0, recvtype},
                       .shape = CollArgs::Shape::to_root,
                       .recvcounts = root_here ? recvcounts : nullptr,
                       .recv_v = !uniform,
                       .in_place = in_place});
  const Typed send{sendbuf, sends ? sendcount : 0, st ? st : rt};
  // (Intracommunicators only: there every rank's send or receive matters.)
  const auto block = [&] { return root_here ? std::size_t(recvcounts[0]) * rt->size : send.bytes(); };
  const long long known = uniform && !c->inter ? static_cast<long long>(block()) : -1;
  // (The shape's call fields and table_fits are the key's: uniform is known >= 0.)
  const std::size_t bytes = uniform && !c->inter ? block() : 0;
  Start go = c->inter ? Start(*c, Family::gather, req)
                      : Start(*c, Family::gather, req, {bytes, pair, static_cast<std::uint64_t>(known)});
  table_shape(go, *c, Family::gather, uniform, bytes, pair, known);
  Algo a;
  if (int e = choose(call, *c, Family::gather, go, &a)) return e;
  if (on_segment(a)) {
    if (req)
      return started(call, coll::iseg_gatherv(c->coll.segment, send, in_place, recvbuf, recvcounts, displs,
                                              rt ? *rt : *st, recvtype, root, comm, req));
    const coll::Timed timed(*c, Family::gather, a);
    const coll::WayScope way(*go.plan, Family::gather, *go.seg, a);
    coll::seg_gatherv(*go.seg, send, in_place, recvbuf, recvcounts, displs, rt ? *rt : *st, root, known);
    return MPI_SUCCESS;
  }
  if (a == Algo::messages) {
    const coll::Timed timed(*c, Family::gather, a);
    coll::gatherv(*c, send, in_place, recvbuf, recvcounts, displs, rt ? *rt : *st, root);
    return MPI_SUCCESS;
  }
  auto s = schedule_for(*c, {sendtype, recvtype});
  if (c->inter)
    coll::inter_gatherv(*s, *c, send, recvbuf, recvcounts, displs, rt, root);
  else
    coll::sched_gatherv(*s, send, in_place, recvbuf, recvcounts, displs, rt ? *rt : *st, root);
  return scheduled(call, *c, Family::gather, std::move(s), comm, req, std::move(chk));
}

// (Inline: the communicator and root checks in the MPI_* function, one call to the body.)
[[gnu::always_inline]] inline int gatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                          void* recvbuf, const int recvcounts[], const int displs[],
                                          MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  return gatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, c, comm, req);
}

[[gnu::noinline]] int gather_run(Call& call, comm::Comm* c, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                                 MPI_Request* req) {
  const Uniform u(is_root(*c, root) ? group_size(*c) : 0, recvcount);
  return gatherv<true>(call, sendbuf, sendcount, sendtype, recvbuf, u.counts, u.displs, recvtype, root, c, comm, req);
}
[[gnu::always_inline]] inline int gather(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                         void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                                         MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  if (is_root(*c, root))
    if (int e = call.count(recvcount, "recvcount")) return e;
  if (is_root(*c, root) && beyond_int(recvcount, group_size(*c)))
    return gather_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, req);
  // (The other ranks build no arrays.)
  if (!c->inter && c->rank == root && uniform_empty(*c, recvcount, recvtype, sendbuf, sendcount, sendtype)) {
    call.note_type(recvtype);
    return complete_empty(call, comm, req);
  }
  if (leaf_empty(call, *c, root, sendbuf, sendcount, sendtype)) return complete_empty(call, comm, req);
  return gather_run(call, c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, req);
}

// `uniform`: MPI_Scatter (see gatherv).
template <bool uniform = false>
int scatterv(Call& call, const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, comm::Comm* c, MPI_Comm comm,
             MPI_Request* req) {
  note(comm, root, recvcount, recvtype);
  const bool root_here = is_root(*c, root);
  const bool in_place = !c->inter && root_here && recvbuf == MPI_IN_PLACE;
  const dtype::Datatype* st = nullptr;
  const dtype::Datatype* rt = nullptr;
  const bool receives = takes_part(*c, root) && !(c->inter && root_here) && !in_place;
  if (receives) {
    if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
    if (int e = check_buffer(call, recvbuf, recvcount, recvtype, "recvbuf", "recvcount", "recvtype", &rt)) return e;
  }
  if (root_here) {
    if (int e = call.datatype(sendtype, "sendtype", &st)) return e;
    if (!vector_fine(uniform, group_size(*c), sendbuf, sendcounts, *st))
      if (int e =
              check_vector(call, group_size(*c), sendbuf, sendcounts, displs, *st, "sendbuf", "sendcounts", "displs"))
        return e;
    // (A receive block of no elements aliases nothing: check_alias would pass it.)
    if (receives && recvcount > 0 && !(uniform && alias_free(uniform_starts(sendbuf, group_size(*c), sendcounts[0], *st),
                                            uniform_starts(recvbuf, 1, recvcount, *rt))))
      if (int e = check_alias(call, sendbuf, group_size(*c), sendcounts, displs, *st, recvbuf, 1, &recvcount, nullptr,
                              *rt))
        return e;
  }
  if (uniform && nothing_moves(*c, [&] { return root_here ? std::size_t(sendcounts[0]) * st->size
                                                         : std::size_t(recvcount) * rt->size; }))
    return complete_empty(call, comm, req);
  // Two ranks: the root knows the moving block from its counts, the
  // other rank from its own receive, so MPI_Scatterv decides as MPI_Scatter
  // (and both see alike whether the block is empty: pair_empty).
  const std::size_t pair = !c->inter && c->size() == 2 ? (root_here ? std::size_t(sendcounts[1 - root]) * st->size
                                                                    : std::size_t(recvcount) * rt->size)
                                                       : 0;
  if (!uniform && pair_empty(*c, [&] { return pair; })) {
    if (root_here && !in_place)
      coll::copy_typed(coll::block(sendbuf, *st, displs[root], sendcounts[root]), Typed{recvbuf, recvcount, rt});
    return complete_empty(call, comm, req);
  }
  Pending chk = AGREE(call, *c, comm, req,
                      CollArgs{.rule = uniform ? Rule::scatter : Rule::pairs,
                       .root = root,
                       .send = {root_here, root_here && uniform ? sendcounts[0] : 0, sendtype},
                       .recv = {receives, recvcount, recvtype},
                       .shape = CollArgs::Shape::from_root,
                       .sendcounts = root_here ? sendcounts : nullptr,
                       .send_v = !uniform,
                       .in_place = in_place});
  const Typed recv{recvbuf, receives ? recvcount : 0, rt ? rt : st};
  const auto block = [&] { return root_here ? std::size_t(sendcounts[0]) * st->size : recv.bytes(); };
  const long long known = uniform && !c->inter ? static_cast<long long>(block()) : -1;
  // (The shape's call fields and table_fits are the key's: uniform is known >= 0.)
  const std::size_t bytes = uniform && !c->inter ? block() : 0;
  Start go = c->inter ? Start(*c, Family::scatter, req)
                      : Start(*c, Family::scatter, req, {bytes, pair, static_cast<std::uint64_t>(known)});
  table_shape(go, *c, Family::scatter, uniform, bytes, pair, known);
  Algo a;
  if (int e = choose(call, *c, Family::scatter, go, &a)) return e;
  if (on_segment(a)) {
    if (req)
      return started(call, coll::iseg_scatterv(c->coll.segment, sendbuf, sendcounts, displs, st ? *st : *rt, recv,
                                               recvtype, in_place, root, comm, req));
    const coll::Timed timed(*c, Family::scatter, a);
    const coll::WayScope way(*go.plan, Family::scatter, *go.seg, a);
    coll::seg_scatterv(*go.seg, sendbuf, sendcounts, displs, st ? *st : *rt, recv, in_place, root, known);
    return MPI_SUCCESS;
  }
  if (a == Algo::messages) {
    const coll::Timed timed(*c, Family::scatter, a);
    coll::scatterv(*c, sendbuf, sendcounts, displs, st ? *st : *rt, recv, in_place, root);
    return MPI_SUCCESS;
  }
  auto s = schedule_for(*c, {sendtype, recvtype});
  if (c->inter)
    coll::inter_scatterv(*s, *c, sendbuf, sendcounts, displs, st, recv, root);
  else
    coll::sched_scatterv(*s, sendbuf, sendcounts, displs, st ? *st : *rt, recv, in_place, root);
  return scheduled(call, *c, Family::scatter, std::move(s), comm, req, std::move(chk));
}

// (Inline: the communicator and root checks in the MPI_* function, one call to the body.)
[[gnu::always_inline]] inline int scatterv(Call& call, const void* sendbuf, const int sendcounts[],
                                           const int displs[], MPI_Datatype sendtype, void* recvbuf, int recvcount,
                                           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  return scatterv(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, c, comm, req);
}

[[gnu::noinline]] int scatter_run(Call& call, comm::Comm* c, const void* sendbuf, int sendcount,
                                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                                  MPI_Comm comm, MPI_Request* req) {
  const Uniform u(is_root(*c, root) ? group_size(*c) : 0, sendcount);
  return scatterv<true>(call, sendbuf, u.counts, u.displs, sendtype, recvbuf, recvcount, recvtype, root, c, comm, req);
}
[[gnu::always_inline]] inline int scatter(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                          void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                                          MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  if (is_root(*c, root))
    if (int e = call.count(sendcount, "sendcount")) return e;
  if (is_root(*c, root) && beyond_int(sendcount, group_size(*c)))
    return scatter_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, req);
  // (The other ranks build no arrays.)
  if (!c->inter && c->rank == root && uniform_empty(*c, sendcount, sendtype, recvbuf, recvcount, recvtype)) {
    call.note_type(sendtype);
    return complete_empty(call, comm, req);
  }
  if (leaf_empty(call, *c, root, recvbuf, recvcount, recvtype)) return complete_empty(call, comm, req);
  return scatter_run(call, c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, req);
}

template <bool uniform>
[[gnu::noinline]] int allgatherv_run(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                     const dtype::Datatype* st, bool in_place, void* recvbuf, const int recvcounts[],
                                     const int displs[], MPI_Datatype recvtype, const dtype::Datatype* rt,
                                     comm::Comm* c, MPI_Comm comm, MPI_Request* req);

// The checks and the zero-byte exit (inlined into the caller, as the
// other families' heads); allgatherv_run the rest.
template <bool uniform = false>
[[gnu::always_inline]] inline int allgatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                             void* recvbuf, const int recvcounts[], const int displs[],
                                             MPI_Datatype recvtype, comm::Comm* c, MPI_Comm comm, MPI_Request* req) {
  note(comm, -1, sendcount, sendtype);
  const bool in_place = !c->inter && sendbuf == MPI_IN_PLACE;
  const dtype::Datatype* st = nullptr;
  const dtype::Datatype* rt = nullptr;
  if (!in_place) {
    if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
    if (int e = check_buffer(call, sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype", &st)) return e;
  }
  if (int e = call.datatype(recvtype, "recvtype", &rt)) return e;
  if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  if (!vector_fine(uniform, group_size(*c), recvbuf, recvcounts, *rt))
    if (int e =
            check_vector(call, group_size(*c), recvbuf, recvcounts, displs, *rt, "recvbuf", "recvcounts", "displs"))
      return e;
  // (A send block of no elements aliases nothing: check_alias would pass it.)
  if (!in_place && sendcount > 0 && !(uniform && alias_free(uniform_starts(sendbuf, 1, sendcount, *st),
                                           uniform_starts(recvbuf, group_size(*c), recvcounts[0], *rt))))
    if (int e = check_alias(call, sendbuf, 1, &sendcount, nullptr, *st, recvbuf, group_size(*c), recvcounts, displs, *rt))
      return e;
  // Every rank passes the same recvcounts (the v form's too), so all see
  // the same total.
  if (nothing_moves(*c, [&] {
        if (uniform) return std::size_t(recvcounts[0]) * rt->size;
        std::size_t total = 0;
        for (int j = 0; j < c->size(); ++j) total += std::size_t(recvcounts[j]);
        return total * rt->size;
      }))
    return complete_empty(call, comm, req);
  return allgatherv_run<uniform>(call, sendbuf, sendcount, sendtype, st, in_place, recvbuf, recvcounts, displs,
                                 recvtype, rt, c, comm, req);
}

template <bool uniform>
int allgatherv_run(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, const dtype::Datatype* st,
                   bool in_place, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   const dtype::Datatype* rt, comm::Comm* c, MPI_Comm comm, MPI_Request* req) {
  Pending chk = AGREE(call, *c, comm, req,
                      CollArgs{.rule = uniform ? Rule::all : Rule::pairs,
                       .send = {!in_place, sendcount, sendtype},
                       .recv = {true, uniform ? recvcounts[0] : 0, recvtype},
                       .shape = CollArgs::Shape::allgather,
                       .recvcounts = recvcounts,
                       .recv_v = !uniform,
                       .in_place = in_place});
  const Typed send{sendbuf, in_place ? 0 : sendcount, st ? st : rt};
  // Intracommunicators: the shape's call fields are the total (every rank
  // knows every count) and uniform; allgather_fits asks of each block
  // whether it goes by address (seg::own_block_by_address, a test of
  // bytes >= a bound, so the largest block answers for all), so the key
  // is the total, the largest block and uniform.
  std::size_t total = 0, largest = 0;
  if (!c->inter) {
    if (uniform) {
      largest = std::size_t(recvcounts[0]) * rt->size;
      total = largest * std::size_t(c->size());
    } else {
      for (int j = 0; j < c->size(); ++j) {
        const std::size_t b = std::size_t(recvcounts[j]) * rt->size;
        total += b;
        largest = std::max(largest, b);
      }
    }
  }
  Start go = c->inter ? Start(*c, Family::allgather, req)
                      : Start(*c, Family::allgather, req, {total, largest, uniform});
  if (!c->inter && !go.hit()) {
    go.shape.bytes = total;
    go.shape.pair_bytes = total / 2;
    go.shape.uniform = uniform;
    coll::allgather_fits(go.seg, recvcounts, *rt, &go.shape);
  }
  Algo a;
  if (int e = choose(call, *c, Family::allgather, go, &a)) return e;
  if (on_segment(a)) {
    if (req)
      return started(call, coll::iseg_allgatherv(c->coll.segment, send, in_place, recvbuf, recvcounts, displs, *rt,
                                                 recvtype, comm, req));
    const coll::Timed timed(*c, Family::allgather, a);
    const coll::WayScope way(*go.plan, Family::allgather, *go.seg, a);
    coll::seg_allgatherv(*go.seg, send, in_place, recvbuf, recvcounts, displs, *rt);
    return MPI_SUCCESS;
  }
  if (a == Algo::messages) {
    const coll::Timed timed(*c, Family::allgather, a);
    coll::allgatherv(*c, send, in_place, recvbuf, recvcounts, displs, *rt);
    return MPI_SUCCESS;
  }
  auto s = schedule_for(*c, {sendtype, recvtype});
  if (c->inter)
    coll::inter_allgatherv(*s, *c, send, recvbuf, recvcounts, displs, *rt);
  else
    coll::sched_allgatherv(*s, send, in_place, recvbuf, recvcounts, displs, *rt);
  return scheduled(call, *c, Family::allgather, std::move(s), comm, req, std::move(chk));
}

// (Inline: the communicator and root checks in the MPI_* function, one call to the body.)
[[gnu::always_inline]] inline int allgatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                             void* recvbuf, const int recvcounts[], const int displs[],
                                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  return allgatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, c, comm, req);
}

[[gnu::noinline]] int allgather_run(Call& call, comm::Comm* c, const void* sendbuf, int sendcount,
                                    MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                    MPI_Comm comm, MPI_Request* req) {
  const Uniform u(group_size(*c), recvcount);
  return allgatherv<true>(call, sendbuf, sendcount, sendtype, recvbuf, u.counts, u.displs, recvtype, c, comm, req);
}
[[gnu::always_inline]] inline int allgather(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                            MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (int e = call.count(recvcount, "recvcount")) return e;
  if (beyond_int(recvcount, group_size(*c)))
    return allgather_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, req);
  if (recvbuf != MPI_IN_PLACE && uniform_empty(*c, recvcount, recvtype, sendbuf, sendcount, sendtype)) {
    call.note_type(recvtype);
    return complete_empty(call, comm, req);
  }
  return allgather_run(call, c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, req);
}

// Alltoallw's per-rank datatypes, in the object up to kInline ranks (as
// Uniform: a loop of small calls allocates nothing for them).
class TypeList {
 public:
  TypeList() = default;
  TypeList(const TypeList&) = delete;
  TypeList& operator=(const TypeList&) = delete;
  void resize(std::size_t n) {
    if (n > kInline) heap_.resize(n);
    data_ = n > kInline ? heap_.data() : inline_;
  }
  const dtype::Datatype*& operator[](std::size_t i) { return data_[i]; }
  const dtype::Datatype* operator[](std::size_t i) const { return data_[i]; }

 private:
  static constexpr std::size_t kInline = 64;
  const dtype::Datatype* inline_[kInline];
  std::vector<const dtype::Datatype*> heap_;
  const dtype::Datatype** data_ = inline_;
};

// The blocks of an all-to-all from per-rank counts, displacements (in
// elements of one type, or in bytes with per-rank types).
std::vector<Block> blocks(int n, const int* counts, const int* displs, const dtype::Datatype* t,
                          const TypeList* types = nullptr) {
  std::vector<Block> b(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const dtype::Datatype* ti = types ? (*types)[static_cast<std::size_t>(i)] : t;
    const std::ptrdiff_t d = types ? displs[i] : static_cast<std::ptrdiff_t>(displs[i]) * ti->extent;
    b[static_cast<std::size_t>(i)] = Block{d, counts[i], ti};
  }
  return b;
}

int run_alltoall(Call& call, comm::Comm* c, MPI_Comm comm, const void* sendbuf, const std::vector<Block>& sends,
                 void* recvbuf, const std::vector<Block>& recvs, bool in_place, std::unique_ptr<coll::Schedule> s,
                 MPI_Request* req, Pending chk) {
  if (c->inter)
    coll::inter_alltoallw(*s, *c, sendbuf, sends, recvbuf, recvs);
  else
    coll::sched_alltoallw(*s, sendbuf, sends, recvbuf, recvs, in_place);
  return dispatch(call, std::move(s), comm, req, std::move(chk));
}

// `uniform`: MPI_Alltoall (see gatherv).
template <bool uniform = false>
int alltoallv(Call& call, const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
              void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, comm::Comm* c,
              MPI_Comm comm, MPI_Request* req) {
  note(comm, -1, -1, recvtype);
  const int n = group_size(*c);
  const bool in_place = !c->inter && sendbuf == MPI_IN_PLACE;
  const dtype::Datatype* st = nullptr;
  const dtype::Datatype* rt = nullptr;
  if (!in_place) {
    if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
    if (int e = call.datatype(sendtype, "sendtype", &st)) return e;
    if (!vector_fine(uniform, n, sendbuf, sendcounts, *st))
      if (int e = check_vector(call, n, sendbuf, sendcounts, sdispls, *st, "sendbuf", "sendcounts", "sdispls")) return e;
  }
  if (int e = call.datatype(recvtype, "recvtype", &rt)) return e;
  if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  if (!vector_fine(uniform, n, recvbuf, recvcounts, *rt))
    if (int e = check_vector(call, n, recvbuf, recvcounts, rdispls, *rt, "recvbuf", "recvcounts", "rdispls")) return e;
  if (!in_place && !(uniform && alias_free(uniform_starts(sendbuf, n, sendcounts[0], *st),
                                           uniform_starts(recvbuf, n, recvcounts[0], *rt))))
    if (int e = check_alias(call, sendbuf, n, sendcounts, sdispls, *st, recvbuf, n, recvcounts, rdispls, *rt)) return e;
  if (uniform && nothing_moves(*c, [&] { return n > 0 ? std::size_t(recvcounts[0]) * rt->size : 0; }))
    return complete_empty(call, comm, req);
  Pending chk = AGREE(call, *c, comm, req,
                      CollArgs{.rule = uniform ? Rule::all : Rule::pairs,
                       .send = {!in_place, uniform && n > 0 ? sendcounts[0] : 0, sendtype},
                       .recv = {true, uniform && n > 0 ? recvcounts[0] : 0, recvtype},
                       .shape = CollArgs::Shape::alltoall,
                       .sendcounts = in_place ? nullptr : sendcounts,
                       .recvcounts = recvcounts,
                       .send_v = !uniform,
                       .recv_v = !uniform,
                       .in_place = in_place});
  const long long block = uniform && n > 0 ? static_cast<long long>(std::size_t(recvcounts[0]) * rt->size) : -1;
  const std::size_t bytes = block >= 0 ? static_cast<std::size_t>(block) : 0;
  std::size_t pair = bytes;
  // Two ranks: the larger block that crosses, which both know (one's
  // send is the other's receive), decides as MPI_Alltoall's block does.
  if (!c->inter && !uniform && n == 2) {
    const int other = 1 - c->rank;
    const std::size_t in = std::size_t(recvcounts[other]) * rt->size;
    const std::size_t out = in_place ? in : std::size_t(sendcounts[other]) * st->size;
    pair = std::max(in, out);
  }
  // (The shape's call fields and table_fits are the key's: uniform is block >= 0.)
  Start go = c->inter ? Start(*c, Family::alltoall, req)
                      : Start(*c, Family::alltoall, req, {bytes, pair, static_cast<std::uint64_t>(block)});
  table_shape(go, *c, Family::alltoall, uniform, bytes, pair, block);
  Algo a;
  if (int e = choose(call, *c, Family::alltoall, go, &a)) return e;
  if (on_segment(a)) {
    if (req)
      return started(call, coll::iseg_alltoallv(c->coll.segment, sendbuf, sendcounts, sdispls, st ? *st : *rt, recvbuf,
                                                recvcounts, rdispls, *rt, recvtype, in_place, comm, req));
    const coll::Timed timed(*c, Family::alltoall, a);
    const coll::WayScope way(*go.plan, Family::alltoall, *go.seg, a);
    coll::seg_alltoallv(*go.seg, sendbuf, sendcounts, sdispls, st ? *st : *rt, recvbuf, recvcounts, rdispls, *rt,
                        in_place, block);
    return MPI_SUCCESS;
  }
  if (a == Algo::messages) {
    const coll::Timed timed(*c, Family::alltoall, a);
    coll::alltoallv(*c, sendbuf, sendcounts, sdispls, st ? *st : *rt, recvbuf, recvcounts, rdispls, *rt, in_place);
    return MPI_SUCCESS;
  }
  const std::vector<Block> sends = in_place ? std::vector<Block>{} : blocks(n, sendcounts, sdispls, st);
  std::optional<coll::Timed> timed;
  if (!req) timed.emplace(*c, Family::alltoall, Algo::schedule);
  return run_alltoall(call, c, comm, sendbuf, sends, recvbuf, blocks(n, recvcounts, rdispls, rt), in_place,
                      schedule_for(*c, {sendtype, recvtype}), req, std::move(chk));
}

// (Inline: the communicator and root checks in the MPI_* function, one call to the body.)
[[gnu::always_inline]] inline int alltoallv(Call& call, const void* sendbuf, const int sendcounts[],
                                            const int sdispls[], MPI_Datatype sendtype, void* recvbuf,
                                            const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                                            MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  return alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, c, comm, req);
}

[[gnu::noinline]] int alltoall_run(Call& call, comm::Comm* c, const void* sendbuf, int sendcount,
                                   MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Request* req) {
  const int n = group_size(*c);
  const Uniform su(n, sendbuf == MPI_IN_PLACE ? 0 : sendcount), ru(n, recvcount);
  return alltoallv<true>(call, sendbuf, su.counts, su.displs, sendtype, recvbuf, ru.counts, ru.displs, recvtype, c,
                         comm, req);
}
[[gnu::always_inline]] inline int alltoall(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                           void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                           MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (int e = call.count(recvcount, "recvcount")) return e;
  if (sendbuf != MPI_IN_PLACE)
    if (int e = call.count(sendcount, "sendcount")) return e;
  const int n = group_size(*c);
  if (beyond_int(recvcount, n) || (sendbuf != MPI_IN_PLACE && beyond_int(sendcount, n)))
    return alltoall_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, req);
  if (n > 0 && recvbuf != MPI_IN_PLACE && uniform_empty(*c, recvcount, recvtype, sendbuf, sendcount, sendtype)) {
    call.note_type(recvtype);
    return complete_empty(call, comm, req);
  }
  return alltoall_run(call, c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, req);
}

// Per-rank datatypes of Alltoallw, checked and looked up.
int check_types(Call& call, int n, const MPI_Datatype* hs, const char* name, TypeList* out) {
  if (n > 0 && hs == nullptr) return call.fail(MPI_ERR_ARG, "argument %s is NULL", name);
  out->resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    // The argument's name ("sendtypes[3]") is built only for the message.
    const dtype::Datatype* t = dtype::lookup(hs[i]);
    if (__builtin_expect(t != nullptr && t->committed, 1)) {
      call.note_type(hs[i]);
      (*out)[static_cast<std::size_t>(i)] = t;
      continue;
    }
    const std::string arg = std::string(name) + "[" + std::to_string(i) + "]";
    if (int e = call.datatype(hs[i], arg.c_str(), &(*out)[static_cast<std::size_t>(i)])) return e;
  }
  return MPI_SUCCESS;
}

int check_wvector(Call& call, int n, const void* buf, const int* counts, const int* displs,
                  const TypeList& types, const char* bufname, const char* cname,
                  const char* dname) {
  if (n > 0 && (counts == nullptr || displs == nullptr))
    return call.fail(MPI_ERR_ARG, "argument %s is NULL", counts == nullptr ? cname : dname);
  for (int i = 0; i < n; ++i) {
    if (counts[i] < 0) return call.fail(MPI_ERR_COUNT, "argument %s[%d]=%d is negative", cname, i, counts[i]);
    if (counts[i] > 0 && null_data_at(buf, displs[i], *types[static_cast<std::size_t>(i)]))
      return call.fail(MPI_ERR_BUFFER, "argument %s is NULL but %s[%d]=%d", bufname, cname, i, counts[i]);
  }
  return MPI_SUCCESS;
}

int alltoallw(Call& call, const void* sendbuf, const int sendcounts[], const int sdispls[],
              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
              const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  note(comm, -1, -1, MPI_DATATYPE_NULL);
  const int n = group_size(*c);
  const bool in_place = !c->inter && sendbuf == MPI_IN_PLACE;
  TypeList st, rt;
  if (!in_place) {
    if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
    if (int e = check_types(call, n, sendtypes, "sendtypes", &st)) return e;
    if (int e = check_wvector(call, n, sendbuf, sendcounts, sdispls, st, "sendbuf", "sendcounts", "sdispls")) return e;
  }
  if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  if (int e = check_types(call, n, recvtypes, "recvtypes", &rt)) return e;
  if (int e = check_wvector(call, n, recvbuf, recvcounts, rdispls, rt, "recvbuf", "recvcounts", "rdispls")) return e;
  // check_alias with per-block types and byte displacements; first the two
  // sides' extreme block starts, which for separate buffers do not meet
  // (nothing allocated or sorted then).
  bool may_alias = false;
  if (!in_place) {
    Starts ss, rs;
    const auto widen = [](Starts& r, std::uintptr_t a) {
      r.lo = r.any ? std::min(r.lo, a) : a;
      r.hi = r.any ? std::max(r.hi, a) : a;
      r.any = true;
    };
    for (int j = 0; j < n; ++j) {
      const dtype::Datatype& sj = *st[static_cast<std::size_t>(j)];
      const dtype::Datatype& rj = *rt[static_cast<std::size_t>(j)];
      if (sendcounts[j] > 0 && sj.size > 0) widen(ss, first_data_byte(sendbuf, sdispls[j], sj));
      if (recvcounts[j] > 0 && rj.size > 0) widen(rs, first_data_byte(recvbuf, rdispls[j], rj));
    }
    may_alias = !alias_free(ss, rs);
  }
  if (may_alias) {
    std::vector<BlockStart> sends, receives;
    for (int j = 0; j < n; ++j) {
      const dtype::Datatype& sj = *st[static_cast<std::size_t>(j)];
      const dtype::Datatype& rj = *rt[static_cast<std::size_t>(j)];
      if (sendcounts[j] > 0 && sj.size > 0) sends.emplace_back(first_data_byte(sendbuf, sdispls[j], sj), j);
      if (recvcounts[j] > 0 && rj.size > 0) receives.emplace_back(first_data_byte(recvbuf, rdispls[j], rj), j);
    }
    if (int e = check_alias_starts(call, sends, std::move(receives))) return e;
  }
  Pending chk = AGREE(call, *c, comm, req,
                      CollArgs{.rule = Rule::pairs,
                       .send = {!in_place, 0, MPI_DATATYPE_NULL},
                       .recv = {true, 0, MPI_DATATYPE_NULL},
                       .shape = CollArgs::Shape::alltoall,
                       .sendcounts = in_place ? nullptr : sendcounts,
                       .recvcounts = recvcounts,
                       .sendtypes = in_place ? nullptr : sendtypes,
                       .recvtypes = recvtypes,
                       .send_v = true,
                       .recv_v = true,
                       .in_place = in_place});
  auto s = coll::make_schedule(*c);
  for (int i = 0; i < n; ++i) {
    if (!in_place) keep_type(*s, sendtypes[i]);
    keep_type(*s, recvtypes[i]);
  }
  const std::vector<Block> sends = in_place ? std::vector<Block>{} : blocks(n, sendcounts, sdispls, nullptr, &st);
  return run_alltoall(call, c, comm, sendbuf, sends, recvbuf, blocks(n, recvcounts, rdispls, nullptr, &rt), in_place,
                      std::move(s), req, std::move(chk));
}

// A reduction's checked arguments in a call's head. The call's own copy of
// the op (coll::Reduction, five words) is taken by take() only for a call
// that goes on, not on the zero-byte exit. `op` stays null where this rank
// gave no reduction arguments (an intercommunicator's root side of MPI_Reduce).
struct ReductionArgs {
  const dtype::Op* op = nullptr;
  MPI_Datatype handle = MPI_DATATYPE_NULL;
  const dtype::Datatype* type = nullptr;
  int count = 0;
  coll::Reduction take() const {
    return op ? coll::Reduction{*op, handle, type, count} : coll::Reduction{{}, handle, type, count};
  }
};

// count, datatype and op of a reduction, and the buffers that matter here.
[[gnu::always_inline]] inline int reduction_args(Call& call, const void* sendbuf, bool send_significant, void* recvbuf,
                                                 bool recv_significant,
                   int count, MPI_Datatype th, MPI_Op op, ReductionArgs* r) {
  const dtype::Datatype* t = nullptr;
  if (int e = call.count(count, "count")) return e;
  if (int e = call.datatype(th, "datatype", &t)) return e;
  const dtype::Op* o;
  if (int e = check_op(call, op, *t, &o)) return e;
  if (count > 0) {
    if (send_significant && null_data(sendbuf, *t))
      return call.fail(MPI_ERR_BUFFER, "argument sendbuf is NULL but count=%d", count);
    if (recv_significant && null_data(recvbuf, *t))
      return call.fail(MPI_ERR_BUFFER, "argument recvbuf is NULL but count=%d", count);
  }
  *r = ReductionArgs{o, th, t, count};
  return MPI_SUCCESS;
}

// A reduction's own fields of its shape.
void reduction_shape(const coll::Reduction& r, coll::Shape* s) {
  s->count = r.count;
  s->bytes = s->pair_bytes = static_cast<std::size_t>(r.count) * r.type->size;
}

// A reduction's key (coll/plan.hpp QuickKey; intracommunicators): its
// shape's call fields are the count and bytes (reduction_shape, and
// exclusive for MPI_Exscan); reduction_fits reads the datatype's
// contiguity and size, the count, the op's commutativity and, for a
// nonblocking call, whether it is in place (mine == result).
[[gnu::always_inline]] inline coll::QuickKey reduction_key(const coll::Reduction& r, const void* mine,
                                                           const void* result, bool exclusive = false) {
  return {static_cast<std::uint64_t>(static_cast<std::uint32_t>(r.count)), r.type->size,
          std::uint64_t{r.type->contiguous()} | std::uint64_t{r.op.commute} << 1 | std::uint64_t{mine == result} << 2 |
              std::uint64_t{exclusive} << 3};
}

int op_result(Call& call, int err) {
  if (err == MPI_SUCCESS) return MPI_SUCCESS;
  return call.fail(err, "applying the reduction operation failed");
}

[[gnu::noinline]] int reduce_run(Call& call, comm::Comm* c, const coll::Reduction& r, const void* sendbuf,
                                 void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                                 MPI_Request* req) {
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  note(comm, root, count, datatype);
  const CollArgs::Side mine_side{takes_part(*c, root), count, datatype};
  Pending chk = AGREE(call, *c, comm, req, CollArgs{.rule = Rule::same, .root = root, .op = op, .send = mine_side});
  Start go = c->inter ? Start(*c, Family::reduce, req)
                      : Start(*c, Family::reduce, req, reduction_key(r, mine, recvbuf));
  if (!c->inter && !go.hit()) {
    reduction_shape(r, &go.shape);
    coll::reduction_fits(go.seg, Family::reduce, r, mine, recvbuf, &go.shape);
  }
  Algo a;
  if (int e = choose(call, *c, Family::reduce, go, &a)) return e;
  if (on_segment(a)) {
    if (req) return started(call, coll::iseg_reduce(c->coll.segment, r, mine, recvbuf, root, comm, req));
    const coll::Timed timed(*c, Family::reduce, a);
    const coll::WayScope way(*go.plan, Family::reduce, *go.seg, a);
    return op_result(call, coll::seg_reduce(*go.seg, r, mine, recvbuf, root));
  }
  if (a == Algo::messages) {
    const coll::Timed timed(*c, Family::reduce, a);
    return op_result(call, coll::reduce(*c, r, mine, recvbuf, root));
  }
  auto s = schedule_for(*c, {datatype});
  if (c->inter)
    coll::inter_reduce(*s, *c, r, mine, recvbuf, root);
  else
    coll::sched_reduce(*s, r, mine, recvbuf, root);
  return scheduled(call, *c, Family::reduce, std::move(s), comm, req, std::move(chk));
}

[[gnu::always_inline]] inline int reduce(Call& call, const void* sendbuf, void* recvbuf, int count,
                                         MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  ReductionArgs r;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  const bool root_here = is_root(*c, root);
  if (!root_here || c->inter)
    if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (takes_part(*c, root))
    if (int e = reduction_args(call, mine, !(c->inter && root_here), recvbuf, root_here, count, datatype, op, &r))
      return e;
  if (root_here && !c->inter && sendbuf != MPI_IN_PLACE)
    if (int e = check_alias_one(call, sendbuf, count, recvbuf, count, *r.type)) return e;
  if (nothing_moves(*c, [&] { return std::size_t(count) * r.type->size; })) return complete_empty(call, comm, req);
  return reduce_run(call, c, r.take(), sendbuf, recvbuf, count, datatype, op, root, comm, req);
}

[[gnu::noinline]] int allreduce_run(Call& call, comm::Comm* c, const coll::Reduction& r, const void* sendbuf,
                                    void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                    MPI_Request* req) {
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  note(comm, -1, count, datatype);
  Pending chk = AGREE(call, *c, comm, req, CollArgs{.rule = Rule::same, .op = op, .send = {true, count, datatype}});
  Start go = c->inter ? Start(*c, Family::allreduce, req)
                      : Start(*c, Family::allreduce, req, reduction_key(r, mine, recvbuf));
  if (!c->inter && !go.hit()) {
    reduction_shape(r, &go.shape);
    coll::reduction_fits(go.seg, Family::allreduce, r, mine, recvbuf, &go.shape);
  }
  Algo a;
  if (int e = choose(call, *c, Family::allreduce, go, &a)) return e;
  if (on_segment(a)) {
    if (req) return started(call, coll::iseg_reduce(c->coll.segment, r, mine, recvbuf, -1, comm, req));
    const coll::Timed timed(*c, Family::allreduce, a);
    const coll::WayScope way(*go.plan, Family::allreduce, *go.seg, a);
    return op_result(call, coll::seg_allreduce(*go.seg, r, mine, recvbuf));
  }
  if (a == Algo::messages) {
    const coll::Timed timed(*c, Family::allreduce, a);
    return op_result(call, coll::allreduce(*c, r, mine, recvbuf));
  }
  auto s = schedule_for(*c, {datatype});
  if (c->inter)
    coll::inter_allreduce(*s, *c, r, mine, recvbuf);
  else
    coll::sched_allreduce(*s, r, mine, recvbuf);
  return scheduled(call, *c, Family::allreduce, std::move(s), comm, req, std::move(chk));
}

// The checks MPI_Allreduce and MPI_Scan/MPI_Exscan share after the
// communicator's (every rank holds the whole vector both ways): the
// reduction's arguments, this rank's data in recvbuf with MPI_IN_PLACE,
// recvbuf not MPI_IN_PLACE, the two buffers apart.
[[gnu::always_inline]] inline int whole_vector_args(Call& call, const void* sendbuf, void* recvbuf, int count,
                                                    MPI_Datatype datatype, MPI_Op op, ReductionArgs* r) {
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (int e = reduction_args(call, mine, true, recvbuf, true, count, datatype, op, r)) return e;
  if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  if (sendbuf != MPI_IN_PLACE) return check_alias_one(call, sendbuf, count, recvbuf, count, *r->type);
  return MPI_SUCCESS;
}

[[gnu::always_inline]] inline int allreduce(Call& call, const void* sendbuf, void* recvbuf, int count,
                                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  ReductionArgs r;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (c->inter)
    if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
  if (int e = whole_vector_args(call, sendbuf, recvbuf, count, datatype, op, &r)) return e;
  if (nothing_moves(*c, [&] { return std::size_t(count) * r.type->size; })) return complete_empty(call, comm, req);
  return allreduce_run(call, c, r.take(), sendbuf, recvbuf, count, datatype, op, comm, req);
}

[[gnu::noinline]] int reduce_scatter_run(Call& call, comm::Comm* c, const coll::Reduction& r, long long total,
                                         const void* sendbuf, void* recvbuf, const int recvcounts[],
                                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  Pending chk = AGREE(call, *c, comm, req,
                      CollArgs{.rule = Rule::counts,
                       .op = op,
                       .send = {true, static_cast<int>(total), datatype},
                       .recvcounts = recvcounts});
  Start go = c->inter ? Start(*c, Family::reduce_scatter, req)
                      : Start(*c, Family::reduce_scatter, req, reduction_key(r, mine, recvbuf));
  if (!c->inter && !go.hit()) {
    reduction_shape(r, &go.shape);
    coll::reduction_fits(go.seg, Family::reduce_scatter, r, mine, recvbuf, &go.shape);
  }
  Algo a;
  if (int e = choose(call, *c, Family::reduce_scatter, go, &a)) return e;
  if (on_segment(a)) {
    if (req)
      return started(call, coll::iseg_reduce_scatter(c->coll.segment, r, mine, recvbuf, recvcounts, comm, req));
    const coll::Timed timed(*c, Family::reduce_scatter, a);
    const coll::WayScope way(*go.plan, Family::reduce_scatter, *go.seg, a);
    return op_result(call, coll::seg_reduce_scatter(*go.seg, r, mine, recvbuf, recvcounts));
  }
  if (a == Algo::messages) {
    const coll::Timed timed(*c, Family::reduce_scatter, a);
    return op_result(call, coll::reduce_scatter(*c, r, mine, recvbuf, recvcounts));
  }
  auto s = schedule_for(*c, {datatype});
  if (c->inter)
    coll::inter_reduce_scatter(*s, *c, r, mine, recvbuf, recvcounts);
  else
    coll::sched_reduce_scatter(*s, r, mine, recvbuf, recvcounts);
  return scheduled(call, *c, Family::reduce_scatter, std::move(s), comm, req, std::move(chk));
}

// The checks of both reduce-scatter forms once their counts are known to
// be non-negative: `total` their sum, `mine_count` this rank's block.
[[gnu::always_inline]] inline int reduce_scatter_args(Call& call, const void* sendbuf, void* recvbuf, long long total,
                                                      int mine_count, MPI_Datatype datatype, MPI_Op op,
                                                      const comm::Comm& c, ReductionArgs* r) {
  if (total > 0x7fffffff) return call.fail(MPI_ERR_COUNT, "the sum of recvcounts (%lld) exceeds INT_MAX", total);
  if (c.inter)
    if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (int e = reduction_args(call, mine, true, recvbuf, false, static_cast<int>(total), datatype, op, r)) return e;
  if (mine_count > 0 && null_data(recvbuf, *r->type))
    return call.fail(MPI_ERR_BUFFER, "argument recvbuf is NULL but recvcounts[%d]=%d", c.rank, mine_count);
  if (sendbuf != MPI_IN_PLACE)
    return check_alias_one(call, sendbuf, static_cast<int>(total), recvbuf, mine_count, *r->type);
  return MPI_SUCCESS;
}

[[gnu::always_inline]] inline int reduce_scatter(Call& call, const void* sendbuf, void* recvbuf,
                                                 const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                                                 comm::Comm* c, MPI_Comm comm, MPI_Request* req) {
  note(comm, -1, -1, datatype);
  if (recvcounts == nullptr) return call.fail(MPI_ERR_ARG, "argument recvcounts is NULL");
  long long total = 0;
  for (int i = 0; i < c->size(); ++i) {
    if (recvcounts[i] < 0) return call.fail(MPI_ERR_COUNT, "argument recvcounts[%d]=%d is negative", i, recvcounts[i]);
    total += recvcounts[i];
  }
  ReductionArgs r;
  if (int e = reduce_scatter_args(call, sendbuf, recvbuf, total, recvcounts[c->rank], datatype, op, *c, &r)) return e;
  // (recvcounts is the same array on every rank, MPI-4.1 §6.10.1.)
  if (nothing_moves(*c, [&] { return std::size_t(total) * r.type->size; })) return complete_empty(call, comm, req);
  return reduce_scatter_run(call, c, r.take(), total, sendbuf, recvbuf, recvcounts, datatype, op, comm, req);
}

int reduce_scatter(Call& call, const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  return reduce_scatter(call, sendbuf, recvbuf, recvcounts, datatype, op, c, comm, req);
}

int reduce_scatter_block(Call& call, const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (int e = call.count(recvcount, "recvcount")) return e;
  // reduce_scatter's checks and zero exit from the one count (every block
  // the same on every rank); the count array only for a call that goes on.
  note(comm, -1, -1, datatype);
  const long long total = static_cast<long long>(recvcount) * c->size();
  ReductionArgs r;
  if (int e = reduce_scatter_args(call, sendbuf, recvbuf, total, recvcount, datatype, op, *c, &r)) return e;
  if (nothing_moves(*c, [&] { return std::size_t(total) * r.type->size; })) return complete_empty(call, comm, req);
  const Uniform counts(c->size(), recvcount);  // (its displacements unused)
  return reduce_scatter_run(call, c, r.take(), total, sendbuf, recvbuf, counts.counts, datatype, op, comm, req);
}

[[gnu::noinline]] int scan_run(Call& call, comm::Comm* c, const coll::Reduction& r, const void* sendbuf,
                               void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               bool exclusive, MPI_Request* req) {
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  Pending chk = AGREE(call, *c, comm, req, CollArgs{.rule = Rule::same, .op = op, .send = {true, count, datatype}});
  Start go(*c, Family::scan, req, reduction_key(r, mine, recvbuf, exclusive));  // (intracommunicators only)
  if (!go.hit()) {
    reduction_shape(r, &go.shape);
    go.shape.exclusive = exclusive;
    coll::reduction_fits(go.seg, Family::scan, r, mine, recvbuf, &go.shape);
  }
  Algo a;
  if (int e = choose(call, *c, Family::scan, go, &a)) return e;
  if (on_segment(a)) {
    if (req) return started(call, coll::iseg_scan(c->coll.segment, r, mine, recvbuf, exclusive, comm, req));
    const coll::Timed timed(*c, Family::scan, a);
    const coll::WayScope way(*go.plan, Family::scan, *go.seg, a);
    return op_result(call, coll::seg_scan(*go.seg, r, mine, recvbuf, exclusive));
  }
  if (a == Algo::messages) {
    const coll::Timed timed(*c, Family::scan, a);
    return op_result(call, coll::scan(*c, r, mine, recvbuf, exclusive));
  }
  auto s = schedule_for(*c, {datatype});
  coll::sched_scan(*s, r, mine, recvbuf, exclusive);
  return scheduled(call, *c, Family::scan, std::move(s), comm, req, std::move(chk));
}

[[gnu::always_inline]] inline int scan(Call& call, const void* sendbuf, void* recvbuf, int count,
                                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, bool exclusive,
                                       MPI_Request* req) {
  comm::Comm* c;
  ReductionArgs r;
  if (int e = coll_comm(call, comm, &c, true)) return e;
  note(comm, -1, count, datatype);
  if (int e = whole_vector_args(call, sendbuf, recvbuf, count, datatype, op, &r)) return e;
  if (nothing_moves(*c, [&] { return std::size_t(count) * r.type->size; })) return complete_empty(call, comm, req);
  return scan_run(call, c, r.take(), sendbuf, recvbuf, count, datatype, op, comm, exclusive, req);
}

// ---- the large-count (_c) forms (MPI-4.1; docs/design/large-counts.md) ----

// Where this rank stands in a rooted collective, before any check (a bad
// communicator or root is reported by the int-form code the call goes on to).
struct Rooted {
  bool root_here = false, takes_part = true;
  int n = 1;  // the group whose blocks the root's counts describe
};
Rooted rooted(MPI_Comm comm, int root) {
  Rooted r;
  if (const comm::Comm* c = comm::lookup(comm)) {
    r.root_here = is_root(*c, root);
    r.takes_part = takes_part(*c, root);
    r.n = std::max(group_size(*c), 1);
  }
  return r;
}
int group_of(MPI_Comm comm) {
  const comm::Comm* c = comm::lookup(comm);
  return c ? std::max(group_size(*c), 1) : 1;
}

// One block of a _c v or w form: bytes from the buffer start, elements, type.
struct WideBlock {
  std::ptrdiff_t displ = 0;
  MPI_Count count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

// The blocks as the schedule takes them: a count above INT_MAX becomes one
// element of a contiguous type of that many elements; the derived types,
// the caller's and those built, go to *kept.
int narrow(Call& call, const void* buf, const std::vector<WideBlock>& in, const char* bufname, const char* cname,
           std::vector<std::shared_ptr<const void>>* kept, std::vector<Block>* out) {
  out->resize(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const WideBlock& b = in[i];
    if (b.count < 0)
      return call.fail(MPI_ERR_COUNT, "argument %s[%zu]=%lld is negative", cname, i, b.count);
    if (b.count == 0) {
      (*out)[i] = Block{0, 0, dtype::lookup(MPI_BYTE)};
      continue;
    }
    const dtype::Datatype* t;
    if (int e = call.datatype(b.type, "datatype", &t)) return e;
    if (null_data_at(buf, b.displ, *t))
      return call.fail(MPI_ERR_BUFFER, "argument %s is NULL but %s[%zu]=%lld", bufname, cname, i, b.count);
    if (dtype::TypePtr held = dtype::lookup_shared(b.type); held && !held->predefined)
      kept->push_back(std::move(held));
    if (b.count <= INT_MAX) {
      (*out)[i] = Block{b.displ, static_cast<int>(b.count), t};
      continue;
    }
    std::string why;
    dtype::TypePtr big = dtype::make_contiguous_c(b.count, dtype::lookup_shared(b.type), &why);
    if (!big) return call.fail(MPI_ERR_COUNT, "argument %s[%zu]=%lld: %s", cname, i, b.count, why.c_str());
    dtype::commit(*big);
    (*out)[i] = Block{b.displ, 1, big.get()};
    kept->push_back(std::move(big));
  }
  return MPI_SUCCESS;
}

// Every _c v and w form runs as one all-to-all-w schedule of per-peer blocks
// (what MPI_Alltoallw does): each rank describes only its own blocks, so all
// ranks of a _c call take this path whatever their counts (the tuned
// segment paths of the int v forms take int counts and displacements).
// describe() checks and narrows the blocks once (forms::WideExchange);
// forms::exchange runs them, once per call or once per MPI_Start of a
// persistent _init_c form.
int describe(Call& call, MPI_Comm comm, const void* sendbuf, const std::vector<WideBlock>& sends, void* recvbuf,
             const std::vector<WideBlock>& recvs, bool in_place, forms::WideExchange* x) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  x->comm = comm;
  x->sendbuf = sendbuf;
  x->recvbuf = recvbuf;
  x->in_place = in_place;
  if (!in_place)
    if (int e = narrow(call, sendbuf, sends, "sendbuf", "sendcounts", &x->kept, &x->sends)) return e;
  return narrow(call, recvbuf, recvs, "recvbuf", "recvcounts", &x->kept, &x->recvs);
}

// The blocks of one side of a v form: counts and displacements (in
// elements of `type`) of n peers; all empty when the side does not count here.
int vector_side(Call& call, bool significant, int n, const MPI_Count* counts, const MPI_Aint* displs,
                MPI_Datatype type, const char* cname, const char* dname, const char* tname,
                std::vector<WideBlock>* out) {
  out->assign(static_cast<std::size_t>(n), WideBlock{});
  if (!significant) return MPI_SUCCESS;
  if (n > 0 && counts == nullptr) return call.fail(MPI_ERR_ARG, "argument %s is NULL", cname);
  if (n > 0 && displs == nullptr) return call.fail(MPI_ERR_ARG, "argument %s is NULL", dname);
  const dtype::Datatype* t = nullptr;
  if (int e = call.datatype(type, tname, &t)) return e;
  for (int i = 0; i < n; ++i)
    (*out)[static_cast<std::size_t>(i)] = WideBlock{static_cast<std::ptrdiff_t>(displs[i]) * t->extent, counts[i], type};
  return MPI_SUCCESS;
}

}  // namespace

namespace ringmpi::api::forms {

int uniform_c(Call& call, Uniform kind, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              const void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, Counted* s,
              Counted* r) {
  const Rooted at = rooted(comm, root);
  const MPI_Count per_block = INT_MAX / group_of(comm);  // the uniform displacements i * count stay ints
  bool sends = true, receives = true;
  MPI_Count send_limit = INT_MAX, recv_limit = INT_MAX;
  switch (kind) {
    case Uniform::gather:
      sends = at.takes_part && !(at.root_here && sendbuf == MPI_IN_PLACE);
      receives = at.root_here;
      recv_limit = INT_MAX / at.n;
      break;
    case Uniform::scatter:
      sends = at.root_here;
      send_limit = INT_MAX / at.n;
      receives = at.takes_part && !(at.root_here && recvbuf == MPI_IN_PLACE);
      break;
    case Uniform::allgather:
      sends = sendbuf != MPI_IN_PLACE;
      recv_limit = per_block;
      break;
    case Uniform::alltoall:
      sends = sendbuf != MPI_IN_PLACE;
      send_limit = recv_limit = per_block;
      break;
    case Uniform::neighbor:  // 64-bit block offsets (neighbor.cpp)
      break;
  }
  // A side that is not significant here goes on as 0 elements of the caller's type.
  s->datatype = sendtype;
  r->datatype = recvtype;
  if (sends)
    if (int e = s->set(call, sendcount, sendtype, "sendcount", "sendtype", send_limit)) return e;
  if (receives)
    if (int e = r->set(call, recvcount, recvtype, "recvcount", "recvtype", recv_limit)) return e;
  return MPI_SUCCESS;
}

int exchange(Call& call, const WideExchange& x, MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, x.comm, &c)) return e;
  note(x.comm, -1, -1, MPI_DATATYPE_NULL);
  auto s = coll::make_schedule(*c);
  for (const auto& k : x.kept) s->keep(k);
  if (c->inter)
    coll::inter_alltoallw(*s, *c, x.sendbuf, x.sends, x.recvbuf, x.recvs);
  else
    coll::sched_alltoallw(*s, x.sendbuf, x.sends, x.recvbuf, x.recvs, x.in_place);
  return dispatch(call, std::move(s), x.comm, req, Pending{});
}

int gatherv_c(Call& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
              const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
              WideExchange* x) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  const int n = group_size(*c);
  const bool root_here = is_root(*c, root);
  const bool in_place = !c->inter && root_here && sendbuf == MPI_IN_PLACE;
  const bool sends = takes_part(*c, root) && !(c->inter && root_here) && !in_place;
  std::vector<WideBlock> sb(static_cast<std::size_t>(n)), rb;
  if (sends) {
    if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
    sb[static_cast<std::size_t>(root)] = WideBlock{0, sendcount, sendtype};
  }
  if (int e = vector_side(call, root_here, n, recvcounts, displs, recvtype, "recvcounts", "displs", "recvtype", &rb))
    return e;
  if (in_place) rb[static_cast<std::size_t>(c->rank)] = WideBlock{};
  return describe(call, comm, sendbuf, sb, recvbuf, rb, false, x);
}

int scatterv_c(Call& call, const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
               MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
               MPI_Comm comm, WideExchange* x) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  const int n = group_size(*c);
  const bool root_here = is_root(*c, root);
  const bool in_place = !c->inter && root_here && recvbuf == MPI_IN_PLACE;
  const bool receives = takes_part(*c, root) && !(c->inter && root_here) && !in_place;
  std::vector<WideBlock> sb, rb(static_cast<std::size_t>(n));
  if (receives) {
    if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
    rb[static_cast<std::size_t>(root)] = WideBlock{0, recvcount, recvtype};
  }
  if (int e = vector_side(call, root_here, n, sendcounts, displs, sendtype, "sendcounts", "displs", "sendtype", &sb))
    return e;
  if (in_place) sb[static_cast<std::size_t>(c->rank)] = WideBlock{};
  return describe(call, comm, sendbuf, sb, recvbuf, rb, false, x);
}

int allgatherv_c(Call& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                 const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                 WideExchange* x) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  const int n = group_size(*c);
  const bool in_place = !c->inter && sendbuf == MPI_IN_PLACE;
  if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  std::vector<WideBlock> rb;
  if (int e = vector_side(call, true, n, recvcounts, displs, recvtype, "recvcounts", "displs", "recvtype", &rb))
    return e;
  std::vector<WideBlock> sb(static_cast<std::size_t>(n));
  if (in_place) {
    // Our block already sits in recvbuf: it goes from there to every other rank.
    const WideBlock mine = rb[static_cast<std::size_t>(c->rank)];
    for (int j = 0; j < n; ++j) sb[static_cast<std::size_t>(j)] = j == c->rank ? WideBlock{} : mine;
    rb[static_cast<std::size_t>(c->rank)] = WideBlock{};
    return describe(call, comm, recvbuf, sb, recvbuf, rb, false, x);
  }
  if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
  for (int j = 0; j < n; ++j) sb[static_cast<std::size_t>(j)] = WideBlock{0, sendcount, sendtype};
  return describe(call, comm, sendbuf, sb, recvbuf, rb, false, x);
}

int alltoallv_c(Call& call, const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                MPI_Datatype recvtype, MPI_Comm comm, WideExchange* x) {
  const int n = group_of(comm);
  const comm::Comm* c = comm::lookup(comm);
  const bool in_place = c && !c->inter && sendbuf == MPI_IN_PLACE;
  std::vector<WideBlock> sb, rb;
  if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  if (int e = vector_side(call, !in_place, n, sendcounts, sdispls, sendtype, "sendcounts", "sdispls", "sendtype", &sb))
    return e;
  if (int e = vector_side(call, true, n, recvcounts, rdispls, recvtype, "recvcounts", "rdispls", "recvtype", &rb))
    return e;
  return describe(call, comm, sendbuf, sb, recvbuf, rb, in_place, x);
}

int alltoallw_c(Call& call, const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, WideExchange* x) {
  const int n = group_of(comm);
  const comm::Comm* c = comm::lookup(comm);
  const bool in_place = c && !c->inter && sendbuf == MPI_IN_PLACE;
  if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  const auto side = [&](const MPI_Count* counts, const MPI_Aint* displs, const MPI_Datatype* types, const char* cn,
                        const char* dn, const char* tn, std::vector<WideBlock>* out) {
    out->assign(static_cast<std::size_t>(n), WideBlock{});
    if (n > 0 && (counts == nullptr || displs == nullptr || types == nullptr))
      return call.fail(MPI_ERR_ARG, "argument %s is NULL", counts == nullptr ? cn : displs == nullptr ? dn : tn);
    for (int i = 0; i < n; ++i) (*out)[static_cast<std::size_t>(i)] = WideBlock{displs[i], counts[i], types[i]};
    return MPI_SUCCESS;
  };
  std::vector<WideBlock> sb, rb;
  if (!in_place)
    if (int e = side(sendcounts, sdispls, sendtypes, "sendcounts", "sdispls", "sendtypes", &sb)) return e;
  if (int e = side(recvcounts, rdispls, recvtypes, "recvcounts", "rdispls", "recvtypes", &rb)) return e;
  return describe(call, comm, sendbuf, sb, recvbuf, rb, in_place, x);
}

}  // namespace ringmpi::api::forms

namespace {

// Reductions of more than INT_MAX elements: blocking ones run as reductions
// of 2^30 elements at a time (element by element, so the result is the same,
// and a user function sees the caller's datatype). A nonblocking one with a
// predefined op runs on one element of a contiguous type of `count`
// elements (api::large_reduction); with a user op, whose function must see
// the caller's datatype, it is one schedule of such pieces (reduce_pieces).
constexpr MPI_Count kReduceChunk = MPI_Count(1) << 30;
const void* advanced(const void* p, std::ptrdiff_t bytes) {
  return p == nullptr || p == MPI_IN_PLACE ? p : static_cast<const char*>(p) + bytes;
}
void* advanced(void* p, std::ptrdiff_t bytes) {
  return p == nullptr || p == MPI_IN_PLACE ? p : static_cast<char*>(p) + bytes;
}

// f(sendbuf, recvbuf, count) for each chunk of a blocking reduction.
template <class F>
int by_chunks(Call& call, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, F f) {
  if (count < 0) return call.fail(MPI_ERR_COUNT, "argument count=%lld is negative", count);
  const dtype::Datatype* t = nullptr;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  for (MPI_Count done = 0; done < count; done += kReduceChunk) {
    const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(done) * t->extent;
    if (int e = f(advanced(sendbuf, at), advanced(recvbuf, at), static_cast<int>(std::min(kReduceChunk, count - done))))
      return e;
  }
  return MPI_SUCCESS;
}

// The schedule of a reduction beyond INT_MAX that runs as pieces: its
// datatype and op checked (*r gets both, count 0), the buffers that matter
// here not NULL.
int piece_args(Call& call, const void* mine, bool send_significant, void* recvbuf, bool recv_significant,
               MPI_Datatype datatype, MPI_Op op, coll::Reduction* r) {
  const dtype::Datatype* t = nullptr;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  const dtype::Op* o;
  if (int e = check_op(call, op, *t, &o)) return e;
  if (send_significant && null_data(mine, *t)) return call.fail(MPI_ERR_BUFFER, "argument sendbuf is NULL");
  if (recv_significant && null_data(recvbuf, *t)) return call.fail(MPI_ERR_BUFFER, "argument recvbuf is NULL");
  *r = coll::Reduction{*o, datatype, t, 0};
  return MPI_SUCCESS;
}

// f(piece, at, done) for each piece of kReduceChunk elements (the last one
// shorter) of `count` elements of r: piece is r with its count, `done` the
// elements before it, `at` their bytes (done extents).
template <class F>
void pieces(const coll::Reduction& r, MPI_Count count, F f) {
  for (MPI_Count done = 0; done < count; done += kReduceChunk) {
    coll::Reduction piece = r;
    piece.count = static_cast<int>(std::min(kReduceChunk, count - done));
    f(piece, static_cast<std::ptrdiff_t>(done) * r.type->extent, done);
  }
}

// A reduction of more than INT_MAX elements as one schedule: the schedule
// algorithms' reduction (coll/scheduled.hpp, coll/inter.cpp) of each piece
// of kReduceChunk elements, one after the other. Every rank adds the same
// pieces in the same order, so the messages of the pieces between two ranks
// match in order under the schedule's one tag; a user function sees the
// caller's datatype. Kind: reduce (root), allreduce, scan or exscan.
enum class Kind { reduce, allreduce, scan, exscan };
int reduce_pieces(Call& call, Kind kind, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  const bool scans = kind == Kind::scan || kind == Kind::exscan, rooted = kind == Kind::reduce;
  if (int e = coll_comm(call, comm, &c, scans)) return e;
  if (rooted)
    if (int e = check_root(call, *c, root)) return e;
  const bool root_here = rooted && is_root(*c, root);
  if (rooted ? !root_here || c->inter : c->inter)
    if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
  if (!rooted)
    if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  note(comm, rooted ? root : -1, -1, datatype);
  auto s = schedule_for(*c, {datatype});
  if (!rooted || takes_part(*c, root)) {
    coll::Reduction r;
    if (int e = piece_args(call, mine, !(c->inter && root_here), recvbuf, !rooted || root_here, datatype, op, &r))
      return e;
    pieces(r, count, [&](const coll::Reduction& p, std::ptrdiff_t at, MPI_Count) {
      const void* m = advanced(mine, at);
      void* res = advanced(recvbuf, at);
      switch (kind) {
        case Kind::reduce:
          if (c->inter)
            coll::inter_reduce(*s, *c, p, m, res, root);
          else
            coll::sched_reduce(*s, p, m, res, root);
          break;
        case Kind::allreduce:
          if (c->inter)
            coll::inter_allreduce(*s, *c, p, m, res);
          else
            coll::sched_allreduce(*s, p, m, res);
          break;
        case Kind::scan:
        case Kind::exscan:
          coll::sched_scan(*s, p, m, res, kind == Kind::exscan);
          break;
      }
    });
  }
  return dispatch(call, std::move(s), comm, req, Pending{});
}

// Whether a nonblocking reduction beyond INT_MAX runs as pieces: a user op
// (or an op handle that is not valid, which reduce_pieces reports).
bool as_pieces(MPI_Op op) {
  const dtype::Op* o = dtype::lookup_op(op);
  return !o || o->user();
}

int reduce_c(Call& call, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
             int root, MPI_Comm comm, MPI_Request* req) {
  if (count >= 0 && count <= INT_MAX)
    return reduce(call, sendbuf, recvbuf, static_cast<int>(count), datatype, op, root, comm, req);
  if (req && count > 0) {
    if (as_pieces(op)) return reduce_pieces(call, Kind::reduce, sendbuf, recvbuf, count, datatype, op, root, comm, req);
    Counted n;
    if (int e = large_reduction(call, count, datatype, op, "count", "nonblocking", &n)) return e;
    return reduce(call, sendbuf, recvbuf, n.count, n.datatype, op, root, comm, req);
  }
  return by_chunks(call, sendbuf, recvbuf, count, datatype, [&](const void* s, void* r, int n) {
    return reduce(call, s, r, n, datatype, op, root, comm, nullptr);
  });
}

int allreduce_c(Call& call, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request* req) {
  if (count >= 0 && count <= INT_MAX)
    return allreduce(call, sendbuf, recvbuf, static_cast<int>(count), datatype, op, comm, req);
  if (req && count > 0) {
    if (as_pieces(op)) return reduce_pieces(call, Kind::allreduce, sendbuf, recvbuf, count, datatype, op, 0, comm, req);
    Counted n;
    if (int e = large_reduction(call, count, datatype, op, "count", "nonblocking", &n)) return e;
    return allreduce(call, sendbuf, recvbuf, n.count, n.datatype, op, comm, req);
  }
  return by_chunks(call, sendbuf, recvbuf, count, datatype, [&](const void* s, void* r, int n) {
    return allreduce(call, s, r, n, datatype, op, comm, nullptr);
  });
}

int scan_c(Call& call, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm, bool exclusive, MPI_Request* req) {
  if (count >= 0 && count <= INT_MAX)
    return scan(call, sendbuf, recvbuf, static_cast<int>(count), datatype, op, comm, exclusive, req);
  if (req && count > 0) {
    if (as_pieces(op))
      return reduce_pieces(call, exclusive ? Kind::exscan : Kind::scan, sendbuf, recvbuf, count, datatype, op, 0,
                           comm, req);
    Counted n;
    if (int e = large_reduction(call, count, datatype, op, "count", "nonblocking", &n)) return e;
    return scan(call, sendbuf, recvbuf, n.count, n.datatype, op, comm, exclusive, req);
  }
  return by_chunks(call, sendbuf, recvbuf, count, datatype, [&](const void* s, void* r, int n) {
    return scan(call, s, r, n, datatype, op, comm, exclusive, nullptr);
  });
}

// An intercommunicator reduce-scatter beyond INT_MAX: one schedule of
// pieces of the whole vector (each group's recvcounts sum to the same
// total), every rank sending its piece to every remote rank and keeping the
// part of its block that the piece holds (coll::inter_reduce_scatter_piece;
// the pieces are cut at the same places in both groups, which do not know
// each other's blocks).
int inter_reduce_scatter_pieces(Call& call, const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                                MPI_Count total, MPI_Datatype datatype, MPI_Op op, comm::Comm& c, MPI_Comm comm,
                                MPI_Request* req) {
  if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
  coll::Reduction r;
  if (int e = piece_args(call, sendbuf, true, recvbuf, recvcounts[c.rank] > 0, datatype, op, &r)) return e;
  MPI_Count block_first = 0;
  for (int i = 0; i < c.rank; ++i) block_first += recvcounts[i];
  note(comm, -1, -1, datatype);
  auto s = schedule_for(c, {datatype});
  pieces(r, total, [&](const coll::Reduction& p, std::ptrdiff_t at, MPI_Count done) {
    coll::inter_reduce_scatter_piece(*s, c, p, advanced(sendbuf, at), done, recvbuf, block_first,
                                     recvcounts[c.rank]);
  });
  return dispatch(call, std::move(s), comm, req, Pending{});
}

// Reduce-scatter with counts summing beyond an int, on an intracommunicator:
// rank j's block is a reduction to root j. Blocking and not in place: each
// one a blocking reduce_c (in chunks, any algorithm); nonblocking or in
// place: one schedule of their pieces (as reduce_pieces), in place this
// rank's result waiting in scratch memory until every piece has read the
// input, then copied to recvbuf. Intercommunicators: inter_reduce_scatter_pieces.
int reduce_scatter_c(Call& call, const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  comm::Comm* c;
  if (int e = coll_comm(call, comm, &c)) return e;
  if (recvcounts == nullptr) return call.fail(MPI_ERR_ARG, "argument recvcounts is NULL");
  const int n = c->size();
  MPI_Count total = 0;
  for (int i = 0; i < n; ++i) {
    if (recvcounts[i] < 0)
      return call.fail(MPI_ERR_COUNT, "argument recvcounts[%d]=%lld is negative", i, recvcounts[i]);
    total += recvcounts[i];
  }
  if (total <= INT_MAX) {
    const std::vector<int> counts(recvcounts, recvcounts + n);
    return reduce_scatter(call, sendbuf, recvbuf, counts.data(), datatype, op, c, comm, req);
  }
  if (c->inter) return inter_reduce_scatter_pieces(call, sendbuf, recvbuf, recvcounts, total, datatype, op, *c, comm, req);
  const dtype::Datatype* t = nullptr;
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  if (!req && !in_place) {
    MPI_Count first = 0;
    for (int j = 0; j < n; ++j) {
      const void* from = advanced(sendbuf, static_cast<std::ptrdiff_t>(first) * t->extent);
      if (int e = reduce_c(call, from, j == c->rank ? recvbuf : nullptr, recvcounts[j], datatype, op, j, comm, nullptr))
        return e;
      first += recvcounts[j];
    }
    return MPI_SUCCESS;
  }
  if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  const void* mine = in_place ? recvbuf : sendbuf;
  coll::Reduction r;
  if (int e = piece_args(call, mine, true, recvbuf, recvcounts[c->rank] > 0, datatype, op, &r)) return e;
  note(comm, -1, -1, datatype);
  auto s = schedule_for(*c, {datatype});
  std::vector<void*> held;  // in place: this rank's result pieces
  MPI_Count first = 0;
  for (int j = 0; j < n; ++j) {
    const bool here = j == c->rank;
    pieces(r, recvcounts[j], [&](const coll::Reduction& p, std::ptrdiff_t at, MPI_Count) {
      void* res = here ? advanced(recvbuf, at) : nullptr;
      if (here && in_place) {
        const coll::Footprint f = coll::footprint(p.count, *p.type);
        res = s->scratch(f.bytes) - f.offset;
        held.push_back(res);
      }
      coll::sched_reduce(*s, p, advanced(mine, static_cast<std::ptrdiff_t>(first) * t->extent + at), res, j);
    });
    first += recvcounts[j];
  }
  if (!held.empty()) {
    s->round();
    std::size_t k = 0;
    pieces(r, recvcounts[c->rank], [&](const coll::Reduction& p, std::ptrdiff_t at, MPI_Count) {
      coll::sched_copy(*s, Typed{held[k++], p.count, p.type}, Typed{advanced(recvbuf, at), p.count, p.type});
    });
    s->round();
  }
  return dispatch(call, std::move(s), comm, req, Pending{});
}

int reduce_scatter_block_c(Call& call, const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  if (recvcount < 0) return call.fail(MPI_ERR_COUNT, "argument recvcount=%lld is negative", recvcount);
  const comm::Comm* c = comm::lookup(comm);
  if (c == nullptr || recvcount <= INT_MAX / std::max(c->size(), 1))
    return reduce_scatter_block(call, sendbuf, recvbuf, c ? static_cast<int>(recvcount) : 0, datatype, op, comm, req);
  const std::vector<MPI_Count> counts(static_cast<std::size_t>(c->size()), recvcount);
  return reduce_scatter_c(call, sendbuf, recvbuf, counts.data(), datatype, op, comm, req);
}

// The four uniform forms' _c calls: their counts narrowed (forms::uniform_c),
// then the int form.
int gather_c(Call& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
             MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* req) {
  Counted s, v;
  if (int e = forms::uniform_c(call, forms::Uniform::gather, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                               root, comm, &s, &v))
    return e;
  return gather(call, sendbuf, s.count, s.datatype, recvbuf, v.count, v.datatype, root, comm, req);
}
int scatter_c(Call& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
              MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* req) {
  Counted s, v;
  if (int e = forms::uniform_c(call, forms::Uniform::scatter, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, root, comm, &s, &v))
    return e;
  return scatter(call, sendbuf, s.count, s.datatype, recvbuf, v.count, v.datatype, root, comm, req);
}
int allgather_c(Call& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {
  Counted s, v;
  if (int e = forms::uniform_c(call, forms::Uniform::allgather, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, 0, comm, &s, &v))
    return e;
  return allgather(call, sendbuf, s.count, s.datatype, recvbuf, v.count, v.datatype, comm, req);
}
int alltoall_c(Call& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
               MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {
  Counted s, v;
  if (int e = forms::uniform_c(call, forms::Uniform::alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, 0, comm, &s, &v))
    return e;
  return alltoall(call, sendbuf, s.count, s.datatype, recvbuf, v.count, v.datatype, comm, req);
}

}  // namespace

// The forms for the other entry points (coll_forms.hpp): the functions above.
namespace ringmpi::api::forms {
int barrier(Call& call, MPI_Comm comm, MPI_Request* req) { return ::barrier(call, comm, req); }
int bcast(Call& call, void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* req) {
  return ::bcast(call, buffer, count, datatype, root, comm, req);
}
int gather(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* req) {
  return ::gather(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, req);
}
int gatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
            MPI_Request* req) {
  return ::gatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, req);
}
int scatter(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* req) {
  return ::scatter(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, req);
}
int scatterv(Call& call, const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* req) {
  return ::scatterv(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, req);
}
int allgather(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {
  return ::allgather(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, req);
}
int allgatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {
  return ::allgatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, req);
}
int alltoall(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {
  return ::alltoall(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, req);
}
int alltoallv(Call& call, const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
              void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
              MPI_Request* req) {
  return ::alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, req);
}
int alltoallw(Call& call, const void* sendbuf, const int sendcounts[], const int sdispls[],
              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
              const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* req) {
  return ::alltoallw(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, req);
}
int reduce(Call& call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
           MPI_Comm comm, MPI_Request* req) {
  return ::reduce(call, sendbuf, recvbuf, count, datatype, op, root, comm, req);
}
int allreduce(Call& call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request* req) {
  return ::allreduce(call, sendbuf, recvbuf, count, datatype, op, comm, req);
}
int reduce_scatter(Call& call, const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return ::reduce_scatter(call, sendbuf, recvbuf, recvcounts, datatype, op, comm, req);
}
int reduce_scatter_block(Call& call, const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return ::reduce_scatter_block(call, sendbuf, recvbuf, recvcount, datatype, op, comm, req);
}
int scan(Call& call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
         bool exclusive, MPI_Request* req) {
  return ::scan(call, sendbuf, recvbuf, count, datatype, op, comm, exclusive, req);
}
int reduce_c(Call& call, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
             int root, MPI_Comm comm, MPI_Request* req) {
  return ::reduce_c(call, sendbuf, recvbuf, count, datatype, op, root, comm, req);
}
int allreduce_c(Call& call, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request* req) {
  return ::allreduce_c(call, sendbuf, recvbuf, count, datatype, op, comm, req);
}
int scan_c(Call& call, const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm, bool exclusive, MPI_Request* req) {
  return ::scan_c(call, sendbuf, recvbuf, count, datatype, op, comm, exclusive, req);
}
int reduce_scatter_c(Call& call, const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return ::reduce_scatter_c(call, sendbuf, recvbuf, recvcounts, datatype, op, comm, req);
}
int reduce_scatter_block_c(Call& call, const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* req) {
  return ::reduce_scatter_block_c(call, sendbuf, recvbuf, recvcount, datatype, op, comm, req);
}
bool reduces_in_pieces(MPI_Op op) { return ::as_pieces(op); }
}  // namespace ringmpi::api::forms

extern "C" {


int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ibarrier");
  if (int e = call.not_null(request, "request")) return e;
  return barrier(call, comm, request);
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  Call call("MPI_Bcast");
  return bcast(call, buffer, count, datatype, root, comm, nullptr);
}
int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ibcast");
  if (int e = call.not_null(request, "request")) return e;
  return bcast(call, buffer, count, datatype, root, comm, request);
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call("MPI_Gather");
  return gather(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, nullptr);
}
int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Igather");
  if (int e = call.not_null(request, "request")) return e;
  return gather(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call("MPI_Gatherv");
  return gatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, nullptr);
}
int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Igatherv");
  if (int e = call.not_null(request, "request")) return e;
  return gatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request);
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call("MPI_Scatter");
  return scatter(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, nullptr);
}
int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Iscatter");
  if (int e = call.not_null(request, "request")) return e;
  return scatter(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call("MPI_Scatterv");
  return scatterv(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, nullptr);
}
int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request* request) {
  Call call("MPI_Iscatterv");
  if (int e = call.not_null(request, "request")) return e;
  return scatterv(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Allgather");
  return allgather(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr);
}
int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Iallgather");
  if (int e = call.not_null(request, "request")) return e;
  return allgather(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Allgatherv");
  return allgatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, nullptr);
}
int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request* request) {
  Call call("MPI_Iallgatherv");
  if (int e = call.not_null(request, "request")) return e;
  return allgatherv(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request);
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Alltoall");
  return alltoall(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr);
}
int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ialltoall");
  if (int e = call.not_null(request, "request")) return e;
  return alltoall(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                  MPI_Comm comm) {
  Call call("MPI_Alltoallv");
  return alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                   nullptr);
}
int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                   MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ialltoallv");
  if (int e = call.not_null(request, "request")) return e;
  return alltoallv(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
                   request);
}

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                  void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                  MPI_Comm comm) {
  Call call("MPI_Alltoallw");
  return alltoallw(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                   nullptr);
}
int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ialltoallw");
  if (int e = call.not_null(request, "request")) return e;
  return alltoallw(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm,
                   request);
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
  Call call("MPI_Reduce");
  return reduce(call, sendbuf, recvbuf, count, datatype, op, root, comm, nullptr);
}
int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ireduce");
  if (int e = call.not_null(request, "request")) return e;
  return reduce(call, sendbuf, recvbuf, count, datatype, op, root, comm, request);
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  Call call("MPI_Allreduce");
  return allreduce(call, sendbuf, recvbuf, count, datatype, op, comm, nullptr);
}
int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request) {
  Call call("MPI_Iallreduce");
  if (int e = call.not_null(request, "request")) return e;
  return allreduce(call, sendbuf, recvbuf, count, datatype, op, comm, request);
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) {
  Call call("MPI_Reduce_scatter");
  return reduce_scatter(call, sendbuf, recvbuf, recvcounts, datatype, op, comm, nullptr);
}
int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ireduce_scatter");
  if (int e = call.not_null(request, "request")) return e;
  return reduce_scatter(call, sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm) {
  Call call("MPI_Reduce_scatter_block");
  return reduce_scatter_block(call, sendbuf, recvbuf, recvcount, datatype, op, comm, nullptr);
}
int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ireduce_scatter_block");
  if (int e = call.not_null(request, "request")) return e;
  return reduce_scatter_block(call, sendbuf, recvbuf, recvcount, datatype, op, comm, request);
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  Call call("MPI_Scan");
  return scan(call, sendbuf, recvbuf, count, datatype, op, comm, false, nullptr);
}
int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              MPI_Request* request) {
  Call call("MPI_Iscan");
  if (int e = call.not_null(request, "request")) return e;
  return scan(call, sendbuf, recvbuf, count, datatype, op, comm, false, request);
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  Call call("MPI_Exscan");
  return scan(call, sendbuf, recvbuf, count, datatype, op, comm, true, nullptr);
}
int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                MPI_Request* request) {
  Call call("MPI_Iexscan");
  if (int e = call.not_null(request, "request")) return e;
  return scan(call, sendbuf, recvbuf, count, datatype, op, comm, true, request);
}

// ---- the large-count (_c) forms ----
// Non-v forms: a count that fits goes as it is; a larger one as one element
// of a contiguous type (api/large_count.hpp). Where the code below scales a
// count by the group size (the uniform displacements of gather, scatter,
// allgather, alltoall), a count passes as it is only if that product fits.

int MPI_Bcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  Call call("MPI_Bcast_c");
  Counted n;
  if (int e = n.set(call, count, datatype, "count", "datatype")) return e;
  return bcast(call, buffer, n.count, n.datatype, root, comm, nullptr);
}
int MPI_Ibcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 MPI_Request* request) {
  Call call("MPI_Ibcast_c");
  if (int e = call.not_null(request, "request")) return e;
  Counted n;
  if (int e = n.set(call, count, datatype, "count", "datatype")) return e;
  return bcast(call, buffer, n.count, n.datatype, root, comm, request);
}


int MPI_Gather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call("MPI_Gather_c");
  return gather_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, nullptr);
}
int MPI_Igather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Igather_c");
  if (int e = call.not_null(request, "request")) return e;
  return gather_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}
int MPI_Scatter_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call("MPI_Scatter_c");
  return scatter_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, nullptr);
}
int MPI_Iscatter_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Iscatter_c");
  if (int e = call.not_null(request, "request")) return e;
  return scatter_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request);
}
int MPI_Allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Allgather_c");
  return allgather_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr);
}
int MPI_Iallgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Iallgather_c");
  if (int e = call.not_null(request, "request")) return e;
  return allgather_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
int MPI_Alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Alltoall_c");
  return alltoall_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr);
}
int MPI_Ialltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ialltoall_c");
  if (int e = call.not_null(request, "request")) return e;
  return alltoall_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}

// The v and w forms: per-peer blocks (forms::exchange).

int MPI_Gatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm) {
  Call call("MPI_Gatherv_c");
  forms::WideExchange x;
  if (int e = forms::gatherv_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, &x)) return e;
  return forms::exchange(call, x, nullptr);
}
int MPI_Igatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, int root,
                   MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Igatherv_c");
  if (int e = call.not_null(request, "request")) return e;
  forms::WideExchange x;
  if (int e = forms::gatherv_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, &x)) return e;
  return forms::exchange(call, x, request);
}
int MPI_Scatterv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], MPI_Datatype sendtype,
                   void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call("MPI_Scatterv_c");
  forms::WideExchange x;
  if (int e = forms::scatterv_c(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, &x)) return e;
  return forms::exchange(call, x, nullptr);
}
int MPI_Iscatterv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Iscatterv_c");
  if (int e = call.not_null(request, "request")) return e;
  forms::WideExchange x;
  if (int e = forms::scatterv_c(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, &x)) return e;
  return forms::exchange(call, x, request);
}
int MPI_Allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Allgatherv_c");
  forms::WideExchange x;
  if (int e = forms::allgatherv_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, &x)) return e;
  return forms::exchange(call, x, nullptr);
}
int MPI_Iallgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                      const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request* request) {
  Call call("MPI_Iallgatherv_c");
  if (int e = call.not_null(request, "request")) return e;
  forms::WideExchange x;
  if (int e = forms::allgatherv_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, &x)) return e;
  return forms::exchange(call, x, request);
}
int MPI_Alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                    MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Alltoallv_c");
  forms::WideExchange x;
  if (int e = forms::alltoallv_c(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, &x)) return e;
  return forms::exchange(call, x, nullptr);
}
int MPI_Ialltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                     MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ialltoallv_c");
  if (int e = call.not_null(request, "request")) return e;
  forms::WideExchange x;
  if (int e = forms::alltoallv_c(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, &x)) return e;
  return forms::exchange(call, x, request);
}
int MPI_Alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  Call call("MPI_Alltoallw_c");
  forms::WideExchange x;
  if (int e = forms::alltoallw_c(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, &x)) return e;
  return forms::exchange(call, x, nullptr);
}
int MPI_Ialltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ialltoallw_c");
  if (int e = call.not_null(request, "request")) return e;
  forms::WideExchange x;
  if (int e = forms::alltoallw_c(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, &x)) return e;
  return forms::exchange(call, x, request);
}

// Reductions.

int MPI_Reduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm) {
  Call call("MPI_Reduce_c");
  return reduce_c(call, sendbuf, recvbuf, count, datatype, op, root, comm, nullptr);
}
int MPI_Ireduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                  MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ireduce_c");
  if (int e = call.not_null(request, "request")) return e;
  return reduce_c(call, sendbuf, recvbuf, count, datatype, op, root, comm, request);
}
int MPI_Allreduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm) {
  Call call("MPI_Allreduce_c");
  return allreduce_c(call, sendbuf, recvbuf, count, datatype, op, comm, nullptr);
}
int MPI_Iallreduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                     MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Iallreduce_c");
  if (int e = call.not_null(request, "request")) return e;
  return allreduce_c(call, sendbuf, recvbuf, count, datatype, op, comm, request);
}
int MPI_Reduce_scatter_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm) {
  Call call("MPI_Reduce_scatter_c");
  return reduce_scatter_c(call, sendbuf, recvbuf, recvcounts, datatype, op, comm, nullptr);
}
int MPI_Ireduce_scatter_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[], MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ireduce_scatter_c");
  if (int e = call.not_null(request, "request")) return e;
  return reduce_scatter_c(call, sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
}
int MPI_Reduce_scatter_block_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm) {
  Call call("MPI_Reduce_scatter_block_c");
  return reduce_scatter_block_c(call, sendbuf, recvbuf, recvcount, datatype, op, comm, nullptr);
}
int MPI_Ireduce_scatter_block_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount, MPI_Datatype datatype,
                                MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ireduce_scatter_block_c");
  if (int e = call.not_null(request, "request")) return e;
  return reduce_scatter_block_c(call, sendbuf, recvbuf, recvcount, datatype, op, comm, request);
}
int MPI_Scan_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm) {
  Call call("MPI_Scan_c");
  return scan_c(call, sendbuf, recvbuf, count, datatype, op, comm, false, nullptr);
}
int MPI_Iscan_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Iscan_c");
  if (int e = call.not_null(request, "request")) return e;
  return scan_c(call, sendbuf, recvbuf, count, datatype, op, comm, false, request);
}
int MPI_Exscan_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm) {
  Call call("MPI_Exscan_c");
  return scan_c(call, sendbuf, recvbuf, count, datatype, op, comm, true, nullptr);
}
int MPI_Iexscan_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Iexscan_c");
  if (int e = call.not_null(request, "request")) return e;
  return scan_c(call, sendbuf, recvbuf, count, datatype, op, comm, true, request);
}

}  // extern "C"
