// Collective entry points: argument checks, then lib/coll.
// Intercommunicator collectives (other than MPI_Barrier) are not implemented
// yet and say so with MPI_ERR_UNSUPPORTED_OPERATION.
#include <vector>

#include "api/call.hpp"
#include "coll/movement.hpp"
#include "coll/reduction.hpp"
#include "dtype/op.hpp"

using namespace ringmpi;
using ringmpi::api::Call;
using ringmpi::coll::Typed;

namespace {

int intracomm_for_collective(Call& call, MPI_Comm h, comm::Comm** c) {
  if (int e = call.comm(h, "comm", c)) return e;
  if ((*c)->inter)
    return call.fail(MPI_ERR_UNSUPPORTED_OPERATION,
                     "collectives on intercommunicators are not implemented yet (only MPI_Barrier is)");
  return MPI_SUCCESS;
}

int check_root(Call& call, const comm::Comm& c, int root) {
  if (root < 0 || root >= c.size())
    return call.fail(MPI_ERR_ROOT, "argument root=%d is outside 0..%d of %s", root, c.size() - 1,
                     api::describe_comm(call.comm_handle()).c_str());
  return MPI_SUCCESS;
}

// A (buf, count, type) argument triple that is significant on this rank.
int check_buffer(Call& call, const void* buf, int count, MPI_Datatype th, const char* bufname,
                 const char* countname, const char* typename_, const dtype::Datatype** t) {
  if (int e = call.count(count, countname)) return e;
  if (int e = call.datatype(th, typename_, t)) return e;
  if (buf == nullptr && count > 0 && (*t)->size > 0)
    return call.fail(MPI_ERR_BUFFER, "argument %s is NULL but %s=%d", bufname, countname, count);
  return MPI_SUCCESS;
}

int check_counts(Call& call, const comm::Comm& c, const int* counts, const int* displs, const char* cname,
                 const char* dname) {
  if (counts == nullptr) return call.fail(MPI_ERR_ARG, "argument %s is NULL", cname);
  if (displs == nullptr) return call.fail(MPI_ERR_ARG, "argument %s is NULL", dname);
  for (int i = 0; i < c.size(); ++i)
    if (counts[i] < 0) return call.fail(MPI_ERR_COUNT, "argument %s[%d]=%d is negative", cname, i, counts[i]);
  return MPI_SUCCESS;
}

int check_op(Call& call, MPI_Op op, const dtype::Datatype& t) {
  if (op == MPI_OP_NULL) return call.fail(MPI_ERR_OP, "argument op is MPI_OP_NULL");
  if (!dtype::lookup_op(op))
    return call.fail(MPI_ERR_OP, "argument op=0x%x is not a valid operation (freed, or not an op handle)",
                     static_cast<unsigned>(op));
  const std::string why = dtype::op_mismatch(op, t);
  if (!why.empty()) return call.fail(MPI_ERR_OP, "%s", why.c_str());
  return MPI_SUCCESS;
}

int not_in_place(Call& call, const void* buf, const char* name) {
  if (buf == MPI_IN_PLACE) return call.fail(MPI_ERR_BUFFER, "argument %s may not be MPI_IN_PLACE here", name);
  return MPI_SUCCESS;
}

int reduction_args(Call& call, MPI_Comm comm, const void* sendbuf, void* recvbuf, int count, MPI_Datatype th,
                   MPI_Op op, comm::Comm** c, coll::Reduction* r, bool recv_significant = true) {
  if (int e = intracomm_for_collective(call, comm, c)) return e;
  const dtype::Datatype* t;
  if (int e = call.count(count, "count")) return e;
  if (int e = call.datatype(th, "datatype", &t)) return e;
  if (int e = check_op(call, op, *t)) return e;
  if (count > 0 && t->size > 0) {
    if (sendbuf == nullptr) return call.fail(MPI_ERR_BUFFER, "argument sendbuf is NULL but count=%d", count);
    if (recv_significant && recvbuf == nullptr)
      return call.fail(MPI_ERR_BUFFER, "argument recvbuf is NULL but count=%d", count);
  }
  *r = coll::Reduction{op, th, t, count};
  return MPI_SUCCESS;
}

int op_result(Call& call, int err) {
  if (err == MPI_SUCCESS) return MPI_SUCCESS;
  return call.fail(err, "applying the reduction operation failed");
}

}  // namespace

extern "C" {

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  Call call("MPI_Bcast");
  comm::Comm* c;
  const dtype::Datatype* t;
  if (int e = intracomm_for_collective(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  if (int e = check_buffer(call, buffer, count, datatype, "buffer", "count", "datatype", &t)) return e;
  coll::bcast(*c, Typed{buffer, count, t}, root);
  return MPI_SUCCESS;
}

static int gatherv_impl(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  comm::Comm* c;
  if (int e = intracomm_for_collective(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  const bool in_place = c->rank == root && sendbuf == MPI_IN_PLACE;
  const dtype::Datatype* st = nullptr;
  const dtype::Datatype* rt = nullptr;
  if (!in_place) {
    if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
    if (int e = check_buffer(call, sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype", &st)) return e;
  }
  if (c->rank == root) {
    if (int e = check_counts(call, *c, recvcounts, displs, "recvcounts", "displs")) return e;
    if (int e = call.datatype(recvtype, "recvtype", &rt)) return e;
    if (recvbuf == nullptr) return call.fail(MPI_ERR_BUFFER, "argument recvbuf is NULL at the root");
  }
  coll::gatherv(*c, Typed{sendbuf, in_place ? 0 : sendcount, st ? st : rt}, in_place, recvbuf, recvcounts, displs,
                rt ? *rt : *st, root);
  return MPI_SUCCESS;
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call("MPI_Gatherv");
  return gatherv_impl(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call("MPI_Gather");
  comm::Comm* c;
  if (int e = intracomm_for_collective(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  std::vector<int> counts, displs;
  if (c->rank == root) {
    if (int e = call.count(recvcount, "recvcount")) return e;
    counts.assign(c->size(), recvcount);
    displs.resize(c->size());
    for (int i = 0; i < c->size(); ++i) displs[i] = i * recvcount;
  }
  return gatherv_impl(call, sendbuf, sendcount, sendtype, recvbuf, counts.data(), displs.data(), recvtype, root, comm);
}

static int scatterv_impl(Call& call, const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  comm::Comm* c;
  if (int e = intracomm_for_collective(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  const bool in_place = c->rank == root && recvbuf == MPI_IN_PLACE;
  const dtype::Datatype* st = nullptr;
  const dtype::Datatype* rt = nullptr;
  if (!in_place) {
    if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
    if (int e = check_buffer(call, recvbuf, recvcount, recvtype, "recvbuf", "recvcount", "recvtype", &rt)) return e;
  }
  if (c->rank == root) {
    if (int e = check_counts(call, *c, sendcounts, displs, "sendcounts", "displs")) return e;
    if (int e = call.datatype(sendtype, "sendtype", &st)) return e;
    if (sendbuf == nullptr) return call.fail(MPI_ERR_BUFFER, "argument sendbuf is NULL at the root");
  }
  coll::scatterv(*c, sendbuf, sendcounts, displs, st ? *st : *rt, Typed{recvbuf, in_place ? 0 : recvcount, rt ? rt : st},
                 in_place, root);
  return MPI_SUCCESS;
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call("MPI_Scatterv");
  return scatterv_impl(call, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call("MPI_Scatter");
  comm::Comm* c;
  if (int e = intracomm_for_collective(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  std::vector<int> counts, displs;
  if (c->rank == root) {
    if (int e = call.count(sendcount, "sendcount")) return e;
    counts.assign(c->size(), sendcount);
    displs.resize(c->size());
    for (int i = 0; i < c->size(); ++i) displs[i] = i * sendcount;
  }
  return scatterv_impl(call, sendbuf, counts.data(), displs.data(), sendtype, recvbuf, recvcount, recvtype, root, comm);
}

static int allgatherv_impl(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  comm::Comm* c;
  if (int e = intracomm_for_collective(call, comm, &c)) return e;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const dtype::Datatype* st = nullptr;
  const dtype::Datatype* rt = nullptr;
  if (!in_place)
    if (int e = check_buffer(call, sendbuf, sendcount, sendtype, "sendbuf", "sendcount", "sendtype", &st)) return e;
  if (int e = check_counts(call, *c, recvcounts, displs, "recvcounts", "displs")) return e;
  if (int e = call.datatype(recvtype, "recvtype", &rt)) return e;
  if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  if (recvbuf == nullptr) return call.fail(MPI_ERR_BUFFER, "argument recvbuf is NULL");
  coll::allgatherv(*c, Typed{sendbuf, in_place ? 0 : sendcount, st ? st : rt}, in_place, recvbuf, recvcounts,
                   displs, *rt);
  return MPI_SUCCESS;
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Allgatherv");
  return allgatherv_impl(call, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Allgather");
  comm::Comm* c;
  if (int e = intracomm_for_collective(call, comm, &c)) return e;
  if (int e = call.count(recvcount, "recvcount")) return e;
  std::vector<int> counts(c->size(), recvcount), displs(c->size());
  for (int i = 0; i < c->size(); ++i) displs[i] = i * recvcount;
  return allgatherv_impl(call, sendbuf, sendcount, sendtype, recvbuf, counts.data(), displs.data(), recvtype, comm);
}

static int alltoallv_impl(Call& call, const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                  MPI_Comm comm) {
  comm::Comm* c;
  if (int e = intracomm_for_collective(call, comm, &c)) return e;
  const bool in_place = sendbuf == MPI_IN_PLACE;
  const dtype::Datatype* st = nullptr;
  const dtype::Datatype* rt = nullptr;
  if (!in_place) {
    if (int e = check_counts(call, *c, sendcounts, sdispls, "sendcounts", "sdispls")) return e;
    if (int e = call.datatype(sendtype, "sendtype", &st)) return e;
    if (sendbuf == nullptr) return call.fail(MPI_ERR_BUFFER, "argument sendbuf is NULL");
  }
  if (int e = check_counts(call, *c, recvcounts, rdispls, "recvcounts", "rdispls")) return e;
  if (int e = call.datatype(recvtype, "recvtype", &rt)) return e;
  if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  if (recvbuf == nullptr) return call.fail(MPI_ERR_BUFFER, "argument recvbuf is NULL");
  coll::alltoallv(*c, sendbuf, sendcounts, sdispls, st ? *st : *rt, recvbuf, recvcounts, rdispls, *rt, in_place);
  return MPI_SUCCESS;
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                  MPI_Comm comm) {
  Call call("MPI_Alltoallv");
  return alltoallv_impl(call, sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, MPI_Comm comm) {
  Call call("MPI_Alltoall");
  comm::Comm* c;
  if (int e = intracomm_for_collective(call, comm, &c)) return e;
  if (int e = call.count(recvcount, "recvcount")) return e;
  if (sendbuf != MPI_IN_PLACE)
    if (int e = call.count(sendcount, "sendcount")) return e;
  const int n = c->size();
  std::vector<int> sc(n, sendcount), sd(n), rc(n, recvcount), rd(n);
  for (int i = 0; i < n; ++i) {
    sd[i] = i * sendcount;
    rd[i] = i * recvcount;
  }
  return alltoallv_impl(call, sendbuf, sc.data(), sd.data(), sendtype, recvbuf, rc.data(), rd.data(), recvtype, comm);
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
  Call call("MPI_Reduce");
  comm::Comm* c;
  coll::Reduction r;
  if (int e = intracomm_for_collective(call, comm, &c)) return e;
  if (int e = check_root(call, *c, root)) return e;
  const bool is_root = c->rank == root;
  if (!is_root)
    if (int e = not_in_place(call, sendbuf, "sendbuf")) return e;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (int e = reduction_args(call, comm, mine, recvbuf, count, datatype, op, &c, &r, is_root)) return e;
  return op_result(call, coll::reduce(*c, r, mine, recvbuf, root));
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  Call call("MPI_Allreduce");
  comm::Comm* c;
  coll::Reduction r;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (int e = reduction_args(call, comm, mine, recvbuf, count, datatype, op, &c, &r)) return e;
  if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  return op_result(call, coll::allreduce(*c, r, mine, recvbuf));
}

static int reduce_scatter_impl(Call& call, const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) {
  comm::Comm* c;
  if (int e = intracomm_for_collective(call, comm, &c)) return e;
  if (recvcounts == nullptr) return call.fail(MPI_ERR_ARG, "argument recvcounts is NULL");
  long long total = 0;
  for (int i = 0; i < c->size(); ++i) {
    if (recvcounts[i] < 0)
      return call.fail(MPI_ERR_COUNT, "argument recvcounts[%d]=%d is negative", i, recvcounts[i]);
    total += recvcounts[i];
  }
  if (total > 0x7fffffff) return call.fail(MPI_ERR_COUNT, "the sum of recvcounts (%lld) exceeds INT_MAX", total);
  coll::Reduction r;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (int e = reduction_args(call, comm, mine, recvbuf, static_cast<int>(total), datatype, op, &c, &r)) return e;
  return op_result(call, coll::reduce_scatter(*c, r, mine, recvbuf, recvcounts));
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) {
  Call call("MPI_Reduce_scatter");
  return reduce_scatter_impl(call, sendbuf, recvbuf, recvcounts, datatype, op, comm);
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                             MPI_Comm comm) {
  Call call("MPI_Reduce_scatter_block");
  comm::Comm* c;
  if (int e = intracomm_for_collective(call, comm, &c)) return e;
  if (int e = call.count(recvcount, "recvcount")) return e;
  std::vector<int> counts(c->size(), recvcount);
  return reduce_scatter_impl(call, sendbuf, recvbuf, counts.data(), datatype, op, comm);
}

static int scan_common(const char* name, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, bool exclusive) {
  Call call(name);
  comm::Comm* c;
  coll::Reduction r;
  const void* mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (int e = reduction_args(call, comm, mine, recvbuf, count, datatype, op, &c, &r)) return e;
  if (int e = not_in_place(call, recvbuf, "recvbuf")) return e;
  return op_result(call, coll::scan(*c, r, mine, recvbuf, exclusive));
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return scan_common("MPI_Scan", sendbuf, recvbuf, count, datatype, op, comm, false);
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return scan_common("MPI_Exscan", sendbuf, recvbuf, count, datatype, op, comm, true);
}

}  // extern "C"
