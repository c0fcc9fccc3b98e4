// Error classes, codes and strings (MPI-3.1 §8.4, §8.5). MPI_Error_string and
// MPI_Error_class work before MPI_Init too: they only read the registry.
#include <algorithm>
#include <cstring>

#include "api/call.hpp"
#include "core/errors.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

extern "C" {

int MPI_Error_string(int errorcode, char* string, int* resultlen) {
  Call call("MPI_Error_string");
  if (int e = call.not_null(string, "string")) return e;
  if (int e = call.not_null(resultlen, "resultlen")) return e;
  if (core::error_class_of(errorcode) < 0)
    return call.fail(MPI_ERR_ARG, "argument errorcode=%d is not a valid error code (neither predefined nor added "
                     "with MPI_Add_error_class/MPI_Add_error_code)", errorcode);
  const std::string text = core::error_string(errorcode);
  const std::size_t n = std::min(text.size(), static_cast<std::size_t>(MPI_MAX_ERROR_STRING - 1));
  std::memcpy(string, text.data(), n);
  string[n] = '\0';
  *resultlen = static_cast<int>(n);
  return MPI_SUCCESS;
}

int MPI_Error_class(int errorcode, int* errorclass) {
  Call call("MPI_Error_class");
  if (int e = call.not_null(errorclass, "errorclass")) return e;
  const int cls = core::error_class_of(errorcode);
  if (cls < 0)
    return call.fail(MPI_ERR_ARG, "argument errorcode=%d is not a valid error code (neither predefined nor added "
                     "with MPI_Add_error_class/MPI_Add_error_code)", errorcode);
  *errorclass = cls;
  return MPI_SUCCESS;
}

int MPI_Add_error_class(int* errorclass) {
  Call call("MPI_Add_error_class");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(errorclass, "errorclass")) return e;
  const int cls = core::add_error_class();
  if (cls < 0) return call.fail(MPI_ERR_OTHER, "too many error classes and codes were added (limit 2^20)");
  *errorclass = cls;
  return MPI_SUCCESS;
}

int MPI_Add_error_code(int errorclass, int* errorcode) {
  Call call("MPI_Add_error_code");
  if (int e = call.initialized()) return e;
  if (errorclass == MPI_SUCCESS)
    return call.fail(MPI_ERR_ARG, "argument errorclass is MPI_SUCCESS; an error code needs an error class");
  if (!core::is_error_class(errorclass))
    return call.fail(MPI_ERR_ARG, "argument errorclass=%d is not an error class (%s)", errorclass,
                     core::error_class_of(errorclass) < 0 ? "not a valid value at all"
                                                          : "it is an error code made by MPI_Add_error_code");
  if (int e = call.not_null(errorcode, "errorcode")) return e;
  const int code = core::add_error_code(errorclass);
  if (code < 0) return call.fail(MPI_ERR_OTHER, "too many error classes and codes were added (limit 2^20)");
  *errorcode = code;
  return MPI_SUCCESS;
}

int MPI_Add_error_string(int errorcode, const char* string) {
  Call call("MPI_Add_error_string");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(string, "string")) return e;
  if (!core::is_user_code(errorcode))
    return call.fail(MPI_ERR_ARG, "argument errorcode=%d %s", errorcode,
                     errorcode >= 0 && errorcode <= MPI_ERR_LASTCODE
                         ? "is predefined; only codes and classes added by the application can get a string"
                         : "is not an error code or class added with MPI_Add_error_class/MPI_Add_error_code");
  const std::size_t len = std::strlen(string);
  if (len >= MPI_MAX_ERROR_STRING)
    return call.fail(MPI_ERR_ARG, "argument string is %zu characters long; at most %d fit (MPI_MAX_ERROR_STRING "
                     "with the terminating NUL)", len, MPI_MAX_ERROR_STRING - 1);
  core::set_error_string(errorcode, string);
  return MPI_SUCCESS;
}

// MPI-4.1 §9.5: the inverses of MPI_Add_error_*. A class still in use (codes
// of it, or a string) and a code with a string are not removed: the standard
// makes that erroneous, and the call says which removal must come first.
int MPI_Remove_error_class(int errorclass) {
  Call call("MPI_Remove_error_class");
  if (int e = call.initialized()) return e;
  if (!core::is_user_code(errorclass) || !core::is_error_class(errorclass))
    return call.fail(MPI_ERR_ARG, "argument errorclass=%d %s", errorclass,
                     errorclass >= 0 && errorclass <= MPI_ERR_LASTCODE
                         ? "is predefined; only classes added with MPI_Add_error_class can be removed"
                     : core::is_user_code(errorclass)
                         ? "is an error code, not a class (remove it with MPI_Remove_error_code)"
                         : "is not an error class added with MPI_Add_error_class (or it was removed already)");
  if (core::class_has_codes(errorclass))
    return call.fail(MPI_ERR_ARG, "error class %d still has error codes; remove them with MPI_Remove_error_code first",
                     errorclass);
  if (core::has_error_string(errorclass))
    return call.fail(MPI_ERR_ARG, "error class %d still has an error string; remove it with MPI_Remove_error_string "
                     "first", errorclass);
  core::remove_error(errorclass);
  return MPI_SUCCESS;
}

int MPI_Remove_error_code(int errorcode) {
  Call call("MPI_Remove_error_code");
  if (int e = call.initialized()) return e;
  if (!core::is_user_code(errorcode) || core::is_error_class(errorcode))
    return call.fail(MPI_ERR_ARG, "argument errorcode=%d %s", errorcode,
                     errorcode >= 0 && errorcode <= MPI_ERR_LASTCODE
                         ? "is predefined; only codes added with MPI_Add_error_code can be removed"
                     : core::is_user_code(errorcode)
                         ? "is an error class, not a code (remove it with MPI_Remove_error_class)"
                         : "is not an error code added with MPI_Add_error_code (or it was removed already)");
  if (core::has_error_string(errorcode))
    return call.fail(MPI_ERR_ARG, "error code %d still has an error string; remove it with MPI_Remove_error_string "
                     "first", errorcode);
  core::remove_error(errorcode);
  return MPI_SUCCESS;
}

int MPI_Remove_error_string(int errorcode) {
  Call call("MPI_Remove_error_string");
  if (int e = call.initialized()) return e;
  if (!core::is_user_code(errorcode))
    return call.fail(MPI_ERR_ARG, "argument errorcode=%d %s", errorcode,
                     errorcode >= 0 && errorcode <= MPI_ERR_LASTCODE
                         ? "is predefined; only strings of codes and classes added by the application can be removed"
                         : "is not an error code or class added with MPI_Add_error_class/MPI_Add_error_code");
  if (!core::has_error_string(errorcode))
    return call.fail(MPI_ERR_ARG, "error code %d has no error string (none was added with MPI_Add_error_string)",
                     errorcode);
  core::set_error_string(errorcode, std::string());
  return MPI_SUCCESS;
}

}  // extern "C"
