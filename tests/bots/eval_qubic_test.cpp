#include "bots/eval/qubic.h"
#include "tests/games/tictactoe/qubic_play.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

namespace arena::eval {
namespace {

using tictactoe::Qubic;
constexpr auto kGame = std::type_identity<Qubic>{};

using tictactoe::test::play;

using Features = std::array<double, 6>;

TEST(QubicEval, EmptyBoardHasNoFeatures) {
  EXPECT_EQ(qubic_features(play({})), (Features{0, 0, 0, 0, 0, 0}));
}

// A corner lies on 7 lines (row, column, pillar, three plane diagonals, a space diagonal).
TEST(QubicEval, OneCornerMarkOpensItsSevenLinesForTheMover) {
  EXPECT_EQ(qubic_features(play({"1a1"})), (Features{0, 0, 0, 7, 0, 0}));
}

// X 1a1 and O 2b2 share the space diagonal, which neither can use any more.
TEST(QubicEval, SharedSpaceDiagonalIsDeadForBoth) {
  EXPECT_EQ(qubic_features(play({"1a1", "2b2"})), (Features{6, 0, 0, 6, 0, 0}));
}

// O to move after X 1a1, O 4d4, X 1b1: O keeps 6 of 4d4's lines; X has the row a1-d1 with two
// marks, 5 more lines through 1a1 and 3 more through 1b1 (column, pillar, the x=b diagonal).
TEST(QubicEval, FeaturesAreFromTheSideToMovesPointOfView) {
  const Qubic g = play({"1a1", "4d4", "1b1"});
  EXPECT_EQ(qubic_features(g), (Features{6, 0, 0, 8, 1, 0}));
  const QubicWeights w;
  EXPECT_DOUBLE_EQ(qubic_linear_value(g, w), 6 * 1 - 8 * 1 - 1 * 5);
  EXPECT_EQ(qubic_linear(g, w), -700);
}

TEST(QubicEval, ThreeInALineCountsAsOwn3) {
  const Qubic g = play({"1a1", "4d4", "1b1", "4c4", "1c1", "3a3"});  // X to move
  const auto f = qubic_features(g);
  EXPECT_EQ(f[2], 1);  // row a1-d1 of level 1
  EXPECT_EQ(f[5], 0);
}

TEST(QubicEval, ShippedWeightsFileEqualsTheCompiledDefaults) {
  auto loaded =
      load_qubic_weights(std::string(ARENA_SOURCE_DIR) + "/bots/eval/weights/qubic_default.txt");
  ASSERT_TRUE(loaded) << loaded.error();
  EXPECT_EQ(loaded->w, QubicWeights{}.w);
}

TEST(QubicEval, WeightsComeFromAFileAndParams) {
  const std::string path = testing::TempDir() + "qubic_weights_test.txt";
  {
    std::ofstream out(path);
    out << "# test\nown1 2\nopp2 -3.5  # comment\n";
  }
  const Qubic g = play({"1a1", "4d4", "1b1"});  // features 6 0 0 8 1 0
  auto from_file = make_heuristic(kGame, "linear", {{"weights", path}});
  ASSERT_TRUE(from_file) << from_file.error();
  EXPECT_EQ((*from_file)(g), static_cast<int>((6 * 2 - 8 * 1 - 1 * 3.5) * 100));
  auto with_param = make_heuristic(kGame, "linear", {{"weights", path}, {"opp1", "0"}});
  ASSERT_TRUE(with_param) << with_param.error();
  EXPECT_EQ((*with_param)(g), static_cast<int>((6 * 2 - 1 * 3.5) * 100));
  std::remove(path.c_str());
}

TEST(QubicEval, BadWeightsAreErrorsThatNameTheProblem) {
  const std::string path = testing::TempDir() + "qubic_bad_weights_test.txt";
  {
    std::ofstream out(path);
    out << "own1 1\nown4 2\n";
  }
  auto bad = load_qubic_weights(path);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("own4"), std::string::npos) << bad.error();
  EXPECT_NE(bad.error().find(":2"), std::string::npos) << bad.error();
  std::remove(path.c_str());
  EXPECT_FALSE(load_qubic_weights(path)) << "missing file";
  auto param = make_heuristic(kGame, "linear", {{"own9", "1"}});
  ASSERT_FALSE(param);
  EXPECT_NE(param.error().find("own9"), std::string::npos);
  auto value = make_heuristic(kGame, "linear", {{"own1", "x"}});
  ASSERT_FALSE(value);
  EXPECT_NE(value.error().find("own1"), std::string::npos);
}

TEST(QubicEval, FinishedGameScoresAsAWin) {
  const Qubic g = play({"1a1", "2a1", "1b1", "2b1", "1c1", "2c1", "1d1"});
  auto h = make_heuristic(kGame, "linear", {});
  ASSERT_TRUE(h);
  EXPECT_EQ((*h)(g), -kScoreWin);  // O to move, X has won
}

}  // namespace
}  // namespace arena::eval
