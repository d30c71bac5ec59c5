#pragma once
// Move ordering for alpha-beta: the hash move first, then captures by the game's own
// capture_score (most valuable victim / least valuable attacker) where the game has one,
// then the two killer moves of the ply, then the rest by history (how often the move caused
// a cut-off, weighted by depth squared). Killers and history can each be switched off
// (AlphaBetaOptions). Good ordering changes only the node count, never the value.
//
// Moves are game-specific values, so killers compare with ==, and the history table is
// indexed by a hash of the move's bytes (moves are trivially copyable): collisions only
// blur the ordering.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <vector>

#include "bots/search/score.h"
#include "games/core/fnv1a.h"

namespace arena::search {

// True when the game scores its captures (0 for a quiet move).
template <class G>
concept HasCaptureScore = requires(const G& g, const typename G::Move& m) {
  { g.capture_score(m) } -> std::convertible_to<int>;
};

template <class Move>
class MoveOrdering {
 public:
  static constexpr int kHashMoveScore = 1 << 30;
  static constexpr int kCaptureBase = 1 << 24;
  static constexpr int kKillerScore = 1 << 22;

  explicit MoveOrdering(bool use_killers = true, bool use_history = true,
                        bool use_countermoves = false, bool history_malus = false)
      : use_killers_(use_killers),
        use_history_(use_history),
        use_countermoves_(use_countermoves),
        history_malus_(history_malus && use_history),
        killers_(kMaxPly),
        history_(2 * kHistorySize, 0),
        countermoves_(use_countermoves ? 2 * kHistorySize : 0) {}

  void clear() {
    for (auto& k : killers_) k = {};
    for (auto& h : history_) h = 0;
    for (auto& c : countermoves_) c = {};
  }

  // The move that leads to the node being ordered (the opponent's last move), for the
  // countermove heuristic; none at the root and after a null move.
  void set_previous(const Move* previous) { previous_ = previous; }

  template <class G>
  int score(const G& game, const Move& m, int ply, const Move* hash_move) const {
    if (hash_move != nullptr && m == *hash_move) return kHashMoveScore;
    if constexpr (HasCaptureScore<G>) {
      const int c = game.capture_score(m);
      if (c > 0) return kCaptureBase + c;
    }
    if (use_killers_) {
      const Killers& k = killers_[ply];
      if (k.count > 0 && m == k.moves[0]) return kKillerScore;
      if (k.count > 1 && m == k.moves[1]) return kKillerScore - 1;
    }
    if (use_countermoves_ && previous_ != nullptr) {
      const Countermove& c = countermoves_[slot(*previous_, 1 - side_of(game))];
      if (c.set && m == c.move) return kKillerScore - 2;
    }
    return use_history_ ? history_[slot(m, side_of(game))] : 0;
  }

  // True for the killer moves of `ply` (late move reductions leave them alone).
  bool is_killer(const Move& m, int ply) const {
    if (!use_killers_) return false;
    const Killers& k = killers_[ply];
    return (k.count > 0 && m == k.moves[0]) || (k.count > 1 && m == k.moves[1]);
  }

  // A quiet move caused a beta cut-off at `ply` with `depth` plies left, after the quiet
  // moves `tried` (with history_malus their history goes down by as much).
  template <class G>
  void on_cutoff(const G& game, const Move& m, int ply, int depth, const Move* tried = nullptr,
                 int tried_count = 0) {
    if constexpr (HasCaptureScore<G>) {
      if (game.capture_score(m) > 0) return;
    }
    if (use_killers_) {
      Killers& k = killers_[ply];
      if (!(k.count > 0 && m == k.moves[0])) {
        k.moves[1] = k.moves[0];
        k.moves[0] = m;
        if (k.count < 2) ++k.count;
      }
    }
    if (use_countermoves_ && previous_ != nullptr)
      countermoves_[slot(*previous_, 1 - side_of(game))] = {m, true};
    if (!use_history_) return;
    const int bonus = depth * depth;
    int& h = history_[slot(m, side_of(game))];
    h += bonus;
    bool rescale = h >= kKillerScore / 2;
    if (history_malus_) {
      for (int i = 0; i < tried_count; ++i) {
        int& t = history_[slot(tried[i], side_of(game))];
        t -= bonus;
        rescale = rescale || t <= -kKillerScore / 2;
      }
    }
    if (rescale) {
      for (auto& x : history_) x /= 2;  // keep history below the killers (and above captures)
    }
  }

 private:
  static constexpr std::size_t kHistorySize = 1 << 16;
  struct Killers {
    std::array<Move, 2> moves{};
    int count = 0;
  };
  struct Countermove {
    Move move{};
    bool set = false;
  };

  template <class G>
  static int side_of(const G& game) {
    return index(game.side_to_move());
  }

  // Hashing the bytes is only deterministic when the move has no padding; otherwise the
  // game's std::hash is used if it has one, and else history is off (slot 0 for all).
  static std::size_t slot(const Move& m, int side) {
    std::uint64_t h = 0;
    if constexpr (std::has_unique_object_representations_v<Move>) {
      std::uint8_t bytes[sizeof(Move)];
      std::memcpy(bytes, &m, sizeof(Move));
      h = fnv1a(bytes);
    } else if constexpr (requires { std::hash<Move>{}(m); }) {
      h = std::hash<Move>{}(m);
    }
    return static_cast<std::size_t>(side) * kHistorySize + (h & (kHistorySize - 1));
  }

  bool use_killers_;
  bool use_history_;
  bool use_countermoves_;
  bool history_malus_;
  std::vector<Killers> killers_;
  std::vector<int> history_;
  std::vector<Countermove> countermoves_;  // by the opponent's last move (and its side)
  const Move* previous_ = nullptr;
};

// Brings the best-scored move of list[i..] to position i, the moves it passes keeping their
// order (the first of equal scores wins), so that picking i = 0, 1, ... yields the order of
// sort_by_scores, but a node that cuts off after a few moves does not sort the rest.
template <class List>
void pick_next(List& list, int* scores, std::size_t i) {
  const std::size_t n = list.size();
  std::size_t best = i;
  for (std::size_t j = i + 1; j < n; ++j)
    if (scores[j] > scores[best]) best = j;
  if (best == i) return;
  auto m = list[best];
  const int s = scores[best];
  for (std::size_t j = best; j > i; --j) {
    list[j] = list[j - 1];
    scores[j] = scores[j - 1];
  }
  list[i] = m;
  scores[i] = s;
}

// Sorts list[from..] by descending score, equal scores in their present order: the order that
// picking i = from, from + 1, ... with pick_next yields, at O(n log n) instead of O(n^2).
template <class List>
void sort_rest(List& list, int* scores, std::size_t from) {
  const std::size_t n = list.size();
  if (n <= from + 1) return;
  const std::size_t count = n - from;
  // One key per move: the score flipped so that higher sorts first, then the position.
  std::array<std::uint64_t, List::kCapacity> keys;
  for (std::size_t j = 0; j < count; ++j) {
    const auto flipped = ~(static_cast<std::uint32_t>(scores[from + j]) ^ 0x80000000u);
    keys[j] = (static_cast<std::uint64_t>(flipped) << 32) | j;
  }
  std::sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(count));
  List moves;  // as uninitialised as the list itself
  std::array<int, List::kCapacity> old_scores;
  for (std::size_t j = 0; j < count; ++j) {
    moves[j] = list[from + j];
    old_scores[j] = scores[from + j];
  }
  for (std::size_t j = 0; j < count; ++j) {
    const auto k = static_cast<std::size_t>(keys[j] & 0xffffffffu);
    list[from + j] = moves[k];
    scores[from + j] = old_scores[k];
  }
}

// The next move of a search loop in best-first order: the first few picked one at a time
// (most cut-offs come before them), then the rest sorted at once. The same order as
// pick_next all the way.
template <class List>
void next_in_order(List& list, int* scores, std::size_t i) {
  constexpr std::size_t kPicks = 4;
  if (i < kPicks) {
    pick_next(list, scores, i);
  } else if (i == kPicks) {
    sort_rest(list, scores, i);
  }
}

// Sorts `list` in place by descending score with a stable insertion sort (lists are short
// and mostly ordered); `scores` must hold list.size() ints.
template <class List>
void sort_by_scores(List& list, int* scores) {
  const std::size_t n = list.size();
  for (std::size_t i = 1; i < n; ++i) {
    auto m = list[i];
    const int s = scores[i];
    std::size_t j = i;
    while (j > 0 && scores[j - 1] < s) {
      list[j] = list[j - 1];
      scores[j] = scores[j - 1];
      --j;
    }
    list[j] = m;
    scores[j] = s;
  }
}

}  // namespace arena::search
