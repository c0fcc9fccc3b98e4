// The events of the tool information interface (MPI-4.0 §15.3.8) and their
// sources. ringmpi defines no event types: MPI_T_event_get_num and
// MPI_T_source_get_num answer 0 and every category has no events, so each
// call that names an event, a source, a registration or an instance gets
// the standard's answer for one that does not exist (MPI_T_ERR_INVALID_INDEX,
// _INVALID_NAME, _INVALID_HANDLE). Why none: an event's callback runs inside
// the MPI call that raised it, and the places worth reporting (a ring found
// full, a rendezvous started, a shared segment attached) are inside the
// progress engine, which must not be re-entered (p2p/extension.cpp) and
// holds the call lock at MPI_THREAD_MULTIPLE; docs/guide/mpi4.md says more.
// The performance variables (tool_pvar.cpp) count the same things.
#include "api/tool.hpp"

using namespace ringmpi::api;
using ringmpi::api::tool::Entry;

namespace {

// No registration or instance handle is ever handed out: every one is invalid.
int no_handle(const Entry& e) {
  if (int r = e.initialized()) return r;
  return MPI_T_ERR_INVALID_HANDLE;
}

}  // namespace

extern "C" {

int MPI_T_source_get_num(int* num_sources) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (num_sources == nullptr) return MPI_T_ERR_INVALID;
  *num_sources = 0;
  return MPI_SUCCESS;
}

int MPI_T_source_get_info(int, char*, int*, char*, int*, MPI_T_source_order*, MPI_Count*, MPI_Count*, MPI_Info*) {
  Entry e;
  if (int r = e.initialized()) return r;
  return MPI_T_ERR_INVALID_INDEX;
}

int MPI_T_source_get_timestamp(int, MPI_Count*) {
  Entry e;
  if (int r = e.initialized()) return r;
  return MPI_T_ERR_INVALID_INDEX;
}

int MPI_T_event_get_num(int* num_events) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (num_events == nullptr) return MPI_T_ERR_INVALID;
  *num_events = 0;
  return MPI_SUCCESS;
}

int MPI_T_event_get_info(int, char*, int*, int*, MPI_Datatype[], MPI_Aint[], int*, MPI_T_enum*, MPI_Info*, char*,
                         int*, int*) {
  Entry e;
  if (int r = e.initialized()) return r;
  return MPI_T_ERR_INVALID_INDEX;
}

int MPI_T_event_get_index(const char* name, int* event_index) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (name == nullptr || event_index == nullptr) return MPI_T_ERR_INVALID;
  return MPI_T_ERR_INVALID_NAME;
}

int MPI_T_event_handle_alloc(int, void*, MPI_Info, MPI_T_event_registration*) {
  Entry e;
  if (int r = e.initialized()) return r;
  return MPI_T_ERR_INVALID_INDEX;
}

int MPI_T_event_handle_set_info(MPI_T_event_registration, MPI_Info) { return no_handle(Entry{}); }
int MPI_T_event_handle_get_info(MPI_T_event_registration, MPI_Info*) { return no_handle(Entry{}); }
int MPI_T_event_register_callback(MPI_T_event_registration, MPI_T_cb_safety, MPI_Info, void*,
                                  MPI_T_event_cb_function*) {
  return no_handle(Entry{});
}
int MPI_T_event_callback_set_info(MPI_T_event_registration, MPI_T_cb_safety, MPI_Info) { return no_handle(Entry{}); }
int MPI_T_event_callback_get_info(MPI_T_event_registration, MPI_T_cb_safety, MPI_Info*) { return no_handle(Entry{}); }
int MPI_T_event_handle_free(MPI_T_event_registration, void*, MPI_T_event_free_cb_function*) {
  return no_handle(Entry{});
}
int MPI_T_event_set_dropped_handler(MPI_T_event_registration, MPI_T_event_dropped_cb_function*) {
  return no_handle(Entry{});
}
int MPI_T_event_read(MPI_T_event_instance, int, void*) { return no_handle(Entry{}); }
int MPI_T_event_copy(MPI_T_event_instance, void*) { return no_handle(Entry{}); }
int MPI_T_event_get_timestamp(MPI_T_event_instance, MPI_Count*) { return no_handle(Entry{}); }
int MPI_T_event_get_source(MPI_T_event_instance, int*) { return no_handle(Entry{}); }

int MPI_T_category_get_num_events(int cat_index, int* num_events) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (cat_index < 0 || cat_index >= tool::category_count()) return MPI_T_ERR_INVALID_INDEX;
  if (num_events == nullptr) return MPI_T_ERR_INVALID;
  *num_events = 0;
  return MPI_SUCCESS;
}

int MPI_T_category_get_events(int cat_index, int len, int indices[]) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (cat_index < 0 || cat_index >= tool::category_count()) return MPI_T_ERR_INVALID_INDEX;
  if (len < 0 || (len > 0 && indices == nullptr)) return MPI_T_ERR_INVALID;
  return MPI_SUCCESS;  // no events: nothing to write
}

}  // extern "C"
