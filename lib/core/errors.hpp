// Error classes and codes: names, strings, and the user-added ones
// (MPI_Add_error_class / _code / _string).
#pragma once

#include <string>
#include <vector>

namespace ringmpi::core {

struct ErrorRegistry {
  struct Added {
    int error_class;
    std::string text;
  };
  // index i holds code MPI_ERR_LASTCODE + 1 + i
  std::vector<Added> added;
};

ErrorRegistry& errors();
// "MPI_ERR_RANK" for a predefined class, "user-defined error class N" otherwise.
std::string error_class_name(int error_class);
// The class of a code, or -1 if the code is not valid.
int error_class_of(int code);
// The standard-style description of a code (predefined or user string).
std::string error_string(int code);
// The largest code in use (MPI_LASTUSEDCODE).
int last_used_code();

}  // namespace ringmpi::core
