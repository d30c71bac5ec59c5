#pragma once
// Stage: the reader (KIF text to checked rules, with the rewritings).
// An allocator for the grounder's large, randomly probed tables (the term pool's records and
// hash slots, the relations' atom positions). A table of 2 MiB or more is allocated on a 2 MiB
// boundary and offered to the kernel for transparent huge pages (madvise MADV_HUGEPAGE: Debian's
// default THP mode honours it). Chess.kif's pool holds 7.8M terms in tables of hundreds of MB;
// with 4 KiB pages nearly every probe also missed the TLB. Where the kernel declines, the table
// is an ordinary allocation and nothing else changes. Smaller tables use operator new.

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>

namespace arena::gdl {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  static std::size_t rounded(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHugePage) return static_cast<T*>(::operator new(bytes));
    void* p = std::aligned_alloc(kHugePage, rounded(bytes));
    if (p == nullptr) throw std::bad_alloc();
    ::madvise(p, rounded(bytes), MADV_HUGEPAGE);  // advice only: failure leaves 4 KiB pages
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept {
    if (n * sizeof(T) < kHugePage) {
      ::operator delete(p);
    } else {
      std::free(p);
    }
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace arena::gdl
