// Error classes and codes: names, strings, and the user-added ones
// (MPI_Add_error_class / _code / _string).
#pragma once

#include <string>
#include <vector>

namespace ringmpi::core {

struct ErrorRegistry {
  struct Added {
    int error_class;  // -1: removed (MPI_Remove_error_class/_code)
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

// A class: a predefined one (MPI_SUCCESS..MPI_T_ERR_INVALID) or one made by
// MPI_Add_error_class.
bool is_error_class(int c);
// A code or class made by MPI_Add_error_class / MPI_Add_error_code.
bool is_user_code(int code);
// MPI_Add_error_class / MPI_Add_error_code: the new value, or -1 when the
// registry is full. Both update MPI_LASTUSEDCODE.
int add_error_class();
int add_error_code(int error_class);
// MPI_Add_error_string; code must satisfy is_user_code().
void set_error_string(int code, std::string text);
// MPI-4.1's MPI_Remove_error_class/_code/_string (§9.5); code must satisfy
// is_user_code(). A removed value is no code or class any more (class -1);
// removing the highest ones lowers MPI_LASTUSEDCODE, so they are reused.
bool has_error_string(int code);
bool class_has_codes(int error_class);  // codes other than the class itself
void remove_error(int code);

}  // namespace ringmpi::core
