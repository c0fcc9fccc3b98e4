// The "external32" data representation (MPI-3.1 §13.5.2) of MPI_Pack_external
// and MPI_Unpack_external: every basic element big-endian, at the size the
// standard's table gives it (MPI_LONG 4 bytes, MPI_WCHAR 2, MPI_LONG_DOUBLE a
// 16-byte IEEE binary128, MPI_LOGICAL 4 ...), byte aligned, no padding; a
// pair type is its two members (MPI_DOUBLE_INT: 8 + 4 bytes), a complex its
// two parts.
//
// Integers narrower in external32 than here keep their least significant
// bytes (the standard's advice: values in the smaller type's range convert
// without error) and are sign- or zero-extended back.
//
// Derived types are converted element by element in type-map order: the
// signature (which basic type each element is) follows the constructor tree
// in Datatype::env, as elements.cpp does, and the data moves through the
// ordinary layout walk (pack()/unpack()) in chunks of whole elements, so
// there is no second traversal of the layout.
#pragma once

#include <cstddef>
#include <memory>

#include "dtype/datatype.hpp"

namespace ringmpi::dtype {

class Representation;  // represent.hpp

// External32 bytes of one element of the basic type h (a pair counts both
// members); 0 when h is not a predefined type.
std::size_t external32_basic_size(MPI_Datatype h);
// External32 bytes of one element of t.
MPI_Count external32_size(const Datatype& t);

// n values of predefined type h, not a pair type: native -> external32 and back.
void to_external32(MPI_Datatype h, const void* native, void* ext, std::size_t n);
void from_external32(MPI_Datatype h, const void* ext, void* native, std::size_t n);

// count elements of (buf, t) -> out (count * external32_size(t) bytes) and back.
void pack_external32(const void* buf, int count, const Datatype& t, void* out);
void unpack_external32(const void* in, void* buf, int count, const Datatype& t);

// "external32" as the representation of a file view (represent.hpp): the
// sizes above, pack_external32 and unpack_external32.
const std::shared_ptr<Representation>& external32();

}  // namespace ringmpi::dtype
