// Type-signature stamps for mpiexec --check (issue 15, part 3).
//
// Under --check (core::Runtime::check_mode) every user send stamps
// wire::Envelope::signature with the predefined type all its data is made
// of (dtype::Datatype::basic: 4 x MPI_INT and contiguous(4, MPI_INT) stamp
// the same); without --check, and for types that mix several predefined
// types, the stamp is 0 and the receiver checks nothing. The receiver
// compares the stamp with its own type's when it matches the message: a
// receive may be longer than the message (only the prefix must match), and
// for a homogeneous type that prefix matches exactly when the predefined
// types are equal. MPI_BYTE and MPI_PACKED match anything (MPI-3.1 §3.3.1,
// §4.2; the library itself sends MPI_BYTE for MPI_Sendrecv_replace and the
// buffered sends). A mismatch ends the job with one message naming the call
// and both sides ("MPI_Recv on rank 1 expects MPI_DOUBLE x 2, rank 0 sent
// MPI_INT x 4").
//
// The default path pays one predictable branch on each side: the sender's
// check_mode test, the receiver's `signature != 0` test.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/runtime.hpp"
#include "dtype/datatype.hpp"

namespace ringmpi::p2p {

inline std::uint32_t signature_stamp(const dtype::Datatype& t) {
  if (__builtin_expect(!core::rt().check_mode, 1)) return 0;
  return static_cast<std::uint32_t>(t.basic);
}

// Ends the job when a message of `bytes` bytes stamped `stamp`, sent by world
// rank `from_world`, cannot be received as (count, type).
void check_signature_slow(const dtype::Datatype& type, int count, std::uint32_t stamp, std::size_t bytes,
                          int from_world);
inline void check_signature(const dtype::Datatype* type, int count, std::uint32_t stamp, std::size_t bytes,
                            int from_world) {
  if (__builtin_expect(stamp != 0, 0) && type) check_signature_slow(*type, count, stamp, bytes, from_world);
}

}  // namespace ringmpi::p2p
