// arena learn / arena analyze from the outside: bad flags exit 2 with a message naming them.

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <string>

namespace {

struct CliRun {
  int status = -1;
  std::string output;  // stdout and stderr
};

CliRun run(const std::string& args) {
  CliRun r;
  const std::string command = std::string(ARENA_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 512> buf{};
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe)) r.output += buf.data();
  const int raw = pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

TEST(LabCli, LearnRejectsAnUnknownGame) {
  const CliRun r = run("learn --game nosuch");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("nosuch"), std::string::npos) << r.output;
}

TEST(LabCli, LearnRejectsASearchWithoutAFixedDepth) {
  const CliRun r = run("learn --game chess --search mcts");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("fixed-depth"), std::string::npos) << r.output;
}

TEST(LabCli, LearnRejectsANonNumericIterationCount) {
  const CliRun r = run("learn --game chess --iterations many");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--iterations"), std::string::npos) << r.output;
}

TEST(LabCli, LearnRejectsAGameWithoutFeatures) {
  const CliRun r = run("learn --game tictactoe --iterations 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("no feature set"), std::string::npos) << r.output;
}

TEST(LabCli, LearnRejectsAnUnknownRowsMode) {
  const CliRun r = run("learn --game chess --rows leaves --iterations 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--rows"), std::string::npos) << r.output;
}

TEST(LabCli, LearnTreeRowsNeedDepthTwo) {
  const CliRun r = run("learn --game chess --rows tree --search alphabeta:depth=1 --iterations 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("depth 2"), std::string::npos) << r.output;
}

TEST(LabCli, LearnTreeRowsReportMoreRowsThanPlayedPositions) {
  const CliRun r = run(
      "learn --game chess --rows tree --search alphabeta:depth=2 --batch-plies 10 --move-cap 10 "
      "--iterations 1");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string key = "rows per batch (tree): ";
  const auto at = r.output.find(key);
  ASSERT_NE(at, std::string::npos) << r.output;
  int rows = 0, played = 0;
  ASSERT_EQ(
      std::sscanf(r.output.c_str() + at + key.size(), "%d on average, %d played", &rows, &played),
      2)
      << r.output;
  EXPECT_EQ(played, 10);
  EXPECT_GT(rows, 10 * played);  // opening positions have some 20-40 legal moves each
}

TEST(LabCli, AnalyzeRejectsAnUnknownHeuristic) {
  const CliRun r = run("analyze --game isolation --heuristics bogus --games 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("bogus"), std::string::npos) << r.output;
}

TEST(LabCli, AnalyzeSaysWhenTheDatabaseIsMissing) {
  const CliRun r = run("analyze --game isolation --games 2 --db /nonexistent/league.db");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("no database at '/nonexistent/league.db'"), std::string::npos);
  EXPECT_NE(r.output.find("custom_score_2"), std::string::npos);
}

TEST(LabCli, AnalyzeJsonHasTheFourComparisons) {
  const CliRun r = run("analyze --json");
  EXPECT_EQ(r.status, 0) << r.output;
  for (const char* name :
       {"15-puzzle manhattan", "rubik manhattan_3d", "checkers material", "othello discs"})
    EXPECT_NE(r.output.find(std::string("\"name\":\"") + name + "\""), std::string::npos) << name;
}

}  // namespace
