// The events of the tool information interface (MPI-4.0 §15.3.8): three
// event types the runtime raises (core/events.hpp), one source (the
// monotonic clock), registrations with callbacks per safety level.
//
//   index  name                     elements (all MPI_INT64_T)        category
//   0      ringmpi_ring_full        destination world rank, bytes     ringmpi_p2p
//   1      ringmpi_rndv_start       destination world rank, bytes     ringmpi_p2p
//   2      ringmpi_segment_attach   members, owner world rank, index  ringmpi_collectives
//
// Delivery. An event is raised inside the MPI call that met it, often inside
// the progress engine, which must not be re-entered. So a callback runs there
// only if its registration promised at least MPI_T_CB_REQUIRE_MPI_RESTRICTED
// (it calls no MPI function but the MPI_T_event_* readers, which take the
// tool lock, not the call lock); of the callbacks of one registration, the
// one with the lowest such requirement runs. One registered only with
// MPI_T_CB_REQUIRE_NONE is never called: there is no context here where any
// MPI call could be made, and §15.3.8 lets an implementation not call a
// callback whose requirement it cannot meet. Events are never buffered, so
// none are dropped and the dropped handler is never called.
//
// Handles. A registration is `kRegTag | generation << 16 | index` (bit 30
// clear: never a handle of lib/core's tables); an instance is valid only
// inside the callback it was given to (thread-local), as the standard says.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <memory>
#include <string_view>
#include <vector>

#include "api/info_args.hpp"
#include "api/tool.hpp"
#include "core/events.hpp"
#include "core/info.hpp"

using namespace ringmpi;
using namespace ringmpi::api;
using ringmpi::api::tool::Entry;

namespace {

struct EventType {
  std::string_view name;
  std::string_view description;
  int num_elements;
  int category;  // tool::CategoryId
};
const EventType kTypes[core::kEvents] = {
    {"ringmpi_ring_full",
     "an eager send found the ring to its destination full (it waits in the outgoing queue): destination world "
     "rank, message bytes",
     2, static_cast<int>(tool::CategoryId::p2p)},
    {"ringmpi_rndv_start",
     "a rendezvous send started (its ready-to-send record is in the ring): destination world rank, message bytes", 2,
     static_cast<int>(tool::CategoryId::p2p)},
    {"ringmpi_segment_attach",
     "a communicator attached its shared collective segment: members, owner's world rank, segment index", 3,
     static_cast<int>(tool::CategoryId::collectives)},
};

constexpr int kSafetyLevels = 4;  // MPI_T_CB_REQUIRE_NONE .. _ASYNC_SIGNAL_SAFE

struct Callback {
  MPI_T_event_cb_function* fn = nullptr;
  void* user_data = nullptr;
  core::Info info;
};

struct Registration {
  int event = 0;
  core::Info info;
  Callback callbacks[kSafetyLevels];
  MPI_T_event_dropped_cb_function* dropped = nullptr;
  std::uint32_t gen = 0;
  bool live = false;
};

constexpr int kRegTag = 0x20000000;

struct Registrations {
  std::vector<Registration> slots;
  std::vector<int> free;
};
Registrations& regs() {  // under the tool lock
  static Registrations r;
  return r;
}

Registration* reg_of(MPI_T_event_registration h) {
  if ((h & 0x70000000) != kRegTag) return nullptr;
  const auto index = static_cast<std::size_t>(h & 0xFFFF);
  const auto gen = static_cast<std::uint32_t>((h >> 16) & 0xFFF);
  auto& slots = regs().slots;
  if (index >= slots.size() || !slots[index].live || slots[index].gen != gen) return nullptr;
  return &slots[index];
}

std::int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// The instance a callback is running with (thread-local: valid only there).
struct Instance {
  int handle = 0;  // 0: none
  int event = 0;
  std::int64_t time = 0;
  std::int64_t data[3] = {0, 0, 0};
};
thread_local Instance t_current;
std::atomic<int> g_instances{0};

// Which events some registration has a callback that can run (core/events.hpp).
void refresh_mask() {
  std::uint32_t mask = 0;
  for (const Registration& r : regs().slots)
    if (r.live)
      for (int l = MPI_T_CB_REQUIRE_MPI_RESTRICTED; l < kSafetyLevels; ++l)
        if (r.callbacks[l].fn) mask |= 1u << r.event;
  core::rt().event_mask.store(mask, std::memory_order_release);  // after event_sink is set
}

// core::Runtime::event_sink: the callbacks to run are picked under the tool
// lock and called without it (they may call the MPI_T_event_* readers).
void sink(int event, std::int64_t a, std::int64_t b, std::int64_t c) {
  struct Call1 {
    MPI_T_event_cb_function* fn;
    MPI_T_event_registration reg;
    MPI_T_cb_safety safety;
    void* user_data;
  };
  std::vector<Call1> calls;
  {
    Entry e;
    if (e.initialized() != MPI_SUCCESS) return;
    auto& slots = regs().slots;
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const Registration& r = slots[i];
      if (!r.live || r.event != event) continue;
      for (int l = MPI_T_CB_REQUIRE_MPI_RESTRICTED; l < kSafetyLevels; ++l)
        if (r.callbacks[l].fn) {
          const auto h = static_cast<MPI_T_event_registration>(kRegTag | static_cast<int>(r.gen << 16) | static_cast<int>(i));
          calls.push_back({r.callbacks[l].fn, h, static_cast<MPI_T_cb_safety>(l), r.callbacks[l].user_data});
          break;
        }
    }
  }
  if (calls.empty()) return;
  const Instance saved = t_current;
  Instance inst;
  inst.handle = 0x10000000 | (g_instances.fetch_add(1, std::memory_order_relaxed) & 0x0FFFFFFF);
  inst.event = event;
  inst.time = now_ns();
  inst.data[0] = a;
  inst.data[1] = b;
  inst.data[2] = c;
  t_current = inst;
  for (const Call1& k : calls) k.fn(inst.handle, k.reg, k.safety, k.user_data);
  t_current = saved;
}

int instance_of(MPI_T_event_instance h, const Instance** out) {
  if (h == 0 || t_current.handle != h) return MPI_T_ERR_INVALID_HANDLE;
  *out = &t_current;
  return MPI_SUCCESS;
}

int new_info(const core::Info& in, MPI_Info* out) {
  const int h = core::info_state().table.add(std::make_unique<core::Info>(in));
  if (h == MPI_INFO_NULL) return MPI_T_ERR_MEMORY;
  *out = h;
  return MPI_SUCCESS;
}

// An info argument: MPI_INFO_NULL (nothing) or a live object, copied.
int info_arg(MPI_Info h, core::Info* out) {
  if (h == MPI_INFO_NULL) return MPI_SUCCESS;
  const core::Info* in = core::info_state().table.get(h);
  if (!in) return MPI_T_ERR_INVALID;
  *out = *in;
  return MPI_SUCCESS;
}

bool safety_ok(MPI_T_cb_safety s) { return s >= MPI_T_CB_REQUIRE_NONE && static_cast<int>(s) < kSafetyLevels; }

}  // namespace

namespace ringmpi::api::tool {

void clear_event_registrations() {
  regs() = Registrations{};
  core::rt().event_mask.store(0, std::memory_order_relaxed);
}

}  // namespace ringmpi::api::tool

extern "C" {

int MPI_T_source_get_num(int* num_sources) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (num_sources == nullptr) return MPI_T_ERR_INVALID;
  *num_sources = 1;
  return MPI_SUCCESS;
}

int MPI_T_source_get_info(int source_index, char* name, int* name_len, char* desc, int* desc_len,
                          MPI_T_source_order* ordering, MPI_Count* ticks_per_second, MPI_Count* max_ticks,
                          MPI_Info* info) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (source_index != 0) return MPI_T_ERR_INVALID_INDEX;
  if (!tool::length_ok(name, name_len) || !tool::length_ok(desc, desc_len)) return MPI_T_ERR_INVALID;
  tool::put_string("ringmpi_monotonic_clock", name, name_len);
  tool::put_string("CLOCK_MONOTONIC of this process, in nanoseconds; events are raised in the order they happen",
                   desc, desc_len);
  if (ordering) *ordering = MPI_T_SOURCE_ORDERED;
  if (ticks_per_second) *ticks_per_second = 1000000000;
  if (max_ticks) *max_ticks = INT64_MAX;
  if (info) return new_info(core::Info{}, info);
  return MPI_SUCCESS;
}

int MPI_T_source_get_timestamp(int source_index, MPI_Count* timestamp) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (source_index != 0) return MPI_T_ERR_INVALID_INDEX;
  if (timestamp == nullptr) return MPI_T_ERR_INVALID;
  *timestamp = now_ns();
  return MPI_SUCCESS;
}

int MPI_T_event_get_num(int* num_events) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (num_events == nullptr) return MPI_T_ERR_INVALID;
  *num_events = core::kEvents;
  return MPI_SUCCESS;
}

int MPI_T_event_get_info(int event_index, char* name, int* name_len, int* verbosity,
                         MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[], int* num_elements,
                         MPI_T_enum* enumtype, MPI_Info* info, char* desc, int* desc_len, int* bind) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (event_index < 0 || event_index >= core::kEvents) return MPI_T_ERR_INVALID_INDEX;
  if (!tool::length_ok(name, name_len) || !tool::length_ok(desc, desc_len)) return MPI_T_ERR_INVALID;
  const EventType& t = kTypes[event_index];
  tool::put_string(t.name, name, name_len);
  tool::put_string(t.description, desc, desc_len);
  if (verbosity) *verbosity = MPI_T_VERBOSITY_TUNER_DETAIL;
  // num_elements in: how many entries the arrays hold; out: how many the event has.
  if (num_elements) {
    const int room = *num_elements;
    for (int i = 0; i < t.num_elements && i < room; ++i) {
      if (array_of_datatypes) array_of_datatypes[i] = MPI_INT64_T;
      if (array_of_displacements) array_of_displacements[i] = static_cast<MPI_Aint>(i * sizeof(std::int64_t));
    }
    *num_elements = t.num_elements;
  }
  if (enumtype) *enumtype = MPI_T_ENUM_NULL;
  if (bind) *bind = MPI_T_BIND_NO_OBJECT;
  if (info) return new_info(core::Info{}, info);
  return MPI_SUCCESS;
}

int MPI_T_event_get_index(const char* name, int* event_index) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (name == nullptr || event_index == nullptr) return MPI_T_ERR_INVALID;
  return tool::index_of(core::kEvents, [](int i) -> const EventType& { return kTypes[i]; }, name, event_index);
}

int MPI_T_event_handle_alloc(int event_index, void* obj_handle, MPI_Info info,
                             MPI_T_event_registration* event_registration) {
  (void)obj_handle;  // every event is bound to no object (MPI_T_BIND_NO_OBJECT)
  Entry e;
  if (int r = e.initialized()) return r;
  if (event_index < 0 || event_index >= core::kEvents) return MPI_T_ERR_INVALID_INDEX;
  if (event_registration == nullptr) return MPI_T_ERR_INVALID;
  Registration fresh;
  if (int r = info_arg(info, &fresh.info)) return r;
  auto& R = regs();
  int index;
  if (!R.free.empty()) {
    index = R.free.back();
    R.free.pop_back();
  } else {
    if (R.slots.size() >= 0xFFFF) return MPI_T_ERR_OUT_OF_HANDLES;
    index = static_cast<int>(R.slots.size());
    R.slots.emplace_back();
  }
  Registration& slot = R.slots[static_cast<std::size_t>(index)];
  fresh.event = event_index;
  fresh.gen = (slot.gen + 1) & 0xFFF;
  fresh.live = true;
  slot = std::move(fresh);
  core::rt().event_sink = &sink;
  *event_registration = kRegTag | static_cast<int>(slot.gen << 16) | index;
  return MPI_SUCCESS;
}

int MPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info) {
  Entry e;
  if (int r = e.initialized()) return r;
  Registration* g = reg_of(event_registration);
  if (!g) return MPI_T_ERR_INVALID_HANDLE;
  return info_arg(info, &g->info);
}

int MPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info* info_used) {
  Entry e;
  if (int r = e.initialized()) return r;
  Registration* g = reg_of(event_registration);
  if (!g) return MPI_T_ERR_INVALID_HANDLE;
  if (info_used == nullptr) return MPI_T_ERR_INVALID;
  return new_info(g->info, info_used);
}

int MPI_T_event_register_callback(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                  MPI_Info info, void* user_data, MPI_T_event_cb_function* event_cb_function) {
  Entry e;
  if (int r = e.initialized()) return r;
  Registration* g = reg_of(event_registration);
  if (!g) return MPI_T_ERR_INVALID_HANDLE;
  if (!safety_ok(cb_safety)) return MPI_T_ERR_INVALID;
  Callback cb;
  if (int r = info_arg(info, &cb.info)) return r;
  // A null function takes the callback of that level away.
  cb.fn = event_cb_function;
  cb.user_data = user_data;
  g->callbacks[cb_safety] = std::move(cb);
  refresh_mask();
  return MPI_SUCCESS;
}

int MPI_T_event_callback_set_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                  MPI_Info info) {
  Entry e;
  if (int r = e.initialized()) return r;
  Registration* g = reg_of(event_registration);
  if (!g) return MPI_T_ERR_INVALID_HANDLE;
  if (!safety_ok(cb_safety)) return MPI_T_ERR_INVALID;
  return info_arg(info, &g->callbacks[cb_safety].info);
}

int MPI_T_event_callback_get_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                  MPI_Info* info_used) {
  Entry e;
  if (int r = e.initialized()) return r;
  Registration* g = reg_of(event_registration);
  if (!g) return MPI_T_ERR_INVALID_HANDLE;
  if (!safety_ok(cb_safety) || info_used == nullptr) return MPI_T_ERR_INVALID;
  return new_info(g->callbacks[cb_safety].info, info_used);
}

int MPI_T_event_handle_free(MPI_T_event_registration event_registration, void* user_data,
                            MPI_T_event_free_cb_function* free_cb_function) {
  {
    Entry e;
    if (int r = e.initialized()) return r;
    Registration* g = reg_of(event_registration);
    if (!g) return MPI_T_ERR_INVALID_HANDLE;
    const std::uint32_t gen = g->gen;
    *g = Registration{};
    g->gen = gen;  // the next registration in this slot gets gen + 1
    regs().free.push_back(event_registration & 0xFFFF);
    refresh_mask();
  }
  // No callback of it can run any more: it is safe to free now (§15.3.8.2).
  // Called outside the tool lock, with no requirement (this is a plain call
  // of the tool's own thread).
  if (free_cb_function) free_cb_function(event_registration, MPI_T_CB_REQUIRE_NONE, user_data);
  return MPI_SUCCESS;
}

int MPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                    MPI_T_event_dropped_cb_function* dropped_cb_function) {
  Entry e;
  if (int r = e.initialized()) return r;
  Registration* g = reg_of(event_registration);
  if (!g) return MPI_T_ERR_INVALID_HANDLE;
  g->dropped = dropped_cb_function;  // never called: events are not buffered, so none is dropped
  return MPI_SUCCESS;
}

int MPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void* buffer) {
  Entry e;
  if (int r = e.initialized()) return r;
  const Instance* in;
  if (int r = instance_of(event_instance, &in)) return r;
  if (element_index < 0 || element_index >= kTypes[in->event].num_elements) return MPI_T_ERR_INVALID_INDEX;
  if (buffer == nullptr) return MPI_T_ERR_INVALID;
  std::memcpy(buffer, &in->data[element_index], sizeof(std::int64_t));
  return MPI_SUCCESS;
}

int MPI_T_event_copy(MPI_T_event_instance event_instance, void* buffer) {
  Entry e;
  if (int r = e.initialized()) return r;
  const Instance* in;
  if (int r = instance_of(event_instance, &in)) return r;
  if (buffer == nullptr) return MPI_T_ERR_INVALID;
  // The elements at the displacements MPI_T_event_get_info gives.
  std::memcpy(buffer, in->data, sizeof(std::int64_t) * static_cast<std::size_t>(kTypes[in->event].num_elements));
  return MPI_SUCCESS;
}

int MPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count* event_timestamp) {
  Entry e;
  if (int r = e.initialized()) return r;
  const Instance* in;
  if (int r = instance_of(event_instance, &in)) return r;
  if (event_timestamp == nullptr) return MPI_T_ERR_INVALID;
  *event_timestamp = in->time;
  return MPI_SUCCESS;
}

int MPI_T_event_get_source(MPI_T_event_instance event_instance, int* source_index) {
  Entry e;
  if (int r = e.initialized()) return r;
  const Instance* in;
  if (int r = instance_of(event_instance, &in)) return r;
  if (source_index == nullptr) return MPI_T_ERR_INVALID;
  *source_index = 0;
  return MPI_SUCCESS;
}

int MPI_T_category_get_num_events(int cat_index, int* num_events) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (cat_index < 0 || cat_index >= tool::category_count()) return MPI_T_ERR_INVALID_INDEX;
  if (num_events == nullptr) return MPI_T_ERR_INVALID;
  int n = 0;
  for (const EventType& t : kTypes) n += t.category == cat_index;
  *num_events = n;
  return MPI_SUCCESS;
}

int MPI_T_category_get_events(int cat_index, int len, int indices[]) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (cat_index < 0 || cat_index >= tool::category_count()) return MPI_T_ERR_INVALID_INDEX;
  if (len < 0 || (len > 0 && indices == nullptr)) return MPI_T_ERR_INVALID;
  int k = 0;
  for (int i = 0; i < core::kEvents && k < len; ++i)
    if (kTypes[i].category == cat_index) indices[k++] = i;
  return MPI_SUCCESS;
}

}  // extern "C"
