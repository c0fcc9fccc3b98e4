// A vector that keeps up to N elements inside itself and goes to the heap
// only beyond, for the short per-call lists of the hot paths (a rank's
// neighbourhood blocks, the members it waits for): with std::vector each of
// those lists cost a malloc and a free on every call, more than the rest of
// a short exchange's bookkeeping (callgrind, bench/topo).
//
// Only for trivially copyable element types (blocks, flags, ints): copies
// and moves are memcpy, and a copy or a move never points into the source's
// inline storage, so a copy may outlive the original (a nonblocking
// operation copies its arguments into its own state).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

namespace ringmpi::core {

template <class T, std::size_t N>
class SmallVec {
  static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                "SmallVec copies its elements with memcpy");
  static_assert(N > 0);

 public:
  SmallVec() = default;
  SmallVec(std::size_t n, const T& v) { assign(n, v); }
  SmallVec(const SmallVec& o) { copy_from(o); }
  SmallVec(SmallVec&& o) noexcept { take(o); }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) {
      size_ = 0;
      copy_from(o);
    }
    return *this;
  }
  SmallVec& operator=(SmallVec&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~SmallVec() { release(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return p_; }
  const T* data() const { return p_; }
  T* begin() { return p_; }
  T* end() { return p_ + size_; }
  const T* begin() const { return p_; }
  const T* end() const { return p_ + size_; }
  T& operator[](std::size_t i) { return p_[i]; }
  const T& operator[](std::size_t i) const { return p_[i]; }

  void clear() { size_ = 0; }
  void reserve(std::size_t n) {
    if (n <= cap_) return;
    T* q = static_cast<T*>(std::malloc(n * sizeof(T)));
    if (!q) throw std::bad_alloc();
    if (size_) std::memcpy(static_cast<void*>(q), p_, size_ * sizeof(T));
    release();
    p_ = q;
    cap_ = n;
  }
  // New elements are value-initialized, as std::vector::resize does.
  void resize(std::size_t n) {
    reserve(n);
    for (std::size_t i = size_; i < n; ++i) p_[i] = T{};
    size_ = n;
  }
  void assign(std::size_t n, const T& v) {
    const T copy = v;  // v may be one of ours
    size_ = 0;
    reserve(n);
    for (std::size_t i = 0; i < n; ++i) p_[i] = copy;
    size_ = n;
  }
  void push_back(const T& v) {
    if (size_ == cap_) {
      const T copy = v;
      reserve(2 * cap_);
      p_[size_++] = copy;
      return;
    }
    p_[size_++] = v;
  }

 private:
  bool on_heap() const { return p_ != inline_; }
  // Frees the heap block, if any, and goes back to the inline storage (size kept 0 by callers).
  void release() {
    if (on_heap()) std::free(p_);
    p_ = inline_;
    cap_ = N;
  }
  void copy_from(const SmallVec& o) {
    reserve(o.size_);
    if (o.size_) std::memcpy(static_cast<void*>(p_), o.p_, o.size_ * sizeof(T));
    size_ = o.size_;
  }
  // Takes o's heap block, or copies its inline elements; o is left empty.
  void take(SmallVec& o) {
    if (o.on_heap()) {
      p_ = o.p_;
      cap_ = o.cap_;
      o.p_ = o.inline_;
      o.cap_ = N;
    } else if (o.size_) {
      std::memcpy(static_cast<void*>(inline_), o.inline_, o.size_ * sizeof(T));
    }
    size_ = o.size_;
    o.size_ = 0;
  }

  T inline_[N];
  T* p_ = inline_;
  std::size_t size_ = 0;
  std::size_t cap_ = N;
};

}  // namespace ringmpi::core
