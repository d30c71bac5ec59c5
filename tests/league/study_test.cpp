// `arena study` (league/study.h): a round robin of GDL players on small sheets, recorded in the
// store, resumed without replaying, its metrics and lab measures, and unplayable sheets listed.

#include "league/study.h"

#include <atomic>
#include <cmath>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "db/sqlite_store.h"
#include "db/tournament_reader.h"
#include "games/gdl/library/library.h"
#include "tests/db/temp_dir.h"

namespace arena::league {
namespace {

StudyConfig tiny_study() {
  StudyConfig c;
  c.sheets = {"tictactoe", "chickentictactoe"};
  c.players = {"random", "uct", "fuzzy"};
  c.movetime_ms = 5;
  c.games_per_pair = 1;
  c.max_turns = 60;
  return c;
}

// Games of `kind` in the store.
int stored_games(db::Store& store, const std::string& kind) {
  db::GameFilter filter;
  filter.kind = kind;
  filter.limit = 0;
  auto games = store.list_games(filter);
  return games ? static_cast<int>(games->size()) : -1;
}

TEST(Study, RecordsEveryGameOfEverySheetAsATournamentAndReportsItsMetrics) {
  test::TempDir dir;
  const std::string path = dir.file("study.db");
  auto store = db::open_sqlite_store(path);
  ASSERT_TRUE(store) << store.error();
  const StudyConfig c = tiny_study();
  auto report = run_study(c, **store, path, {}, nullptr, std::nullopt);
  ASSERT_TRUE(report) << report.error();
  EXPECT_FALSE(report->stopped);
  EXPECT_TRUE(report->unplayable.empty());
  ASSERT_EQ(report->sheets.size(), 2u);
  EXPECT_EQ(report->games_played, 12);  // 3 pairs x 2 role orders x 2 sheets
  auto reader = db::TournamentReader::open(path);
  ASSERT_TRUE(reader);
  for (const SheetReport& s : report->sheets) {
    SCOPED_TRACE(s.sheet);
    EXPECT_EQ(s.scheduled, 6);
    EXPECT_EQ(s.finished, 6);
    EXPECT_EQ(stored_games(**store, "gdl:" + s.sheet), 6);
    auto info = reader->tournament(s.tournament);  // what `arena tournament show` reads
    ASSERT_TRUE(info);
    EXPECT_TRUE(info->finished);
    EXPECT_EQ(info->name, study_tournament_name(c, s.sheet));
    ASSERT_EQ(s.players.size(), 3u);
    for (const StudyPlayer& p : s.players) {
      EXPECT_EQ(p.games, 4);  // two opponents, both roles
      EXPECT_TRUE(std::isfinite(p.elo) && p.half_width > 0) << p.player;
    }
    EXPECT_NE(s.best >= 0, s.tied) << "a best player, or a tie at the top";
    if (s.best >= 0) {
      const StudyPlayer& top = s.players[static_cast<std::size_t>(s.best)];
      for (const StudyPlayer& p : s.players) {
        if (p.player != top.player) {
          EXPECT_LT(p.elo, top.elo);
        }
      }
    }
    EXPECT_EQ(s.metrics.games, 6);
    EXPECT_GE(s.metrics.first_win_rate + s.metrics.draw_rate, 0.0);
    EXPECT_LE(s.metrics.first_win_rate + s.metrics.draw_rate, 1.0);
    EXPECT_GE(s.metrics.mean_turns, 5.0);  // no three in a row before the fifth mark
    EXPECT_GT(s.metrics.mean_branching, 1.0);
    EXPECT_LE(s.metrics.mean_branching, 81.0);  // 9 x 9 joint moves at most (simultaneous)
    EXPECT_EQ(s.heuristic.error, "");
    EXPECT_EQ(s.heuristic.games, 6);
    ASSERT_FALSE(s.heuristic.outcome.empty());
    EXPECT_EQ(s.heuristic.outcome.back().label, "all");
    EXPECT_GT(s.heuristic.invariance.moves, 0);
    EXPECT_EQ(s.versus_games, 2);  // fuzzy against uct, once in each role
  }
  // tic-tac-toe's turns alternate (one mover: branching is the mover's moves, at most 9).
  EXPECT_LE(report->sheets[0].metrics.mean_branching, 9.0);
  int best = 0, tied = 0;
  for (int b : report->best) best += b;
  for (const SheetReport& s : report->sheets) tied += s.tied;
  EXPECT_EQ(best + tied, 2);  // one best player a sheet, or a tie
  EXPECT_EQ(report->correlation.n, 2);
  EXPECT_TRUE(std::isnan(report->correlation.low)) << "no interval from two sheets";
  const std::string table = format_study_table(*report);
  for (const char* part : {"gdl:tictactoe", "first role wins", "branching", "move invariance",
                           "Spearman", "Fisher z"})
    EXPECT_NE(table.find(part), std::string::npos) << part << "\n" << table;
  const std::string csv = format_study_csv(*report);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 2 * 3) << csv;
  EXPECT_NE(format_study_json(*report).find("\"first_role_win_rate\""), std::string::npos);
}

TEST(Study, AStoppedStudyContinuesWithoutReplayingAFinishedGame) {
  test::TempDir dir;
  const std::string path = dir.file("study.db");
  auto store = db::open_sqlite_store(path);
  ASSERT_TRUE(store) << store.error();
  const StudyConfig c = tiny_study();
  std::atomic<bool> stop{false};
  auto first = run_study(
      c, **store, path,
      [&](const std::string& line) {
        if (line.find(" games") != std::string::npos) stop = true;  // after the first game
      },
      &stop, std::nullopt);
  ASSERT_TRUE(first) << first.error();
  EXPECT_TRUE(first->stopped);
  ASSERT_EQ(first->sheets.size(), 1u);
  const int played_first = first->sheets[0].finished;
  EXPECT_GE(played_first, 1);
  EXPECT_LT(played_first, 6);
  EXPECT_EQ(first->pending, std::vector<std::string>{"chickentictactoe"});
  EXPECT_NE(format_study_table(*first).find("run the same command again"), std::string::npos);

  auto second = run_study(c, **store, path, {}, nullptr, std::nullopt);
  ASSERT_TRUE(second) << second.error();
  EXPECT_FALSE(second->stopped);
  EXPECT_EQ(second->games_played, 12 - played_first);
  ASSERT_EQ(second->sheets.size(), 2u);
  EXPECT_EQ(second->sheets[0].tournament, first->sheets[0].tournament);
  EXPECT_EQ(stored_games(**store, "gdl:tictactoe"), 6) << "no game played twice";

  auto third = run_study(c, **store, path, {}, nullptr, std::nullopt);  // all finished: read
  ASSERT_TRUE(third) << third.error();
  EXPECT_EQ(third->games_played, 0);
  EXPECT_EQ(third->sheets.size(), 2u);
  EXPECT_EQ(stored_games(**store, "gdl:chickentictactoe"), 6);
}

TEST(Study, ADeadlineAlreadyPastPlaysNothingAndListsEverySheetAsPending) {
  test::TempDir dir;
  const std::string path = dir.file("study.db");
  auto store = db::open_sqlite_store(path);
  ASSERT_TRUE(store) << store.error();
  auto report = run_study(tiny_study(), **store, path, {}, nullptr,
                          std::chrono::steady_clock::now());
  ASSERT_TRUE(report) << report.error();
  EXPECT_TRUE(report->stopped);
  EXPECT_EQ(report->games_played, 0);
  EXPECT_EQ(report->pending, (std::vector<std::string>{"tictactoe", "chickentictactoe"}));
  EXPECT_EQ(stored_games(**store, "gdl:tictactoe"), 0);
}

TEST(Study, SheetsItCannotPlayAreListedWithTheirReason) {
  test::TempDir dir;
  const std::string path = dir.file("study.db");
  const std::string broken = dir.file("broken.kif");
  std::ofstream(broken) << "(role a) (role b) (init (c 0)\n";  // unbalanced
  auto added = gdl::add_gdl_file(broken);
  ASSERT_TRUE(added) << added.error();
  auto store = db::open_sqlite_store(path);
  ASSERT_TRUE(store) << store.error();
  StudyConfig c = tiny_study();
  c.sheets = {"tictactoe", "3pttc", "maze", *added, "no_such_sheet"};
  auto report = run_study(c, **store, path, {}, nullptr, std::nullopt);
  gdl::clear_gdl_files();
  ASSERT_TRUE(report) << report.error();
  ASSERT_EQ(report->sheets.size(), 1u);
  EXPECT_EQ(report->sheets[0].sheet, "tictactoe");
  ASSERT_EQ(report->unplayable.size(), 4u);
  std::map<std::string, std::string> why;
  for (const auto& u : report->unplayable) why[u.sheet] = u.reason;
  EXPECT_NE(why["3pttc"].find("3 roles"), std::string::npos) << why["3pttc"];
  EXPECT_NE(why["maze"].find("one role"), std::string::npos) << why["maze"];
  EXPECT_NE(why[*added].find("load error"), std::string::npos) << why[*added];
  EXPECT_NE(why["no_such_sheet"].find("load error"), std::string::npos) << why["no_such_sheet"];
  const std::string table = format_study_table(*report);
  EXPECT_NE(table.find("gdl:maze: "), std::string::npos) << table;
  EXPECT_NE(format_study_csv(*report).find("3 roles"), std::string::npos);
  EXPECT_NE(format_study_json(*report).find("\"not_played\""), std::string::npos);
}

SheetReport rated(std::vector<std::pair<double, double>> elo) {
  SheetReport r;
  r.finished = 10;
  for (const auto& [e, w] : elo) r.players.push_back({"p" + std::to_string(r.players.size()), e, w, 4, 0.5});
  find_best(r);
  return r;
}

TEST(Study, TheBestIsSeparatedOnlyWhenItsIntervalClearsTheRunnerUpsAndATieHasNoBest) {
  SheetReport clear = rated({{1400, 50}, {1600, 50}, {1500, 20}});
  EXPECT_EQ(clear.best, 1);
  EXPECT_TRUE(clear.separated);  // 1550 above 1520
  SheetReport overlap = rated({{1600, 100}, {1550, 10}, {1200, 10}});
  EXPECT_EQ(overlap.best, 0);
  EXPECT_FALSE(overlap.separated);
  SheetReport tie = rated({{1600, 10}, {1600, 10}, {1200, 10}});
  EXPECT_EQ(tie.best, -1);
  EXPECT_TRUE(tie.tied);
  StudyReport report;
  report.players = {"p0", "p1", "p2"};
  report.sheets = {clear, overlap, tie};
  summarise_study(report);
  EXPECT_EQ(report.best, (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(report.separated, (std::vector<int>{0, 1, 0}));
}

TEST(Study, ABadConfigIsRefusedNamingTheProblem) {
  StudyConfig c = tiny_study();
  c.players = {"uct"};
  EXPECT_NE(check_study(c).error().find("at least two"), std::string::npos);
  c.players = {"uct", "uct"};
  EXPECT_NE(check_study(c).error().find("twice"), std::string::npos);
  c.players = {"uct", "alphabeta_please"};
  EXPECT_NE(check_study(c).error().find("alphabeta_please"), std::string::npos);
  c.players = {"uct", "random"};
  c.heuristic_player = "fuzzy";
  EXPECT_NE(check_study(c).error().find("--versus"), std::string::npos);
  c.heuristic_player = "";
  EXPECT_TRUE(check_study(c));
  EXPECT_EQ(study_versus(c).second, "uct");
  EXPECT_EQ(study_versus(c).first, "") << "no player is guided by the fuzzy goal heuristic";
  c.players = {"GDL_Fuzzy", "uct:c=1.0", "random"};
  EXPECT_EQ(study_versus(c), (std::pair<std::string, std::string>{"GDL_Fuzzy", "uct:c=1.0"}));
}

}  // namespace
}  // namespace arena::league
