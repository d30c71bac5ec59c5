#pragma once
// A fixed-size transposition table keyed on the game's Zobrist hash.
//
// 2^log2_entries entries, one per slot (index = low bits of the hash, full key stored to
// reject collisions). Replacement is depth-preferred: a slot is overwritten by a search at
// least as deep, by a different position from an older search (generation), or when empty.
// Bounds say whether the stored score is exact, a lower bound (fail high) or an upper bound
// (fail low). Win scores are stored relative to the node (score_to_tt) and converted back
// on probe, so they stay right at any ply. Allocated once; never per node. Not thread-safe.

#include <cstdint>
#include <vector>

#include "bots/search/score.h"

namespace arena::search {

enum class Bound : std::uint8_t { kNone, kExact, kLower, kUpper };

template <class Move>
struct TtEntry {
  std::uint64_t key = 0;
  Move move{};
  std::int32_t score = 0;
  std::int16_t depth = -1;
  Bound bound = Bound::kNone;
  bool has_move = false;
  std::uint8_t generation = 0;
};

template <class Move>
class TranspositionTable {
 public:
  explicit TranspositionTable(int log2_entries = 18)
      : entries_(std::size_t{1} << log2_entries), mask_((std::uint64_t{1} << log2_entries) - 1) {}

  void clear() {
    for (auto& e : entries_) e = TtEntry<Move>{};
    generation_ = 0;
  }
  // Called once per search so that entries from older searches give way.
  void new_search() { ++generation_; }

  // The entry for `key`, or null. Its score is already converted to `ply`.
  const TtEntry<Move>* probe(std::uint64_t key, int ply) {
    TtEntry<Move>& e = entries_[key & mask_];
    if (e.bound == Bound::kNone || e.key != key) return nullptr;
    found_ = e;
    found_.score = score_from_tt(e.score, ply);
    return &found_;
  }

  // Starts loading the entry for `key` into the cache (a search calls it right after making
  // a move, so that the child's probe does not wait for memory).
  void prefetch(std::uint64_t key) const {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(&entries_[key & mask_]);
#else
    (void)key;
#endif
  }

  void store(std::uint64_t key, int depth, int score, Bound bound, const Move* move, int ply) {
    TtEntry<Move>& e = entries_[key & mask_];
    const bool same = e.key == key && e.bound != Bound::kNone;
    if (!same && e.bound != Bound::kNone && e.generation == generation_ && depth < e.depth) return;
    if (same && depth < e.depth && bound != Bound::kExact) return;
    const bool keep_move = same && move == nullptr && e.has_move;
    e.key = key;
    e.depth = static_cast<std::int16_t>(depth);
    e.score = score_to_tt(score, ply);
    e.bound = bound;
    e.generation = generation_;
    if (move != nullptr) {
      e.move = *move;
      e.has_move = true;
    } else if (!keep_move) {
      e.has_move = false;
    }
  }

  std::size_t size() const { return entries_.size(); }

 private:
  std::vector<TtEntry<Move>> entries_;
  std::uint64_t mask_;
  std::uint8_t generation_ = 0;
  TtEntry<Move> found_;
};

}  // namespace arena::search
