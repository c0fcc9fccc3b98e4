// Neighbourhood collectives (MPI-3.1 §7.6, §7.7), blocking and nonblocking:
// argument checks, then one schedule (lib/coll/scheduled.hpp) over the
// neighbours of the communicator's topology (lib/topo/neighbors.hpp).
#include <algorithm>
#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "api/coll_args.hpp"
#include "api/coll_forms.hpp"
#include "coll/fits.hpp"
#include "coll/plan.hpp"
#include "coll/seg.hpp"
#include "dtype/construct.hpp"
#include "dtype/datatype.hpp"
#include "topo/neighbors.hpp"

using namespace ringmpi;
using namespace ringmpi::api;
using ringmpi::coll::Block;

namespace {

// The communicator and its neighbours; MPI_ERR_TOPOLOGY without a topology.
int neighbourhood(Call& call, MPI_Comm comm, comm::Comm** c, std::shared_ptr<const topo::Neighbors>* n) {
  if (int e = coll_comm(call, comm, c)) return e;
  if (!(*c)->topo)
    return call.fail(MPI_ERR_TOPOLOGY, "%s has no virtual topology (Cartesian, graph or distributed graph)",
                     describe_comm(comm).c_str());
  *n = topo::cached_neighbors(*(*c)->topo, (*c)->rank);
  return MPI_SUCCESS;
}

struct Side {
  const void* buf;
  MPI_Count count;              // the non-v forms (else -1)
  const int* counts;            // the v and w forms
  const int* displs;            // the v forms: in elements of `type`
  const MPI_Aint* byte_displs;  // the w forms: in bytes, with per-neighbour types
  const MPI_Datatype* types;    // the w forms
  MPI_Datatype type;            // the non-w forms
  bool w;
  // The _c forms (MPI-4.1): counts and v displacements (in elements) of
  // MPI_Count / MPI_Aint, used instead of counts / displs when set.
  const MPI_Count* counts_c = nullptr;
  const MPI_Aint* displs_c = nullptr;
  bool has_counts() const { return counts != nullptr || counts_c != nullptr; }
  bool has_displs() const { return w ? byte_displs != nullptr : (displs != nullptr || displs_c != nullptr); }
  MPI_Count count_at(int i) const { return counts_c ? counts_c[i] : counts[i]; }
  std::ptrdiff_t displ_at(int i) const { return displs_c ? displs_c[i] : displs[i]; }
  bool large() const { return counts_c != nullptr || count > INT_MAX; }
};

// The argument names of one side, for the error messages. Constants: the
// checks run on every call, and building the names there cost more than a
// short exchange's own work.
struct Names {
  const char *buf, *count, *counts, *displs, *type, *types;
};
constexpr Names kSendNames{"sendbuf", "sendcount", "sendcounts", "sdispls", "sendtype", "sendtypes"};
constexpr Names kRecvNames{"recvbuf", "recvcount", "recvcounts", "rdispls", "recvtype", "recvtypes"};

// Derived datatypes a nonblocking exchange keeps alive until it completes.
using Kept = std::vector<std::shared_ptr<const void>>;
void keep_derived(Kept* kept, MPI_Datatype h) {
  if (!kept) return;
  if (dtype::TypePtr t = dtype::lookup_shared(h); t && !t->predefined) kept->push_back(std::move(t));
}

// A block of more than INT_MAX elements: one element of a contiguous type of
// that many, which *built keeps alive (the call's, or the schedule's).
int wide_block(Call& call, std::ptrdiff_t d, MPI_Count n, MPI_Datatype h, const char* cnt, Kept* built, Block* out) {
  std::string why;
  dtype::TypePtr big = dtype::make_contiguous_c(n, dtype::lookup_shared(h), &why);
  if (!big) return call.fail(MPI_ERR_COUNT, "argument %s=%lld: %s", cnt, n, why.c_str());
  dtype::commit(*big);
  *out = Block{d, 1, big.get()};
  built->push_back(std::move(big));
  return MPI_SUCCESS;
}

// The k blocks of one side, checked; their derived datatypes go to *kept
// when it is given (a nonblocking collective), the types built for counts
// beyond an int to *built.
int blocks(Call& call, int k, const Side& side, const Names& names, Kept* kept, Kept* built, coll::BlockList* out) {
  const char *buf = names.buf, *cnt = side.count >= 0 ? names.count : names.counts, *dsp = names.displs,
             *typ = side.w ? names.types : names.type;
  out->resize(static_cast<std::size_t>(k));
  const dtype::Datatype* t = nullptr;
  if (!side.w) {
    if (int e = call.datatype(side.type, typ, &t)) return e;
    keep_derived(kept, side.type);
  }
  if (side.count >= 0) {
    if (side.count <= INT_MAX) {
      if (int e = call.count(static_cast<int>(side.count), cnt)) return e;
    }
    if (k > 0 && side.count > 0 && null_data(side.buf, *t))
      return call.fail(MPI_ERR_BUFFER, "argument %s is NULL but %s=%lld", buf, cnt, side.count);
    Block one{0, static_cast<int>(std::min<MPI_Count>(side.count, INT_MAX)), t};
    if (k > 0 && side.count > INT_MAX)  // one type serves every block
      if (int e = wide_block(call, 0, side.count, side.type, cnt, built, &one)) return e;
    for (int i = 0; i < k; ++i)
      (*out)[static_cast<std::size_t>(i)] =
          Block{static_cast<std::ptrdiff_t>(i) * side.count * t->extent, one.count, one.type};
    return MPI_SUCCESS;
  }
  if (k > 0 && !side.has_counts()) return call.fail(MPI_ERR_ARG, "argument %s is NULL", cnt);
  if (k > 0 && !side.has_displs()) return call.fail(MPI_ERR_ARG, "argument %s is NULL", dsp);
  if (k > 0 && side.w && side.types == nullptr) return call.fail(MPI_ERR_ARG, "argument %s is NULL", typ);
  for (int i = 0; i < k; ++i) {
    const dtype::Datatype* ti = t;
    if (side.w) {
      const std::string arg = std::string(typ) + "[" + std::to_string(i) + "]";
      if (int e = call.datatype(side.types[i], arg.c_str(), &ti)) return e;
      keep_derived(kept, side.types[i]);
    }
    const MPI_Count n = side.count_at(i);
    if (n < 0) return call.fail(MPI_ERR_COUNT, "argument %s[%d]=%lld is negative", cnt, i, n);
    const std::ptrdiff_t d = side.w ? static_cast<std::ptrdiff_t>(side.byte_displs[i]) : side.displ_at(i) * ti->extent;
    if (n > 0 && (side.w ? null_data_at(side.buf, d, *ti) : null_data(side.buf, *ti)))
      return call.fail(MPI_ERR_BUFFER, "argument %s is NULL but %s[%d]=%lld", buf, cnt, i, n);
    if (n <= INT_MAX)
      (*out)[static_cast<std::size_t>(i)] = Block{d, static_cast<int>(n), ti};
    else if (int e = wide_block(call, d, n, side.w ? side.types[i] : side.type, cnt, built,
                                &(*out)[static_cast<std::size_t>(i)]))
      return e;
  }
  return MPI_SUCCESS;
}

// One neighbourhood exchange; `gather`: the allgather forms (one send block
// for every destination).
int neighbor_exchange(Call& call, MPI_Comm comm, const Side& send, const Side& recv, bool gather, MPI_Request* req) {
  comm::Comm* c;
  std::shared_ptr<const topo::Neighbors> held;
  if (int e = neighbourhood(call, comm, &c, &held)) return e;
  const topo::Neighbors& n = *held;
  if (send.buf == MPI_IN_PLACE || recv.buf == MPI_IN_PLACE)
    return call.fail(MPI_ERR_BUFFER, "argument %s may not be MPI_IN_PLACE in a neighbourhood collective",
                     send.buf == MPI_IN_PLACE ? "sendbuf" : "recvbuf");
  const int out = static_cast<int>(n.destinations.size()), in = static_cast<int>(n.sources.size());
  coll::BlockList sends, recvs;
  Kept kept;
  Kept* keep = req ? &kept : nullptr;
  Kept& built = kept;  // the types of counts beyond an int, nonblocking or not
  // The allgather forms send their one block to every destination; with no
  // destination the send buffer is never read, so NULL is valid there
  // whatever sendcount says (as for the other forms' zero-length lists).
  if (int e = blocks(call, gather ? std::min(out, 1) : out, send, kSendNames, keep, &built, &sends)) return e;
  if (gather && out > 0) sends.assign(static_cast<std::size_t>(out), sends[0]);
  if (int e = blocks(call, in, recv, kRecvNames, keep, &built, &recvs)) return e;
  // (mpiexec --check compares int counts: the _c forms are not checked.)
  Pending chk = send.large() || recv.large() ? Pending{} : agree(call, *c, comm,
                      {.rule = CollArgs::Rule::pairs,
                       .send = {true, static_cast<int>(send.count), send.type},
                       .recv = {true, static_cast<int>(recv.count), recv.type},
                       .shape = CollArgs::Shape::neighbor,
                       .sendcounts = send.count >= 0 ? nullptr : send.counts,
                       .recvcounts = recv.count >= 0 ? nullptr : recv.counts,
                       .sendtypes = send.w ? send.types : nullptr,
                       .recvtypes = recv.w ? recv.types : nullptr,
                       .send_v = send.count < 0,
                       .recv_v = recv.count < 0,
                       .neighbors = &n},
                      req);
  const coll::NeighborArgs a{send.buf,    std::move(sends), const_cast<void*>(recv.buf), std::move(recvs),
                             &n.destinations, &n.sources,     &n.recv_order,                gather};
  // The algorithm from the family's table (coll/select.hpp): local on one
  // rank, the segment, or a schedule.
  coll::Shape shape;
  coll::Segment* seg = coll::prepare(*c, coll::Family::neighbor, req != nullptr, false, &shape);
  coll::neighbor_fits(seg, c->topo->max_outdegree(), gather, &shape);
  coll::Algo algo;
  std::string why;
  if (int e = coll::select(*c, coll::Family::neighbor, shape, &algo, &why)) return call.fail(e, "%s", why.c_str());
  if (algo == coll::Algo::local) {
    const coll::Timed timed(*c, coll::Family::neighbor, algo);
    coll::neighbor_self(a);
    return MPI_SUCCESS;
  }
  if (algo == coll::Algo::segment) {
    if (!req) {
      const coll::Timed timed(*c, coll::Family::neighbor, algo);
      coll::seg_neighbor(*seg, a);
      return MPI_SUCCESS;
    }
    kept.push_back(held);  // the lists: the communicator may be freed first
    const int e = coll::iseg_neighbor(c->coll.segment, a, kept, comm, req);
    return e == MPI_SUCCESS ? e : call.fail(e, "%s", p2p::error_detail());
  }
  // Messages: one schedule (blocking calls run it to its end in the call).
  auto s = coll::make_schedule(*c);
  for (auto& t : kept) s->keep(std::move(t));
  coll::sched_neighbor_alltoallw(*s, send.buf, a.sends, n.destinations, const_cast<void*>(recv.buf), a.recvs,
                                 n.sources, n.recv_order);
  if (req) return dispatch(call, std::move(s), comm, req, std::move(chk));
  const coll::Timed timed(*c, coll::Family::neighbor, coll::Algo::schedule);
  return dispatch(call, std::move(s), comm, req, std::move(chk));
}

Side uniform(const void* buf, MPI_Count count, MPI_Datatype t) {
  return Side{buf, count, nullptr, nullptr, nullptr, nullptr, t, false};
}
Side vector(const void* buf, const int* counts, const int* displs, MPI_Datatype t) {
  return Side{buf, -1, counts, displs, nullptr, nullptr, t, false};
}
Side wide(const void* buf, const int* counts, const MPI_Aint* displs, const MPI_Datatype* types) {
  return Side{buf, -1, counts, nullptr, displs, types, MPI_DATATYPE_NULL, true};
}
Side vector_c(const void* buf, const MPI_Count* counts, const MPI_Aint* displs, MPI_Datatype t) {
  Side s{buf, -1, nullptr, nullptr, nullptr, nullptr, t, false};
  s.counts_c = counts;
  s.displs_c = displs;
  return s;
}
Side wide_c(const void* buf, const MPI_Count* counts, const MPI_Aint* displs, const MPI_Datatype* types) {
  Side s{buf, -1, nullptr, nullptr, displs, types, MPI_DATATYPE_NULL, true};
  s.counts_c = counts;
  return s;
}

}  // namespace

// The forms for the other entry points (coll_forms.hpp).
namespace ringmpi::api::forms {
int neighbor_allgather(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype), uniform(recvbuf, recvcount, recvtype),
                           true, req);
}
int neighbor_allgatherv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Request* req) {
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype),
                           vector(recvbuf, recvcounts, displs, recvtype), true, req);
}
int neighbor_alltoall(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype), uniform(recvbuf, recvcount, recvtype),
                           false, req);
}
int neighbor_alltoallv(Call& call, const void* sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {
  return neighbor_exchange(call, comm, vector(sendbuf, sendcounts, sdispls, sendtype),
                           vector(recvbuf, recvcounts, rdispls, recvtype), false, req);
}
int neighbor_alltoallw(Call& call, const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                       const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* req) {
  return neighbor_exchange(call, comm, wide(sendbuf, sendcounts, sdispls, sendtypes),
                           wide(recvbuf, recvcounts, rdispls, recvtypes), false, req);
}
int neighbor_allgatherv_c(Call& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request* req) {
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype),
                           vector_c(recvbuf, recvcounts, displs, recvtype), true, req);
}
int neighbor_alltoallv_c(Call& call, const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                         MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* req) {
  return neighbor_exchange(call, comm, vector_c(sendbuf, sendcounts, sdispls, sendtype),
                           vector_c(recvbuf, recvcounts, rdispls, recvtype), false, req);
}
int neighbor_alltoallw_c(Call& call, const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                         const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                         const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* req) {
  return neighbor_exchange(call, comm, wide_c(sendbuf, sendcounts, sdispls, sendtypes),
                           wide_c(recvbuf, recvcounts, rdispls, recvtypes), false, req);
}
}  // namespace ringmpi::api::forms

extern "C" {

int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Neighbor_allgather");
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype), uniform(recvbuf, recvcount, recvtype), true,
                  nullptr);
}
int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ineighbor_allgather");
  if (int e = call.not_null(request, "request")) return e;
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype), uniform(recvbuf, recvcount, recvtype), true,
                  request);
}

int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Neighbor_allgatherv");
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype), vector(recvbuf, recvcounts, displs, recvtype),
                  true, nullptr);
}
int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request) {
  Call call("MPI_Ineighbor_allgatherv");
  if (int e = call.not_null(request, "request")) return e;
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype), vector(recvbuf, recvcounts, displs, recvtype),
                  true, request);
}

int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Neighbor_alltoall");
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype), uniform(recvbuf, recvcount, recvtype), false,
                  nullptr);
}
int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ineighbor_alltoall");
  if (int e = call.not_null(request, "request")) return e;
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype), uniform(recvbuf, recvcount, recvtype), false,
                  request);
}

int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm) {
  Call call("MPI_Neighbor_alltoallv");
  return neighbor_exchange(call, comm, vector(sendbuf, sendcounts, sdispls, sendtype),
                  vector(recvbuf, recvcounts, rdispls, recvtype), false, nullptr);
}
int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ineighbor_alltoallv");
  if (int e = call.not_null(request, "request")) return e;
  return neighbor_exchange(call, comm, vector(sendbuf, sendcounts, sdispls, sendtype),
                  vector(recvbuf, recvcounts, rdispls, recvtype), false, request);
}

int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  Call call("MPI_Neighbor_alltoallw");
  return neighbor_exchange(call, comm, wide(sendbuf, sendcounts, sdispls, sendtypes),
                  wide(recvbuf, recvcounts, rdispls, recvtypes), false, nullptr);
}
int MPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request* request) {
  Call call("MPI_Ineighbor_alltoallw");
  if (int e = call.not_null(request, "request")) return e;
  return neighbor_exchange(call, comm, wide(sendbuf, sendcounts, sdispls, sendtypes),
                  wide(recvbuf, recvcounts, rdispls, recvtypes), false, request);
}

// The _c forms (MPI-4.1): the same exchange; a count beyond an int moves as
// one element of a contiguous type of that many elements.

int MPI_Neighbor_allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Neighbor_allgather_c");
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype), uniform(recvbuf, recvcount, recvtype),
                           true, nullptr);
}
int MPI_Ineighbor_allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                              MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ineighbor_allgather_c");
  if (int e = call.not_null(request, "request")) return e;
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype), uniform(recvbuf, recvcount, recvtype),
                           true, request);
}

int MPI_Neighbor_allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                              MPI_Comm comm) {
  Call call("MPI_Neighbor_allgatherv_c");
  return forms::neighbor_allgatherv_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                                      nullptr);
}
int MPI_Ineighbor_allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ineighbor_allgatherv_c");
  if (int e = call.not_null(request, "request")) return e;
  return forms::neighbor_allgatherv_c(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                                      request);
}

int MPI_Neighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Neighbor_alltoall_c");
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype), uniform(recvbuf, recvcount, recvtype),
                           false, nullptr);
}
int MPI_Ineighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                             MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ineighbor_alltoall_c");
  if (int e = call.not_null(request, "request")) return e;
  return neighbor_exchange(call, comm, uniform(sendbuf, sendcount, sendtype), uniform(recvbuf, recvcount, recvtype),
                           false, request);
}

int MPI_Neighbor_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                             const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Neighbor_alltoallv_c");
  return forms::neighbor_alltoallv_c(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                     recvtype, comm, nullptr);
}
int MPI_Ineighbor_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Ineighbor_alltoallv_c");
  if (int e = call.not_null(request, "request")) return e;
  return forms::neighbor_alltoallv_c(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                                     recvtype, comm, request);
}

int MPI_Neighbor_alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  Call call("MPI_Neighbor_alltoallw_c");
  return forms::neighbor_alltoallw_c(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                     recvtypes, comm, nullptr);
}
int MPI_Ineighbor_alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                              const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                              MPI_Request* request) {
  Call call("MPI_Ineighbor_alltoallw_c");
  if (int e = call.not_null(request, "request")) return e;
  return forms::neighbor_alltoallw_c(call, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                                     recvtypes, comm, request);
}

}  // extern "C"
