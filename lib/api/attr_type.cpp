// Caching on datatypes (MPI_Type_*_attr, MPI_Type_*_keyval). Any datatype
// can carry attributes, predefined or derived, committed or not.
#include "api/attr_check.hpp"

using namespace ringmpi;
using ringmpi::api::Call;
using ringmpi::api::KeyvalUse;
using ringmpi::core::AttrObject;

extern "C" {

int MPI_Type_create_keyval(MPI_Type_copy_attr_function* type_copy_attr_fn,
                           MPI_Type_delete_attr_function* type_delete_attr_fn, int* type_keyval, void* extra_state) {
  Call call("MPI_Type_create_keyval");
  return api::create_keyval(call, AttrObject::datatype, type_copy_attr_fn, type_delete_attr_fn, type_keyval,
                            extra_state, "type_keyval");
}

int MPI_Type_free_keyval(int* type_keyval) {
  Call call("MPI_Type_free_keyval");
  return api::free_keyval(call, AttrObject::datatype, type_keyval, "type_keyval");
}

int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val) {
  Call call("MPI_Type_set_attr");
  const dtype::Datatype* t;
  if (int e = api::attr_datatype(call, datatype, "datatype", &t)) return e;
  if (int e = api::check_keyval(call, type_keyval, "type_keyval", AttrObject::datatype, KeyvalUse::set)) return e;
  if (int e = core::set_attribute(AttrObject::datatype, datatype, t->attrs, type_keyval, attribute_val))
    return call.fail(e, "the delete callback of keyval 0x%x returned error code %d while replacing the value",
                     static_cast<unsigned>(type_keyval), e);
  return MPI_SUCCESS;
}

int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val, int* flag) {
  Call call("MPI_Type_get_attr");
  const dtype::Datatype* t;
  if (int e = api::attr_datatype(call, datatype, "datatype", &t)) return e;
  if (int e = api::check_keyval(call, type_keyval, "type_keyval", AttrObject::datatype, KeyvalUse::read)) return e;
  if (int e = call.not_null(attribute_val, "attribute_val")) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  *flag = core::get_attribute(AttrObject::datatype, datatype, t->attrs, type_keyval,
                              static_cast<void**>(attribute_val))
              ? 1
              : 0;
  return MPI_SUCCESS;
}

int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval) {
  Call call("MPI_Type_delete_attr");
  const dtype::Datatype* t;
  if (int e = api::attr_datatype(call, datatype, "datatype", &t)) return e;
  if (int e = api::check_keyval(call, type_keyval, "type_keyval", AttrObject::datatype, KeyvalUse::remove)) return e;
  if (int e = core::delete_attribute(AttrObject::datatype, datatype, t->attrs, type_keyval))
    return call.fail(e, "the delete callback of keyval 0x%x returned error code %d; the attribute stays",
                     static_cast<unsigned>(type_keyval), e);
  return MPI_SUCCESS;
}

}  // extern "C"
