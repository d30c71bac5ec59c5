#pragma once
// Two tiny games that satisfy arena::Game, for testing the search templates without any
// real game: two-pile Nim (transpositions, a known theory) and a random tree whose shape and
// leaf results come from the hash of the path (irregular branching, early terminals).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bots/search/search_rng.h"
#include "games/core/expected.h"
#include "games/core/game.h"
#include "games/core/move_list.h"
#include "games/core/zobrist.h"

namespace arena::test {

// Two piles; a move takes 1..3 stones from one pile; whoever takes the last stone wins.
// Each pile's Grundy number is its size mod 4, so the player to move is lost exactly when
// (a mod 4) == (b mod 4).
class Nim {
 public:
  struct Move {
    std::uint8_t pile = 0;
    std::uint8_t take = 0;
    bool operator==(const Move&) const = default;
  };
  using MoveList = arena::MoveList<Move, 8>;
  static constexpr std::string_view kName = "nim";
  static constexpr int kNumPlayers = 2;

  Nim(int a, int b) : piles_{a, b} {}
  static Expected<Nim> create(const GameOptions&) { return Nim(7, 5); }
  static Expected<Nim> deserialize(std::string_view text) {
    const auto slash = text.find('/');
    const auto dash = text.find(' ');
    if (slash == std::string_view::npos || dash == std::string_view::npos)
      return make_error("bad nim position");
    Nim n(std::stoi(std::string(text.substr(0, slash))),
          std::stoi(std::string(text.substr(slash + 1, dash - slash - 1))));
    n.side_ = text.substr(dash + 1) == "2" ? Player::kSecond : Player::kFirst;
    return n;
  }

  Player side_to_move() const { return side_; }
  void generate_moves(MoveList& list) const {
    list.clear();
    for (std::uint8_t p = 0; p < 2; ++p)
      for (std::uint8_t t = 1; t <= 3 && t <= piles_[p]; ++t) list.push_back({p, t});
  }
  void make_move(const Move& m) {
    piles_[m.pile] -= m.take;
    side_ = opponent(side_);
  }
  void unmake_move(const Move& m) {
    piles_[m.pile] += m.take;
    side_ = opponent(side_);
  }
  Outcome outcome() const {
    if (piles_[0] + piles_[1] > 0) return Outcome::ongoing();
    return Outcome::win_for(opponent(side_), EndReason::kNoMoves);
  }
  std::uint64_t hash() const {
    std::uint64_t s = static_cast<std::uint64_t>(piles_[0] * 1000 + piles_[1] * 2 + index(side_));
    return splitmix64(s);
  }
  std::string move_to_string(const Move& m) const {
    return std::string(1, static_cast<char>('a' + m.pile)) + std::to_string(m.take);
  }
  std::optional<Move> parse_move(std::string_view text) const {
    MoveList list;
    generate_moves(list);
    for (const Move& m : list)
      if (move_to_string(m) == text) return m;
    return std::nullopt;
  }
  std::string serialize() const {
    return std::to_string(piles_[0]) + "/" + std::to_string(piles_[1]) +
           (side_ == Player::kFirst ? " 1" : " 2");
  }
  bool mover_loses_in_theory() const { return (piles_[0] % 4) == (piles_[1] % 4); }

 private:
  int piles_[2];
  Player side_ = Player::kFirst;
};

// A game tree drawn from a seed: each node's number of children (0..4) and, at nodes with no
// children or at the depth cap, the result, are functions of the path's hash.
class RandomTree {
 public:
  struct Move {
    std::uint8_t child = 0;
    bool operator==(const Move&) const = default;
  };
  using MoveList = arena::MoveList<Move, 8>;
  static constexpr std::string_view kName = "random_tree";
  static constexpr int kNumPlayers = 2;
  static constexpr int kMaxDepth = 9;

  explicit RandomTree(std::uint64_t seed) { hashes_[0] = seed; }
  static Expected<RandomTree> create(const GameOptions&) { return RandomTree(1); }
  static Expected<RandomTree> deserialize(std::string_view) { return make_error("not supported"); }

  Player side_to_move() const { return depth_ % 2 == 0 ? Player::kFirst : Player::kSecond; }
  void generate_moves(MoveList& list) const {
    list.clear();
    const int n = num_children();
    for (int i = 0; i < n; ++i) list.push_back({static_cast<std::uint8_t>(i)});
  }
  void make_move(const Move& m) {
    std::uint64_t s = hashes_[depth_] ^ (0x9E37ULL * (m.child + 1));
    hashes_[depth_ + 1] = splitmix64(s);
    ++depth_;
  }
  void unmake_move(const Move&) { --depth_; }
  Outcome outcome() const {
    if (num_children() > 0) return Outcome::ongoing();
    switch ((hash() >> 20) % 3) {
      case 0:
        return Outcome::win_for(Player::kFirst, EndReason::kNoMoves);
      case 1:
        return Outcome::win_for(Player::kSecond, EndReason::kNoMoves);
      default:
        return Outcome::draw(EndReason::kNoMoves);
    }
  }
  std::uint64_t hash() const { return hashes_[depth_]; }
  std::string move_to_string(const Move& m) const { return std::to_string(m.child); }
  std::optional<Move> parse_move(std::string_view text) const {
    MoveList list;
    generate_moves(list);
    for (const Move& m : list)
      if (move_to_string(m) == text) return m;
    return std::nullopt;
  }
  std::string serialize() const {
    return std::to_string(hashes_[0]) + "@" + std::to_string(depth_);
  }

 private:
  int num_children() const {
    if (depth_ >= kMaxDepth) return 0;
    const int n = static_cast<int>((hash() >> 40) % 6);  // 0 or 1 ends early sometimes
    return depth_ < 2 && n < 2 ? 2 : (n == 5 ? 4 : n);
  }

  std::uint64_t hashes_[kMaxDepth + 1] = {};
  int depth_ = 0;
};

// A deterministic pseudo-evaluation in [-100, 100] for tests that need an irregular leaf
// value: any function of the position gives minimax a well-defined value to check.
struct HashEval {
  template <class G>
  int operator()(const G& g) const {
    return static_cast<int>((g.hash() >> 7) % 201) - 100;
  }
};

// `count` positions reached by up to `max_plies` random moves from `start`, skipping finished
// ones: the same positions for the same seed.
template <class G>
std::vector<G> random_positions(const G& start, int count, int max_plies, std::uint64_t seed) {
  search::SearchRng rng(seed);
  std::vector<G> out;
  while (static_cast<int>(out.size()) < count) {
    G g = start;
    const int plies = static_cast<int>(rng.below(static_cast<std::uint64_t>(max_plies) + 1));
    typename G::MoveList list;
    for (int i = 0; i < plies && !g.outcome().is_terminal(); ++i) {
      g.generate_moves(list);
      g.make_move(list[rng.below(list.size())]);
    }
    if (!g.outcome().is_terminal()) out.push_back(g);
  }
  return out;
}

static_assert(Game<Nim>);
static_assert(Game<RandomTree>);

}  // namespace arena::test
