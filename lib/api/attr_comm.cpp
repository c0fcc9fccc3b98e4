// Caching on communicators: the MPI-2 calls (MPI_Comm_*_attr, *_keyval) and
// their deprecated MPI-1 twins (MPI_Keyval_*, MPI_Attr_*), which behave the
// same in C.
#include "api/attr_check.hpp"

using namespace ringmpi;
using ringmpi::api::Call;
using ringmpi::api::KeyvalUse;
using ringmpi::core::AttrObject;

namespace {

int set_attr(Call& call, MPI_Comm comm, int keyval, const char* keyval_arg, void* value) {
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = api::check_keyval(call, keyval, keyval_arg, AttrObject::comm, KeyvalUse::set)) return e;
  if (int e = core::set_attribute(AttrObject::comm, comm, c->attrs, keyval, value))
    return call.fail(e, "the delete callback of keyval 0x%x returned error code %d while replacing the value on %s",
                     static_cast<unsigned>(keyval), e, api::describe_comm(comm).c_str());
  return MPI_SUCCESS;
}

int get_attr(Call& call, MPI_Comm comm, int keyval, const char* keyval_arg, void* value, int* flag) {
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = api::check_keyval(call, keyval, keyval_arg, AttrObject::comm, KeyvalUse::read)) return e;
  if (int e = call.not_null(value, "attribute_val")) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  // attribute_val is a void** in effect (MPI-3.1 §6.7.2).
  *flag = core::get_attribute(AttrObject::comm, comm, c->attrs, keyval, static_cast<void**>(value)) ? 1 : 0;
  return MPI_SUCCESS;
}

int delete_attr(Call& call, MPI_Comm comm, int keyval, const char* keyval_arg) {
  comm::Comm* c;
  if (int e = call.comm(comm, "comm", &c)) return e;
  if (int e = api::check_keyval(call, keyval, keyval_arg, AttrObject::comm, KeyvalUse::remove)) return e;
  if (int e = core::delete_attribute(AttrObject::comm, comm, c->attrs, keyval))
    return call.fail(e, "the delete callback of keyval 0x%x returned error code %d on %s; the attribute stays",
                     static_cast<unsigned>(keyval), e, api::describe_comm(comm).c_str());
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function* comm_copy_attr_fn,
                           MPI_Comm_delete_attr_function* comm_delete_attr_fn, int* comm_keyval, void* extra_state) {
  Call call("MPI_Comm_create_keyval");
  return api::create_keyval(call, AttrObject::comm, comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval,
                            extra_state, "comm_keyval");
}

int MPI_Comm_free_keyval(int* comm_keyval) {
  Call call("MPI_Comm_free_keyval");
  return api::free_keyval(call, AttrObject::comm, comm_keyval, "comm_keyval");
}

int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void* attribute_val) {
  Call call("MPI_Comm_set_attr");
  return set_attr(call, comm, comm_keyval, "comm_keyval", attribute_val);
}

int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  Call call("MPI_Comm_get_attr");
  return get_attr(call, comm, comm_keyval, "comm_keyval", attribute_val, flag);
}

int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) {
  Call call("MPI_Comm_delete_attr");
  return delete_attr(call, comm, comm_keyval, "comm_keyval");
}

int MPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval, void* extra_state) {
  Call call("MPI_Keyval_create");
  return api::create_keyval(call, AttrObject::comm, copy_fn, delete_fn, keyval, extra_state, "keyval");
}

int MPI_Keyval_free(int* keyval) {
  Call call("MPI_Keyval_free");
  return api::free_keyval(call, AttrObject::comm, keyval, "keyval");
}

int MPI_Attr_put(MPI_Comm comm, int keyval, void* attribute_val) {
  Call call("MPI_Attr_put");
  return set_attr(call, comm, keyval, "keyval", attribute_val);
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  Call call("MPI_Attr_get");
  return get_attr(call, comm, keyval, "keyval", attribute_val, flag);
}

int MPI_Attr_delete(MPI_Comm comm, int keyval) {
  Call call("MPI_Attr_delete");
  return delete_attr(call, comm, keyval, "keyval");
}

}  // extern "C"
