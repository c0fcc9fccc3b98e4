// Integer handles for MPI objects.
//
// A handle is RMPI_HANDLE(kind, index) from mpi.h with a 6-bit generation in
// bits 20..25. Predefined objects have generation 0 and a fixed index; objects
// created at run time get a nonzero generation that changes every time their
// slot is reused, so a freed handle (or one of the wrong kind, or garbage)
// decodes to nothing instead of to somebody else's object.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "mpi.h"

namespace ringmpi::core {

enum class Kind : int {
  comm = RMPI_KIND_COMM,
  group = RMPI_KIND_GROUP,
  datatype = RMPI_KIND_DATATYPE,
  op = RMPI_KIND_OP,
  request = RMPI_KIND_REQUEST,
  errhandler = RMPI_KIND_ERRHANDLER,
  info = RMPI_KIND_INFO,
  message = RMPI_KIND_MESSAGE,
  win = RMPI_KIND_WIN,  // lib/rma
  // The tool information interface (lib/api/tool*.cpp).
  t_enum = RMPI_KIND_T_ENUM,
  t_cvar = RMPI_KIND_T_CVAR,
  t_pvar = RMPI_KIND_T_PVAR,
  t_session = RMPI_KIND_T_SESSION,
  file = RMPI_KIND_FILE,  // lib/io
  session = RMPI_KIND_SESSION,  // MPI-4.0 sessions (lib/api/session.hpp)
};

inline constexpr std::uint32_t kIndexBits = 20;
inline constexpr std::uint32_t kIndexMask = (1u << kIndexBits) - 1;
inline constexpr std::uint32_t kGenBits = 6;
inline constexpr std::uint32_t kGenMask = (1u << kGenBits) - 1;

inline constexpr int make_handle(Kind k, std::uint32_t index, std::uint32_t gen) {
  return static_cast<int>(0x40000000u | (std::uint32_t(k) << 26) | (gen << kIndexBits) | index);
}
inline constexpr bool handle_is(int h, Kind k) {
  return (std::uint32_t(h) & 0xFC000000u) == (0x40000000u | (std::uint32_t(k) << 26));
}
inline constexpr std::uint32_t handle_index(int h) { return std::uint32_t(h) & kIndexMask; }
inline constexpr std::uint32_t handle_gen(int h) { return (std::uint32_t(h) >> kIndexBits) & kGenMask; }

// Owns the objects of one kind. Slot 0 is the kind's NULL handle and never
// holds an object. Not thread-safe (the library provides MPI_THREAD_SERIALIZED
// at most; see lib/api/init.cpp).
template <class T>
class HandleTable {
 public:
  explicit HandleTable(Kind kind) : kind_(kind) { slots_.resize(1); }

  // Installs a predefined object at a fixed index (generation 0).
  int put_predefined(std::uint32_t index, std::unique_ptr<T> obj) {
    if (slots_.size() <= index) slots_.resize(index + 1);
    slots_[index].obj = std::move(obj);
    slots_[index].gen = 0;
    slots_[index].predefined = true;
    slots_[index].handle = make_handle(kind_, index, 0);
    if (first_dynamic_ <= index) first_dynamic_ = index + 1;
    return slots_[index].handle;
  }

  // Adds a run-time object and returns its handle, or the NULL handle when the
  // table is full (2^20 live objects of this kind).
  int add(std::unique_ptr<T> obj) {
    std::uint32_t index;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      if (slots_.size() < first_dynamic_) slots_.resize(first_dynamic_);
      if (slots_.size() > kIndexMask) return make_handle(kind_, 0, 0);
      index = static_cast<std::uint32_t>(slots_.size());
      slots_.emplace_back();
    }
    Slot& s = slots_[index];
    s.gen = static_cast<std::uint8_t>(s.gen % kGenMask + 1);  // 1..63, never 0
    s.obj = std::move(obj);
    s.handle = make_handle(kind_, index, s.gen);
    ++live_;
    return s.handle;
  }

  // The object behind h, or nullptr for NULL, freed, wrong-kind or garbage
  // handles. Every MPI call looks up its handles here, so it is one bound
  // test and one comparison: a slot keeps the whole handle of its object
  // (kind, generation and index; 0 while empty, which no handle is), so a
  // handle of another kind or generation, or of an empty slot, differs.
  T* get(int h) const {
    const std::uint32_t i = handle_index(h);
    if (__builtin_expect(i >= slots_.size(), 0)) return nullptr;
    const Slot& s = slots_[i];
    return __builtin_expect(s.handle == h, 1) ? s.obj.get() : nullptr;
  }

  bool is_predefined(int h) const {
    T* o = get(h);
    return o != nullptr && slots_[handle_index(h)].predefined;
  }

  // Removes a run-time object; returns it so the caller decides its lifetime.
  std::unique_ptr<T> remove(int h) {
    if (get(h) == nullptr || is_predefined(h)) return nullptr;
    const std::uint32_t i = handle_index(h);
    --live_;
    free_.push_back(i);
    slots_[i].handle = 0;
    return std::move(slots_[i].obj);
  }

  std::size_t live() const { return live_; }
  int null_handle() const { return make_handle(kind_, 0, 0); }

  template <class F>
  void for_each(F&& f) const {
    for (std::uint32_t i = 0; i < slots_.size(); ++i)
      if (slots_[i].obj) f(make_handle(kind_, i, slots_[i].gen), *slots_[i].obj);
  }

 private:
  struct Slot {
    std::unique_ptr<T> obj;
    int handle = 0;  // obj's handle; 0 while the slot is empty
    std::uint8_t gen = 0;
    bool predefined = false;
  };
  Kind kind_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_;
  std::uint32_t first_dynamic_ = 1;
  std::size_t live_ = 0;
};

}  // namespace ringmpi::core
