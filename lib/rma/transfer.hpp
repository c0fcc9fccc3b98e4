// RMA data movement (MPI-3.1 §11.3): put, get, the accumulate family.
//
// Every operation is complete when the call returns (the origin does the
// copy itself), which is allowed: completion may come any time before the
// synchronisation that ends the epoch. So MPI_Win_flush* have nothing left
// to wait for, and the request forms return completed requests.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>

#include "dtype/datatype.hpp"
#include "dtype/kernels.hpp"
#include "rma/window.hpp"

namespace ringmpi::rma {

// One side of a transfer: (buf, count, type).
struct Side {
  const void* buf = nullptr;
  int count = 0;
  const dtype::Datatype* type = nullptr;
};

// The usual put or get, inline: `bytes` contiguous bytes at (target, disp)
// of a window whose memory is in the segment (allocate / shared flavors).
// Their address here when they are inside the target's memory; nullptr
// otherwise (another flavor, or out of range), and then the general path
// below decides and reports. The same range rule as the general path, in a
// few instructions: an 8-byte put or get is a few nanoseconds of work.
inline std::byte* segment_span(const Window& w, int target, MPI_Aint disp, std::size_t bytes) {
  if (w.flavor != Flavor::allocate && w.flavor != Flavor::shared) return nullptr;
  long long start = 0;
  if (__builtin_mul_overflow(static_cast<long long>(disp), static_cast<long long>(w.disp_unit[target]), &start) ||
      start < 0 || static_cast<unsigned long long>(start) + bytes > static_cast<unsigned long long>(w.win_size[target]))
    return nullptr;
  return w.memory_of(target) + start;
}

// memcpy with the usual RMA sizes (an int or a long counter) copied inline:
// glibc's memcpy is a call and a size dispatch for 8 bytes.
inline void copy_small(void* to, const void* from, std::size_t n) {
  if (n == 8)
    std::memcpy(to, from, 8);
  else if (n == 4)
    std::memcpy(to, from, 4);
  else
    std::memcpy(to, from, n);
}

// The accumulate family's usual case (an atomic counter), every argument
// already checked by the caller: `count` elements of one predefined
// contiguous type, `bytes` of them (at most kSmallAccumulate) at `at`, the
// target's memory mapped here (segment_span). origin nullptr: MPI_NO_OP;
// result nullptr: nothing fetched; k: the op's kernel (accumulate_kernel),
// nullptr for MPI_REPLACE and MPI_NO_OP. Runs under the target's accumulate
// mutex like every accumulate (window.hpp).
inline constexpr std::size_t kSmallAccumulate = 256;
void small_accumulate(Window& w, int target, std::byte* at, const void* origin, void* result, std::size_t bytes,
                      std::size_t count, dtype::Kernel k);
// The same for MPI_Compare_and_swap (one element of `bytes`).
void small_compare_and_swap(Window& w, int target, std::byte* at, const void* origin, const void* compare,
                            void* result, std::size_t bytes);
// The kernel the accumulate calls combine basic type `basic` with under op
// (nullptr: op is not defined for it, or not a predefined op); MPI_BYTE
// takes the arithmetic ops as unsigned char (transfer.cpp).
dtype::Kernel accumulate_kernel(MPI_Op op, MPI_Datatype basic);

// Each returns MPI_SUCCESS or an error class with *why set (a sentence
// naming the bad argument). `target` is a window rank (not MPI_PROC_NULL).
int put(Window& w, const Side& origin, int target, MPI_Aint disp, const Side& tgt, std::string* why);
int get(Window& w, void* origin_buf, const Side& origin, int target, MPI_Aint disp, const Side& tgt,
        std::string* why);
// target = origin op target, atomically per element; when `result` is set,
// the target's previous contents go there first (Get_accumulate). With
// MPI_NO_OP `origin` is not looked at.
int accumulate(Window& w, const Side& origin, void* result_buf, const Side* result, int target, MPI_Aint disp,
               const Side& tgt, MPI_Op op, std::string* why);
int compare_and_swap(Window& w, const void* origin, const void* compare, void* result, const dtype::Datatype& t,
                     int target, MPI_Aint disp, std::string* why);

// Checks an accumulate op and datatype pair (predefined op, a type made of
// one predefined type the op is defined for); "" when fine.
std::string accumulate_mismatch(MPI_Op op, const dtype::Datatype& t);

}  // namespace ringmpi::rma
