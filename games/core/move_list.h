#pragma once
// A fixed-capacity list of moves on the stack: move generation never allocates.

#include <array>
#include <cstddef>

namespace arena {

template <class Move, std::size_t Capacity>
class MoveList {
 public:
  using value_type = Move;
  static constexpr std::size_t kCapacity = Capacity;

  void push_back(const Move& m) { moves_[size_++] = m; }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void resize(std::size_t n) { size_ = n; }

  Move& operator[](std::size_t i) { return moves_[i]; }
  const Move& operator[](std::size_t i) const { return moves_[i]; }
  Move* begin() { return moves_.data(); }
  Move* end() { return moves_.data() + size_; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }

 private:
  // Left uninitialised on purpose: a list is created per search node, and only [0, size_)
  // is ever read.
  std::array<Move, Capacity> moves_;
  std::size_t size_ = 0;
};

}  // namespace arena
