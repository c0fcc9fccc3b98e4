// Partitioned point-to-point communication (MPI-4.0 chapter 4): the entry
// points. The engine is p2p::Partitioned (lib/p2p/partitioned.hpp, which
// states the protocol); the request is a persistent extension request
// (api/persistent.hpp) whose operation wraps one.
//
// Error classes, as MPICH 4.2 gives them: a partition index out of range
// MPI_ERR_ARG; MPI_Pready on an inactive request, on a receive request, or
// twice for one partition in one epoch MPI_ERR_REQUEST / MPI_ERR_ARG
// (inactive and wrong-side: MPI_ERR_REQUEST; readied twice: MPI_ERR_ARG);
// MPI_Parrived on a send request MPI_ERR_REQUEST. MPI_Parrived on an
// inactive request sets flag to true (MPI-4.1 §4.2.2). MPI_ANY_SOURCE and
// MPI_ANY_TAG are not allowed (§4.2.1): MPI_ERR_RANK / MPI_ERR_TAG.
#include <climits>
#include <cstdio>
#include <memory>

#include "api/p2p_args.hpp"
#include "api/persistent.hpp"
#include "p2p/extension.hpp"
#include "p2p/partitioned.hpp"
#include "p2p/wait.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

class PartitionedOp final : public api::PersistentOp {
 public:
  explicit PartitionedOp(p2p::PartArgs a) : eng_(std::move(a)) {}
  p2p::Partitioned& engine() { return eng_; }
  int start(Call&) override {
    eng_.start();
    return MPI_SUCCESS;
  }
  void fill_status(p2p::Request& r) const override {
    if (eng_.sender()) return;
    const p2p::PartArgs& a = eng_.args();
    r.st_source = a.peer;
    r.st_tag = a.peer == MPI_PROC_NULL ? MPI_ANY_TAG : a.tag;
    r.st_count = a.peer == MPI_PROC_NULL ? 0 : eng_.bytes();
  }
  bool poll() override { return eng_.poll(); }
  int error() const override { return eng_.error(); }
  const char* describe() const override { return eng_.describe(); }

 private:
  p2p::Partitioned eng_;
};

int init(const char* name, bool send, const void* buf, int partitions, MPI_Count count, MPI_Datatype datatype,
         int peer, int tag, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  Call call(name);
  comm::Comm* c;
  const dtype::Datatype* t;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = call.not_null(request, "request")) return e;
  if (partitions < 0)
    return call.fail(MPI_ERR_ARG, "argument partitions=%d is negative", partitions);
  if (count < 0) return call.fail(MPI_ERR_COUNT, "argument count=%lld is negative", static_cast<long long>(count));
  if (int e = call.datatype(datatype, "datatype", &t)) return e;
  if (static_cast<long long>(count) * partitions > INT_MAX)
    return call.fail(MPI_ERR_COUNT,
                     "partitions x count = %lld elements: ringmpi's partitioned communication takes at most "
                     "INT_MAX (%d) elements in one buffer",
                     static_cast<long long>(count) * partitions, INT_MAX);
  const int total = static_cast<int>(count * partitions);
  if (int e = api::check_buffer(call, buf, total, t, "buf")) return e;
  const char* peer_arg = send ? "dest" : "source";
  if (peer == MPI_ANY_SOURCE)
    return call.fail(MPI_ERR_RANK, "argument %s is MPI_ANY_SOURCE, which partitioned communication does not allow "
                                   "(MPI-4.0 section 4.2.1)",
                     peer_arg);
  if (int e = api::check_rank(call, peer, c, comm, false, peer_arg)) return e;
  if (tag == MPI_ANY_TAG)
    return call.fail(MPI_ERR_TAG,
                     "argument tag is MPI_ANY_TAG, which partitioned communication does not allow (MPI-4.0 section 4.2.1)");
  if (int e = api::check_tag(call, tag, false, "tag")) return e;
  if (int e = api::check_info_arg(call, info)) return e;
  p2p::PartArgs a;
  a.send = send;
  a.buf = const_cast<void*>(buf);
  a.partitions = partitions;
  a.count = count;
  a.type = t;
  if (!t->predefined) a.hold = dtype::lookup_shared(datatype);
  a.peer = peer;
  a.peer_world = peer == MPI_PROC_NULL ? -1 : c->peer_world[static_cast<std::size_t>(peer)];
  a.me = c->rank;
  a.tag = tag;
  a.context = c->coll_context();
  if (int e = p2p::make_persistent_extension(std::make_unique<PartitionedOp>(std::move(a)), comm, request))
    return call.fail(e, "%s", p2p::error_detail());
  return MPI_SUCCESS;
}

// The partitioned request behind h, its side checked (`send`: MPI_Pready*).
int partitioned_arg(Call& call, MPI_Request h, bool send, p2p::Request** r, p2p::Partitioned** eng) {
  if (int e = api::check_request(call, h, "request", r)) return e;
  auto* op = (*r)->kind == p2p::Kind::ext && (*r)->persistent ? dynamic_cast<PartitionedOp*>((*r)->ext.get()) : nullptr;
  if (!op)
    return call.fail(MPI_ERR_REQUEST, "argument request is not a partitioned communication request (make it with %s)",
                     send ? "MPI_Psend_init" : "MPI_Precv_init");
  call.raise_on((*r)->comm);
  *eng = &op->engine();
  if (op->engine().sender() != send)
    return call.fail(MPI_ERR_REQUEST, "argument request is a partitioned %s request; %s",
                     send ? "receive" : "send",
                     send ? "only the sending side readies partitions" : "only the receiving side asks what arrived");
  return MPI_SUCCESS;
}

int check_partition(Call& call, const p2p::Partitioned& eng, int p, const char* arg) {
  const int n = eng.args().partitions;
  if (p < 0 || p >= n)
    return call.fail(MPI_ERR_ARG, "argument %s=%d is outside the request's partitions 0..%d", arg, p, n - 1);
  return MPI_SUCCESS;
}

int check_active(Call& call, const p2p::Request& r) {
  if (r.active) return MPI_SUCCESS;
  return call.fail(MPI_ERR_REQUEST,
                   "argument request is inactive: start it with MPI_Start/MPI_Startall before readying partitions");
}

int ready_one(Call& call, p2p::Partitioned& eng, int p, const char* arg) {
  if (int e = check_partition(call, eng, p, arg)) return e;
  if (eng.readied(p))
    return call.fail(MPI_ERR_ARG, "argument %s=%d names a partition readied already in this epoch of the request", arg,
                     p);
  eng.ready(p);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Psend_init(const void* buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init("MPI_Psend_init", true, buf, partitions, count, datatype, dest, tag, comm, info, request);
}

int MPI_Precv_init(void* buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return init("MPI_Precv_init", false, buf, partitions, count, datatype, source, tag, comm, info, request);
}

int MPI_Pready(int partition, MPI_Request request) {
  Call call("MPI_Pready");
  p2p::Request* r;
  p2p::Partitioned* eng;
  if (int e = partitioned_arg(call, request, true, &r, &eng)) return e;
  if (int e = check_active(call, *r)) return e;
  return ready_one(call, *eng, partition, "partition");
}

int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request) {
  Call call("MPI_Pready_range");
  p2p::Request* r;
  p2p::Partitioned* eng;
  if (int e = partitioned_arg(call, request, true, &r, &eng)) return e;
  if (int e = check_active(call, *r)) return e;
  if (int e = check_partition(call, *eng, partition_low, "partition_low")) return e;
  if (int e = check_partition(call, *eng, partition_high, "partition_high")) return e;
  if (partition_low > partition_high)
    return call.fail(MPI_ERR_ARG, "argument partition_low=%d is above partition_high=%d", partition_low,
                     partition_high);
  for (int p = partition_low; p <= partition_high; ++p)  // all checked before any is readied
    if (eng->readied(p))
      return call.fail(MPI_ERR_ARG, "partition %d of the range was readied already in this epoch of the request", p);
  for (int p = partition_low; p <= partition_high; ++p) eng->ready(p);
  return MPI_SUCCESS;
}

int MPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request) {
  Call call("MPI_Pready_list");
  p2p::Request* r;
  p2p::Partitioned* eng;
  if (int e = partitioned_arg(call, request, true, &r, &eng)) return e;
  if (int e = check_active(call, *r)) return e;
  if (length < 0) return call.fail(MPI_ERR_ARG, "argument length=%d is negative", length);
  if (length > 0)
    if (int e = call.not_null(array_of_partitions, "array_of_partitions")) return e;
  for (int i = 0; i < length; ++i) {
    char arg[48];
    std::snprintf(arg, sizeof arg, "array_of_partitions[%d]", i);
    if (int e = ready_one(call, *eng, array_of_partitions[i], arg)) return e;
  }
  return MPI_SUCCESS;
}

int MPI_Parrived(MPI_Request request, int partition, int* flag) {
  Call call("MPI_Parrived");
  if (int e = call.not_null(flag, "flag")) return e;
  p2p::Request* r;
  p2p::Partitioned* eng;
  if (int e = partitioned_arg(call, request, false, &r, &eng)) return e;
  if (int e = check_partition(call, *eng, partition, "partition")) return e;
  if (!r->active) {  // MPI-4.1 §4.2.2: an inactive request's partitions have all arrived
    *flag = 1;
    return MPI_SUCCESS;
  }
  const std::uint64_t before = p2p::activity();
  p2p::test(r);
  *flag = eng->arrived(partition);
  if (!*flag) p2p::yield_if_idle(before);
  return MPI_SUCCESS;
}

}  // extern "C"
