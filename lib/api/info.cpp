// Info objects (MPI-3.1 chapter 9): MPI_Info_create ... MPI_Info_free and
// the predefined MPI_INFO_ENV (the logic is in lib/core/info.cpp).
#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>

#include "api/call.hpp"
#include "api/info_args.hpp"
#include "core/info.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

// The info behind h (MPI_INFO_ENV included), or an MPI_ERR_INFO failure.
int info_arg(Call& call, MPI_Info h, const char* arg, core::Info** out) {
  *out = core::info_state().table.get(h);
  if (*out) return MPI_SUCCESS;
  if (h == MPI_INFO_NULL) return call.fail(MPI_ERR_INFO, "argument %s is MPI_INFO_NULL", arg);
  return call.fail(MPI_ERR_INFO, "argument %s=0x%x is not a valid info object (freed, or not an info handle)", arg,
                   static_cast<unsigned>(h));
}

// A key argument: not NULL, 1..MPI_MAX_INFO_KEY characters once stripped.
int key_arg(Call& call, const char* key, std::string* out) {
  if (key == nullptr) return call.fail(MPI_ERR_INFO_KEY, "argument key is NULL");
  *out = core::strip(key);
  if (out->empty()) return call.fail(MPI_ERR_INFO_KEY, "argument key is empty");
  if (out->size() > MPI_MAX_INFO_KEY)
    return call.fail(MPI_ERR_INFO_KEY, "argument key is longer than MPI_MAX_INFO_KEY (%d characters)",
                     MPI_MAX_INFO_KEY);
  return MPI_SUCCESS;
}

}  // namespace

namespace ringmpi::api {

int new_info_handle(Call& call, std::unique_ptr<core::Info> info, MPI_Info* out) {
  const int h = core::info_state().table.add(std::move(info));
  if (h == MPI_INFO_NULL) return call.fail(MPI_ERR_INTERN, "2^20 info objects are live; free some with MPI_Info_free");
  *out = h;
  return MPI_SUCCESS;
}

bool hint_is_true(MPI_Info h, const char* key) {
  const core::Info* in = h == MPI_INFO_NULL ? nullptr : core::info_state().table.get(h);
  const std::string* v = in ? in->find(key) : nullptr;
  if (!v || v->size() != 4) return false;
  std::string lower = *v;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower == "true";
}

}  // namespace ringmpi::api

extern "C" {

int MPI_Info_create(MPI_Info* info) {
  Call call("MPI_Info_create");
  if (int e = call.not_null(info, "info")) return e;
  return api::new_info_handle(call, std::make_unique<core::Info>(), info);
}

int MPI_Info_set(MPI_Info info, const char* key, const char* value) {
  Call call("MPI_Info_set");
  core::Info* in;
  std::string k;
  if (int e = info_arg(call, info, "info", &in)) return e;
  if (core::info_state().table.is_predefined(info))
    return call.fail(MPI_ERR_INFO, "argument info is MPI_INFO_ENV, which cannot be changed");
  if (int e = key_arg(call, key, &k)) return e;
  if (value == nullptr) return call.fail(MPI_ERR_INFO_VALUE, "argument value is NULL");
  std::string v = core::strip(value);
  if (v.empty()) return call.fail(MPI_ERR_INFO_VALUE, "argument value is empty");
  if (v.size() > MPI_MAX_INFO_VAL)
    return call.fail(MPI_ERR_INFO_VALUE, "argument value has %zu characters, more than MPI_MAX_INFO_VAL (%d)",
                     v.size(), MPI_MAX_INFO_VAL);
  in->set(std::move(k), std::move(v));
  return MPI_SUCCESS;
}

int MPI_Info_delete(MPI_Info info, const char* key) {
  Call call("MPI_Info_delete");
  core::Info* in;
  std::string k;
  if (int e = info_arg(call, info, "info", &in)) return e;
  if (core::info_state().table.is_predefined(info))
    return call.fail(MPI_ERR_INFO, "argument info is MPI_INFO_ENV, which cannot be changed");
  if (int e = key_arg(call, key, &k)) return e;
  if (!in->erase(k)) return call.fail(MPI_ERR_INFO_NOKEY, "key \"%s\" is not in the info object", k.c_str());
  return MPI_SUCCESS;
}

int MPI_Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag) {
  Call call("MPI_Info_get");
  core::Info* in;
  std::string k;
  if (int e = info_arg(call, info, "info", &in)) return e;
  if (int e = key_arg(call, key, &k)) return e;
  if (valuelen < 0) return call.fail(MPI_ERR_ARG, "argument valuelen=%d is negative", valuelen);
  if (int e = call.not_null(flag, "flag")) return e;
  const std::string* v = in->find(k);
  *flag = v != nullptr;
  if (!v) return MPI_SUCCESS;
  if (int e = call.not_null(value, "value")) return e;
  // At most valuelen characters and a terminating NUL (value holds valuelen + 1).
  const std::size_t n = std::min(v->size(), static_cast<std::size_t>(valuelen));
  std::memcpy(value, v->data(), n);
  value[n] = '\0';
  return MPI_SUCCESS;
}

int MPI_Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag) {
  Call call("MPI_Info_get_valuelen");
  core::Info* in;
  std::string k;
  if (int e = info_arg(call, info, "info", &in)) return e;
  if (int e = key_arg(call, key, &k)) return e;
  if (int e = call.not_null(valuelen, "valuelen")) return e;
  if (int e = call.not_null(flag, "flag")) return e;
  const std::string* v = in->find(k);
  *flag = v != nullptr;
  if (v) *valuelen = static_cast<int>(v->size());
  return MPI_SUCCESS;
}

int MPI_Info_get_nkeys(MPI_Info info, int* nkeys) {
  Call call("MPI_Info_get_nkeys");
  core::Info* in;
  if (int e = info_arg(call, info, "info", &in)) return e;
  if (int e = call.not_null(nkeys, "nkeys")) return e;
  *nkeys = static_cast<int>(in->entries.size());
  return MPI_SUCCESS;
}

int MPI_Info_get_nthkey(MPI_Info info, int n, char* key) {
  Call call("MPI_Info_get_nthkey");
  core::Info* in;
  if (int e = info_arg(call, info, "info", &in)) return e;
  const int nkeys = static_cast<int>(in->entries.size());
  if (n < 0 || n >= nkeys)
    return call.fail(MPI_ERR_ARG, "argument n=%d is outside 0..%d (the info object has %d keys)", n, nkeys - 1, nkeys);
  if (int e = call.not_null(key, "key")) return e;
  const std::string& k = in->entries[static_cast<std::size_t>(n)].first;
  std::memcpy(key, k.c_str(), k.size() + 1);
  return MPI_SUCCESS;
}

int MPI_Info_dup(MPI_Info info, MPI_Info* newinfo) {
  Call call("MPI_Info_dup");
  core::Info* in;
  if (int e = info_arg(call, info, "info", &in)) return e;
  if (int e = call.not_null(newinfo, "newinfo")) return e;
  return api::new_info_handle(call, std::make_unique<core::Info>(*in), newinfo);
}

int MPI_Info_free(MPI_Info* info) {
  Call call("MPI_Info_free");
  if (int e = call.not_null(info, "info")) return e;
  core::Info* in;
  if (int e = info_arg(call, *info, "info", &in)) return e;
  if (core::info_state().table.is_predefined(*info))
    return call.fail(MPI_ERR_INFO, "argument info is MPI_INFO_ENV, which cannot be freed");
  core::info_state().table.remove(*info);
  *info = MPI_INFO_NULL;
  return MPI_SUCCESS;
}

}  // extern "C"
