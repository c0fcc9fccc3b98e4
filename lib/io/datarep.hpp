// Data representations of files (MPI-4.1 §14.5): the names a view may
// take, and the representations programs register (MPI_Register_datarep).
//
// "native" and "internal" are the bytes of memory (no representation
// object: the fast path). "external32" is dtype::external32(). A registered
// representation is a dtype::Representation whose sizes are what the
// program's extent function reports for each predefined type (asked once per
// type, then remembered) and whose conversion calls the program's read or
// write function: the access's whole buffer in one or more calls of whole
// elements (`position` counts data items of the buffer's type map, as
// §14.5.3 says, so a call starts at position k * items-per-element), with a
// file buffer of the representation's bytes. A null conversion function
// (MPI_CONVERSION_FN_NULL) moves native bytes, so it needs file extents
// equal to the native sizes. An error a function returns fails the access
// with MPI_ERR_CONVERSION. Registrations last until the runtime ends
// (io::State).
#pragma once

#include <memory>
#include <string>

#include "dtype/represent.hpp"
#include "io/file.hpp"

namespace ringmpi::io {

// The program's functions for one representation: the int form's or the
// _c form's conversion functions (nullptr: MPI_CONVERSION_FN_NULL).
struct DatarepFunctions {
  MPI_Datarep_conversion_function* read = nullptr;
  MPI_Datarep_conversion_function* write = nullptr;
  MPI_Datarep_conversion_function_c* read_c = nullptr;
  MPI_Datarep_conversion_function_c* write_c = nullptr;
  MPI_Datarep_extent_function* extent = nullptr;
  void* extra_state = nullptr;
};

// Whether `name` is "native", "internal" or "external32".
bool predefined_datarep(const char* name);

// MPI_Register_datarep (local): the name is checked by the caller (not
// null, short enough); MPI_ERR_DUP_DATAREP when it is predefined or taken,
// then MPI_ERR_ARG without an extent function.
Outcome register_datarep(const char* name, const DatarepFunctions& fn);

// The representation named `name`: *rep is nullptr for "native" and
// "internal". False for a name nobody registered.
bool find_datarep(const std::string& name, std::shared_ptr<dtype::Representation>* rep);

}  // namespace ringmpi::io
