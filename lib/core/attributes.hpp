// Attribute caching on communicators and datatypes (MPI-3.1 §6.7): the
// keyval registry, the attribute sets objects carry, and the callbacks run
// on set, delete, dup and free.
//
// Keyvals are plain ints laid out like handles, so garbage, a freed keyval or
// one made for another kind of object is recognised, never dereferenced:
//   bit 30 set | 9 in bits 26..29 | object (1 comm, 2 datatype) in bits 22..25
//   | generation in bits 16..21 (0 = predefined) | index in bits 0..15.
// This is MPICH's layout, which mpi.h's MPI_TAG_UB... values already follow.
//
// A keyval freed by the user while attributes still use it stays alive (with
// its callbacks) until the last of those attributes is deleted; then its slot
// is released and the int no longer decodes.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ringmpi::core {

enum class AttrObject { comm, datatype, win };  // win: lib/rma windows

struct AttributeSet {
  std::vector<std::pair<int, void*>> entries;  // (keyval, value) in the order they were set
};

// Both communicator and datatype handles are ints, so one pointer type each
// covers MPI_Comm_copy_attr_function, MPI_Copy_function and
// MPI_Type_copy_attr_function (and the delete counterparts).
using CopyFn = int (*)(int oldobj, int keyval, void* extra_state, void* value_in, void* value_out, int* flag);
using DeleteFn = int (*)(int obj, int keyval, void* value, void* extra_state);

// The predefined attributes of MPI_COMM_WORLD (MPI-3.1 §8.1.2), in index order.
enum EnvAttr { env_tag_ub, env_host, env_io, env_wtime_is_global, env_universe_size, env_lastusedcode, env_appnum,
               env_count };

struct Keyval {
  AttrObject object = AttrObject::comm;
  CopyFn copy = nullptr;  // nullptr: the attribute is not copied
  DeleteFn del = nullptr;  // nullptr: nothing is called
  void* extra_state = nullptr;
  int env = -1;        // >= 0: predefined, one of EnvAttr
  bool freed = false;  // the user freed it; alive while `uses` > 0
  int uses = 0;        // attributes that use it, over all objects
};

struct AttrState {
  AttrState();
  struct Slot {
    std::unique_ptr<Keyval> kv;
    std::uint32_t gen = 0;
  };
  std::vector<Slot> slots;
  std::vector<std::uint32_t> released;  // reused only once fresh indices run out
  int env_values[env_count] = {};
};
AttrState& attr_state();

// ---- keyvals ---------------------------------------------------------------
// Returns MPI_SUCCESS, or MPI_ERR_OTHER when all 65535 keyval slots are in use.
int create_keyval(AttrObject object, CopyFn copy, DeleteFn del, void* extra_state, int* keyval);
// The keyval behind k (including ones the user freed but attributes still
// use), or nullptr for MPI_KEYVAL_INVALID, garbage and released keyvals.
Keyval* find_keyval(int k);
// The predefined keyval's name ("MPI_TAG_UB"), or nullptr.
const char* predefined_keyval_name(int k);
// Marks k freed (k must be a live, user-created keyval not yet freed) and
// releases it at once when no attribute uses it.
void free_keyval(int k);
const char* object_name(AttrObject object);  // "communicator" / "datatype"
// Keyvals alive in this process, predefined ones excluded (for tests).
int live_keyvals();

// ---- attributes of one object (keyvals already checked by the caller) -----
// `handle` is the object's handle, passed to the callbacks.
// Stores value under keyval; an existing value is deleted first, as by
// delete_attribute. Returns MPI_SUCCESS, or the delete callback's error code
// (then the old value stays).
int set_attribute(AttrObject object, int handle, AttributeSet& set, int keyval, void* value);
// True and *value when keyval has a value on the object. The predefined
// attributes are found on MPI_COMM_WORLD (and on its duplicates); their value
// is the address of an int, as MPI-3.1 §8.1.2 says for C.
bool get_attribute(AttrObject object, int handle, const AttributeSet& set, int keyval, void** value);
// Runs the delete callback and removes the value; not attached is no error.
// Returns MPI_SUCCESS, or the callback's error code (then the value stays).
int delete_attribute(AttrObject object, int handle, AttributeSet& set, int keyval);

// Called by MPI_Comm_dup / MPI_Type_dup: runs the copy callback of every
// attribute of `from` (whose object handle is old_handle) and fills `to`
// with those the callbacks chose to copy (flag != 0), in the same order.
// Returns MPI_SUCCESS or the first error a callback returned; then `to` is
// left empty (without delete callbacks: the new object never existed for the
// user) and the dup must fail with that code.
int copy_attributes(AttrObject kind, int old_handle, const AttributeSet& from, AttributeSet& to);
// Called when an object is freed: runs the delete callbacks, the most
// recently set attribute first, and empties the set. Returns MPI_SUCCESS or
// the first error a callback returned; then that attribute and those not
// reached yet stay in the set and the free must fail with that code, leaving
// the object valid (as MPICH does).
int delete_attributes(AttrObject kind, int handle, AttributeSet& set);
// As delete_attributes, but goes on past failing callbacks and always
// empties the set (MPI_Finalize); returns the first error.
int delete_attributes_at_exit(AttrObject kind, int handle, AttributeSet& set, int* failed_keyval);

// Recomputes the values behind the predefined attributes (MPI_LASTUSEDCODE
// after MPI_Add_error_class/_code, MPI_UNIVERSE_SIZE after MPI_Init).
void refresh_environment_attributes();

}  // namespace ringmpi::core
