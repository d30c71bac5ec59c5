// The sheet table (games/gdl/library/sheet_report.h), on a folder made here: a sheet that plays, one the
// reader refuses, one too large for the given grounding limits (run by the prover instead) and
// one whose goals leave 0..100. Each row says what happened in words that do not depend on where
// the folder is; the table is written between its markers, leaving the rest of the file alone.

#include "games/gdl/library/sheet_report.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace arena::gdl {
namespace {

namespace fs = std::filesystem;

// A two-step counter game of one role; `goal` is its goal value at the end.
std::string counter_sheet(int goal) {
  return "(role r)\n(init (step 0))\n(succ 0 1) (succ 1 2)\n"
         "(<= (legal r go) (true (step ?x)))\n"
         "(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))\n"
         "(<= terminal (true (step 2)))\n"
         "(<= (goal r " +
         std::to_string(goal) + ") (true (step 2)))\n";
}

class SheetReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("arena_sheet_report_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("good.kif", counter_sheet(100));
    write("badgoal.kif", counter_sheet(150));
    // ?z occurs only in the head: the safety restriction refuses it, on line 3.
    write("unsafe.kif", "(role r)\n(init s)\n(<= (legal r (go ?z)) (true s))\n"
                        "(<= (next s) (does r go))\n(<= terminal (true s))\n(<= (goal r 0) (true s))\n");
    write("notes.txt", "not a sheet");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
  }
  static SheetReportOptions quick() {
    SheetReportOptions o;
    o.seconds_per_sheet = 0.05;
    return o;
  }
  fs::path dir_;
};

TEST_F(SheetReportTest, EachSheetIsReportedAsItPlays) {
  const auto reports = report_sheets(dir_.string(), quick());
  ASSERT_EQ(reports.size(), 3u) << "only *.kif files, sorted by name";
  EXPECT_EQ(reports[0].name, "badgoal");
  EXPECT_EQ(reports[1].name, "good");
  EXPECT_EQ(reports[2].name, "unsafe");

  const SheetReport& good = reports[1];
  EXPECT_TRUE(good.loaded);
  EXPECT_EQ(good.roles, 1);
  EXPECT_TRUE(good.compiled);
  EXPECT_EQ(good.reasoner, "compiled");
  EXPECT_GT(good.playouts, 0);
  EXPECT_EQ(good.playouts_ended, good.playouts) << "every playout reaches step 2";
  EXPECT_TRUE(good.goals_ok);

  const SheetReport& bad = reports[0];
  EXPECT_TRUE(bad.loaded);
  EXPECT_FALSE(bad.goals_ok);
  EXPECT_NE(bad.goal_problem.find("150"), std::string::npos) << bad.goal_problem;

  const SheetReport& unsafe = reports[2];
  EXPECT_FALSE(unsafe.loaded);
  EXPECT_EQ(unsafe.refused.rfind("line 3", 0), 0u) << unsafe.refused;
  EXPECT_NE(unsafe.refused.find("safety"), std::string::npos) << unsafe.refused;
  EXPECT_EQ(unsafe.refused.find(dir_.string()), std::string::npos) << "no folder in the table";
}

TEST_F(SheetReportTest, ASheetTooLargeToGroundIsRunByTheProverAndSaysWhy) {
  SheetReportOptions o = quick();
  o.limits.max_rules = 2;  // the counter game has more ground rules than this
  const SheetReport r = report_sheet((dir_ / "good.kif").string(), o);
  ASSERT_TRUE(r.loaded);
  EXPECT_FALSE(r.compiled);
  EXPECT_EQ(r.reasoner, "prover");
  EXPECT_GT(r.playouts_ended, 0);
  EXPECT_TRUE(r.goals_ok);
  EXPECT_NE(r.not_compiled.find("good.kif"), std::string::npos) << r.not_compiled;
  EXPECT_EQ(r.not_compiled.find(dir_.string()), std::string::npos)
      << "the file's name, not its folder: " << r.not_compiled;
}

TEST_F(SheetReportTest, AnUnsafeRuleBoundByDemandIsNamedInTheNotes) {
  // ?x of (any ?x) is asked only at 1: the rule is bound by that demand (demand.h).
  write("bound.kif",
        "(role r)\n(init s)\n(<= (any ?x) (true s))\n(<= (legal r go) (any 1))\n"
        "(<= (next s) (does r go))\n(<= terminal (true s))\n(<= (goal r 100) (true s))\n");
  const SheetReport r = report_sheet((dir_ / "bound.kif").string(), quick());
  ASSERT_TRUE(r.loaded) << r.refused;
  EXPECT_EQ(r.bound_by_demand, std::vector<int>{3});
  const std::string table = sheet_table_markdown({r});
  EXPECT_NE(table.find("| unsafe rules bound by demand: line 3 |"), std::string::npos) << table;
}

TEST_F(SheetReportTest, TheTableIsWrittenBetweenItsMarkers) {
  const auto reports = report_sheets(dir_.string(), quick());
  const std::string table = sheet_table_markdown(reports);
  EXPECT_EQ(table.rfind("3 sheets: 2 load, 2 compile, 1 refused;", 0), 0u) << table;
  EXPECT_NE(table.find("on 1 of the 2 that load"), std::string::npos) << table;
  EXPECT_NE(table.find("| unsafe |  | refused |"), std::string::npos) << table;

  const fs::path readme = dir_ / "README.md";
  write("README.md", "# Sheets\n\nbefore\n<!-- sheet-table -->\nold table\n<!-- /sheet-table -->\nafter\n");
  ASSERT_TRUE(write_sheet_table(readme.string(), table));
  std::ifstream in(readme);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "# Sheets\n\nbefore\n<!-- sheet-table -->\n" + table +
                            "<!-- /sheet-table -->\nafter\n");

  // Without markers the table is appended with them.
  const fs::path other = dir_ / "OTHER.md";
  write("OTHER.md", "text");
  ASSERT_TRUE(write_sheet_table(other.string(), "T\n"));
  std::ifstream in2(other);
  std::stringstream text2;
  text2 << in2.rdbuf();
  EXPECT_EQ(text2.str(), "text\n\n<!-- sheet-table -->\nT\n<!-- /sheet-table -->\n");
}

}  // namespace
}  // namespace arena::gdl
