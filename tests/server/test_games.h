#pragma once
// Two tiny games for the server tests, so every code path (two players, puzzles) is played
// even before the real games are in the catalog; the tests also play every catalog game.
//   race:    a counter from 0; a move adds 1 or 2 ("1"/"2"); who reaches `target` (default 7)
//            wins; position text "N" (N = counter; the side to move follows from nothing, so
//            it is "N:S" with S = 0/1).
//   counter: a puzzle; the position is a number; moves "inc"/"dec"; solved at 0.
//   tally:   three seats with simultaneous turns (tally_game.h); loads only its start.

#include <charconv>
#include <memory>
#include <optional>
#include <string>

#include "games/catalog/catalog.h"
#include "games/core/any_game.h"
#include "games/core/move_list.h"
#include "server/hub.h"
#include "tests/server/tally_game.h"

namespace arena::server::testing {

class Race {
 public:
  static constexpr std::string_view kName = "race";
  static constexpr int kNumPlayers = 2;
  static constexpr int kTarget = 7;
  struct Move {
    int step = 1;
    bool operator==(const Move&) const = default;
  };
  using MoveList = arena::MoveList<Move, 2>;

  static Expected<Race> create(const GameOptions& options) {
    if (!options.empty())
      return make_error("race has no options (got '" + options.begin()->first + "')");
    return Race{};
  }
  static Expected<Race> deserialize(std::string_view text) {
    Race r;
    auto colon = text.find(':');
    if (colon == std::string_view::npos) return make_error("race position needs N:S");
    std::from_chars(text.data(), text.data() + colon, r.count_);
    r.side_ = text.substr(colon + 1) == "1" ? 1 : 0;
    return r;
  }
  Player side_to_move() const { return side_ == 0 ? Player::kFirst : Player::kSecond; }
  void generate_moves(MoveList& list) const {
    list.clear();
    if (count_ >= kTarget) return;
    list.push_back({1});
    if (count_ + 2 <= kTarget) list.push_back({2});
  }
  void make_move(Move m) { count_ += m.step, side_ ^= 1; }
  void unmake_move(Move m) { count_ -= m.step, side_ ^= 1; }
  Outcome outcome() const {
    // The player who just moved reached the target.
    if (count_ < kTarget) return Outcome::ongoing();
    return Outcome::win_for(side_ == 0 ? Player::kSecond : Player::kFirst, EndReason::kLine);
  }
  std::uint64_t hash() const { return static_cast<std::uint64_t>(count_ * 2 + side_); }
  std::string move_to_string(Move m) const { return std::to_string(m.step); }
  std::optional<Move> parse_move(std::string_view t) const {
    MoveList l;
    generate_moves(l);
    for (auto m : l)
      if (move_to_string(m) == t) return m;
    return std::nullopt;
  }
  std::string serialize() const { return std::to_string(count_) + ":" + std::to_string(side_); }

 private:
  int count_ = 0;
  int side_ = 0;
};

class Counter {
 public:
  static constexpr std::string_view kName = "counter";
  static constexpr int kNumPlayers = 1;
  struct Move {
    int delta = 1;
    bool operator==(const Move&) const = default;
  };
  using MoveList = arena::MoveList<Move, 2>;
  static Expected<Counter> create(const GameOptions&) { return Counter{}; }
  static Expected<Counter> deserialize(std::string_view text) {
    Counter c;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), c.n_);
    if (ec != std::errc{}) return make_error("counter position must be a number");
    return c;
  }
  Player side_to_move() const { return Player::kFirst; }
  void generate_moves(MoveList& list) const {
    list.clear();
    list.push_back({1});
    list.push_back({-1});
  }
  void make_move(Move m) { n_ += m.delta; }
  void unmake_move(Move m) { n_ -= m.delta; }
  Outcome outcome() const {
    return n_ == 0 ? Outcome{Result::kFirstWins, EndReason::kSolved} : Outcome::ongoing();
  }
  std::uint64_t hash() const { return static_cast<std::uint64_t>(n_); }
  std::string move_to_string(Move m) const { return m.delta > 0 ? "inc" : "dec"; }
  std::optional<Move> parse_move(std::string_view t) const {
    if (t == "inc") return Move{1};
    if (t == "dec") return Move{-1};
    return std::nullopt;
  }
  std::string serialize() const { return std::to_string(n_); }

 private:
  int n_ = 0;
};

// The catalog plus the two test games.
inline HubConfig test_hub_config() {
  HubConfig config;
  config.make_game = [](std::string_view name,
                        const GameOptions& o) -> Expected<std::unique_ptr<AnyGame>> {
    if (name == Race::kName) {
      auto g = Race::create(o);
      if (!g) return make_error(g.error());
      return std::unique_ptr<AnyGame>(std::make_unique<GameAdapter<Race>>(*g));
    }
    if (name == Counter::kName)
      return std::unique_ptr<AnyGame>(std::make_unique<GameAdapter<Counter>>(Counter{}));
    if (name == "tally") return std::unique_ptr<AnyGame>(std::make_unique<Tally>(3));
    return make_game(name, o);
  };
  config.load_game = [](std::string_view name,
                        std::string_view p) -> Expected<std::unique_ptr<AnyGame>> {
    if (name == Race::kName) {
      auto g = Race::deserialize(p);
      if (!g) return make_error(g.error());
      return std::unique_ptr<AnyGame>(std::make_unique<GameAdapter<Race>>(*g));
    }
    if (name == Counter::kName) {
      auto g = Counter::deserialize(p);
      if (!g) return make_error(g.error());
      return std::unique_ptr<AnyGame>(std::make_unique<GameAdapter<Counter>>(*g));
    }
    if (name == "tally" && p == Tally(3).serialize())
      return std::unique_ptr<AnyGame>(std::make_unique<Tally>(3));
    return load_game(name, p);
  };
  return config;
}

}  // namespace arena::server::testing
