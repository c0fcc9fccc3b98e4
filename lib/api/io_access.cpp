// Data access (MPI-3.1 §13.4): explicit offsets, individual and shared file
// pointers; blocking, nonblocking, collective and split collective; file
// pointer positioning. Every form goes through access() below.
//
// Collective forms (_all, _ordered, the split ones) end with a round of the
// file's ranks, as ROMIO's two-phase I/O effectively does: when any rank
// returns, every rank has written its part. A rank whose own arguments are
// wrong still takes part in the round, so the others never wait for it.
// The split collectives do the whole collective in _begin, which §13.4.5
// allows, and _end hands back its status. The nonblocking forms, the
// collective ones included, do the access in the call that starts them and
// return a completed request: they never wait for another rank.
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "api/io_args.hpp"
#include "api/large_count.hpp"
#include "dtype/construct.hpp"
#include "comm/peers.hpp"
#include "io/access.hpp"
#include "io/view.hpp"
#include "p2p/engine.hpp"
#include "p2p/extension.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

using api::agree;
using api::failure;
using api::file_arg;
using api::report;

// Where an access starts.
enum class Where { offset, individual, shared, ordered };
// How it synchronizes: alone, or with a round of every rank of the file.
enum class Sync { none, collective };

struct Access {
  Where where;
  bool write;
  Sync sync;
};

// This rank's verdict on its own arguments.
io::Outcome verdict(io::File& f, const Access& a, MPI_Offset offset, int count, MPI_Datatype type,
                    const dtype::Datatype** t, std::uint64_t* stream) {
  *stream = 0;
  if (count < 0) return failure(MPI_ERR_COUNT, "argument count=%d is negative", count);
  *t = dtype::lookup(type);
  if (!*t || !(*t)->committed)
    return failure(MPI_ERR_TYPE, "argument datatype=%s is %s", dtype::describe(type).c_str(),
                   *t ? "not committed" : "not a valid datatype");
  if (a.write && (f.amode & MPI_MODE_RDONLY))
    return failure(MPI_ERR_READ_ONLY, "the file was opened with MPI_MODE_RDONLY; it cannot be written");
  if (!a.write && (f.amode & MPI_MODE_WRONLY))
    return failure(MPI_ERR_ACCESS, "the file was opened with MPI_MODE_WRONLY; it cannot be read");
  if ((f.amode & MPI_MODE_SEQUENTIAL) && (a.where == Where::offset || a.where == Where::individual))
    return failure(MPI_ERR_UNSUPPORTED_OPERATION,
                   "the file was opened with MPI_MODE_SEQUENTIAL: only the shared file pointer may be used "
                   "(MPI-3.1 13.2.1)");
  if (a.where == Where::offset && offset < 0)
    return failure(MPI_ERR_ARG, "argument offset=%lld is negative", static_cast<long long>(offset));
  std::uint64_t bytes = 0;
  if (io::Outcome o = io::stream_bytes(f.view, count, **t, &bytes); !o.ok()) return o;
  if (bytes % f.view.etype_size != 0)
    return failure(MPI_ERR_IO, "%d x %s is %llu bytes, not a whole number of etypes of the view (%zu bytes each, "
                   "MPI-3.1 13.4.1)", count, dtype::describe(type).c_str(), static_cast<unsigned long long>(bytes),
                   f.view.etype_size);
  *stream = bytes;
  return {};
}

// The positions of an ordered access (§13.4.4): ranks in rank order from the
// shared file pointer, which moves past all of them. Two rounds: everyone's
// size, then the start rank 0 took from the pointer.
MPI_Offset ordered_position(io::File& f, std::int64_t etypes) {
  const exchange::Peers p = comm::peers_of(*comm::lookup(f.comm));
  std::vector<std::int64_t> all(static_cast<std::size_t>(f.size));
  std::uint64_t mask = 1;
  exchange::allgather_and(p, &etypes, sizeof etypes, all.data(), &mask, 1);
  std::int64_t before = 0, total = 0;
  for (int r = 0; r < f.size; ++r) {
    if (r < f.rank) before += all[static_cast<std::size_t>(r)];
    total += all[static_cast<std::size_t>(r)];
  }
  std::int64_t start = 0;
  if (f.rank == 0) start = f.shared->fetch_add(total, std::memory_order_acq_rel);
  std::size_t got = sizeof start;
  exchange::bcast(p, 0, &start, sizeof start, &got);
  return start + before;
}

// One access; the moved bytes and this rank's outcome (not yet reported).
io::Moved access(io::File& f, const Access& a, MPI_Offset offset, void* buf, int count, MPI_Datatype type) {
  const dtype::Datatype* t = nullptr;
  std::uint64_t stream = 0;
  const io::Outcome local = verdict(f, a, offset, count, type, &t, &stream);
  const std::int64_t etypes = local.ok() ? static_cast<std::int64_t>(stream / f.view.etype_size) : 0;
  MPI_Offset pos = 0;
  switch (a.where) {
    case Where::offset: pos = offset; break;
    case Where::individual: pos = f.position; break;
    case Where::shared:
      if (local.ok()) pos = f.shared->fetch_add(etypes, std::memory_order_acq_rel);
      break;
    case Where::ordered: pos = ordered_position(f, etypes); break;
  }
  io::Moved m;
  if (local.ok()) {
    m = io::transfer(f, a.write, pos, buf, count, *t, type);
    if (a.where == Where::individual)  // the etype after the last one accessed (§13.4.3)
      f.position = pos + static_cast<MPI_Offset>((m.stream + f.view.etype_size - 1) / f.view.etype_size);
  } else {
    static_cast<io::Outcome&>(m) = local;
  }
  if (a.sync == Sync::collective) io::barrier(f);
  return m;
}

int blocking(Call& call, MPI_File fh, Access a, MPI_Offset offset, const void* buf, int count, MPI_Datatype type,
             MPI_Status* status) {
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  const io::Moved m = access(*f, a, offset, const_cast<void*>(buf), count, type);
  p2p::set_status(status, MPI_ANY_SOURCE, MPI_ANY_TAG, m.bytes);
  return report(call, m);
}

int nonblocking(Call& call, MPI_File fh, Access a, MPI_Offset offset, const void* buf, int count,
                MPI_Datatype type, MPI_Request* request) {
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (int e = call.not_null(request, "request")) return e;
  *request = MPI_REQUEST_NULL;
  a.sync = Sync::none;  // see the top of this file
  const io::Moved m = access(*f, a, offset, const_cast<void*>(buf), count, type);
  if (int e = report(call, m)) return e;
  if (p2p::start_completed(f->comm, m.bytes, request) != MPI_SUCCESS)
    return call.fail(MPI_ERR_INTERN, "no request is free (2^20 are live)");
  return MPI_SUCCESS;
}

// `begin`: the int form's name, which its _end call checks (a _c begin has no _c end).
int split_begin(Call& call, const char* begin, MPI_File fh, Access a, MPI_Offset offset, const void* buf, int count,
                MPI_Datatype type) {
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (f->split.active)
    return call.fail(MPI_ERR_OTHER, "%s is still active on this file; call its _end first (one split collective "
                                    "per file at a time, MPI-3.1 13.4.5)",
                     f->split.begin);
  const io::Moved m = access(*f, a, offset, const_cast<void*>(buf), count, type);
  f->split.active = true;
  f->split.begin = begin;
  p2p::set_status(&f->split.status, MPI_ANY_SOURCE, MPI_ANY_TAG, m.bytes);
  return report(call, m);
}

// The int forms: the call, then the access.
int blocking(const char* name, MPI_File fh, Access a, MPI_Offset offset, const void* buf, int count,
             MPI_Datatype type, MPI_Status* status) {
  Call call(name);
  return blocking(call, fh, a, offset, buf, count, type, status);
}
int nonblocking(const char* name, MPI_File fh, Access a, MPI_Offset offset, const void* buf, int count,
                MPI_Datatype type, MPI_Request* request) {
  Call call(name);
  return nonblocking(call, fh, a, offset, buf, count, type, request);
}
int split_begin(const char* name, MPI_File fh, Access a, MPI_Offset offset, const void* buf, int count,
                MPI_Datatype type) {
  Call call(name);
  return split_begin(call, name, fh, a, offset, buf, count, type);
}

// The count of a _c access as the int code takes it: beyond an int, one
// element of a contiguous type of that many elements. A bad count or type
// is passed on for verdict() to report, so that a collective access still
// runs its round on every rank.
class IoCount {
 public:
  IoCount(MPI_Count n, MPI_Datatype type) : datatype(type) {
    if (n < 0) {
      count = -1;
    } else if (n <= INT_MAX) {
      count = static_cast<int>(n);
    } else {
      const dtype::TypePtr t = dtype::lookup_shared(type);
      std::string why;
      dtype::TypePtr big = t && t->committed ? dtype::make_contiguous_c(n, t, &why) : nullptr;
      const MPI_Datatype h = big ? temp_.adopt(std::move(big)) : MPI_DATATYPE_NULL;
      count = h != MPI_DATATYPE_NULL ? 1 : INT_MAX;
      if (h != MPI_DATATYPE_NULL) datatype = h;
    }
  }
  int count = 0;
  MPI_Datatype datatype;

 private:
  api::TempType temp_;
};

int blocking_c(const char* name, MPI_File fh, Access a, MPI_Offset offset, const void* buf, MPI_Count count,
               MPI_Datatype type, MPI_Status* status) {
  Call call(name);
  const IoCount n(count, type);
  return blocking(call, fh, a, offset, buf, n.count, n.datatype, status);
}
int nonblocking_c(const char* name, MPI_File fh, Access a, MPI_Offset offset, const void* buf, MPI_Count count,
                  MPI_Datatype type, MPI_Request* request) {
  Call call(name);
  const IoCount n(count, type);
  return nonblocking(call, fh, a, offset, buf, n.count, n.datatype, request);
}
int split_begin_c(const char* name, const char* begin, MPI_File fh, Access a, MPI_Offset offset, const void* buf,
                  MPI_Count count, MPI_Datatype type) {
  Call call(name);
  const IoCount n(count, type);
  return split_begin(call, begin, fh, a, offset, buf, n.count, n.datatype);
}

int split_end(const char* name, const char* begin, MPI_File fh, MPI_Status* status) {
  Call call(name);
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (!f->split.active || f->split.begin != begin)
    return call.fail(MPI_ERR_OTHER, "no %s is active on this file (MPI-3.1 13.4.5)", begin);
  f->split.active = false;
  if (status != MPI_STATUS_IGNORE) *status = f->split.status;
  return MPI_SUCCESS;  // an error of the access was reported by the _begin call
}

constexpr Access kReadAt{Where::offset, false, Sync::none};
constexpr Access kWriteAt{Where::offset, true, Sync::none};
constexpr Access kReadAtAll{Where::offset, false, Sync::collective};
constexpr Access kWriteAtAll{Where::offset, true, Sync::collective};
constexpr Access kRead{Where::individual, false, Sync::none};
constexpr Access kWrite{Where::individual, true, Sync::none};
constexpr Access kReadAll{Where::individual, false, Sync::collective};
constexpr Access kWriteAll{Where::individual, true, Sync::collective};
constexpr Access kReadShared{Where::shared, false, Sync::none};
constexpr Access kWriteShared{Where::shared, true, Sync::none};
constexpr Access kReadOrdered{Where::ordered, false, Sync::collective};
constexpr Access kWriteOrdered{Where::ordered, true, Sync::collective};

// MPI_SEEK_SET/CUR/END (§13.4.3): a new position from `offset` etypes.
int new_position(Call& call, io::File& f, MPI_Offset current, MPI_Offset offset, int whence, MPI_Offset* out) {
  MPI_Offset base;
  switch (whence) {
    case MPI_SEEK_SET: base = 0; break;
    case MPI_SEEK_CUR: base = current; break;
    case MPI_SEEK_END: {
      MPI_Offset end = 0;
      const io::Outcome o = io::size_of(f, &end);
      if (int e = report(call, o)) return e;
      if (int e = report(call, io::prepare(f.view))) return e;
      base = io::position_at(f.view, end);
      break;
    }
    default:
      return call.fail(MPI_ERR_ARG, "argument whence=%d is none of MPI_SEEK_SET, MPI_SEEK_CUR, MPI_SEEK_END", whence);
  }
  if (base + offset < 0)
    return call.fail(MPI_ERR_ARG, "argument offset=%lld would move the file pointer to %lld, before the start of "
                                  "the view", static_cast<long long>(offset), static_cast<long long>(base + offset));
  *out = base + offset;
  return MPI_SUCCESS;
}

int no_sequential(Call& call, const io::File& f) {
  if (f.amode & MPI_MODE_SEQUENTIAL)
    return call.fail(MPI_ERR_UNSUPPORTED_OPERATION, "the file was opened with MPI_MODE_SEQUENTIAL: it has no "
                                                    "individual file pointer (MPI-3.1 13.2.1)");
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_read_at", fh, kReadAt, offset, buf, count, datatype, status);
}
int MPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                         MPI_Status* status) {
  return blocking("MPI_File_read_at_all", fh, kReadAtAll, offset, buf, count, datatype, status);
}
int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                      MPI_Status* status) {
  return blocking("MPI_File_write_at", fh, kWriteAt, offset, buf, count, datatype, status);
}
int MPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                          MPI_Status* status) {
  return blocking("MPI_File_write_at_all", fh, kWriteAtAll, offset, buf, count, datatype, status);
}
int MPI_File_iread_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                      MPI_Request* request) {
  return nonblocking("MPI_File_iread_at", fh, kReadAt, offset, buf, count, datatype, request);
}
int MPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                       MPI_Request* request) {
  return nonblocking("MPI_File_iwrite_at", fh, kWriteAt, offset, buf, count, datatype, request);
}
int MPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype,
                          MPI_Request* request) {
  return nonblocking("MPI_File_iread_at_all", fh, kReadAtAll, offset, buf, count, datatype, request);
}
int MPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype,
                           MPI_Request* request) {
  return nonblocking("MPI_File_iwrite_at_all", fh, kWriteAtAll, offset, buf, count, datatype, request);
}

int MPI_File_read(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_read", fh, kRead, 0, buf, count, datatype, status);
}
int MPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_read_all", fh, kReadAll, 0, buf, count, datatype, status);
}
int MPI_File_write(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_write", fh, kWrite, 0, buf, count, datatype, status);
}
int MPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_write_all", fh, kWriteAll, 0, buf, count, datatype, status);
}
int MPI_File_iread(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking("MPI_File_iread", fh, kRead, 0, buf, count, datatype, request);
}
int MPI_File_iwrite(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking("MPI_File_iwrite", fh, kWrite, 0, buf, count, datatype, request);
}
int MPI_File_iread_all(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking("MPI_File_iread_all", fh, kReadAll, 0, buf, count, datatype, request);
}
int MPI_File_iwrite_all(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking("MPI_File_iwrite_all", fh, kWriteAll, 0, buf, count, datatype, request);
}

int MPI_File_read_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_read_shared", fh, kReadShared, 0, buf, count, datatype, status);
}
int MPI_File_write_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_write_shared", fh, kWriteShared, 0, buf, count, datatype, status);
}
int MPI_File_iread_shared(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking("MPI_File_iread_shared", fh, kReadShared, 0, buf, count, datatype, request);
}
int MPI_File_iwrite_shared(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking("MPI_File_iwrite_shared", fh, kWriteShared, 0, buf, count, datatype, request);
}
int MPI_File_read_ordered(MPI_File fh, void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_read_ordered", fh, kReadOrdered, 0, buf, count, datatype, status);
}
int MPI_File_write_ordered(MPI_File fh, const void* buf, int count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking("MPI_File_write_ordered", fh, kWriteOrdered, 0, buf, count, datatype, status);
}

int MPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype datatype) {
  return split_begin("MPI_File_read_at_all_begin", fh, kReadAtAll, offset, buf, count, datatype);
}
int MPI_File_read_at_all_end(MPI_File fh, void*, MPI_Status* status) {
  return split_end("MPI_File_read_at_all_end", "MPI_File_read_at_all_begin", fh, status);
}
int MPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype datatype) {
  return split_begin("MPI_File_write_at_all_begin", fh, kWriteAtAll, offset, buf, count, datatype);
}
int MPI_File_write_at_all_end(MPI_File fh, const void*, MPI_Status* status) {
  return split_end("MPI_File_write_at_all_end", "MPI_File_write_at_all_begin", fh, status);
}
int MPI_File_read_all_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype) {
  return split_begin("MPI_File_read_all_begin", fh, kReadAll, 0, buf, count, datatype);
}
int MPI_File_read_all_end(MPI_File fh, void*, MPI_Status* status) {
  return split_end("MPI_File_read_all_end", "MPI_File_read_all_begin", fh, status);
}
int MPI_File_write_all_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype) {
  return split_begin("MPI_File_write_all_begin", fh, kWriteAll, 0, buf, count, datatype);
}
int MPI_File_write_all_end(MPI_File fh, const void*, MPI_Status* status) {
  return split_end("MPI_File_write_all_end", "MPI_File_write_all_begin", fh, status);
}
int MPI_File_read_ordered_begin(MPI_File fh, void* buf, int count, MPI_Datatype datatype) {
  return split_begin("MPI_File_read_ordered_begin", fh, kReadOrdered, 0, buf, count, datatype);
}
int MPI_File_read_ordered_end(MPI_File fh, void*, MPI_Status* status) {
  return split_end("MPI_File_read_ordered_end", "MPI_File_read_ordered_begin", fh, status);
}
int MPI_File_write_ordered_begin(MPI_File fh, const void* buf, int count, MPI_Datatype datatype) {
  return split_begin("MPI_File_write_ordered_begin", fh, kWriteOrdered, 0, buf, count, datatype);
}
int MPI_File_write_ordered_end(MPI_File fh, const void*, MPI_Status* status) {
  return split_end("MPI_File_write_ordered_end", "MPI_File_write_ordered_begin", fh, status);
}

int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
  Call call("MPI_File_seek");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (int e = no_sequential(call, *f)) return e;
  return new_position(call, *f, f->position, offset, whence, &f->position);
}

int MPI_File_get_position(MPI_File fh, MPI_Offset* offset) {
  Call call("MPI_File_get_position");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (int e = no_sequential(call, *f)) return e;
  if (int e = call.not_null(offset, "offset")) return e;
  *offset = f->position;
  return MPI_SUCCESS;
}

int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset* disp) {
  Call call("MPI_File_get_byte_offset");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (int e = no_sequential(call, *f)) return e;
  if (offset < 0) return call.fail(MPI_ERR_ARG, "argument offset=%lld is negative", static_cast<long long>(offset));
  if (int e = call.not_null(disp, "disp")) return e;
  if (int e = report(call, io::prepare(f->view))) return e;
  *disp = io::byte_offset(f->view, offset);
  return MPI_SUCCESS;
}

// Collective (§13.4.4): every rank passes the same offset and whence; rank 0
// moves the pointer between two rounds (file.hpp, the shared pointer's invariant).
int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
  Call call("MPI_File_seek_shared");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  MPI_Offset to = 0;
  if (int e = agree(call, *f, new_position(call, *f, f->shared->load(std::memory_order_acquire), offset, whence, &to),
                    MPI_ERR_ARG))
    return e;
  if (f->rank == 0) f->shared->store(to, std::memory_order_release);
  io::barrier(*f);
  return MPI_SUCCESS;
}

int MPI_File_get_position_shared(MPI_File fh, MPI_Offset* offset) {
  Call call("MPI_File_get_position_shared");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (int e = call.not_null(offset, "offset")) return e;
  *offset = f->shared->load(std::memory_order_acquire);
  return MPI_SUCCESS;
}

// The _c forms (MPI-4.1): MPI_Count counts.
int MPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void* buf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Status* status) {
  return blocking_c("MPI_File_read_at_c", fh, kReadAt, offset, buf, count, datatype, status);
}
int MPI_File_read_at_all_c(MPI_File fh, MPI_Offset offset, void* buf, MPI_Count count, MPI_Datatype datatype,
                           MPI_Status* status) {
  return blocking_c("MPI_File_read_at_all_c", fh, kReadAtAll, offset, buf, count, datatype, status);
}
int MPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void* buf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Status* status) {
  return blocking_c("MPI_File_write_at_c", fh, kWriteAt, offset, buf, count, datatype, status);
}
int MPI_File_write_at_all_c(MPI_File fh, MPI_Offset offset, const void* buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Status* status) {
  return blocking_c("MPI_File_write_at_all_c", fh, kWriteAtAll, offset, buf, count, datatype, status);
}
int MPI_File_iread_at_c(MPI_File fh, MPI_Offset offset, void* buf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Request* request) {
  return nonblocking_c("MPI_File_iread_at_c", fh, kReadAt, offset, buf, count, datatype, request);
}
int MPI_File_iwrite_at_c(MPI_File fh, MPI_Offset offset, const void* buf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Request* request) {
  return nonblocking_c("MPI_File_iwrite_at_c", fh, kWriteAt, offset, buf, count, datatype, request);
}
int MPI_File_iread_at_all_c(MPI_File fh, MPI_Offset offset, void* buf, MPI_Count count, MPI_Datatype datatype,
                            MPI_Request* request) {
  return nonblocking_c("MPI_File_iread_at_all_c", fh, kReadAtAll, offset, buf, count, datatype, request);
}
int MPI_File_iwrite_at_all_c(MPI_File fh, MPI_Offset offset, const void* buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Request* request) {
  return nonblocking_c("MPI_File_iwrite_at_all_c", fh, kWriteAtAll, offset, buf, count, datatype, request);
}
int MPI_File_read_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking_c("MPI_File_read_c", fh, kRead, 0, buf, count, datatype, status);
}
int MPI_File_read_all_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking_c("MPI_File_read_all_c", fh, kReadAll, 0, buf, count, datatype, status);
}
int MPI_File_write_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking_c("MPI_File_write_c", fh, kWrite, 0, buf, count, datatype, status);
}
int MPI_File_write_all_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking_c("MPI_File_write_all_c", fh, kWriteAll, 0, buf, count, datatype, status);
}
int MPI_File_iread_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking_c("MPI_File_iread_c", fh, kRead, 0, buf, count, datatype, request);
}
int MPI_File_iwrite_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking_c("MPI_File_iwrite_c", fh, kWrite, 0, buf, count, datatype, request);
}
int MPI_File_iread_all_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking_c("MPI_File_iread_all_c", fh, kReadAll, 0, buf, count, datatype, request);
}
int MPI_File_iwrite_all_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking_c("MPI_File_iwrite_all_c", fh, kWriteAll, 0, buf, count, datatype, request);
}
int MPI_File_read_shared_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking_c("MPI_File_read_shared_c", fh, kReadShared, 0, buf, count, datatype, status);
}
int MPI_File_write_shared_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking_c("MPI_File_write_shared_c", fh, kWriteShared, 0, buf, count, datatype, status);
}
int MPI_File_iread_shared_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Request* request) {
  return nonblocking_c("MPI_File_iread_shared_c", fh, kReadShared, 0, buf, count, datatype, request);
}
int MPI_File_iwrite_shared_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype,
                             MPI_Request* request) {
  return nonblocking_c("MPI_File_iwrite_shared_c", fh, kWriteShared, 0, buf, count, datatype, request);
}
int MPI_File_read_ordered_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking_c("MPI_File_read_ordered_c", fh, kReadOrdered, 0, buf, count, datatype, status);
}
int MPI_File_write_ordered_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Status* status) {
  return blocking_c("MPI_File_write_ordered_c", fh, kWriteOrdered, 0, buf, count, datatype, status);
}
int MPI_File_read_at_all_begin_c(MPI_File fh, MPI_Offset offset, void* buf, MPI_Count count, MPI_Datatype datatype) {
  return split_begin_c("MPI_File_read_at_all_begin_c", "MPI_File_read_at_all_begin", fh, kReadAtAll, offset, buf, count, datatype);
}
int MPI_File_write_at_all_begin_c(MPI_File fh, MPI_Offset offset, const void* buf, MPI_Count count,
                                  MPI_Datatype datatype) {
  return split_begin_c("MPI_File_write_at_all_begin_c", "MPI_File_write_at_all_begin", fh, kWriteAtAll, offset, buf, count, datatype);
}
int MPI_File_read_all_begin_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype) {
  return split_begin_c("MPI_File_read_all_begin_c", "MPI_File_read_all_begin", fh, kReadAll, 0, buf, count, datatype);
}
int MPI_File_write_all_begin_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype) {
  return split_begin_c("MPI_File_write_all_begin_c", "MPI_File_write_all_begin", fh, kWriteAll, 0, buf, count, datatype);
}
int MPI_File_read_ordered_begin_c(MPI_File fh, void* buf, MPI_Count count, MPI_Datatype datatype) {
  return split_begin_c("MPI_File_read_ordered_begin_c", "MPI_File_read_ordered_begin", fh, kReadOrdered, 0, buf, count, datatype);
}
int MPI_File_write_ordered_begin_c(MPI_File fh, const void* buf, MPI_Count count, MPI_Datatype datatype) {
  return split_begin_c("MPI_File_write_ordered_begin_c", "MPI_File_write_ordered_begin", fh, kWriteOrdered, 0, buf, count, datatype);
}

}  // extern "C"
