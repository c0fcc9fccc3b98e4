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
// MPI_Type_create_darray (§4.1.4), arguments checked by the caller (the
// product of psizes is size, 0 <= rank < size, distribs and dargs valid).
// Built as the standard defines it: per dimension, fastest-varying first,
// the process's blocks of that dimension over the type built so far, resized
// to lb 0 and the dimension's whole extent; so the result has lb 0 and
// extent prod(gsizes) * extent(oldtype).
TypePtr make_darray(int size, int rank, int ndims, const int* gsizes, const int* distribs, const int* dargs,
                    const int* psizes, int order, const TypePtr& old, std::string* why);

// What one process owns along one dimension of a darray: `count` full blocks
// of `block` elements, the k-th starting at element first + k*stride, then
// `rem` (< block) more elements at first + count*stride. Elements are
// counted along the dimension. `distrib` is MPI_DISTRIBUTE_BLOCK / CYCLIC /
// NONE, `darg` a block size or MPI_DISTRIBUTE_DFLT_DARG, 0 <= coord < psize.
struct DarrayDim {
  long long first = 0, block = 0, count = 0, stride = 0, rem = 0;
  long long owned() const { return count * block + rem; }
};
DarrayDim darray_dim(int distrib, int darg, long long gsize, int psize, int coord);
// The block size MPI_DISTRIBUTE_BLOCK uses: darg, or ceil(gsize / psize) for MPI_DISTRIBUTE_DFLT_DARG.
long long darray_block_size(int darg, long long gsize, int psize);

TypePtr make_resized(const TypePtr& old, MPI_Aint lb, MPI_Aint extent, std::string* why);
// Same layout, bounds and commit state; name and attributes are the caller's business.
TypePtr make_dup(const TypePtr& old);

// The large-count constructors (MPI-4.1, the MPI_Type_*_c bindings): the
// same types from MPI_Count counts and displacements (byte displacements for
// the h forms and struct), whose envelopes record them as large counts
// (Envelope::counts), so that MPI_Type_get_contents_c returns them and the
// int form of get_envelope/get_contents refuses with MPI_ERR_VALUE_TOO_LARGE.
// lib/api calls them only when some value does not fit an int. (Resized
// has none: its MPI_Aint bounds are 64 bits in both forms.)
TypePtr make_contiguous_c(MPI_Count count, const TypePtr& old, std::string* why);
TypePtr make_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, const TypePtr& old,
                      std::string* why);
TypePtr make_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, const TypePtr& old,
                       std::string* why);
TypePtr make_indexed_c(MPI_Count count, const MPI_Count* blocklengths, const MPI_Count* displacements,
                       const TypePtr& old, std::string* why);
TypePtr make_hindexed_c(MPI_Count count, const MPI_Count* blocklengths, const MPI_Count* displacements,
                        const TypePtr& old, std::string* why);
TypePtr make_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count* displacements,
                             const TypePtr& old, std::string* why);
TypePtr make_hindexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count* displacements,
                              const TypePtr& old, std::string* why);
TypePtr make_struct_c(MPI_Count count, const MPI_Count* blocklengths, const MPI_Count* displacements,
                      const TypePtr* types, std::string* why);
TypePtr make_subarray_c(int ndims, const MPI_Count* sizes, const MPI_Count* subsizes, const MPI_Count* starts,
                        int order, const TypePtr& old, std::string* why);
TypePtr make_darray_c(int size, int rank, int ndims, const MPI_Count* gsizes, const int* distribs,
                      const int* dargs, const int* psizes, int order, const TypePtr& old, std::string* why);

}  // namespace ringmpi::dtype
