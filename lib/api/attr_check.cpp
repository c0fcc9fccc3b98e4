#include "api/attr_check.hpp"

#include "core/runtime.hpp"

namespace ringmpi::api {

int check_keyval(Call& call, int k, const char* arg, core::AttrObject object, KeyvalUse use) {
  if (k == MPI_KEYVAL_INVALID) return call.fail(MPI_ERR_KEYVAL, "argument %s is MPI_KEYVAL_INVALID", arg);
  const core::Keyval* kv = core::find_keyval(k);
  const auto u = static_cast<unsigned>(k);
  if (!kv)
    return call.fail(MPI_ERR_KEYVAL,
                     "argument %s=0x%x is not a keyval (never created, or freed and no longer used by any "
                     "attribute)",
                     arg, u);
  if (kv->object != object) {
    const char* maker = object == core::AttrObject::comm       ? "MPI_Comm_create_keyval or MPI_Keyval_create"
                        : object == core::AttrObject::datatype ? "MPI_Type_create_keyval"
                                                               : "MPI_Win_create_keyval";
    return call.fail(MPI_ERR_KEYVAL, "argument %s=0x%x is a %s keyval; this call needs a %s keyval (from %s)", arg, u,
                     core::object_name(kv->object), core::object_name(object), maker);
  }
  if (const char* name = core::predefined_keyval_name(k)) {
    static const char* const kVerb[] = {"read", "set", "deleted", "freed"};
    if (use != KeyvalUse::read)
      return call.fail(MPI_ERR_KEYVAL,
                       "argument %s is %s, a predefined attribute key of MPI_COMM_WORLD; it cannot be %s", arg,
                       name, kVerb[static_cast<int>(use)]);
  }
  if (use == KeyvalUse::free && kv->freed)
    return call.fail(MPI_ERR_KEYVAL,
                     "argument %s=0x%x was already freed (attributes still use it, so it lingers until they are "
                     "deleted)",
                     arg, u);
  return MPI_SUCCESS;
}

int attr_datatype(Call& call, MPI_Datatype h, const char* arg, const dtype::Datatype** out) {
  if (int e = call.initialized()) return e;
  if (h == MPI_DATATYPE_NULL) return call.fail(MPI_ERR_TYPE, "argument %s is MPI_DATATYPE_NULL", arg);
  const dtype::Datatype* t = dtype::lookup(h);
  if (!t)
    return call.fail(MPI_ERR_TYPE, "argument %s=0x%x is not a valid datatype (freed, or not a datatype handle)", arg,
                     static_cast<unsigned>(h));
  *out = t;
  return MPI_SUCCESS;
}

int create_keyval(Call& call, core::AttrObject object, core::CopyFn copy, core::DeleteFn del, int* keyval,
                  void* extra_state, const char* arg) {
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(keyval, arg)) return e;
  // A null callback is accepted as "do nothing" (the MPI-1 text allows a null
  // function pointer in C).
  if (core::create_keyval(object, copy, del, extra_state, keyval) != MPI_SUCCESS)
    return call.fail(MPI_ERR_OTHER, "all 65535 %s keyval slots are in use; free keyvals no longer needed",
                     core::object_name(object));
  return MPI_SUCCESS;
}

int free_keyval(Call& call, core::AttrObject object, int* keyval, const char* arg) {
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(keyval, arg)) return e;
  if (int e = check_keyval(call, *keyval, arg, object, KeyvalUse::free)) return e;
  core::free_keyval(*keyval);
  *keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

}  // namespace ringmpi::api
