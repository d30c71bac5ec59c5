// bots/lab/chess_tuning.h: the data files `arena tune` reads, the weights it holds fixed, the
// scorer it fits with and the weights file it writes.

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "bots/eval/chess_tapered.h"
#include "bots/eval/weights_file.h"
#include "bots/lab/chess_tuning.h"
#include "tests/db/temp_dir.h"

namespace arena::lab {
namespace {

const std::string kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const std::string kNoQueen = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = arena::test::scratch_file(name);
  std::ofstream(path) << text;
  return path;
}

// Centipawns become the side to move's chance to win; a position given again (also with other
// move counters) is read once, across files too; comments and blank lines are skipped.
TEST(ChessTuning, ReadsScoresAsWinChancesAndEachPositionOnce) {
  const std::string a = write_file("tuning_a.txt", "# scored\n" + kStart + ";0\n\n" + kNoQueen +
                                                       ";400\n" + kStart.substr(0, 52) +
                                                       " 3 9;25\n");
  const std::string b = write_file("tuning_b.txt", kNoQueen + ";-10\n");
  ScoredPositions s;
  ASSERT_TRUE(read_scored_positions(a, false, 0, s));
  ASSERT_TRUE(read_scored_positions(b, false, 0, s));
  ASSERT_EQ(s.positions.size(), 2u);
  ASSERT_EQ(s.targets.size(), 2u);
  EXPECT_DOUBLE_EQ(s.targets[0], 0.5);
  EXPECT_DOUBLE_EQ(s.targets[1], win_probability(400, 1.0));
  EXPECT_GT(s.targets[1], 0.9);
  EXPECT_EQ(s.positions[1].serialize().substr(0, 20), kNoQueen.substr(0, 20));
}

// With results the number is the outcome for the side to move, and nothing else is one.
TEST(ChessTuning, ResultsAreOneHalfOrZero) {
  ScoredPositions s;
  ASSERT_TRUE(read_scored_positions(write_file("tuning_r.txt", kStart + ";0.5\n" + kNoQueen +
                                                                   ";1\n"),
                                    true, 0, s));
  EXPECT_EQ(s.targets, (std::vector<double>{0.5, 1.0}));
  const std::string bad = write_file("tuning_rbad.txt", kStart + ";0.3\n");
  auto r = read_scored_positions(bad, true, 0, s);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().find(bad + ":1: a result must be 1, 0.5 or 0"), std::string::npos)
      << r.error();
}

// Every refusal names the file and the line.
TEST(ChessTuning, BadLinesAreNamedWithTheirFileAndLine) {
  const struct {
    std::string text, error;
  } cases[] = {{kStart + ";10\n" + kStart, ":2: no ';' between FEN and score"},
               {kStart + ";ten", ":1: 'ten' is not a number"},
               {kStart + ";10 cp", ":1: '10 cp' is not a number"},
               {"8/8/8 w - - 0 1;10", ":1: "}};
  for (const auto& c : cases) {
    const std::string path = write_file("tuning_bad.txt", c.text);
    ScoredPositions s;
    auto r = read_scored_positions(path, false, 0, s);
    ASSERT_FALSE(r) << c.text;
    EXPECT_NE(r.error().find(path + c.error), std::string::npos) << r.error();
  }
  ScoredPositions s;
  auto missing =
      read_scored_positions(arena::test::scratch_file("no_such_tuning_file"), false, 0, s);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("cannot read"), std::string::npos);
}

// --max-positions counts the lines read from each file, so a second file is read too.
TEST(ChessTuning, MaxPositionsIsPerFile) {
  const std::string a = write_file("tuning_m1.txt", kStart + ";0\n" + kNoQueen + ";300\n");
  const std::string b =
      write_file("tuning_m2.txt", "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;300\n");
  ScoredPositions s;
  ASSERT_TRUE(read_scored_positions(a, false, 1, s));
  ASSERT_TRUE(read_scored_positions(b, false, 1, s));
  EXPECT_EQ(s.positions.size(), 2u);
}

TEST(ChessTuning, FixedWeightsAreNameEqualsValue) {
  auto fixed = parse_fixed_weights({"p_mg=90", "n_eg=280"});
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->at("p_mg"), "90");
  EXPECT_EQ(fixed->at("n_eg"), "280");
  for (const char* bad : {"p_mg", "=90"}) {
    auto r = parse_fixed_weights({bad});
    ASSERT_FALSE(r) << bad;
    EXPECT_NE(r.error().find(std::string("'") + bad + "' is not name=value"), std::string::npos);
  }
  const std::vector<eval::WeightLine> start = {{"p_mg", 85, ""}, {"q_mg", 1000, ""}};
  const FitStart fit = fit_start(start, *fixed);
  EXPECT_EQ(fit.names, std::vector<std::string>{"q_mg"});
  EXPECT_EQ(fit.weights, std::vector<double>{1000});
}

// The scorer gives what the tapered heuristic gives under the same weights, and refuses a
// weight the heuristic does not know.
TEST(ChessTuning, TheScorerIsTheTaperedHeuristicUnderTheWeights) {
  ScoredPositions s;
  ASSERT_TRUE(read_scored_positions(write_file("tuning_s.txt", kStart + ";0\n" + kNoQueen +
                                                                   ";900\n"),
                                    false, 0, s));
  const std::vector<std::string> names = {"q_mg", "q_eg"};
  const GameOptions fixed = {{"p_mg", "90"}};
  const auto scorer = tapered_scorer(names, fixed, s);
  std::vector<int> scores(s.positions.size());
  ASSERT_TRUE(scorer({700, 800}, scores));
  auto h = eval::make_chess_tapered_heuristic({{"q_mg", "700"}, {"q_eg", "800"}, {"p_mg", "90"}});
  ASSERT_TRUE(h);
  EXPECT_EQ(scores[0], (*h)(s.positions[0]));
  EXPECT_EQ(scores[1], (*h)(s.positions[1]));
  ASSERT_TRUE(scorer({1200, 1300}, scores));
  EXPECT_NE(scores[1], (*h)(s.positions[1]));  // the weights count
  const std::vector<std::string> unknown = {"no_such_weight"};
  auto refused = tapered_scorer(unknown, {}, s)({1}, scores);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("no_such_weight"), std::string::npos) << refused.error();
}

// The written text is a weights file: the fixed and the fitted weights read back.
TEST(ChessTuning, TheFittedTextIsAWeightsFile) {
  TexelResult fit;
  fit.weights = {1012.5, 310};
  fit.train_positions = 100;
  const std::string text = fitted_weights_text({"q_mg", "n_mg"}, fit, {{"p_mg", "90"}}, "s.txt");
  auto lines = eval::read_weight_lines(text);
  ASSERT_TRUE(lines) << lines.error();
  ASSERT_EQ(lines->size(), 3u);
  EXPECT_EQ((*lines)[0].name, "p_mg");
  EXPECT_EQ((*lines)[0].value, 90);
  EXPECT_EQ((*lines)[1].name, "q_mg");
  EXPECT_NEAR((*lines)[1].value, 1012, 1);
  EXPECT_EQ((*lines)[2].name, "n_mg");
  EXPECT_EQ((*lines)[2].value, 310);
  EXPECT_NE(text.find("from s.txt"), std::string::npos);
}

}  // namespace
}  // namespace arena::lab
