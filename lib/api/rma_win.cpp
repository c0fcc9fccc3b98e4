// Windows (MPI-3.1 §11.2): creation, MPI_Win_shared_query, MPI_Win_free,
// the queries, names, attributes, error handlers; MPI_Alloc_mem and
// MPI_Free_mem (§8.2); MPI_Pcontrol (§14.2.4). See docs/design/rma.md.
#include <cstdarg>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "api/attr_check.hpp"
#include "api/info_args.hpp"
#include "api/rma_check.hpp"
#include "api/errhandler_args.hpp"
#include "group/group.hpp"
#include "rma/window.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {

int bad_win(Call& call, MPI_Win h, const char* arg) {
  if (h == MPI_WIN_NULL) return call.fail(MPI_ERR_WIN, "argument %s is MPI_WIN_NULL", arg);
  return call.fail(MPI_ERR_WIN, "argument %s=0x%x is not a valid window (freed, or not a window handle)", arg,
                   static_cast<unsigned>(h));
}

int bad_rank(Call& call, const rma::Window& w, int rank, const char* arg) {
  return call.fail(MPI_ERR_RANK, "argument %s=%d is not a rank of the window's group (ranks 0..%d)", arg, rank,
                   w.size - 1);
}

int no_epoch(Call& call, int rank, const char* arg) {
  return call.fail(MPI_ERR_RMA_SYNC,
                   "no access epoch covers %s=%d: call MPI_Win_fence, MPI_Win_start, MPI_Win_lock or "
                   "MPI_Win_lock_all first",
                   arg, rank);
}

}  // namespace ringmpi::api

namespace {

using api::win_arg;

int info_arg(Call& call, MPI_Info info) {
  if (info == MPI_INFO_NULL || core::handle_is(info, core::Kind::info)) return MPI_SUCCESS;
  return call.fail(MPI_ERR_INFO, "argument info=0x%x is not an info handle", static_cast<unsigned>(info));
}

// The arguments only this rank can judge; the verdict travels in the
// construction's first round, so a bad argument on one rank fails the call
// on every rank instead of leaving the others waiting.
rma::LocalError local_verdict(rma::Flavor flavor, MPI_Aint size, MPI_Aint disp_unit, const void* base, MPI_Info info,
                              const void* baseptr, const MPI_Win* win) {
  char why[160];
  auto bad = [&](int code) { return rma::LocalError{code, why}; };
  if (size < 0) {
    std::snprintf(why, sizeof why, "argument size=%lld is negative", static_cast<long long>(size));
    return bad(MPI_ERR_SIZE);
  }
  if (disp_unit <= 0) {
    std::snprintf(why, sizeof why, "argument disp_unit=%lld must be positive", static_cast<long long>(disp_unit));
    return bad(MPI_ERR_DISP);
  }
  if (flavor == rma::Flavor::create && size > 0 && base == nullptr) {
    std::snprintf(why, sizeof why, "argument base is NULL but size=%lld", static_cast<long long>(size));
    return bad(MPI_ERR_ARG);
  }
  if (info != MPI_INFO_NULL && !core::handle_is(info, core::Kind::info)) {
    std::snprintf(why, sizeof why, "argument info=0x%x is not an info handle", static_cast<unsigned>(info));
    return bad(MPI_ERR_INFO);
  }
  if (win == nullptr || ((flavor == rma::Flavor::allocate || flavor == rma::Flavor::shared) && !baseptr)) {
    std::snprintf(why, sizeof why, "argument %s is NULL", win == nullptr ? "win" : "baseptr");
    return bad(MPI_ERR_ARG);
  }
  return {};
}

int make(Call& call, rma::Flavor flavor, MPI_Comm comm, MPI_Aint size, MPI_Aint disp_unit, void* user_base,
         MPI_Info info, void* baseptr, MPI_Win* win) {
  if (int e = call.initialized()) return e;
  comm::Comm* c;
  if (int e = call.intracomm(comm, "comm", &c)) return e;
  const rma::LocalError local = local_verdict(flavor, size, disp_unit, user_base, info, baseptr, win);
  // alloc_shared_noncontig (MPI-3.1 §11.2.3): each rank's memory on its own
  // pages; the only hint that changes what ringmpi does.
  const bool noncontig = flavor == rma::Flavor::shared && local.code == MPI_SUCCESS &&
                         api::hint_is_true(info, "alloc_shared_noncontig");
  const rma::Made m = rma::create_window(flavor, comm, size, disp_unit, user_base, noncontig, local);
  if (m.code != MPI_SUCCESS) return call.fail(m.code, "%s", m.why.c_str());
  if (baseptr != nullptr) std::memcpy(baseptr, &m.base, sizeof m.base);
  *win = m.handle;
  return MPI_SUCCESS;
}

// MPI_Win_shared_query and its _c form (whose disp_unit is an MPI_Aint).
// A unit beyond an int (a window made by a _c constructor) comes back to the
// int form as MPI_UNDEFINED, with MPI_SUCCESS: MPI-4.1 says nothing for this
// call, and MPI_UNDEFINED is its answer for the other int outputs that
// cannot hold their value (MPI_GET_COUNT §3.2.5, MPI_GET_ELEMENTS §5.1.11,
// MPI_TYPE_SIZE §5.1.5, MPI_BUFFER_DETACH's size §3.6) and MPICH's for this one
// (its binding generator sets an int output beyond INT_MAX to MPI_UNDEFINED).
// Size and base still answer; a valid unit is positive and an unreachable
// member's 0, so MPI_UNDEFINED (negative) is told from both.
template <class Unit>
int shared_query(Call& call, MPI_Win win, int rank, MPI_Aint* size, Unit* disp_unit, void* baseptr) {
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  if (w->flavor == rma::Flavor::dynamic)
    return call.fail(MPI_ERR_RMA_FLAVOR,
                     "the window was made by MPI_Win_create_dynamic; MPI_Win_shared_query needs one made by "
                     "MPI_Win_allocate_shared, MPI_Win_allocate or MPI_Win_create");
  if (int e = call.not_null(size, "size")) return e;
  if (int e = call.not_null(disp_unit, "disp_unit")) return e;
  if (int e = call.not_null(baseptr, "baseptr")) return e;
  if (rank != MPI_PROC_NULL)
    if (int e = api::rank_arg(call, *w, rank, "rank")) return e;
  const bool in_segment = w->flavor != rma::Flavor::create;
  const auto reachable = [&](int r) { return in_segment || r == w->rank; };
  int r = rank;
  if (rank == MPI_PROC_NULL) {
    // The lowest rank of the shared memory domain with size > 0. A create
    // window's domain is the caller alone, and, as in MPICH, it answers
    // for itself only when it is the whole window.
    r = -1;
    if (in_segment) {
      for (int i = 0; i < w->size && r < 0; ++i)
        if (w->win_size[i] > 0) r = i;
    } else if (w->size == 1 && w->win_size[0] > 0) {
      r = 0;
    }
  }
  void* p = nullptr;  // MPI_Alloc_mem's answer for size 0 may be NULL, and MPICH's is
  if (r < 0 || !reachable(r)) {
    *size = 0;
    *disp_unit = 0;
  } else {
    *size = w->win_size[r];
    const MPI_Aint unit = w->disp_unit[r];
    if constexpr (sizeof(Unit) < sizeof(MPI_Aint))
      *disp_unit = unit <= INT_MAX ? static_cast<Unit>(unit) : MPI_UNDEFINED;
    else
      *disp_unit = unit;
    if (*size > 0)
      p = in_segment ? static_cast<void*>(w->memory_of(r)) : reinterpret_cast<void*>(w->base[r]);
  }
  std::memcpy(baseptr, &p, sizeof p);
  return MPI_SUCCESS;
}

// The _c forms: the int forms' code, whose disp_unit is already an MPI_Aint
// (windows keep an MPI_Aint unit per rank; a target displacement times it
// is overflow-checked in rma/transfer.*).
int make_c(const char* name, rma::Flavor flavor, MPI_Comm comm, MPI_Aint size, MPI_Aint disp_unit, void* user_base,
           MPI_Info info, void* baseptr, MPI_Win* win) {
  Call call(name);
  return make(call, flavor, comm, size, disp_unit, user_base, info, baseptr, win);
}

}  // namespace

extern "C" {

int MPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  Call call("MPI_Win_create");
  return make(call, rma::Flavor::create, comm, size, disp_unit, base, info, nullptr, win);
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win) {
  Call call("MPI_Win_allocate");
  return make(call, rma::Flavor::allocate, comm, size, disp_unit, nullptr, info, baseptr, win);
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                            MPI_Win* win) {
  Call call("MPI_Win_allocate_shared");
  return make(call, rma::Flavor::shared, comm, size, disp_unit, nullptr, info, baseptr, win);
}

int MPI_Win_create_c(void* base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  return make_c("MPI_Win_create_c", rma::Flavor::create, comm, size, disp_unit, base, info, nullptr, win);
}

int MPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                       MPI_Win* win) {
  return make_c("MPI_Win_allocate_c", rma::Flavor::allocate, comm, size, disp_unit, nullptr, info, baseptr, win);
}

int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                              MPI_Win* win) {
  return make_c("MPI_Win_allocate_shared_c", rma::Flavor::shared, comm, size, disp_unit, nullptr, info, baseptr, win);
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win) {
  Call call("MPI_Win_create_dynamic");
  return make(call, rma::Flavor::dynamic, comm, 0, 1, nullptr, info, nullptr, win);
}

// Attach and detach are local (MPI-3.1 §11.2.4). Origins address attached
// memory by its absolute address and check it against the target's list in
// the window's segment (lib/rma/attach.hpp), so memory that is not attached
// is MPI_ERR_RMA_RANGE even where the target has it mapped.
int MPI_Win_attach(MPI_Win win, void* base, MPI_Aint size) {
  Call call("MPI_Win_attach");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  if (w->flavor != rma::Flavor::dynamic)
    return call.fail(MPI_ERR_RMA_FLAVOR, "the window was not made by MPI_Win_create_dynamic");
  if (size < 0) return call.fail(MPI_ERR_SIZE, "argument size=%lld is negative", static_cast<long long>(size));
  if (size > 0)
    if (int e = call.not_null(base, "base")) return e;
  std::string why;
  if (int e = rma::attach(w->attach[w->rank], reinterpret_cast<std::uintptr_t>(base), static_cast<std::size_t>(size),
                          &why))
    return call.fail(e, "argument base: %s", why.c_str());
  return MPI_SUCCESS;
}

int MPI_Win_detach(MPI_Win win, const void* base) {
  Call call("MPI_Win_detach");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  if (w->flavor != rma::Flavor::dynamic)
    return call.fail(MPI_ERR_RMA_FLAVOR, "the window was not made by MPI_Win_create_dynamic");
  if (!rma::detach(w->attach[w->rank], reinterpret_cast<std::uintptr_t>(base)))
    return call.fail(MPI_ERR_RMA_ATTACH, "argument base=%p is not the start of memory attached to the window",
                     base);
  return MPI_SUCCESS;
}

// MPI-4.1 §12.2.3: shared_query answers for windows made by
// MPI_Win_allocate_shared, MPI_Win_allocate and MPI_Win_create (not dynamic
// windows, which have no one segment per rank). A member's memory that the
// caller cannot reach by load/store comes back as size 0 and a NULL base.
// Here the shared and allocate flavors keep every rank's memory in the
// window's segment, mapped by all, so every member's memory is reachable;
// a create window's memory is private to its owner (other ranks reach it
// through process_vm_readv/writev), so only the caller's own is. Where the
// standard leaves the answer open, MPICH's is given (issue 35): a member
// with size 0 has a NULL base (MPICH's suite, win_shared_noncontig_put,
// checks it), and an unreachable one disp_unit 0.
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr) {
  Call call("MPI_Win_shared_query");
  return shared_query(call, win, rank, size, disp_unit, baseptr);
}

int MPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint* size, MPI_Aint* disp_unit, void* baseptr) {
  Call call("MPI_Win_shared_query_c");
  return shared_query(call, win, rank, size, disp_unit, baseptr);
}

int MPI_Win_free(MPI_Win* win) {
  Call call("MPI_Win_free");
  if (int e = call.not_null(win, "win")) return e;
  rma::Window* w;
  if (int e = win_arg(call, *win, "win", &w)) return e;
  if (w->epoch_open())
    return call.fail(MPI_ERR_RMA_SYNC,
                     "an epoch is still open on the window (a lock, lock_all, start or post not yet closed)");
  // Delete callbacks run first, while the window is still valid (MPI-3.1 §6.7.3).
  if (int e = core::delete_attributes(core::AttrObject::win, *win, w->attrs))
    return call.fail(e, "a delete callback returned error code %d; the window is not freed", e);
  rma::free_window(*win);
  *win = MPI_WIN_NULL;
  return MPI_SUCCESS;
}

int MPI_Win_get_group(MPI_Win win, MPI_Group* group) {
  Call call("MPI_Win_get_group");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  if (int e = call.not_null(group, "group")) return e;
  const MPI_Group h = group::new_handle(comm::lookup(w->comm)->local);
  if (h == MPI_GROUP_NULL) return call.fail(MPI_ERR_INTERN, "no room for another group handle");
  *group = h;
  return MPI_SUCCESS;
}

int MPI_Win_get_attr(MPI_Win win, int win_keyval, void* attribute_val, int* flag) {
  Call call("MPI_Win_get_attr");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  if (int e = call.not_null(attribute_val, "attribute_val")) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  // The predefined window attributes (MPI-3.1 §11.2.6): the base is the
  // pointer itself, the others point to values the window keeps.
  // MPI_WIN_DISP_UNIT points to an int (MPI-4.1 §12.2.6): a
  // unit beyond an int reads MPI_UNDEFINED there, as MPI_Win_shared_query
  // answers it (see shared_query above); MPI_Win_shared_query_c has it whole.
  void* v = nullptr;
  switch (win_keyval) {
    case MPI_WIN_BASE: v = w->attr_base; break;
    case MPI_WIN_SIZE: v = &w->attr_size; break;
    case MPI_WIN_DISP_UNIT: v = &w->attr_disp_unit; break;
    case MPI_WIN_CREATE_FLAVOR: v = &w->attr_flavor; break;
    case MPI_WIN_MODEL: v = &w->attr_model; break;
    default:
      if (int e = api::check_keyval(call, win_keyval, "win_keyval", core::AttrObject::win, api::KeyvalUse::read))
        return e;
      *flag = core::get_attribute(core::AttrObject::win, win, w->attrs, win_keyval,
                                  static_cast<void**>(attribute_val))
                  ? 1
                  : 0;
      return MPI_SUCCESS;
  }
  std::memcpy(attribute_val, &v, sizeof v);
  *flag = 1;
  return MPI_SUCCESS;
}

int MPI_Win_set_attr(MPI_Win win, int win_keyval, void* attribute_val) {
  Call call("MPI_Win_set_attr");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  if (int e = api::check_keyval(call, win_keyval, "win_keyval", core::AttrObject::win, api::KeyvalUse::set)) return e;
  if (int e = core::set_attribute(core::AttrObject::win, win, w->attrs, win_keyval, attribute_val))
    return call.fail(e, "the delete callback of keyval 0x%x returned error code %d while replacing the value",
                     static_cast<unsigned>(win_keyval), e);
  return MPI_SUCCESS;
}

int MPI_Win_delete_attr(MPI_Win win, int win_keyval) {
  Call call("MPI_Win_delete_attr");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  if (int e = api::check_keyval(call, win_keyval, "win_keyval", core::AttrObject::win, api::KeyvalUse::remove))
    return e;
  if (int e = core::delete_attribute(core::AttrObject::win, win, w->attrs, win_keyval))
    return call.fail(e, "the delete callback of keyval 0x%x returned error code %d; the attribute stays",
                     static_cast<unsigned>(win_keyval), e);
  return MPI_SUCCESS;
}

// Windows are never duplicated, so the copy callback is kept but never run.
int MPI_Win_create_keyval(MPI_Win_copy_attr_function* win_copy_attr_fn,
                          MPI_Win_delete_attr_function* win_delete_attr_fn, int* win_keyval, void* extra_state) {
  Call call("MPI_Win_create_keyval");
  return api::create_keyval(call, core::AttrObject::win, win_copy_attr_fn, win_delete_attr_fn, win_keyval,
                            extra_state, "win_keyval");
}

int MPI_Win_free_keyval(int* win_keyval) {
  Call call("MPI_Win_free_keyval");
  return api::free_keyval(call, core::AttrObject::win, win_keyval, "win_keyval");
}

int MPI_Win_set_name(MPI_Win win, const char* win_name) {
  Call call("MPI_Win_set_name");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  if (int e = call.not_null(win_name, "win_name")) return e;
  w->name.assign(win_name, strnlen(win_name, MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

int MPI_Win_get_name(MPI_Win win, char* win_name, int* resultlen) {
  Call call("MPI_Win_get_name");
  if (int e = call.not_null(win_name, "win_name")) return e;
  if (int e = call.not_null(resultlen, "resultlen")) return e;
  // MPI-4.1 (annex B.1.2, item 18): the null handle is a valid argument and its name is its own.
  if (win == MPI_WIN_NULL) return api::null_name(win_name, resultlen, "MPI_WIN_NULL");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  std::memcpy(win_name, w->name.c_str(), w->name.size() + 1);
  *resultlen = static_cast<int>(w->name.size());
  return MPI_SUCCESS;
}

int MPI_Win_set_info(MPI_Win win, MPI_Info info) {
  Call call("MPI_Win_set_info");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  if (int e = info_arg(call, info)) return e;
  // No hint changes what this implementation does; ignoring hints is what
  // MPI-3.1 §11.2.7 allows.
  return MPI_SUCCESS;
}

int MPI_Win_get_info(MPI_Win win, MPI_Info* info_used) {
  Call call("MPI_Win_get_info");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  if (int e = call.not_null(info_used, "info_used")) return e;
  // The hints in use: the layout of a shared window (the one hint honoured).
  auto info = std::make_unique<core::Info>();
  if (w->flavor == rma::Flavor::shared) info->set("alloc_shared_noncontig", w->noncontig ? "true" : "false");
  return api::new_info_handle(call, std::move(info), info_used);
}

int MPI_Win_create_errhandler(MPI_Win_errhandler_function* win_errhandler_fn, MPI_Errhandler* errhandler) {
  Call call("MPI_Win_create_errhandler");
  // MPI_Win_errhandler_function and MPI_Comm_errhandler_function are the
  // same C type (both handles are ints).
  return api::create_errhandler(call, win_errhandler_fn, "win_errhandler_fn", comm::Errhandler::For::win, errhandler);
}

int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler) {
  Call call("MPI_Win_set_errhandler");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  std::shared_ptr<const comm::Errhandler> eh;
  if (int e = api::errhandler_for(call, errhandler, comm::Errhandler::For::win, &eh)) return e;
  comm::lookup(w->comm)->errhandler = std::move(eh);
  return MPI_SUCCESS;
}

int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler) {
  Call call("MPI_Win_get_errhandler");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  if (int e = call.not_null(errhandler, "errhandler")) return e;
  *errhandler = comm::user_handle(comm::lookup(w->comm)->errhandler);
  return MPI_SUCCESS;
}

int MPI_Win_call_errhandler(MPI_Win win, int errorcode) {
  Call call("MPI_Win_call_errhandler");
  rma::Window* w;
  if (int e = win_arg(call, win, "win", &w)) return e;
  char msg[96];
  std::snprintf(msg, sizeof msg, "the application raised error code %d on window 0x%x", errorcode,
                static_cast<unsigned>(win));
  api::dispatch_error(w->comm, errorcode, call.name(), msg);
  return MPI_SUCCESS;
}

MPI_Fint MPI_Win_c2f(MPI_Win win) { return static_cast<MPI_Fint>(win); }
MPI_Win MPI_Win_f2c(MPI_Fint win) { return static_cast<MPI_Win>(win); }

int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void* baseptr) {
  Call call("MPI_Alloc_mem");
  if (int e = call.initialized()) return e;
  if (size < 0) return call.fail(MPI_ERR_SIZE, "argument size=%lld is negative", static_cast<long long>(size));
  if (int e = info_arg(call, info)) return e;
  if (int e = call.not_null(baseptr, "baseptr")) return e;
  void* p = nullptr;
  // Cache-line aligned, so windows over it copy at full speed; never NULL,
  // even for size 0, so MPI_Free_mem can tell it from garbage.
  if (posix_memalign(&p, 64, size > 0 ? static_cast<std::size_t>(size) : 1) != 0)
    return call.fail(MPI_ERR_NO_MEM, "could not allocate %lld bytes", static_cast<long long>(size));
  std::memcpy(baseptr, &p, sizeof p);
  return MPI_SUCCESS;
}

int MPI_Free_mem(void* base) {
  Call call("MPI_Free_mem");
  if (int e = call.initialized()) return e;
  std::free(base);
  return MPI_SUCCESS;
}

// A profiling hint with no required effect (MPI-3.1 §14.2.4); ringmpi has no
// profiling level to change.
int MPI_Pcontrol(const int, ...) { return MPI_SUCCESS; }

}  // extern "C"
