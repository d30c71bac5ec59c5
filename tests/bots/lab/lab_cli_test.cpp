// arena learn / arena analyze from the outside: bad flags exit 2 with a message naming them.

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "db/sqlite_store.h"
#include "tests/db/temp_dir.h"

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

TEST(LabCli, LearnSaysWhichSettingsAreTheGamesDefaults) {
  const CliRun chess = run("learn --game chess --batch-plies 10 --move-cap 10 --iterations 1");
  ASSERT_EQ(chess.status, 0) << chess.output;
  EXPECT_NE(chess.output.find("search alphabeta:depth=2,qsearch (this game's default); batch 10 "
                              "positions, fixed scale (this game's default)"),
            std::string::npos)
      << chess.output;
  const CliRun chosen = run(
      "learn --game chess --search alphabeta:depth=1 --free-scale --batch-plies 10 --move-cap 10 "
      "--iterations 1");
  ASSERT_EQ(chosen.status, 0) << chosen.output;
  EXPECT_NE(chosen.output.find("search alphabeta:depth=1; batch 10 positions, free scale\n"),
            std::string::npos)
      << chosen.output;
  const CliRun qubic = run("learn --game qubic --move-cap 10 --iterations 1 --batch-plies 10");
  ASSERT_EQ(qubic.status, 0) << qubic.output;
  EXPECT_NE(qubic.output.find("search alphabeta:depth=2 (this game's default); batch 10 positions, "
                              "free scale (this game's default)"),
            std::string::npos)
      << qubic.output;
}

TEST(LabCli, LearnStartsFromOnesWhenAsked) {
  const CliRun r =
      run("learn --game chess --start ones --batch-plies 10 --move-cap 10 --iterations 1");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("start q=1.000 r=1.000 b=1.000 n=1.000 p=1.000"), std::string::npos)
      << r.output;
}

TEST(LabCli, LearnStartsFromAWeightsFile) {
  const std::string path = arena::test::scratch_file("lab_cli_start_weights.txt");
  {
    std::ofstream out(path);
    out << "# start\nq 8\nr 4\nb 4\nn 3\np 2\n";
  }
  const CliRun r =
      run("learn --game chess --start " + path + " --batch-plies 10 --move-cap 10 --iterations 1");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("start q=8.000 r=4.000 b=4.000 n=3.000 p=2.000"), std::string::npos)
      << r.output;
  std::remove(path.c_str());
}

TEST(LabCli, LearnRejectsABadStart) {
  const CliRun missing = run("learn --game chess --start /nonexistent/w.txt --iterations 1");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.output.find("cannot read '/nonexistent/w.txt'"), std::string::npos)
      << missing.output;
  const std::string path = arena::test::scratch_file("lab_cli_bad_weights.txt");
  {
    std::ofstream out(path);
    out << "q 9\nr 5\nb 3\nn 3\nk 1\n";
  }
  const CliRun unknown = run("learn --game chess --start " + path + " --iterations 1");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.output.find("line 5: unknown weight 'k'"), std::string::npos) << unknown.output;
  std::remove(path.c_str());
}

TEST(LabCli, AnalyzeRejectsAnUnknownHeuristic) {
  const CliRun r = run("analyze --game isolation --heuristics bogus --games 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("bogus"), std::string::npos) << r.output;
}

// A missing database: said so, the table printed; the measures go into a new store there,
// which a folder that does not exist cannot hold: exit 1 naming the file.
TEST(LabCli, AnalyzeSaysWhenTheDatabaseIsMissing) {
  const CliRun r = run("analyze --game isolation --games 2 --db /nonexistent/league.db");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("no database at '/nonexistent/league.db'"), std::string::npos);
  EXPECT_NE(r.output.find("custom_score_2"), std::string::npos);
  EXPECT_NE(r.output.find("arena analyze: --db: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("/nonexistent/league.db"), std::string::npos) << r.output;
}

// --db FILE records the run's measures in the store (created when missing): each heuristic
// with its games, positions, buckets and the run's settings; a later run of one heuristic
// replaces its measures and keeps the other's. The printed table is unchanged by it.
TEST(LabCli, AnalyzeRecordsItsMeasuresInTheStore) {
  arena::test::TempDir dir;
  const std::string db = dir.file("lab.db");
  const std::string flags = " --game isolation --games 2 --seed 5 --heuristics improved_score,center_score";
  const CliRun plain = run("analyze" + flags);
  const CliRun r = run("analyze" + flags + " --db " + db);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("recorded the measures of 2 heuristics of isolation in '" + db + "'"),
            std::string::npos) << r.output;
  const auto table = plain.output.find("isolation heuristics");
  ASSERT_NE(table, std::string::npos) << plain.output;
  const std::string rows = plain.output.substr(table, plain.output.find("positions:") - table);
  EXPECT_NE(r.output.find(rows), std::string::npos) << r.output;
  {
    auto store = arena::db::open_sqlite_store(db);
    ASSERT_TRUE(store) << store.error();
    auto measured = (*store)->lab_measures("isolation");
    ASSERT_TRUE(measured) << measured.error();
    ASSERT_EQ(measured->size(), 2u);
    EXPECT_EQ((*measured)[0].measures.heuristic, "center_score");
    EXPECT_EQ((*measured)[1].measures.heuristic, "improved_score");
    for (const auto& row : *measured) {
      EXPECT_EQ(row.measures.games, 2);
      EXPECT_GT(row.measures.positions, 2);
      EXPECT_GT(row.measures.moves, 0);
      EXPECT_TRUE(row.measures.mean_norm.has_value());
      EXPECT_FALSE(row.measures.outcome.empty());
      EXPECT_EQ(row.measures.outcome.front().min_plies, 1);
      EXPECT_NE(row.source.find("2 self-play games"), std::string::npos) << row.source;
      EXPECT_NE(row.parameters.find("\"seed\":5"), std::string::npos) << row.parameters;
    }
  }
  ASSERT_EQ(run("analyze --game isolation --games 2 --heuristics improved_score --db " + db).status, 0);
  auto store = arena::db::open_sqlite_store(db);
  ASSERT_TRUE(store) << store.error();
  auto measured = (*store)->lab_measures("isolation");
  ASSERT_TRUE(measured && measured->size() == 2u);
  EXPECT_EQ((*measured)[0].run, 1);
  EXPECT_EQ((*measured)[1].run, 2);
  EXPECT_TRUE((*store)->lab_measures("othello")->empty());
}

// A GDL sheet's goal heuristics are recorded under the kind the server stores, gdl:NAME.
TEST(LabCli, AnalyzeRecordsAGdlSheetsMeasuresUnderItsKind) {
  arena::test::TempDir dir;
  const std::string db = dir.file("lab.db");
  const CliRun r =
      run("analyze --game gdl:tictactoe --games 2 --player uct:iterations=30 --db " + db);
  ASSERT_EQ(r.status, 0) << r.output;
  auto store = arena::db::open_sqlite_store(db);
  ASSERT_TRUE(store) << store.error();
  auto measured = (*store)->lab_measures("gdl:tictactoe");
  ASSERT_TRUE(measured) << measured.error();
  ASSERT_EQ(measured->size(), 3u);
  for (const auto& row : *measured) EXPECT_EQ(row.measures.games, 2) << row.measures.heuristic;
}

// Without --game the comparisons run on their own positions: a flag for one game's table
// would be ignored, so it is refused with the flags named.
TEST(LabCli, AnalyzeRefusesOneGamesFlagsWithoutAGame) {
  const CliRun one = run("analyze --db /nonexistent/league.db");
  EXPECT_EQ(one.status, 2) << one.output;
  EXPECT_NE(one.output.find("--db is for one game's table: add --game"), std::string::npos)
      << one.output;
  const CliRun two = run("analyze --heuristics open_score --player random");
  EXPECT_EQ(two.status, 2) << two.output;
  EXPECT_NE(two.output.find("--heuristics, --player are for"), std::string::npos) << two.output;
  EXPECT_EQ(two.output.find("the four comparisons\n"), std::string::npos) << two.output;
}

TEST(LabCli, AnalyzeJsonHasTheFourComparisons) {
  const CliRun r = run("analyze --json");
  EXPECT_EQ(r.status, 0) << r.output;
  for (const char* name :
       {"15-puzzle manhattan", "rubik manhattan_3d", "checkers material", "othello discs"})
    EXPECT_NE(r.output.find(std::string("\"name\":\"") + name + "\""), std::string::npos) << name;
}

// arena tune: a data line that is not "FEN;score" is refused with its file and line.
TEST(LabCli, TuneNamesTheBadDataLine) {
  const std::string data = arena::test::scratch_file("tune_bad.txt");
  const std::string start = arena::test::scratch_file("tune_start.txt");
  std::ofstream(data) << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;10\n"
                      << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1;ten\n";
  std::ofstream(start) << "p_mg 85\n";
  const CliRun r = run("tune --data " + data + " --start " + start);
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find(data + ":2: 'ten' is not a number"), std::string::npos) << r.output;
  std::ofstream(data) << "not a fen;10\n";
  const CliRun fen = run("tune --data " + data + " --start " + start);
  EXPECT_EQ(fen.status, 1) << fen.output;
  EXPECT_NE(fen.output.find(data + ":1: "), std::string::npos) << fen.output;
}

// A small fit end to end: material-up positions scored as such move the material weights,
// and the written file is a weights file that the tapered heuristic reads.
TEST(LabCli, TuneWritesAWeightsFileTheTaperedEvaluationReads) {
  const std::string data = arena::test::scratch_file("tune_data.txt");
  const std::string start = arena::test::scratch_file("tune_start2.txt");
  const std::string out = arena::test::scratch_file("tune_out.txt");
  std::ofstream(data) << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;0\n"
                      << "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;1000\n"
                      << "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1;-1000\n"
                      << "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;350\n"
                      << "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1;-350\n"
                      << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;0\n";
  std::ofstream(start) << "q_mg 500\nn_mg 200\n";
  const CliRun r = run("tune --data " + data + " --start " + start + " --holdout 0 -o " + out);
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("5 positions"), std::string::npos) << r.output;  // one given twice
  EXPECT_NE(r.output.find("training error"), std::string::npos) << r.output;
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("q_mg "), std::string::npos) << text;
  EXPECT_EQ(text.find("q_mg 500\n"), std::string::npos) << text;  // it moved
  const CliRun eval = run("eval --game chess --eval tapered --params weights=" + out);
  EXPECT_EQ(eval.status, 0) << eval.output;
  std::ofstream(start) << "no_such_weight 1\n";
  const CliRun unknown = run("tune --data " + data + " --start " + start + " --holdout 0");
  EXPECT_EQ(unknown.status, 1) << unknown.output;
  EXPECT_NE(unknown.output.find("unknown weight 'no_such_weight'"), std::string::npos)
      << unknown.output;
}

}  // namespace
