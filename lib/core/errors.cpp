#include "core/errors.hpp"

#include "core/attributes.hpp"
#include "core/runtime.hpp"
#include "mpi.h"

namespace ringmpi::core {
namespace {
struct ClassInfo {
  const char* name;
  const char* text;
};
const ClassInfo kClasses[] = {
    {"MPI_SUCCESS", "no error"},
    {"MPI_ERR_BUFFER", "invalid buffer pointer"},
    {"MPI_ERR_COUNT", "invalid count argument"},
    {"MPI_ERR_TYPE", "invalid datatype"},
    {"MPI_ERR_TAG", "invalid tag argument"},
    {"MPI_ERR_COMM", "invalid communicator"},
    {"MPI_ERR_RANK", "invalid rank"},
    {"MPI_ERR_REQUEST", "invalid request (handle)"},
    {"MPI_ERR_ROOT", "invalid root"},
    {"MPI_ERR_GROUP", "invalid group"},
    {"MPI_ERR_OP", "invalid operation"},
    {"MPI_ERR_TOPOLOGY", "invalid topology"},
    {"MPI_ERR_DIMS", "invalid dimension argument"},
    {"MPI_ERR_ARG", "invalid argument of some other kind"},
    {"MPI_ERR_UNKNOWN", "unknown error"},
    {"MPI_ERR_TRUNCATE", "message truncated on receive"},
    {"MPI_ERR_OTHER", "known error not in this list"},
    {"MPI_ERR_INTERN", "internal MPI (implementation) error"},
    {"MPI_ERR_IN_STATUS", "error code is in status"},
    {"MPI_ERR_PENDING", "pending request"},
    {"MPI_ERR_KEYVAL", "invalid keyval"},
    {"MPI_ERR_NO_MEM", "out of memory"},
    {"MPI_ERR_BASE", "invalid base address"},
    {"MPI_ERR_INFO_KEY", "info key too long"},
    {"MPI_ERR_INFO_VALUE", "info value too long"},
    {"MPI_ERR_INFO_NOKEY", "info key not defined"},
    {"MPI_ERR_SPAWN", "error in spawning processes"},
    {"MPI_ERR_PORT", "invalid port name"},
    {"MPI_ERR_SERVICE", "invalid service name"},
    {"MPI_ERR_NAME", "invalid service name in lookup"},
    {"MPI_ERR_WIN", "invalid window"},
    {"MPI_ERR_SIZE", "invalid size"},
    {"MPI_ERR_DISP", "invalid displacement"},
    {"MPI_ERR_INFO", "invalid info object"},
    {"MPI_ERR_LOCKTYPE", "invalid lock type"},
    {"MPI_ERR_ASSERT", "invalid assert"},
    {"MPI_ERR_RMA_CONFLICT", "conflicting accesses to window"},
    {"MPI_ERR_RMA_SYNC", "wrong synchronization of RMA calls"},
    {"MPI_ERR_FILE", "invalid file handle"},
    {"MPI_ERR_NOT_SAME", "collective argument not identical on all processes"},
    {"MPI_ERR_AMODE", "invalid file access mode"},
    {"MPI_ERR_UNSUPPORTED_DATAREP", "unsupported data representation"},
    {"MPI_ERR_UNSUPPORTED_OPERATION", "operation not supported"},
    {"MPI_ERR_NO_SUCH_FILE", "file does not exist"},
    {"MPI_ERR_FILE_EXISTS", "file exists"},
    {"MPI_ERR_BAD_FILE", "invalid file name"},
    {"MPI_ERR_ACCESS", "permission denied"},
    {"MPI_ERR_NO_SPACE", "not enough space"},
    {"MPI_ERR_QUOTA", "quota exceeded"},
    {"MPI_ERR_READ_ONLY", "read-only file or file system"},
    {"MPI_ERR_FILE_IN_USE", "file operation could not be completed: file in use"},
    {"MPI_ERR_DUP_DATAREP", "data representation identifier already registered"},
    {"MPI_ERR_CONVERSION", "error in a user data conversion function"},
    {"MPI_ERR_IO", "other I/O error"},
    {"MPI_ERR_RMA_RANGE", "target memory not part of the window"},
    {"MPI_ERR_RMA_ATTACH", "memory cannot be attached"},
    {"MPI_ERR_RMA_SHARED", "memory cannot be shared"},
    {"MPI_ERR_RMA_FLAVOR", "wrong window flavor"},
    // The tool information interface (MPI-3.1 Table 8.2), 58..73 in mpi.h.
    {"MPI_T_ERR_MEMORY", "out of memory (tool information interface)"},
    {"MPI_T_ERR_NOT_INITIALIZED", "tool information interface not initialized (MPI_T_init_thread)"},
    {"MPI_T_ERR_CANNOT_INIT", "tool information interface not in the state to be initialized"},
    {"MPI_T_ERR_INVALID_INDEX", "invalid index of a variable or category"},
    {"MPI_T_ERR_INVALID_ITEM", "item index queried is out of range"},
    {"MPI_T_ERR_INVALID_HANDLE", "invalid handle (tool information interface)"},
    {"MPI_T_ERR_OUT_OF_HANDLES", "no more handles available"},
    {"MPI_T_ERR_OUT_OF_SESSIONS", "no more performance experiment sessions available"},
    {"MPI_T_ERR_INVALID_SESSION", "invalid performance experiment session"},
    {"MPI_T_ERR_CVAR_SET_NOT_NOW", "control variable cannot be set at this moment"},
    {"MPI_T_ERR_CVAR_SET_NEVER", "control variable cannot be set until the end of execution"},
    {"MPI_T_ERR_PVAR_NO_STARTSTOP", "performance variable cannot be started or stopped"},
    {"MPI_T_ERR_PVAR_NO_WRITE", "performance variable cannot be written or reset"},
    {"MPI_T_ERR_PVAR_NO_ATOMIC", "performance variable cannot be read and written atomically"},
    {"MPI_T_ERR_INVALID_NAME", "no variable or category of that name"},
    {"MPI_T_ERR_INVALID", "invalid use of the tool information interface or bad parameter value"},
    // MPI-4.0 / 4.1
    {"MPI_ERR_SESSION", "invalid session handle"},
    {"MPI_ERR_PROC_ABORTED", "operation failed because a peer process has aborted"},
    {"MPI_ERR_VALUE_TOO_LARGE", "a value is too large to be stored in the output argument"},
    {"MPI_ERR_ERRHANDLER", "invalid error handler"},
    {"MPI_T_ERR_NOT_ACCESSIBLE", "the requested information is not accessible"},
    {"MPI_T_ERR_NOT_SUPPORTED", "the requested functionality is not supported"},
};
constexpr int kNumClasses = sizeof(kClasses) / sizeof(kClasses[0]);
static_assert(kNumClasses == MPI_T_ERR_NOT_SUPPORTED + 1 && kNumClasses <= MPI_ERR_LASTCODE + 1,
              "kClasses lists every predefined class of mpi.h, in the order of their values");
}  // namespace

ErrorRegistry& errors() {
  auto& p = rt().errors;
  if (!p) p = std::make_unique<ErrorRegistry>();
  return *p;
}

int error_class_of(int code) {
  if (code >= 0 && code < kNumClasses && kClasses[code].name) return code;
  if (code > MPI_ERR_LASTCODE) {
    const auto i = static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1);
    if (i < errors().added.size()) return errors().added[i].error_class;  // -1 once removed
  }
  return -1;
}

std::string error_class_name(int c) {
  if (c >= 0 && c < kNumClasses && kClasses[c].name) return kClasses[c].name;
  return "user-defined error class " + std::to_string(c);
}

std::string error_string(int code) {
  if (code >= 0 && code < kNumClasses && kClasses[code].text) return kClasses[code].text;
  if (code > MPI_ERR_LASTCODE) {
    const auto i = static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1);
    if (i < errors().added.size()) return errors().added[i].text;
  }
  return "invalid error code " + std::to_string(code);
}

int last_used_code() { return MPI_ERR_LASTCODE + static_cast<int>(errors().added.size()); }

bool is_error_class(int c) {
  if (c >= 0 && c < kNumClasses) return kClasses[c].name != nullptr;
  return is_user_code(c) && error_class_of(c) == c;
}

bool is_user_code(int code) {
  return code > MPI_ERR_LASTCODE && static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1) < errors().added.size() &&
         errors().added[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)].error_class >= 0;
}

namespace {
// Generous: user codes are counted in the thousands at most; the cap keeps
// every code a positive int.
constexpr std::size_t kMaxAdded = 1u << 20;

int add(int error_class_or_self) {
  auto& added = errors().added;
  if (added.size() >= kMaxAdded) return -1;
  const int code = last_used_code() + 1;
  added.push_back({error_class_or_self < 0 ? code : error_class_or_self, std::string()});
  refresh_environment_attributes();
  return code;
}
}  // namespace

int add_error_class() { return add(-1); }

int add_error_code(int error_class) { return add(error_class); }

void set_error_string(int code, std::string text) {
  errors().added[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)].text = std::move(text);
}

bool has_error_string(int code) {
  return !errors().added[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)].text.empty();
}

bool class_has_codes(int error_class) {
  const auto& added = errors().added;
  for (std::size_t i = 0; i < added.size(); ++i)
    if (added[i].error_class == error_class && static_cast<int>(i) + MPI_ERR_LASTCODE + 1 != error_class) return true;
  return false;
}

void remove_error(int code) {
  auto& added = errors().added;
  added[static_cast<std::size_t>(code - MPI_ERR_LASTCODE - 1)] = {-1, std::string()};
  // The highest values free again: MPI_LASTUSEDCODE goes back down past them.
  while (!added.empty() && added.back().error_class < 0) added.pop_back();
  refresh_environment_attributes();
}

}  // namespace ringmpi::core
