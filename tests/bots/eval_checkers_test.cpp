#include "bots/eval/checkers.h"

#include <gtest/gtest.h>

#include <string>

namespace arena::eval {
namespace {

using checkers::Checkers;

Checkers load(const char* text) {
  auto game = Checkers::deserialize(text);
  EXPECT_TRUE(game) << game.error();
  return *game;
}

int run(std::string_view name, const Checkers& game, const GameOptions& params = {}) {
  auto h = make_heuristic(std::type_identity<Checkers>{}, name, params);
  EXPECT_TRUE(h) << h.error();
  return h ? (*h)(game) : 0;
}

// Black: men 2 (row 0, back rank), 5 (row 1), 9 (row 2), king 14.
// White: man 21 (row 5, i.e. 2 rows advanced), king 30.
constexpr const char* kBlackToMove = "B:WK30,21:B2,5,9,K14";
constexpr const char* kWhiteToMove = "W:WK30,21:B2,5,9,K14";

TEST(CheckersEval, StartPositionIsBalancedForEveryHeuristic) {
  const Checkers start = *Checkers::create({});
  for (const auto& info : heuristics_for(std::type_identity<Checkers>{})) {
    EXPECT_EQ(run(info.name, start), 0) << info.name;
  }
}

TEST(CheckersEval, MaterialWeighsMenAndKingsSeparately) {
  const Checkers g = load(kBlackToMove);
  EXPECT_EQ(run("material", g), 3 * 100 + 150 - (100 + 150));
  EXPECT_EQ(run("material", g, {{"man", "1"}, {"king", "3"}}), 3 + 3 - (1 + 3));
  EXPECT_EQ(run("material", load(kWhiteToMove)), -200);
  const auto f = checkers_features(g);
  EXPECT_EQ(f[0], 3 - 1);
  EXPECT_EQ(f[1], 1 - 1);
}

TEST(CheckersEval, AdvancementCountsRowsOfMenOnly) {
  EXPECT_EQ(checkers_advancement(load(kBlackToMove)), (0 + 1 + 2) - 2);
  EXPECT_EQ(checkers_advancement(load(kWhiteToMove)), 2 - (0 + 1 + 2));
}

TEST(CheckersEval, BackRankGuardCountsMenOnTheirOwnBackRow) {
  EXPECT_EQ(checkers_back_rank_guard(load(kBlackToMove)), 1);
  // White's king on 30 is not a guard; its man on 29 is.
  EXPECT_EQ(checkers_back_rank_guard(load("W:WK30,29:B2,5")), 0);
  EXPECT_EQ(checkers_back_rank_guard(load("W:WK30,29:B5")), 1);
}

TEST(CheckersEval, CombinedAddsTheWeightedTerms) {
  const Checkers g = load(kBlackToMove);
  EXPECT_EQ(run("combined", g), 200 + 5 * 1 + 10 * 1);
  EXPECT_EQ(run("combined", g, {{"advancement", "0"}, {"back_rank_guard", "-2"}, {"king", "0"}}),
            200 - 2);
}

TEST(CheckersEval, BadNamesAndParametersAreNamed) {
  auto unknown = make_heuristic(std::type_identity<Checkers>{}, "tempo", {});
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("tempo"), std::string::npos);
  auto bad_key = make_heuristic(std::type_identity<Checkers>{}, "material", {{"queen", "1"}});
  ASSERT_FALSE(bad_key);
  EXPECT_NE(bad_key.error().find("queen"), std::string::npos);
  auto bad_value = make_heuristic(std::type_identity<Checkers>{}, "material", {{"king", "1.5x"}});
  ASSERT_FALSE(bad_value);
  EXPECT_NE(bad_value.error().find("king"), std::string::npos);
  // A heuristic without parameters names the one it was given and says it takes none.
  auto extra = make_heuristic(std::type_identity<Checkers>{}, "advancement", {{"king", "2"}});
  ASSERT_FALSE(extra);
  EXPECT_EQ(extra.error(), "unknown parameter 'king' for advancement (it takes none)");
}

}  // namespace
}  // namespace arena::eval
