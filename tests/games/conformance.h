#pragma once
// The conformance test every game instantiates:
//   INSTANTIATE_TYPED_TEST_SUITE_P(Chess, Conformance, ::testing::Types<arena::chess::Chess>);
// Random playouts (thousands of plies in all) check, at every position: serialize round-trip,
// hash recomputed from scratch equals the incremental hash, move-text round-trip, terminal
// exactly when the rules say so, AnyGame agrees with the concrete game; and on the way back,
// unmake restores position and hash.
//
// A game whose terminal positions may still have legal moves (chess draws by rule, puzzles)
// says `static constexpr bool kTerminalIffNoMoves = false;`.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "games/core/any_game.h"
#include "games/core/game.h"
#include "games/core/rng.h"

namespace arena::test {

template <class G>
constexpr bool terminal_iff_no_moves() {
  if constexpr (requires { G::kTerminalIffNoMoves; }) {
    return G::kTerminalIffNoMoves;
  } else {
    return true;
  }
}

template <class G>
class Conformance : public ::testing::Test {};
TYPED_TEST_SUITE_P(Conformance);

TYPED_TEST_P(Conformance, RandomPlayoutsKeepEveryInvariant) {
  using G = TypeParam;
  constexpr int kTotalPlies = 4000;
  constexpr int kMaxPliesPerGame = 400;
  Rng rng(20261121);
  int plies = 0;
  for (int game_no = 0; plies < kTotalPlies; ++game_no) {
    auto created = G::create({});
    ASSERT_TRUE(created) << created.error();
    G game = *created;
    GameAdapter<G> any(game);
    struct Step {
      typename G::Move move;
      std::string before;
      std::uint64_t hash;
    };
    std::vector<Step> steps;
    for (int ply = 0; ply < kMaxPliesPerGame; ++ply, ++plies) {
      const std::string text = game.serialize();
      auto reloaded = G::deserialize(text);
      ASSERT_TRUE(reloaded) << "deserialize(" << text << "): " << reloaded.error();
      ASSERT_EQ(reloaded->serialize(), text);
      ASSERT_EQ(reloaded->hash(), game.hash()) << "incremental hash differs at " << text;

      typename G::MoveList list;
      game.generate_moves(list);
      const Outcome outcome = game.outcome();
      ASSERT_EQ(any.outcome(), outcome);
      ASSERT_EQ(any.serialize(), text);
      if (G::kNumPlayers > 1 && list.empty()) {
        ASSERT_TRUE(outcome.is_terminal()) << text;
      }
      if constexpr (terminal_iff_no_moves<G>()) {
        ASSERT_EQ(outcome.is_terminal(), list.empty()) << text;
      }

      std::vector<std::string> texts;
      for (const auto& m : list) {
        const std::string mt = game.move_to_string(m);
        auto parsed = game.parse_move(mt);
        ASSERT_TRUE(parsed.has_value()) << "cannot parse own move '" << mt << "' at " << text;
        ASSERT_TRUE(*parsed == m) << "move '" << mt << "' parses to another move at " << text;
        texts.push_back(mt);
      }
      ASSERT_EQ(any.legal_moves(), texts) << text;
      if (outcome.is_terminal() || list.empty()) break;

      const auto m = list[rng.below(list.size())];
      steps.push_back({m, text, game.hash()});
      auto played = any.play(game.move_to_string(m));
      ASSERT_TRUE(played) << played.error();
      game.make_move(m);
    }
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
      game.unmake_move(it->move);
      ASSERT_EQ(game.serialize(), it->before);
      ASSERT_EQ(game.hash(), it->hash);
    }
    if (game_no > 2000) break;  // games that end at once still finish the test
  }
}

TYPED_TEST_P(Conformance, RejectsGarbagePositionsWithAMessage) {
  using G = TypeParam;
  for (const char* bad : {"", "garbage", "\x01\x02", "1 2 3 4 5 6 7 8 9 10 11 12 13"}) {
    auto g = G::deserialize(bad);
    ASSERT_FALSE(g) << "accepted '" << bad << "'";
    EXPECT_FALSE(g.error().empty());
  }
}

TYPED_TEST_P(Conformance, RejectsUnknownMoveText) {
  using G = TypeParam;
  auto g = G::create({});
  ASSERT_TRUE(g) << g.error();
  for (const char* bad : {"", "zz99", "not a move", "x", "\xff"}) {
    EXPECT_FALSE(g->parse_move(bad).has_value()) << "parsed '" << bad << "'";
  }
}

TYPED_TEST_P(Conformance, RejectsUnknownOption) {
  using G = TypeParam;
  auto g = G::create({{"no-such-option", "1"}});
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().find("no-such-option"), std::string::npos) << g.error();
}

REGISTER_TYPED_TEST_SUITE_P(Conformance, RandomPlayoutsKeepEveryInvariant,
                            RejectsGarbagePositionsWithAMessage, RejectsUnknownMoveText,
                            RejectsUnknownOption);

}  // namespace arena::test
