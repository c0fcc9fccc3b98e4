// Data representations of a file (MPI-4.1 §14.5): what a predefined type
// takes in the file, how (buf, count, type) becomes the representation's
// bytes and back, and the file layout of a view's types.
//
// A representation other than "native" is one object behind this interface:
// "external32" (external32.hpp: the standard's sizes, big-endian) and every
// representation a program registers with MPI_Register_datarep
// (io/datarep.hpp: the program's extent and conversion functions). The I/O
// layer knows only the interface, so both take the same path: the file
// layout of the view is built from the representation's sizes
// (represented_layout), an access converts its whole buffer to the
// representation's contiguous bytes (write) or from them (read), and those
// bytes move through the view like native ones.
//
// In the representation's stream the values follow in type-map order, byte
// aligned, each of the size the representation gives its predefined type; a
// pair type (MPI_2INT) is its two members.
#pragma once

#include <cstddef>
#include <string>

#include "dtype/datatype.hpp"

namespace ringmpi::dtype {

class Representation {
 public:
  virtual ~Representation() = default;
  // Bytes of one value of the predefined type h, never a pair type, in this
  // representation: MPI_SUCCESS, or an error class with *why.
  virtual int basic_size(MPI_Datatype h, std::size_t* size, std::string* why) = 0;
  // count elements of (buf, t) -> count * represented_size(t) bytes at out,
  // and back. `handle` is the caller's handle of t (a user's conversion
  // function is passed it). MPI_SUCCESS, or an error class with *why.
  virtual int to_file(const void* buf, int count, const Datatype& t, MPI_Datatype handle, void* out,
                      std::string* why) = 0;
  virtual int from_file(const void* in, void* buf, int count, const Datatype& t, MPI_Datatype handle,
                        std::string* why) = 0;
  // Whether sizes come from a program's function, which may run only in a
  // data access or MPI_File_get_type_extent (MPI-4.1 §14.5.3): then a view
  // builds its file layout at its first access, not in MPI_File_set_view.
  virtual bool calls_program() const { return false; }
};

// The members of a pair type (MPI_2INT: MPI_INT, MPI_INT), or false for other types.
bool pair_members(MPI_Datatype h, MPI_Datatype* first, MPI_Datatype* second);

// Bytes of one element of t in representation r (its signature's values at
// r's sizes). MPI_SUCCESS, or r's error.
int represented_size(Representation& r, const Datatype& t, MPI_Count* size, std::string* why);

// The layout of t in a file of representation r (MPI-4.1 §14.5.1): t built
// again by the same constructors from the same arguments over predefined
// types of r's sizes (byte aligned), so displacements counted in elements
// scale and byte displacements (hvector, hindexed, struct, resized) stay
// as given. When every predefined type keeps its native size, t itself.
// The result is committed. MPI_SUCCESS, or an error class with *why.
int represented_layout(Representation& r, const TypePtr& t, TypePtr* out, std::string* why);

}  // namespace ringmpi::dtype
