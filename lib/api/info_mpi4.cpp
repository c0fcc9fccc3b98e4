// Info calls of MPI-4.0/4.1: MPI_Info_create_env (§11.4.3), MPI_Info_get_string
// (§10.3, the form that replaces MPI_Info_get/_get_valuelen) and
// MPI_Get_hw_resource_info (4.1 §11.4.2). Usable before MPI_Init and after
// MPI_Finalize, as the standard allows for info calls.
#include <algorithm>
#include <cstring>
#include <string>

#include "api/call.hpp"
#include "api/info_args.hpp"
#include "comm/hw_levels.hpp"
#include "core/info.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace {

// MPI_Get_hw_resource_info's answer (MPI-4.1 §11.4.2 leaves the keys to the
// implementation): where this process is, as hwloc sees the machine. For
// every level from the machine down to the PU, key "hwloc://<Type>" (the
// value MPI_COMM_TYPE_HW_GUIDED takes for mpi_hw_resource_type) with value
// "<index>/<count>": this process's object there (logical index) and how
// many the machine has; "mpi_hw_resource_types" lists the levels, outermost
// first, separated by commas.
core::Info hw_resource_info() {
  core::Info in;
  std::string types;
  for (const comm::HwLevel& l : comm::this_process_levels()) {
    const std::string key = "hwloc://" + l.type;
    if (in.find(key)) continue;  // a type on two levels (Group): the outer one
    in.set(key, std::to_string(l.index) + "/" + std::to_string(l.count));
    types += (types.empty() ? "" : ",") + key;
  }
  if (!types.empty()) in.set("mpi_hw_resource_types", types.substr(0, MPI_MAX_INFO_VAL));
  return in;
}

}  // namespace

extern "C" {

int MPI_Info_create_env(int argc, char* argv[], MPI_Info* info) {
  Call call("MPI_Info_create_env");
  if (int e = call.not_null(info, "info")) return e;
  if (argc < 0) return call.fail(MPI_ERR_ARG, "argument argc=%d is negative", argc);
  if (argc > 0 && argv == nullptr) return call.fail(MPI_ERR_ARG, "argument argv is NULL with argc=%d", argc);
  // The same keys as MPI_INFO_ENV (core/info.cpp); "command" and "argv" from
  // the arguments when the program passes them (the standard lets an
  // implementation use them as MPI_Init would).
  const core::Info* env = core::info_state().table.get(MPI_INFO_ENV);
  auto out = std::make_unique<core::Info>(env ? *env : core::Info{});
  if (argc > 0 && argv[0]) {
    out->set("command", argv[0]);
    std::string rest;
    for (int i = 1; i < argc && argv[i]; ++i) rest += (i > 1 ? " " : "") + std::string(argv[i]);
    if (!rest.empty())
      out->set("argv", rest.substr(0, MPI_MAX_INFO_VAL));
    else
      out->erase("argv");
  }
  return api::new_info_handle(call, std::move(out), info);
}

int MPI_Info_get_string(MPI_Info info, const char* key, int* buflen, char* value, int* flag) {
  Call call("MPI_Info_get_string");
  const core::Info* in = core::info_state().table.get(info);
  if (!in) {
    if (info == MPI_INFO_NULL) return call.fail(MPI_ERR_INFO, "argument info is MPI_INFO_NULL");
    return call.fail(MPI_ERR_INFO, "argument info=0x%x is not a valid info object (freed, or not an info handle)",
                     static_cast<unsigned>(info));
  }
  if (key == nullptr) return call.fail(MPI_ERR_INFO_KEY, "argument key is NULL");
  const std::string k = core::strip(key);
  if (k.empty()) return call.fail(MPI_ERR_INFO_KEY, "argument key is empty");
  if (k.size() > MPI_MAX_INFO_KEY)
    return call.fail(MPI_ERR_INFO_KEY, "argument key is longer than MPI_MAX_INFO_KEY (%d characters)",
                     MPI_MAX_INFO_KEY);
  if (int e = call.not_null(buflen, "buflen")) return e;
  if (*buflen < 0) return call.fail(MPI_ERR_ARG, "argument *buflen=%d is negative", *buflen);
  if (int e = call.not_null(flag, "flag")) return e;
  const std::string* v = in->find(k);
  *flag = v != nullptr;
  if (!v) return MPI_SUCCESS;  // buflen and value unchanged (§10.3)
  // At most *buflen - 1 characters and the NUL; *buflen becomes the size
  // the whole value needs, NUL included.
  if (*buflen > 0) {
    if (int e = call.not_null(value, "value")) return e;
    const std::size_t n = std::min(v->size(), static_cast<std::size_t>(*buflen - 1));
    std::memcpy(value, v->data(), n);
    value[n] = '\0';
  }
  *buflen = static_cast<int>(v->size()) + 1;
  return MPI_SUCCESS;
}

int MPI_Get_hw_resource_info(MPI_Info* hw_info) {
  Call call("MPI_Get_hw_resource_info");
  if (int e = call.not_null(hw_info, "hw_info")) return e;
  return api::new_info_handle(call, std::make_unique<core::Info>(hw_resource_info()), hw_info);
}

}  // extern "C"
