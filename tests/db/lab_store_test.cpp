// The heuristic lab's measures in the store (schema 6, db::LabRun): recorded and read back the
// same by the SQLite store (also after reopening the file) and the memory store; a later run of
// a heuristic replaces its earlier measures, other kinds' runs stay apart, bad runs are refused
// with an error naming the problem and write nothing.

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>

#include "db/memory_store.h"
#include "db/sqlite_store.h"
#include "tests/db/raw_db.h"
#include "tests/db/temp_dir.h"

namespace arena::db {
namespace {

LabMeasures measures(const std::string& name, double agreement_near_end) {
  LabMeasures m;
  m.heuristic = name;
  m.games = 20;
  m.positions = 610;
  m.moves = 590;
  m.spread = 4.0;
  m.mean_change = 2.0;
  m.median_change = 1.5;
  m.p90_change = 5.0;
  m.max_change = 9.0;
  m.mean_norm = 0.5;
  m.median_norm = 0.375;
  m.p90_norm = 1.25;
  m.max_norm = 2.25;
  m.unchanged = 0.1;
  m.sign_agreement = 0.6;
  m.correlation = 0.3;
  m.outcome = {{1, 4, 80, agreement_near_end, 0.7},
               {5, 9, 100, 0.55, std::nullopt},
               {40, std::nullopt, 12, std::nullopt, std::nullopt}};
  return m;
}

LabRun run_of(const std::string& kind, std::vector<LabMeasures> heuristics) {
  return {kind, 1'700'000'000'000, "20 self-play games", R"({"games": 20})",
          std::move(heuristics)};
}

void expect_same(const LabMeasures& a, const LabMeasures& b) {
  EXPECT_EQ(a.heuristic, b.heuristic);
  EXPECT_EQ(a.games, b.games);
  EXPECT_EQ(a.positions, b.positions);
  EXPECT_EQ(a.moves, b.moves);
  EXPECT_EQ(a.spread, b.spread);
  EXPECT_EQ(a.mean_change, b.mean_change);
  EXPECT_EQ(a.median_change, b.median_change);
  EXPECT_EQ(a.p90_change, b.p90_change);
  EXPECT_EQ(a.max_change, b.max_change);
  EXPECT_EQ(a.mean_norm, b.mean_norm);
  EXPECT_EQ(a.median_norm, b.median_norm);
  EXPECT_EQ(a.p90_norm, b.p90_norm);
  EXPECT_EQ(a.max_norm, b.max_norm);
  EXPECT_EQ(a.unchanged, b.unchanged);
  EXPECT_EQ(a.sign_agreement, b.sign_agreement);
  EXPECT_EQ(a.correlation, b.correlation);
  ASSERT_EQ(a.outcome.size(), b.outcome.size());
  for (std::size_t i = 0; i < a.outcome.size(); ++i) {
    EXPECT_EQ(a.outcome[i].min_plies, b.outcome[i].min_plies) << i;
    EXPECT_EQ(a.outcome[i].max_plies, b.outcome[i].max_plies) << i;
    EXPECT_EQ(a.outcome[i].positions, b.outcome[i].positions) << i;
    EXPECT_EQ(a.outcome[i].sign_agreement, b.outcome[i].sign_agreement) << i;
    EXPECT_EQ(a.outcome[i].correlation, b.outcome[i].correlation) << i;
  }
}

struct Kind {
  const char* name;
  std::function<std::unique_ptr<Store>(const std::string& dir)> open;
};

class LabStore : public ::testing::TestWithParam<Kind> {
 protected:
  void SetUp() override { store_ = GetParam().open(dir_.path()); ASSERT_TRUE(store_); }
  test::TempDir dir_;
  std::unique_ptr<Store> store_;
};

TEST_P(LabStore, ARunIsReadBackAsRecorded) {
  const LabRun run = run_of("isolation", {measures("improved_score", 0.9),
                                          measures("center_score", 0.5)});
  auto id = store_->record_lab_run(run);
  ASSERT_TRUE(id) << id.error();
  auto rows = store_->lab_measures("isolation");
  ASSERT_TRUE(rows) << rows.error();
  ASSERT_EQ(rows->size(), 2u);
  // By heuristic name.
  EXPECT_EQ((*rows)[0].measures.heuristic, "center_score");
  for (const auto& row : *rows) {
    EXPECT_EQ(row.run, *id);
    EXPECT_EQ(row.kind, "isolation");
    EXPECT_EQ(row.measured_at_ms, 1'700'000'000'000);
    EXPECT_EQ(row.source, "20 self-play games");
    EXPECT_EQ(row.parameters, R"({"games": 20})");
  }
  expect_same((*rows)[0].measures, run.heuristics[1]);
  expect_same((*rows)[1].measures, run.heuristics[0]);
  EXPECT_TRUE(store_->lab_measures("othello")->empty());
}

TEST_P(LabStore, ALaterRunReplacesAHeuristicsMeasuresAndKeepsTheOthers) {
  ASSERT_TRUE(store_->record_lab_run(run_of("isolation", {measures("a", 0.9), measures("b", 0.8)})));
  ASSERT_TRUE(store_->record_lab_run(run_of("othello", {measures("a", 0.1)})));
  LabRun later = run_of("isolation", {measures("a", 0.25)});
  later.measured_at_ms = 0;  // now
  auto id = store_->record_lab_run(later);
  ASSERT_TRUE(id) << id.error();
  auto rows = store_->lab_measures("isolation");
  ASSERT_TRUE(rows) << rows.error();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].run, *id);
  EXPECT_GT((*rows)[0].measured_at_ms, 1'700'000'000'000);
  EXPECT_EQ((*rows)[0].measures.outcome[0].sign_agreement, 0.25);
  EXPECT_EQ((*rows)[1].measures.heuristic, "b");
  EXPECT_EQ((*rows)[1].measures.outcome[0].sign_agreement, 0.8);
  EXPECT_LT((*rows)[1].run, *id);
  auto othello = store_->lab_measures("othello");
  ASSERT_EQ(othello->size(), 1u);
  EXPECT_EQ((*othello)[0].measures.outcome[0].sign_agreement, 0.1);
}

TEST_P(LabStore, AnUndefinedMeasureIsStoredAsNone) {
  LabMeasures m = measures("flat", 0.5);
  m.correlation = std::numeric_limits<double>::quiet_NaN();
  m.outcome[0].correlation = std::numeric_limits<double>::quiet_NaN();
  ASSERT_TRUE(store_->record_lab_run(run_of("qubic", {m})));
  auto rows = store_->lab_measures("qubic");
  ASSERT_TRUE(rows && rows->size() == 1u);
  EXPECT_FALSE((*rows)[0].measures.correlation.has_value());
  EXPECT_FALSE((*rows)[0].measures.outcome[0].correlation.has_value());
  EXPECT_EQ((*rows)[0].measures.outcome[0].sign_agreement, 0.5);
}

TEST_P(LabStore, ABadRunIsRefusedByNameAndWritesNothing) {
  auto error_of = [&](const LabRun& run) {
    auto id = store_->record_lab_run(run);
    EXPECT_FALSE(id) << "accepted";
    return id ? std::string() : id.error();
  };
  EXPECT_NE(error_of(run_of("", {measures("a", 0.5)})).find("needs a game kind"), std::string::npos);
  EXPECT_NE(error_of(run_of("chess", {})).find("at least one heuristic"), std::string::npos);
  EXPECT_NE(error_of(run_of("chess", {measures("a", 0.5), measures("a", 0.5)})).find("'a' twice"),
            std::string::npos);
  LabMeasures negative = measures("neg", 0.5);
  negative.games = -1;
  EXPECT_NE(error_of(run_of("chess", {negative})).find("'neg'"), std::string::npos);
  EXPECT_NE(error_of(run_of("chess", {measures("share", 1.5)})).find("sign_agreement is 1.5"),
            std::string::npos);
  LabMeasures inverted = measures("inverted", 0.5);
  inverted.outcome[0].max_plies = 0;
  EXPECT_NE(error_of(run_of("chess", {inverted})).find("bucket 0"), std::string::npos);
  EXPECT_TRUE(store_->lab_measures("chess")->empty());
}

const Kind kKinds[] = {
    {"Sqlite",
     [](const std::string& dir) -> std::unique_ptr<Store> {
       auto s = open_sqlite_store(dir + "/lab.db");
       EXPECT_TRUE(s) << s.error();
       return s ? std::unique_ptr<Store>(std::move(*s)) : nullptr;
     }},
    {"Memory", [](const std::string&) -> std::unique_ptr<Store> {
       return std::make_unique<MemoryStore>();
     }}};

INSTANTIATE_TEST_SUITE_P(BothStores, LabStore, ::testing::ValuesIn(kKinds),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

// The SQLite file keeps the measures across a reopen, in the schema-6 tables.
TEST(LabStoreFile, TheMeasuresSurviveAReopenInTheirOwnTables) {
  test::TempDir dir;
  const std::string path = dir.file("lab.db");
  const LabRun run = run_of("checkers", {measures("material", 0.75)});
  {
    auto store = open_sqlite_store(path);
    ASSERT_TRUE(store) << store.error();
    ASSERT_TRUE((*store)->record_lab_run(run));
  }
  {
    test::RawDb raw(path);
    EXPECT_EQ(raw.integer("SELECT COUNT(*) FROM lab_runs WHERE kind = 'checkers'"), 1);
    EXPECT_EQ(raw.integer("SELECT COUNT(*) FROM lab_heuristics"), 1);
    EXPECT_EQ(raw.integer("SELECT COUNT(*) FROM lab_outcome"), 3);
    EXPECT_EQ(raw.integer("SELECT COUNT(*) FROM lab_outcome WHERE max_plies IS NULL"), 1);
  }
  auto store = open_sqlite_store(path);
  ASSERT_TRUE(store) << store.error();
  auto rows = (*store)->lab_measures("checkers");
  ASSERT_TRUE(rows && rows->size() == 1u);
  expect_same((*rows)[0].measures, run.heuristics[0]);
}

}  // namespace
}  // namespace arena::db
