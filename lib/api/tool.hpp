// The tool information interface (MPI-3.1 §14.3): what the MPI_T_* entry
// points share.
//
//   tool_catalogue.cpp  the variables: one control variable per RINGMPI_*
//                       tunable (lib/tunables), one performance variable per
//                       path counter (core/counters.hpp), the enumerations
//                       and the categories;
//   tool.cpp            MPI_T_init_thread/finalize, enumerations, control
//                       variables, categories;
//   tool_pvar.cpp       sessions and performance variable handles;
//   tool_events.cpp     events, their source and registrations (MPI-4.0 §15.3.8).
//
// Rules every entry point follows (DESIGN.md, "The tool information
// interface"):
// - it builds a tool::Entry first: one process-wide mutex makes every MPI_T
//   function thread-safe whatever MPI's thread level (§14.3.4), and it is
//   usable before MPI_Init and after MPI_Finalize: only the MPI_T_init_thread
//   count decides (MPI_T_ERR_NOT_INITIALIZED when it is 0);
// - it returns an error class and never calls an error handler (§14.3.9):
//   it does not build an api::Call, so it is not the "current call" of the
//   deadlock report or the trace either;
// - it never calls another MPI_ or MPI_T_ function (lint-no-public-calls).
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "mpi.h"
#include "tunables/tunables.hpp"

namespace ringmpi::api::tool {

// ---- the lock and the init count ------------------------------------------

class Entry {
 public:
  Entry();
  ~Entry();
  Entry(const Entry&) = delete;
  Entry& operator=(const Entry&) = delete;
  // MPI_SUCCESS between MPI_T_init_thread and the matching MPI_T_finalize,
  // else MPI_T_ERR_NOT_INITIALIZED.
  int initialized() const;
};

// How many MPI_T_init_thread calls have no MPI_T_finalize yet (under the lock).
int& init_count();
// Forgets every handle and session: the last MPI_T_finalize (tool_pvar.cpp
// and tool.cpp own the tables; each clears its own).
void clear_cvar_handles();
void clear_pvar_sessions();
void clear_event_registrations();  // tool_events.cpp

// ---- strings (§14.3.3) --------------------------------------------------------

// Whether a (buffer, length) pair is acceptable: a negative length is a
// buffer size only when there is a buffer (with a NULL buffer only the length
// comes back, whatever it was).
inline bool length_ok(const char* buf, const int* len) { return buf == nullptr || len == nullptr || *len >= 0; }
// Returns `s` through (buf, len) as §14.3.3 says: len NULL returns nothing;
// buf NULL or *len 0 returns only the length; otherwise at most *len - 1
// characters and a NUL. *len becomes strlen(s) + 1 in both cases, also when
// the string was truncated. The caller checked length_ok(len).
void put_string(std::string_view s, char* buf, int* len);

// ---- the catalogue (tool_catalogue.cpp) ----------------------------------------

enum class CategoryId : int { all, p2p, collectives, runtime };

struct Cvar {
  tunables::Id id;
  std::string_view name;  // the environment variable
  std::string description;
  int verbosity;
  MPI_Datatype datatype;  // MPI_INT when the range fits an int, else MPI_UNSIGNED_LONG_LONG
  MPI_T_enum enumtype;    // MPI_T_ENUM_NULL, or the names of its values
  int scope;              // MPI_T_SCOPE_CONSTANT or MPI_T_SCOPE_READONLY
  CategoryId category;
};
int cvar_count();
const Cvar& cvar(int index);  // 0 <= index < cvar_count()
// The value this process runs with (tool_catalogue.cpp says which, per scope).
std::uint64_t cvar_value(int index);

struct Pvar {
  std::string_view name;  // the counter's name (MPIX_Query_counter takes the same)
  std::string_view description;
  int verbosity;
  CategoryId category;
  // MPI_T_BIND_NO_OBJECT, or MPI_T_BIND_MPI_COMM for the collective
  // algorithm counters (coll/select.hpp): calls of `family` on the
  // communicator that `algo` ran.
  int bind;
  int family;
  int algo;
};
int pvar_count();
const Pvar& pvar(int index);
std::uint64_t pvar_value(int index);  // the counter now (a bound one: the process's total)
// Control variables that MPI_T_cvar_write may set (scope MPI_T_SCOPE_ALL_EQ):
// MPI_SUCCESS or the MPI_T error class.
int cvar_write(int index, const void* buf);

struct Enum {
  std::string_view name;
  std::vector<std::string_view> items;  // item i has the value i
};
const Enum* enum_of(MPI_T_enum h);  // nullptr for MPI_T_ENUM_NULL and anything else

struct Category {
  std::string_view name;
  std::string_view description;
  std::vector<int> cvars, pvars, categories;
};
int category_count();
const Category& category(int index);

// MPI_T_*_get_index: the index i < n whose item(i).name is `name`, into
// *index; MPI_T_ERR_INVALID_NAME when none is.
template <class Item>
int index_of(int n, Item item, const char* name, int* index) {
  for (int i = 0; i < n; ++i)
    if (item(i).name == name) {
      *index = i;
      return MPI_SUCCESS;
    }
  return MPI_T_ERR_INVALID_NAME;
}

}  // namespace ringmpi::api::tool
