#include "core/attributes.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>

#include "core/errors.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

extern "C" {
int rmpi_comm_null_copy_fn(MPI_Comm, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}
int rmpi_comm_dup_fn(MPI_Comm, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int rmpi_comm_null_delete_fn(MPI_Comm, int, void*, void*) { return MPI_SUCCESS; }
int rmpi_type_null_copy_fn(MPI_Datatype, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}
int rmpi_type_dup_fn(MPI_Datatype, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}
int rmpi_type_null_delete_fn(MPI_Datatype, int, void*, void*) { return MPI_SUCCESS; }
}

// Called when a keyval is released (freed by the user and no attribute left
// using it) with its delete function and extra_state. Set by the Fortran
// bindings (fortran/glue_callbacks.c), whose keyvals carry state of their
// own as extra_state (the Fortran procedures), freed then; exported for
// libringmpi_fortran, outside mpi.h. C keyvals pay a test of a null pointer.
extern "C" {
__attribute__((visibility("default"))) void (*rmpi_keyval_released)(ringmpi::core::DeleteFn del,
                                                                    void* extra_state) = nullptr;
}

namespace ringmpi::core {
namespace {

constexpr std::uint32_t kKeyvalTag = 0x64000000u;  // bit 30 and kind 9 in bits 26..29
constexpr std::uint32_t kKeyvalIndexMask = 0xFFFFu;
constexpr std::uint32_t kKeyvalGenMask = 0x3Fu;

constexpr const char* kEnvNames[env_count] = {"MPI_TAG_UB",          "MPI_HOST",          "MPI_IO",
                                              "MPI_WTIME_IS_GLOBAL", "MPI_UNIVERSE_SIZE", "MPI_LASTUSEDCODE",
                                              "MPI_APPNUM"};
constexpr int kEnvKeyvals[env_count] = {MPI_TAG_UB,        MPI_HOST,         MPI_IO,    MPI_WTIME_IS_GLOBAL,
                                        MPI_UNIVERSE_SIZE, MPI_LASTUSEDCODE, MPI_APPNUM};
// The predefined keyvals sit at odd indices 1..13; run-time ones start here.
constexpr std::uint32_t kFirstDynamic = 16;

std::uint32_t object_bits(AttrObject o) { return o == AttrObject::comm ? 1u : o == AttrObject::datatype ? 2u : 3u; }

int make_keyval(AttrObject o, std::uint32_t index, std::uint32_t gen) {
  return static_cast<int>(kKeyvalTag | (object_bits(o) << 22) | (gen << 16) | index);
}

std::uint32_t index_of(int k) { return static_cast<std::uint32_t>(k) & kKeyvalIndexMask; }

void release(int k) {
  AttrState& s = attr_state();
  const std::uint32_t i = index_of(k);
  const std::unique_ptr<Keyval> kv = std::move(s.slots[i].kv);
  s.released.push_back(i);
  // Last, with the registry consistent: the hook may call MPI.
  if (rmpi_keyval_released != nullptr) rmpi_keyval_released(kv->del, kv->extra_state);
}

// One more use; paired with unuse().
void use(Keyval& kv) { ++kv.uses; }

void unuse(int k) {
  Keyval* kv = find_keyval(k);
  if (!kv) return;
  if (--kv->uses == 0 && kv->freed) release(k);
}

// Keeps a keyval alive while a user callback runs: the callback may free the
// keyval, or delete the very attribute we are working on.
class Pin {
 public:
  Pin(Keyval& kv, int k) : k_(k) { use(kv); }
  ~Pin() { unuse(k_); }
  Pin(const Pin&) = delete;
  Pin& operator=(const Pin&) = delete;

 private:
  int k_;
};

using Entries = std::vector<std::pair<int, void*>>;

Entries::iterator find_entry(Entries& e, int k) {
  return std::find_if(e.begin(), e.end(), [k](const auto& p) { return p.first == k; });
}

int run_delete(Keyval& kv, int handle, int k, void* value) {
  if (!kv.del) return MPI_SUCCESS;
  Pin pin(kv, k);
  // Copy what we call before calling: the callback may change the registry.
  const DeleteFn fn = kv.del;
  void* const extra = kv.extra_state;
  return fn(handle, k, value, extra);
}

// Removes the entry of k (if the callback left it there) and drops its use.
void drop_entry(AttributeSet& set, int k) {
  auto it = find_entry(set.entries, k);
  if (it == set.entries.end()) return;
  set.entries.erase(it);
  unuse(k);
}

// Deletes every attribute, last set first. stop_on_error: leave the failing
// attribute and the rest in place and return; otherwise drop it and go on.
int delete_all(int handle, AttributeSet& set, bool stop_on_error, int* failed_keyval) {
  int first_error = MPI_SUCCESS;
  while (!set.entries.empty()) {
    const auto [k, value] = set.entries.back();
    if (Keyval* kv = find_keyval(k)) {
      if (int e = run_delete(*kv, handle, k, value)) {
        if (first_error == MPI_SUCCESS) {
          first_error = e;
          if (failed_keyval) *failed_keyval = k;
        }
        if (stop_on_error) return e;
      }
    }
    drop_entry(set, k);
  }
  return first_error;
}

}  // namespace

AttrState::AttrState() {
  slots.resize(kFirstDynamic);
  for (int i = 0; i < env_count; ++i) {
    auto kv = std::make_unique<Keyval>();
    kv->object = AttrObject::comm;
    // Duplicates of MPI_COMM_WORLD carry the environment along.
    kv->copy = &rmpi_comm_dup_fn;
    kv->env = i;
    slots[index_of(kEnvKeyvals[i])].kv = std::move(kv);
  }
}

AttrState& attr_state() {
  auto& p = rt().attrs;
  if (!p) {
    p = std::make_unique<AttrState>();
    refresh_environment_attributes();
  }
  return *p;
}

void refresh_environment_attributes() {
  int* v = attr_state().env_values;
  v[env_tag_ub] = INT_MAX;            // the p2p engine takes any tag 0..INT32_MAX
  v[env_host] = MPI_PROC_NULL;        // no host process
  v[env_io] = MPI_ANY_SOURCE;         // every rank can do I/O
  v[env_wtime_is_global] = 1;         // CLOCK_MONOTONIC is one clock for the whole node
  // mpiexec --universe-size (default: the cores hwloc sees, at least np);
  // a singleton's is 1 plus the room its arena keeps for spawns.
  v[env_universe_size] = rt().arena.mapped() ? static_cast<int>(rt().arena.header().universe) : rt().world_size;
  v[env_lastusedcode] = last_used_code();
  v[env_appnum] = rt().appnum;        // 0, or the command's index in MPI_Comm_spawn_multiple
}

int create_keyval(AttrObject object, CopyFn copy, DeleteFn del, void* extra_state, int* keyval) {
  AttrState& s = attr_state();
  std::uint32_t i;
  if (s.slots.size() <= kKeyvalIndexMask) {
    // Fresh indices first: a stale keyval int then stays undecodable for as
    // long as possible instead of aliasing a newer keyval.
    i = static_cast<std::uint32_t>(s.slots.size());
    s.slots.emplace_back();
  } else if (!s.released.empty()) {
    i = s.released.front();
    s.released.erase(s.released.begin());
  } else {
    return MPI_ERR_OTHER;
  }
  AttrState::Slot& slot = s.slots[i];
  slot.gen = slot.gen % kKeyvalGenMask + 1;  // 1..63; 0 is for predefined keyvals
  slot.kv = std::make_unique<Keyval>();
  slot.kv->object = object;
  slot.kv->copy = copy;
  slot.kv->del = del;
  slot.kv->extra_state = extra_state;
  *keyval = make_keyval(object, i, slot.gen);
  return MPI_SUCCESS;
}

Keyval* find_keyval(int k) {
  const auto u = static_cast<std::uint32_t>(k);
  if ((u & 0xFC000000u) != kKeyvalTag) return nullptr;
  AttrState& s = attr_state();
  const std::uint32_t i = index_of(k);
  if (i >= s.slots.size()) return nullptr;
  AttrState::Slot& slot = s.slots[i];
  if (!slot.kv || slot.gen != ((u >> 16) & kKeyvalGenMask)) return nullptr;
  if (((u >> 22) & 0xFu) != object_bits(slot.kv->object)) return nullptr;
  return slot.kv.get();
}

const char* predefined_keyval_name(int k) {
  const Keyval* kv = find_keyval(k);
  return kv && kv->env >= 0 ? kEnvNames[kv->env] : nullptr;
}

void free_keyval(int k) {
  Keyval* kv = find_keyval(k);
  if (!kv || kv->env >= 0 || kv->freed) return;
  kv->freed = true;
  if (kv->uses == 0) release(k);
}

const char* object_name(AttrObject object) {
  return object == AttrObject::comm ? "communicator" : object == AttrObject::datatype ? "datatype" : "window";
}

int live_keyvals() {
  int n = 0;
  for (const auto& slot : attr_state().slots)
    if (slot.kv && slot.kv->env < 0) ++n;
  return n;
}

int set_attribute(AttrObject, int handle, AttributeSet& set, int k, void* value) {
  Keyval* kv = find_keyval(k);
  if (!kv) return MPI_ERR_KEYVAL;
  Pin pin(*kv, k);
  auto it = find_entry(set.entries, k);
  if (it != set.entries.end()) {
    if (int e = run_delete(*kv, handle, k, it->second)) return e;
    // The new value counts as set now: it moves to the end of the order.
    drop_entry(set, k);
  }
  use(*kv);
  set.entries.emplace_back(k, value);
  return MPI_SUCCESS;
}

bool get_attribute(AttrObject object, int handle, const AttributeSet& set, int k, void** value) {
  const Keyval* kv = find_keyval(k);
  if (kv && kv->env >= 0) refresh_environment_attributes();
  if (kv && kv->env >= 0 && object == AttrObject::comm && handle == MPI_COMM_WORLD) {
    *value = &attr_state().env_values[kv->env];
    return true;
  }
  for (const auto& [key, v] : set.entries)
    if (key == k) {
      *value = v;
      return true;
    }
  // MPI-3.1 §8.1.2 caches the environment attributes on MPI_COMM_WORLD (a
  // dup of it copies them, above); every communicator answers them too, as
  // MPICH and Open MPI do, since programs ask for MPI_TAG_UB on the
  // communicator they send on.
  if (kv && kv->env >= 0 && object == AttrObject::comm) {
    *value = &attr_state().env_values[kv->env];
    return true;
  }
  return false;
}

int delete_attribute(AttrObject, int handle, AttributeSet& set, int k) {
  auto it = find_entry(set.entries, k);
  if (it == set.entries.end()) return MPI_SUCCESS;
  if (Keyval* kv = find_keyval(k))
    if (int e = run_delete(*kv, handle, k, it->second)) return e;
  drop_entry(set, k);
  return MPI_SUCCESS;
}

int copy_attributes(AttrObject kind, int old_handle, const AttributeSet& from, AttributeSet& to) {
  // A snapshot: copy callbacks may change the old object's attributes.
  Entries todo;
  if (kind == AttrObject::comm && old_handle == MPI_COMM_WORLD) {
    AttrState& s = attr_state();
    for (int i = 0; i < env_count; ++i) todo.emplace_back(kEnvKeyvals[i], &s.env_values[i]);
  }
  todo.insert(todo.end(), from.entries.begin(), from.entries.end());
  const std::size_t before = to.entries.size();
  for (const auto& [k, value] : todo) {
    Keyval* kv = find_keyval(k);
    if (!kv || !kv->copy || find_entry(to.entries, k) != to.entries.end()) continue;
    Pin pin(*kv, k);
    const CopyFn fn = kv->copy;
    void* out = nullptr;
    int flag = 0;
    if (int e = fn(old_handle, k, kv->extra_state, value, &out, &flag)) {
      while (to.entries.size() > before) {
        const int added = to.entries.back().first;
        to.entries.pop_back();
        unuse(added);
      }
      return e;
    }
    if (flag) {
      use(*kv);
      to.entries.emplace_back(k, out);
    }
  }
  return MPI_SUCCESS;
}

int delete_attributes(AttrObject, int handle, AttributeSet& set) { return delete_all(handle, set, true, nullptr); }

int delete_attributes_at_exit(AttrObject, int handle, AttributeSet& set, int* failed_keyval) {
  return delete_all(handle, set, false, failed_keyval);
}

}  // namespace ringmpi::core
