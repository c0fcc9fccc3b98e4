// Type constructors (MPI-3.1 §4.1.2-4.1.7), independent of handles and error
// handlers so that unit tests and benchmarks can build types directly.
//
// Arguments are already validated by lib/api (non-negative counts and block
// lengths, valid old types, non-null arrays). A constructor fails only when a
// size or bound does not fit the address space; it then returns nullptr and
// sets *why.
//
// Bounds follow the standard's type-map rules as MPICH and Open MPI apply
// them: copies of a type carry its lb/ub (padding included); create_struct
// rounds the extent up to the largest alignment of its basic types (the
// epsilon rule: struct {char; double} has extent 16) unless some member has
// an explicit upper bound from create_resized; explicit bounds (markers) of
// members win over the data's bounds.
#pragma once

#include <string>

#include "dtype/datatype.hpp"

namespace ringmpi::dtype {

TypePtr make_contiguous(int count, const TypePtr& old, std::string* why);
TypePtr make_vector(int count, int blocklength, int stride, const TypePtr& old, std::string* why);
TypePtr make_hvector(int count, int blocklength, MPI_Aint stride, const TypePtr& old, std::string* why);
TypePtr make_indexed(int count, const int* blocklengths, const int* displacements, const TypePtr& old,
                     std::string* why);
TypePtr make_hindexed(int count, const int* blocklengths, const MPI_Aint* displacements, const TypePtr& old,
                      std::string* why);
TypePtr make_indexed_block(int count, int blocklength, const int* displacements, const TypePtr& old,
                           std::string* why);
TypePtr make_hindexed_block(int count, int blocklength, const MPI_Aint* displacements, const TypePtr& old,
                            std::string* why);
TypePtr make_struct(int count, const int* blocklengths, const MPI_Aint* displacements, const TypePtr* types,
                    std::string* why);
// order is MPI_ORDER_C or MPI_ORDER_FORTRAN.
TypePtr make_subarray(int ndims, const int* sizes, const int* subsizes, const int* starts, int order,
                      const TypePtr& old, std::string* why);
TypePtr make_resized(const TypePtr& old, MPI_Aint lb, MPI_Aint extent, std::string* why);
// Same layout, bounds and commit state; name and attributes are the caller's business.
TypePtr make_dup(const TypePtr& old);

}  // namespace ringmpi::dtype
