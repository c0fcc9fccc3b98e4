// The tool information interface (MPI-3.1 §14.3): initialization, strings,
// enumerations, control variables and categories. Performance variables and
// their sessions: tool_pvar.cpp; the variables themselves: tool_catalogue.cpp.
#include <cstring>
#include <memory>

#include "api/tool.hpp"
#include "core/handle.hpp"

namespace ringmpi::api::tool {
namespace {

// A function-local static: MPI_T may be called from another static
// constructor, before this file's globals would be made.
std::mutex& tool_mutex() {
  static std::mutex m;
  return m;
}

// A control variable handle: which variable (§14.3.6.2). Every variable is
// bound to no object, so there is nothing else to remember.
struct CvarHandle {
  int index;
};
core::HandleTable<CvarHandle>& cvar_handles() {
  static core::HandleTable<CvarHandle> t(core::Kind::t_cvar);
  return t;
}

// Index arguments of the get_info and get_* functions.
bool cvar_index_ok(int i) { return i >= 0 && i < cvar_count(); }
bool category_index_ok(int i) { return i >= 0 && i < category_count(); }

// MPI_T_category_get_cvars/pvars/categories: the first `len` of `all`.
int put_indices(const std::vector<int>& all, int len, int indices[]) {
  if (len < 0 || (len > 0 && indices == nullptr)) return MPI_T_ERR_INVALID;
  const std::size_t n = std::min(all.size(), static_cast<std::size_t>(len));
  for (std::size_t i = 0; i < n; ++i) indices[i] = all[i];
  return MPI_SUCCESS;
}

}  // namespace

Entry::Entry() { tool_mutex().lock(); }
Entry::~Entry() { tool_mutex().unlock(); }
int Entry::initialized() const { return init_count() > 0 ? MPI_SUCCESS : MPI_T_ERR_NOT_INITIALIZED; }

int& init_count() {
  static int n = 0;
  return n;
}

void clear_cvar_handles() {
  auto& t = cvar_handles();
  std::vector<int> live;
  t.for_each([&live](int h, const CvarHandle&) { live.push_back(h); });
  for (int h : live) t.remove(h);
}

void put_string(std::string_view s, char* buf, int* len) {
  if (len == nullptr) return;
  if (buf != nullptr && *len > 0) {
    const std::size_t n = std::min(s.size(), static_cast<std::size_t>(*len - 1));
    std::memcpy(buf, s.data(), n);
    buf[n] = '\0';
  }
  *len = static_cast<int>(s.size()) + 1;
}

}  // namespace ringmpi::api::tool

using namespace ringmpi;
using api::tool::Entry;
namespace tool = api::tool;

extern "C" {

// §14.3.4: may be called before MPI_Init and after MPI_Finalize, any number
// of times; each call needs its MPI_T_finalize. Every MPI_T function holds
// one mutex, so every thread level is provided as asked (as MPI_Init_thread
// does).
int MPI_T_init_thread(int required, int* provided) {
  Entry e;
  if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE || provided == nullptr)
    return MPI_T_ERR_INVALID;
  ++tool::init_count();
  *provided = required;
  return MPI_SUCCESS;
}

// The last one forgets every handle and session: they are invalid from then
// on, also after a later MPI_T_init_thread (their generation moved on).
int MPI_T_finalize(void) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (--tool::init_count() == 0) {
    tool::clear_cvar_handles();
    tool::clear_pvar_sessions();
    tool::clear_event_registrations();
  }
  return MPI_SUCCESS;
}

// ---- enumerations (§14.3.5) -------------------------------------------------------

int MPI_T_enum_get_info(MPI_T_enum enumtype, int* num, char* name, int* name_len) {
  Entry e;
  if (int r = e.initialized()) return r;
  const tool::Enum* en = tool::enum_of(enumtype);
  if (en == nullptr) return MPI_T_ERR_INVALID_HANDLE;
  if (!tool::length_ok(name, name_len)) return MPI_T_ERR_INVALID;
  if (num) *num = static_cast<int>(en->items.size());
  tool::put_string(en->name, name, name_len);
  return MPI_SUCCESS;
}

int MPI_T_enum_get_item(MPI_T_enum enumtype, int index, int* value, char* name, int* name_len) {
  Entry e;
  if (int r = e.initialized()) return r;
  const tool::Enum* en = tool::enum_of(enumtype);
  if (en == nullptr) return MPI_T_ERR_INVALID_HANDLE;
  if (index < 0 || static_cast<std::size_t>(index) >= en->items.size()) return MPI_T_ERR_INVALID_ITEM;
  if (!tool::length_ok(name, name_len)) return MPI_T_ERR_INVALID;
  if (value) *value = index;
  tool::put_string(en->items[static_cast<std::size_t>(index)], name, name_len);
  return MPI_SUCCESS;
}

// ---- control variables (§14.3.6) ----------------------------------------------------

int MPI_T_cvar_get_num(int* num_cvar) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (num_cvar == nullptr) return MPI_T_ERR_INVALID;
  *num_cvar = tool::cvar_count();
  return MPI_SUCCESS;
}

// An OUT argument passed as NULL is not returned (MPI-3.1 §14.3.6.1).
int MPI_T_cvar_get_info(int cvar_index, char* name, int* name_len, int* verbosity, MPI_Datatype* datatype,
                        MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind, int* scope) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (!tool::cvar_index_ok(cvar_index)) return MPI_T_ERR_INVALID_INDEX;
  if (!tool::length_ok(name, name_len) || !tool::length_ok(desc, desc_len)) return MPI_T_ERR_INVALID;
  const tool::Cvar& v = tool::cvar(cvar_index);
  tool::put_string(v.name, name, name_len);
  tool::put_string(v.description, desc, desc_len);
  if (verbosity) *verbosity = v.verbosity;
  if (datatype) *datatype = v.datatype;
  if (enumtype) *enumtype = v.enumtype;
  if (bind) *bind = MPI_T_BIND_NO_OBJECT;
  if (scope) *scope = v.scope;
  return MPI_SUCCESS;
}

int MPI_T_cvar_get_index(const char* name, int* cvar_index) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (name == nullptr || cvar_index == nullptr) return MPI_T_ERR_INVALID;
  return tool::index_of(tool::cvar_count(), tool::cvar, name, cvar_index);
}

// Bound to no object: obj_handle is ignored (§14.3.6.2); one value each.
int MPI_T_cvar_handle_alloc(int cvar_index, void* /*obj_handle*/, MPI_T_cvar_handle* handle, int* count) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (!tool::cvar_index_ok(cvar_index)) return MPI_T_ERR_INVALID_INDEX;
  if (handle == nullptr || count == nullptr) return MPI_T_ERR_INVALID;
  const int h = tool::cvar_handles().add(std::make_unique<tool::CvarHandle>(tool::CvarHandle{cvar_index}));
  if (h == MPI_T_CVAR_HANDLE_NULL) return MPI_T_ERR_OUT_OF_HANDLES;
  *handle = h;
  *count = 1;
  return MPI_SUCCESS;
}

int MPI_T_cvar_handle_free(MPI_T_cvar_handle* handle) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (handle == nullptr) return MPI_T_ERR_INVALID;
  if (!tool::cvar_handles().remove(*handle)) return MPI_T_ERR_INVALID_HANDLE;
  *handle = MPI_T_CVAR_HANDLE_NULL;
  return MPI_SUCCESS;
}

int MPI_T_cvar_read(MPI_T_cvar_handle handle, void* buf) {
  Entry e;
  if (int r = e.initialized()) return r;
  const tool::CvarHandle* ch = tool::cvar_handles().get(handle);
  if (ch == nullptr) return MPI_T_ERR_INVALID_HANDLE;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  const std::uint64_t v = tool::cvar_value(ch->index);
  if (tool::cvar(ch->index).datatype == MPI_INT) {
    const int i = static_cast<int>(v);  // the range fits an int (tool_catalogue.cpp)
    std::memcpy(buf, &i, sizeof i);
  } else {
    const unsigned long long u = v;
    std::memcpy(buf, &u, sizeof u);
  }
  return MPI_SUCCESS;
}

// Every value but the collective algorithm settings is fixed when the job
// starts (mpiexec checks them all before it forks; layers read them once):
// those cannot be set for the rest of the run (§14.3.6.3:
// MPI_T_ERR_CVAR_SET_NEVER, not _NOT_NOW, which promises a later time). The
// collective settings (scope MPI_T_SCOPE_ALL_EQ) are written through
// tool::cvar_write (tool_catalogue.cpp).
int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void* buf) {
  Entry e;
  if (int r = e.initialized()) return r;
  const tool::CvarHandle* ch = tool::cvar_handles().get(handle);
  if (ch == nullptr) return MPI_T_ERR_INVALID_HANDLE;
  if (buf == nullptr) return MPI_T_ERR_INVALID;
  return tool::cvar_write(ch->index, buf);
}

// ---- categories (§14.3.8) --------------------------------------------------------------

int MPI_T_category_get_num(int* num_cat) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (num_cat == nullptr) return MPI_T_ERR_INVALID;
  *num_cat = tool::category_count();
  return MPI_SUCCESS;
}

int MPI_T_category_get_info(int cat_index, char* name, int* name_len, char* desc, int* desc_len, int* num_cvars,
                            int* num_pvars, int* num_categories) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (!tool::category_index_ok(cat_index)) return MPI_T_ERR_INVALID_INDEX;
  if (!tool::length_ok(name, name_len) || !tool::length_ok(desc, desc_len)) return MPI_T_ERR_INVALID;
  const tool::Category& c = tool::category(cat_index);
  tool::put_string(c.name, name, name_len);
  tool::put_string(c.description, desc, desc_len);
  if (num_cvars) *num_cvars = static_cast<int>(c.cvars.size());
  if (num_pvars) *num_pvars = static_cast<int>(c.pvars.size());
  if (num_categories) *num_categories = static_cast<int>(c.categories.size());
  return MPI_SUCCESS;
}

int MPI_T_category_get_index(const char* name, int* cat_index) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (name == nullptr || cat_index == nullptr) return MPI_T_ERR_INVALID;
  return tool::index_of(tool::category_count(), tool::category, name, cat_index);
}

int MPI_T_category_get_cvars(int cat_index, int len, int indices[]) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (!tool::category_index_ok(cat_index)) return MPI_T_ERR_INVALID_INDEX;
  return tool::put_indices(tool::category(cat_index).cvars, len, indices);
}

int MPI_T_category_get_pvars(int cat_index, int len, int indices[]) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (!tool::category_index_ok(cat_index)) return MPI_T_ERR_INVALID_INDEX;
  return tool::put_indices(tool::category(cat_index).pvars, len, indices);
}

int MPI_T_category_get_categories(int cat_index, int len, int indices[]) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (!tool::category_index_ok(cat_index)) return MPI_T_ERR_INVALID_INDEX;
  return tool::put_indices(tool::category(cat_index).categories, len, indices);
}

// The variables and categories never change while the process runs, so the
// stamp never does either (§14.3.8: it changes when categories are added).
int MPI_T_category_changed(int* stamp) {
  Entry e;
  if (int r = e.initialized()) return r;
  if (stamp == nullptr) return MPI_T_ERR_INVALID;
  *stamp = 0;
  return MPI_SUCCESS;
}

}  // extern "C"
