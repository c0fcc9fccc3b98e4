// File manipulation, views, consistency, error handlers (MPI-3.1 §13.2,
// §13.3, §13.5, §13.6, §13.7); the logic is in lib/io. Data access is in
// io_access.cpp.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>

#include "api/info_args.hpp"
#include "api/io_args.hpp"
#include "api/errhandler_args.hpp"
#include "core/info.hpp"
#include "dtype/represent.hpp"
#include "group/group.hpp"
#include "io/datarep.hpp"
#include "io/view.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {

int file_arg(Call& call, MPI_File h, io::File** out) {
  *out = nullptr;
  if (int e = call.initialized()) return e;
  io::File* f = io::lookup(h);
  if (__builtin_expect(f == nullptr, 0)) {
    raise_on_file_null(call);
    if (h == MPI_FILE_NULL) return call.fail(MPI_ERR_FILE, "argument fh is MPI_FILE_NULL");
    return call.fail(MPI_ERR_FILE, "argument fh=0x%x is not an open file (closed, or not a file handle)",
                     static_cast<unsigned>(h));
  }
  call.raise_on(f->comm);
  *out = f;
  return MPI_SUCCESS;
}

int info_in(Call& call, MPI_Info h, const core::Info** out) {
  *out = nullptr;
  if (h == MPI_INFO_NULL) return MPI_SUCCESS;
  const core::Info* i = core::info_state().table.get(h);
  if (!i) return call.fail(MPI_ERR_INFO, "argument info=0x%x is not an info handle", static_cast<unsigned>(h));
  *out = i;
  return MPI_SUCCESS;
}

int report(Call& call, const io::Outcome& o) {
  return o.ok() ? MPI_SUCCESS : call.fail(o.code, "%s", o.why.c_str());
}

io::Outcome failure(int code, const char* fmt, ...) {
  char why[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  return {code, why};
}

int agree(Call& call, const io::File& f, int mine, int code) {
  if (io::all_ok(f, mine == MPI_SUCCESS)) return MPI_SUCCESS;
  if (mine != MPI_SUCCESS) return mine;
  return call.fail(code, "another rank passed an invalid argument to the same %s", call.name());
}

int finish_collective(Call& call, const io::File& f, const io::Outcome& mine) {
  io::barrier(f);
  return report(call, mine);
}

}  // namespace ringmpi::api

namespace {

using api::file_arg;
using api::finish_collective;

using api::agree;
constexpr auto bad = api::failure;
using api::report;

// MPI_File_open's own arguments (§13.2.1): exactly one of RDONLY, WRONLY,
// RDWR; not RDONLY with CREATE or EXCL; not RDWR with SEQUENTIAL.
io::Outcome open_verdict(const char* filename, int amode, MPI_Info info, const core::Info** hints, MPI_File* fh) {
  if (!filename) return bad(MPI_ERR_ARG, "argument filename is NULL");
  if (!fh) return bad(MPI_ERR_ARG, "argument fh is NULL");
  const int access = amode & (MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR);
  const int known = MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE |
                    MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL | MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL;
  if (amode & ~known) return bad(MPI_ERR_AMODE, "argument amode=%d has bits that are no MPI_MODE_* constant", amode);
  if (access != MPI_MODE_RDONLY && access != MPI_MODE_WRONLY && access != MPI_MODE_RDWR)
    return bad(MPI_ERR_AMODE, "argument amode=%d must have exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and "
                              "MPI_MODE_RDWR", amode);
  if (access == MPI_MODE_RDONLY && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
    return bad(MPI_ERR_AMODE, "argument amode=%d has MPI_MODE_RDONLY with MPI_MODE_%s (MPI-3.1 13.2.1)", amode,
               (amode & MPI_MODE_CREATE) ? "CREATE" : "EXCL");
  if (access == MPI_MODE_RDWR && (amode & MPI_MODE_SEQUENTIAL))
    return bad(MPI_ERR_AMODE, "argument amode=%d has MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL (MPI-3.1 13.2.1)", amode);
  if (info != MPI_INFO_NULL) {
    *hints = core::info_state().table.get(info);
    if (!*hints) return bad(MPI_ERR_INFO, "argument info=0x%x is not an info handle", static_cast<unsigned>(info));
  }
  return {};
}

// ROMIO lets a file name start with the file system's name ("ufs:/tmp/x");
// programs written for it work here too.
const char* strip_fs_prefix(const char* name) {
  static const char* const kPrefixes[] = {"ufs:", "nfs:", "xfs:", "lustre:", "gpfs:", "pvfs2:", "panfs:"};
  for (const char* p : kPrefixes)
    if (std::strncmp(name, p, std::strlen(p)) == 0) return name + std::strlen(p);
  return name;
}

// The view's arguments; on success *view is the new view (its file layout
// built, unless a registered representation's extent function must wait
// for the first access: view.hpp).
io::Outcome view_verdict(io::File& f, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                         const char* datarep, MPI_Info info, io::View* view) {
  if (disp < 0 && disp != MPI_DISPLACEMENT_CURRENT)
    return bad(MPI_ERR_ARG, "argument disp=%lld is negative", static_cast<long long>(disp));
  if (disp == MPI_DISPLACEMENT_CURRENT && !(f.amode & MPI_MODE_SEQUENTIAL))
    return bad(MPI_ERR_ARG, "argument disp is MPI_DISPLACEMENT_CURRENT, which needs a file opened with "
                            "MPI_MODE_SEQUENTIAL (MPI-3.1 13.3)");
  // MPI_DISPLACEMENT_CURRENT is a byte of the old view: its layout, built
  // now if a registered representation's view has not had an access yet.
  if (disp == MPI_DISPLACEMENT_CURRENT)
    if (io::Outcome o = io::prepare(f.view); !o.ok()) return o;
  for (auto [h, arg] : {std::pair{etype, "etype"}, std::pair{filetype, "filetype"}}) {
    const dtype::Datatype* t = dtype::lookup(h);
    if (!t) return bad(MPI_ERR_TYPE, "argument %s=0x%x is not a valid datatype", arg, static_cast<unsigned>(h));
    if (!t->committed) return bad(MPI_ERR_TYPE, "argument %s is not committed (MPI-3.1 13.3)", arg);
    // The class MPICH gives these (the standard names none).
    if (const char* why = io::typemap_problem(*t, !(f.amode & MPI_MODE_RDONLY)))
      return bad(MPI_ERR_IO, "argument %s=%s %s (MPI-3.1 13.1.1)", arg, dtype::describe(h).c_str(), why);
  }
  // A filetype without data is a view of nothing (HDF5 makes them for empty
  // selections; MPICH accepts them); an etype without data has no positions.
  if (dtype::lookup(etype)->size == 0)
    return bad(MPI_ERR_TYPE, "argument etype=%s has no data (size 0); positions count etypes", dtype::describe(etype).c_str());
  if (!datarep) return bad(MPI_ERR_ARG, "argument datarep is NULL");
  std::shared_ptr<dtype::Representation> rep;
  if (!io::find_datarep(datarep, &rep))
    return bad(MPI_ERR_UNSUPPORTED_DATAREP,
               "argument datarep=\"%s\" is none of \"native\", \"internal\", \"external32\" and the names "
               "registered with MPI_Register_datarep", datarep);
  if (info != MPI_INFO_NULL && !core::info_state().table.get(info))
    return bad(MPI_ERR_INFO, "argument info=0x%x is not an info handle", static_cast<unsigned>(info));
  return io::make_view(disp, etype, filetype, datarep, std::move(rep), !(f.amode & MPI_MODE_RDONLY), view);
}

void merge_hints(io::File& f, const core::Info* given) {
  if (given)
    for (const auto& [k, v] : given->entries) f.hints.set(k, v);
}

// A size argument of set_size/preallocate, judged by each rank and agreed on in the round.
io::Outcome size_verdict(MPI_Offset size, const io::File& f) {
  if (size < 0) return bad(MPI_ERR_ARG, "argument size=%lld is negative", static_cast<long long>(size));
  if (f.amode & MPI_MODE_RDONLY) return bad(MPI_ERR_READ_ONLY, "the file was opened with MPI_MODE_RDONLY");
  return {};
}

// MPI_File_set_size and MPI_File_preallocate (grow_only: it never shrinks
// the file): the verdict round, then rank 0 changes the size and the others
// learn how it went.
int resize(Call& call, io::File& f, MPI_Offset size, bool grow_only) {
  if (int e = agree(call, f, report(call, size_verdict(size, f)), MPI_ERR_ARG)) return e;
  const char* what = grow_only ? "preallocate" : "resize";
  io::Outcome o;
  if (f.rank == 0) {
    f.dirty = true;
    MPI_Offset now = 0;
    o = io::size_of(f, &now);
    if (o.ok() && grow_only && size > now) {
      if (const int err = posix_fallocate(f.fd, 0, static_cast<off_t>(size))) o = io::posix_failure(err, what, f.path);
    } else if (o.ok() && !grow_only && ftruncate(f.fd, static_cast<off_t>(size)) != 0) {
      o = io::posix_failure(errno, what, f.path);
    }
  }
  if (io::all_ok(f, o.ok())) return MPI_SUCCESS;
  if (f.rank != 0) o = bad(MPI_ERR_IO, "rank 0 could not %s '%s'", what, f.path.c_str());
  return report(call, o);
}

// The handler slot of a file, or of MPI_FILE_NULL.
int handler_slot(Call& call, MPI_File file, std::shared_ptr<const comm::Errhandler>** slot) {
  if (int e = call.initialized()) return e;
  if (file == MPI_FILE_NULL) {
    *slot = &io::state().null_errhandler;
    api::raise_on_file_null(call);
    return MPI_SUCCESS;
  }
  io::File* f;
  if (int e = file_arg(call, file, &f)) return e;
  *slot = &comm::lookup(f->comm)->errhandler;
  return MPI_SUCCESS;
}

// MPI_File_get_type_extent and its _c form (an MPI_Count extent).
template <class Extent>
int type_extent(Call& call, MPI_File fh, MPI_Datatype datatype, Extent* extent) {
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  const dtype::Datatype* t = dtype::lookup(datatype);
  if (!t) return call.fail(MPI_ERR_TYPE, "argument datatype=0x%x is not a valid datatype", static_cast<unsigned>(datatype));
  if (int e = call.not_null(extent, "extent")) return e;
  // The extent of the type's layout in the view's representation (§14.5.1):
  // the memory extent for "native" and "internal"; for the others the type
  // built again over the representation's sizes (a registered one asks its
  // extent function), which is the type itself where no size differs.
  *extent = t->extent;
  if (f->view.rep) {
    dtype::TypePtr layout;
    std::string why;
    if (int e = dtype::represented_layout(*f->view.rep, dtype::lookup_shared(datatype), &layout, &why))
      return call.fail(e, "the view's data representation \"%s\": %s", f->view.datarep.c_str(), why.c_str());
    *extent = static_cast<Extent>(layout->extent);
  }
  return MPI_SUCCESS;
}

// MPI_Register_datarep and its _c form (conversion functions with MPI_Count
// counts): local; the representation lasts until the runtime ends.
int register_datarep(Call& call, const char* datarep, const io::DatarepFunctions& fn) {
  if (int e = call.initialized()) return e;
  api::raise_on_file_null(call);
  if (!datarep) return call.fail(MPI_ERR_ARG, "argument datarep is NULL");
  if (datarep[0] == '\0') return call.fail(MPI_ERR_ARG, "argument datarep is an empty string");
  const std::size_t len = std::strlen(datarep);
  if (len >= MPI_MAX_DATAREP_STRING)
    return call.fail(MPI_ERR_ARG, "argument datarep is %zu characters long; at most %d fit "
                                  "(MPI_MAX_DATAREP_STRING, with its terminating null)",
                     len, MPI_MAX_DATAREP_STRING - 1);
  return report(call, io::register_datarep(datarep, fn));
}

}  // namespace

extern "C" {

int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  Call call("MPI_File_open");
  if (int e = call.initialized()) return e;
  api::raise_on_file_null(call);
  comm::Comm* c = comm::lookup(comm);
  if (!c) {
    if (comm == MPI_COMM_NULL) return call.fail(MPI_ERR_COMM, "argument comm is MPI_COMM_NULL");
    return call.fail(MPI_ERR_COMM, "argument comm=0x%x is not a valid communicator", static_cast<unsigned>(comm));
  }
  if (c->inter) return call.fail(MPI_ERR_COMM, "argument comm is an intercommunicator; files need an intracommunicator");
  const core::Info* hints = nullptr;
  const io::Outcome local = open_verdict(filename, amode, info, &hints, fh);
  const io::Opened o = io::open(comm, filename ? strip_fs_prefix(filename) : nullptr, amode, hints, local);
  if (fh) *fh = o.handle;
  return report(call, o);
}

int MPI_File_close(MPI_File* fh) {
  Call call("MPI_File_close");
  if (int e = call.initialized()) return e;
  if (!fh) {
    api::raise_on_file_null(call);
    return call.fail(MPI_ERR_ARG, "argument fh is NULL");
  }
  io::File* f;
  if (int e = file_arg(call, *fh, &f)) return e;
  const io::Outcome o = io::close(*fh);
  *fh = MPI_FILE_NULL;
  api::raise_on_file_null(call);  // the file's handler is gone with it
  return report(call, o);
}

int MPI_File_delete(const char* filename, MPI_Info info) {
  Call call("MPI_File_delete");
  if (int e = call.initialized()) return e;
  api::raise_on_file_null(call);
  if (!filename) return call.fail(MPI_ERR_ARG, "argument filename is NULL");
  const core::Info* hints;
  if (int e = api::info_in(call, info, &hints)) return e;
  return report(call, io::remove(strip_fs_prefix(filename)));
}

int MPI_File_set_size(MPI_File fh, MPI_Offset size) {
  Call call("MPI_File_set_size");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  return resize(call, *f, size, false);
}

int MPI_File_preallocate(MPI_File fh, MPI_Offset size) {
  Call call("MPI_File_preallocate");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  return resize(call, *f, size, true);
}

int MPI_File_get_size(MPI_File fh, MPI_Offset* size) {
  Call call("MPI_File_get_size");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (int e = call.not_null(size, "size")) return e;
  return report(call, io::size_of(*f, size));
}

int MPI_File_get_group(MPI_File fh, MPI_Group* group) {
  Call call("MPI_File_get_group");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (int e = call.not_null(group, "group")) return e;
  const MPI_Group h = group::new_handle(comm::lookup(f->comm)->local);
  if (h == MPI_GROUP_NULL) return call.fail(MPI_ERR_INTERN, "no room for another group handle");
  *group = h;
  return MPI_SUCCESS;
}

int MPI_File_get_amode(MPI_File fh, int* amode) {
  Call call("MPI_File_get_amode");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (int e = call.not_null(amode, "amode")) return e;
  *amode = f->amode;
  return MPI_SUCCESS;
}

// Hints are kept and reported back; none changes what ringmpi does (§13.2.8
// lets an implementation ignore them).
int MPI_File_set_info(MPI_File fh, MPI_Info info) {
  Call call("MPI_File_set_info");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  const core::Info* hints;
  if (int e = agree(call, *f, api::info_in(call, info, &hints), MPI_ERR_INFO)) return e;
  merge_hints(*f, hints);
  return MPI_SUCCESS;
}

int MPI_File_get_info(MPI_File fh, MPI_Info* info_used) {
  Call call("MPI_File_get_info");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (int e = call.not_null(info_used, "info_used")) return e;
  return api::new_info_handle(call, std::make_unique<core::Info>(f->hints), info_used);
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char* datarep,
                      MPI_Info info) {
  Call call("MPI_File_set_view");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  // Round 1: every rank is here, so no independent access of the file is
  // running anywhere (file.hpp, the shared file pointer's invariant).
  io::View view;
  if (int e = agree(call, *f, report(call, view_verdict(*f, disp, etype, filetype, datarep, info, &view)),
                    MPI_ERR_ARG))
    return e;
  if (disp == MPI_DISPLACEMENT_CURRENT)
    view.disp = io::byte_offset(f->view, f->shared->load(std::memory_order_acquire));
  f->view = std::move(view);
  f->position = 0;
  merge_hints(*f, core::info_state().table.get(info));  // checked in round 1
  // Both file pointers start again at 0 (§13.3). Round 2: every rank has
  // read the old shared pointer (MPI_DISPLACEMENT_CURRENT) before rank 0
  // stores 0; round 3 keeps everyone here until it has.
  io::barrier(*f);
  if (f->rank == 0) f->shared->store(0, std::memory_order_release);
  io::barrier(*f);
  return MPI_SUCCESS;
}

int MPI_File_get_view(MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype, char* datarep) {
  Call call("MPI_File_get_view");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (int e = call.not_null(disp, "disp")) return e;
  if (int e = call.not_null(etype, "etype")) return e;
  if (int e = call.not_null(filetype, "filetype")) return e;
  if (int e = call.not_null(datarep, "datarep")) return e;
  // Derived types come back as new handles the user frees (§13.3); the view
  // holds its own reference, so they are valid even if the user freed the
  // ones passed to MPI_File_set_view.
  auto handle_of = [](const dtype::TypePtr& t, MPI_Datatype given) {
    return t->predefined ? given : dtype::new_handle(t);
  };
  *disp = f->view.disp;
  *etype = handle_of(f->view.etype, f->view.etype_handle);
  *filetype = handle_of(f->view.filetype, f->view.filetype_handle);
  if (*etype == MPI_DATATYPE_NULL || *filetype == MPI_DATATYPE_NULL)
    return call.fail(MPI_ERR_INTERN, "no room for another datatype handle");
  std::snprintf(datarep, MPI_MAX_DATAREP_STRING, "%s", f->view.datarep.c_str());
  return MPI_SUCCESS;
}

int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint* extent) {
  Call call("MPI_File_get_type_extent");
  return type_extent(call, fh, datatype, extent);
}

int MPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count* extent) {
  Call call("MPI_File_get_type_extent_c");
  return type_extent(call, fh, datatype, extent);
}

int MPI_Register_datarep(const char* datarep, MPI_Datarep_conversion_function* read_conversion_fn,
                         MPI_Datarep_conversion_function* write_conversion_fn,
                         MPI_Datarep_extent_function* dtype_file_extent_fn, void* extra_state) {
  Call call("MPI_Register_datarep");
  io::DatarepFunctions fn;
  fn.read = read_conversion_fn;
  fn.write = write_conversion_fn;
  fn.extent = dtype_file_extent_fn;
  fn.extra_state = extra_state;
  return register_datarep(call, datarep, fn);
}

int MPI_Register_datarep_c(const char* datarep, MPI_Datarep_conversion_function_c* read_conversion_fn,
                           MPI_Datarep_conversion_function_c* write_conversion_fn,
                           MPI_Datarep_extent_function* dtype_file_extent_fn, void* extra_state) {
  Call call("MPI_Register_datarep_c");
  io::DatarepFunctions fn;
  fn.read_c = read_conversion_fn;
  fn.write_c = write_conversion_fn;
  fn.extent = dtype_file_extent_fn;
  fn.extra_state = extra_state;
  return register_datarep(call, datarep, fn);
}

int MPI_File_set_atomicity(MPI_File fh, int flag) {
  Call call("MPI_File_set_atomicity");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  // Collective: nobody switches while another rank's access of the old mode runs.
  io::barrier(*f);
  f->atomic = flag != 0;
  return MPI_SUCCESS;
}

int MPI_File_get_atomicity(MPI_File fh, int* flag) {
  Call call("MPI_File_get_atomicity");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  *flag = f->atomic ? 1 : 0;
  return MPI_SUCCESS;
}

// §13.6.1: what this rank wrote reaches the storage device, and (with a
// barrier between two syncs) becomes visible to the other ranks; the page
// cache already shares it between the processes of the node.
int MPI_File_sync(MPI_File fh) {
  Call call("MPI_File_sync");
  io::File* f;
  if (int e = file_arg(call, fh, &f)) return e;
  io::Outcome mine;
  if (f->dirty && fdatasync(f->fd) != 0 && errno != EINVAL && errno != EROFS)
    mine = io::posix_failure(errno, "sync", f->path);
  f->dirty = false;
  return finish_collective(call, *f, mine);
}

int MPI_File_create_errhandler(MPI_File_errhandler_function* file_errhandler_fn, MPI_Errhandler* errhandler) {
  Call call("MPI_File_create_errhandler");
  return api::create_errhandler(call, file_errhandler_fn, "file_errhandler_fn", comm::Errhandler::For::file,
                                errhandler);
}

int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler) {
  Call call("MPI_File_set_errhandler");
  std::shared_ptr<const comm::Errhandler>* slot;
  if (int e = handler_slot(call, file, &slot)) return e;
  std::shared_ptr<const comm::Errhandler> eh;
  if (int e = api::errhandler_for(call, errhandler, comm::Errhandler::For::file, &eh)) return e;
  *slot = std::move(eh);
  return MPI_SUCCESS;
}

int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler* errhandler) {
  Call call("MPI_File_get_errhandler");
  std::shared_ptr<const comm::Errhandler>* slot;
  if (int e = handler_slot(call, file, &slot)) return e;
  if (int e = call.not_null(errhandler, "errhandler")) return e;
  *errhandler = comm::user_handle(*slot);
  return MPI_SUCCESS;
}

int MPI_File_call_errhandler(MPI_File fh, int errorcode) {
  Call call("MPI_File_call_errhandler");
  std::shared_ptr<const comm::Errhandler>* slot;
  if (int e = handler_slot(call, fh, &slot)) return e;
  char msg[96];
  std::snprintf(msg, sizeof msg, "the application raised error code %d on file 0x%x", errorcode,
                static_cast<unsigned>(fh));
  api::dispatch_to(*slot, fh, errorcode, call.name(), msg);
  return MPI_SUCCESS;
}

MPI_Fint MPI_File_c2f(MPI_File file) { return static_cast<MPI_Fint>(file); }
MPI_File MPI_File_f2c(MPI_Fint file) { return static_cast<MPI_File>(file); }

}  // extern "C"
