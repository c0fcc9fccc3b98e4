// Argument checks shared by the caching entry points (attr_comm.cpp,
// attr_type.cpp): keyvals and datatypes as attribute holders.
#pragma once

#include "api/call.hpp"
#include "core/attributes.hpp"

namespace ringmpi::api {

// What the call does with the keyval: predefined keyvals may only be read,
// and a keyval can be freed once.
enum class KeyvalUse { read, set, remove, free };

// MPI_ERR_KEYVAL (with the reason) unless k is a keyval of `object` usable for `use`.
int check_keyval(Call& call, int k, const char* arg, core::AttrObject object, KeyvalUse use);

// Like Call::datatype but for caching: the type need not be committed
// (Datatype::attrs is mutable, so the const object can carry attributes).
int attr_datatype(Call& call, MPI_Datatype h, const char* arg, const dtype::Datatype** out);

// The bodies of MPI_*_create_keyval and MPI_*_free_keyval for either object.
int create_keyval(Call& call, core::AttrObject object, core::CopyFn copy, core::DeleteFn del, int* keyval,
                  void* extra_state, const char* arg);
int free_keyval(Call& call, core::AttrObject object, int* keyval, const char* arg);

}  // namespace ringmpi::api
