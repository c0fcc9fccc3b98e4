// Reduction operations (MPI-3.1 §5.9): the predefined ops, user ops, and the
// one entry point collectives call to combine two buffers.
//
//   if (!dtype::op_applies(*op, type)) -> MPI_ERR_OP with dtype::op_mismatch(op, type)
//   dtype::reduce(op, in, inout, count, type);   // inout[i] = in[i] op inout[i]
//
// Predefined ops work on the predefined types the standard lists for them
// (plus MPI_CHAR as a C integer, as MPICH allows) and on derived types built
// from a single such type (a contiguous or vector of MPI_INT under MPI_SUM);
// MPI_REPLACE and MPI_NO_OP work on every type. User functions get the
// datatype handle, as the standard says.
#pragma once

#include <string>

#include "dtype/datatype.hpp"

namespace ringmpi::dtype {

void install_predefined_ops(State& s);

// The op behind h, or nullptr for an invalid/freed handle.
const Op* lookup_op(MPI_Op h);
MPI_Op new_op(MPI_User_function* fn, bool commute);  // MPI_OP_NULL when the table is full
MPI_Op new_op_c(MPI_User_function_c* fn, bool commute);  // MPI_Op_create_c
void free_op(MPI_Op h);

// Whether op can combine data of type t: the check every reduction makes
// when it starts, so it builds no text (op_mismatch() says why not).
bool op_applies(const Op& op, const Datatype& t);
// Why op (a valid handle) cannot combine data of type t ("MPI_SUM is not
// defined for MPI_BYTE"), or "" if it can.
std::string op_mismatch(MPI_Op op, const Datatype& t);
// "MPI_SUM", or "user op 0x..." for user-defined ones.
std::string op_name(MPI_Op op);

// inout[i] = in[i] op inout[i] for count elements of `type`, both buffers
// laid out by the type. Returns MPI_SUCCESS, or MPI_ERR_OP (nothing done)
// when op_mismatch() says no, MPI_ERR_TYPE / MPI_ERR_OP for invalid handles.
int reduce(MPI_Op op, const void* in, void* inout, int count, MPI_Datatype type);
// The same with the op and datatype objects themselves, as a collective holds
// them from its start: neither handle need still be valid when it runs (an
// MPI_Op_free or MPI_Type_free while a nonblocking reduction is pending only
// marks the object for deallocation, MPI-3.1 §2.5.1, §5.9.5). `type` is the
// handle a user function is given.
int reduce(const Op& op, const void* in, void* inout, int count, const Datatype& t, MPI_Datatype type);

}  // namespace ringmpi::dtype
