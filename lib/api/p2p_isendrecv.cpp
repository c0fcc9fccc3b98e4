// MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.0 §3.10.2): a send and a
// receive started together, behind one request that completes when both have.
//
// The request is a p2p extension (p2p/extension.hpp): poll() looks at the
// two inner requests, which are ordinary pooled requests the same progress()
// advances, and once both are complete copies the receive's status into the
// outer request and releases them. Every wait/test call completes it like
// any other request; its status is the receive's (source, tag, count). To
// this rank itself the receive is posted before the send, as in MPI_Sendrecv
// (api/sendrecv.hpp), so the message goes straight into it.
#include <cstring>
#include <memory>
#include <vector>

#include "api/large_count.hpp"
#include "api/p2p_args.hpp"
#include "api/sendrecv.hpp"
#include "p2p/extension.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

class SendRecv final : public p2p::Extension {
 public:
  SendRecv(MPI_Request send, MPI_Request recv, std::vector<std::byte> copy)
      : send_(send), recv_(recv), copy_(std::move(copy)) {}
  void set_outer(p2p::Request* outer) { outer_ = outer; }
  bool poll() override {
    p2p::Request* s = p2p::lookup(send_);
    p2p::Request* r = p2p::lookup(recv_);
    if (!complete(s) || !complete(r)) return false;
    int re = MPI_SUCCESS, se = MPI_SUCCESS;
    if (r) {
      MPI_Status st;
      p2p::status_of(*r, &st);
      outer_->st_source = st.MPI_SOURCE;
      outer_->st_tag = st.MPI_TAG;
      outer_->st_count = static_cast<std::size_t>(st.rmpi_count);
      if (r->st_error != MPI_SUCCESS) p2p::describe_error(*r, why_, sizeof why_);
      re = p2p::finish(&recv_, r, MPI_STATUS_IGNORE);
    }
    if (s) se = p2p::finish(&send_, s, MPI_STATUS_IGNORE);
    error_ = re != MPI_SUCCESS ? re : se;
    if (re == MPI_SUCCESS && se != MPI_SUCCESS) std::snprintf(why_, sizeof why_, "the send part failed");
    copy_.clear();
    return true;
  }
  int error() const override { return error_; }
  const char* describe() const override { return why_; }
  bool freeable() const override { return true; }  // a point-to-point operation (MPI-4.0 §3.7.3)

 private:
  // The shared completed send has no state of its own: it is complete.
  static bool complete(const p2p::Request* q) { return q == nullptr || q->complete; }
  MPI_Request send_, recv_;
  std::vector<std::byte> copy_;  // Isendrecv_replace: the outgoing data, packed
  p2p::Request* outer_ = nullptr;
  int error_ = MPI_SUCCESS;
  char why_[256] = "";
};

int start(Call& call, MPI_Comm comm, p2p::SendArgs sa, const p2p::RecvArgs& ra, std::vector<std::byte> copy,
          MPI_Request* request) {
  if (!copy.empty()) sa.buf = copy.data();  // the vector's heap block moves with it
  bool to_self;
  MPI_Request rreq, sreq;
  if (int e = api::start_sendrecv(call, sa, ra, &to_self, &sreq, &rreq)) return e;
  if (!to_self)
    if (int e = p2p::irecv(ra, &rreq)) {
      p2p::Request* s = p2p::lookup(sreq);
      if (s) {
        p2p::wait(s);
        p2p::finish(&sreq, s, MPI_STATUS_IGNORE);
      }
      return call.fail(e, "%s", p2p::error_detail());
    }
  auto ext = std::make_unique<SendRecv>(sreq, rreq, std::move(copy));
  SendRecv* raw = ext.get();
  // Not polled now: the outer request must be known to poll() first; the
  // transfers themselves have started already.
  if (int e = p2p::start_extension(std::move(ext), comm, request, false))
    return call.fail(e, "no request is free for %s", call.name());
  raw->set_outer(p2p::lookup(*request));
  return MPI_SUCCESS;
}

int isendrecv(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
              void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
              MPI_Request* request) {
  p2p::SendArgs sa;
  if (int e = api::check_send(call, sendbuf, sendcount, sendtype, dest, sendtag, comm, p2p::Mode::standard, &sa))
    return e;
  p2p::RecvArgs ra;
  if (int e = api::check_recv(call, recvbuf, recvcount, recvtype, source, recvtag, comm, &ra)) return e;
  if (int e = call.not_null(request, "request")) return e;
  return start(call, comm, sa, ra, {}, request);
}

int isendrecv_replace(Call& call, void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                      int recvtag, MPI_Comm comm, MPI_Request* request) {
  p2p::SendArgs sa;
  if (int e = api::check_send(call, buf, count, datatype, dest, sendtag, comm, p2p::Mode::standard, &sa)) return e;
  p2p::RecvArgs ra;
  if (int e = api::check_recv(call, buf, count, datatype, source, recvtag, comm, &ra)) return e;
  if (int e = call.not_null(request, "request")) return e;
  // Nothing to keep apart when one side is MPI_PROC_NULL: the send leaves
  // from buf (no receive writes it) or sends nothing.
  if (sa.dest == MPI_PROC_NULL || ra.source == MPI_PROC_NULL) return start(call, comm, sa, ra, {}, request);
  // The outgoing data is copied first (its packed stream), so the receive
  // may overwrite buf while the send is in flight; the copy lives in the
  // request until both parts are done.
  const std::size_t bytes = static_cast<std::size_t>(count) * sa.type->size;
  std::vector<std::byte> copy(bytes);
  if (bytes) dtype::pack(buf, count, *sa.type, 0, copy.data(), bytes);
  // The copy goes as MPI_BYTEs; more than INT_MAX of them (a large count's
  // type) as one element of a contiguous type of that many bytes, as
  // MPI_Sendrecv_replace sends its copy (p2p_recv.cpp): the send request
  // holds that type until it completes, this handle ends with the call.
  api::Counted n;
  if (int e = n.set(call, static_cast<MPI_Count>(bytes), MPI_BYTE, "count", "datatype")) return e;
  sa.type = dtype::lookup(n.datatype);
  sa.datatype = n.datatype;
  sa.count = n.count;
  sa.buf = nullptr;
  return start(call, comm, sa, ra, std::move(copy), request);
}

}  // namespace

extern "C" {

int MPI_Isendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                  MPI_Request* request) {
  Call call("MPI_Isendrecv");
  return isendrecv(call, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                   comm, request);
}

int MPI_Isendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                          int recvtag, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Isendrecv_replace");
  return isendrecv_replace(call, buf, count, datatype, dest, sendtag, source, recvtag, comm, request);
}

// The large-count forms (MPI-4.0): a count beyond an int is one element of a
// contiguous type (api/large_count.hpp), which the pending parts hold.
int MPI_Isendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                    void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                    MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Isendrecv_c");
  api::Counted sn, rn;
  if (int e = sn.set(call, sendcount, sendtype, "sendcount", "sendtype")) return e;
  if (int e = rn.set(call, recvcount, recvtype, "recvcount", "recvtype")) return e;
  return isendrecv(call, sendbuf, sn.count, sn.datatype, dest, sendtag, recvbuf, rn.count, rn.datatype, source,
                   recvtag, comm, request);
}

int MPI_Isendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                            int recvtag, MPI_Comm comm, MPI_Request* request) {
  Call call("MPI_Isendrecv_replace_c");
  api::Counted n;
  if (int e = n.set(call, count, datatype, "count", "datatype")) return e;
  return isendrecv_replace(call, buf, n.count, n.datatype, dest, sendtag, source, recvtag, comm, request);
}

}  // extern "C"
