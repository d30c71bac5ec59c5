// shared_fuzzy_goal_heuristic (bots/eval/gdl_fuzzy_cache.h): one build per description, pool
// and parameters, shared by every later start; the same error for a sheet it cannot use.

#include "bots/eval/gdl_fuzzy_cache.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "games/gdl/reader/description.h"
#include "games/gdl/prover/prover.h"
#include "games/gdl/library/sheet_file.h"

namespace arena::eval {
namespace {

std::shared_ptr<const gdl::Description> tictactoe() {
  auto d = gdl::read_description_file(std::string(ARENA_GDL_SHEETS_DIR) + "/tictactoe.kif");
  EXPECT_TRUE(d) << (d ? "" : d.error());
  return std::make_shared<const gdl::Description>(std::move(*d));
}

TEST(GdlFuzzyCache, AMachinesHeuristicIsBuiltOnceForItsRulesPoolAndParameters) {
  const auto description = tictactoe();
  auto machine = gdl::make_prover(description);
  auto first = shared_fuzzy_goal_heuristic(*machine, {});
  ASSERT_TRUE(first) << first.error();
  auto again = shared_fuzzy_goal_heuristic(*machine, {});
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(first->get(), again->get()) << "a second start grounds again";
  // The shared one scores as a heuristic built on its own does.
  auto own = FuzzyGoalHeuristic::from_description(*description, machine->pool(), {});
  ASSERT_TRUE(own) << own.error();
  FuzzyGoalHeuristic copy = **first;
  const gdl::State start = machine->initial_state();
  EXPECT_EQ(copy.values(start), own->values(start));
  // Another machine over the same rules and pool shares it; other parameters or another pool
  // (whose term ids differ) do not.
  auto sibling = gdl::make_prover(description, machine->shared_pool());
  EXPECT_EQ(shared_fuzzy_goal_heuristic(*sibling, {})->get(), first->get());
  FuzzyGoalParams sharper;
  sharper.tau = 0.8;
  EXPECT_NE(shared_fuzzy_goal_heuristic(*machine, sharper)->get(), first->get());
  auto stranger = gdl::make_prover(description);
  EXPECT_NE(shared_fuzzy_goal_heuristic(*stranger, {})->get(), first->get());
}

TEST(GdlFuzzyCache, AnEntryGoesWithItsRules) {
  std::weak_ptr<const FuzzyGoalHeuristic> kept;
  {
    auto machine = gdl::make_prover(tictactoe());
    auto h = shared_fuzzy_goal_heuristic(*machine, {});
    ASSERT_TRUE(h) << h.error();
    kept = *h;
  }
  auto other = gdl::make_prover(tictactoe());
  ASSERT_TRUE(shared_fuzzy_goal_heuristic(*other, {}));  // looks up, and drops what is gone
  EXPECT_TRUE(kept.expired());
}

TEST(GdlFuzzyCache, ASheetItCannotUseGivesTheSameErrorEveryTime) {
  auto d = gdl::read_description(
      "(role r) (init s) (<= (legal r go) (true s)) "
      "(<= (next s) (true s)) (<= (goal r high) (true s)) "
      "(<= terminal (true s))",
      "word_goal.kif");
  ASSERT_TRUE(d) << d.error();
  auto machine = gdl::make_prover(std::make_shared<const gdl::Description>(std::move(*d)));
  auto first = shared_fuzzy_goal_heuristic(*machine, {});
  ASSERT_FALSE(first);
  EXPECT_NE(first.error().find("high"), std::string::npos) << first.error();
  auto again = shared_fuzzy_goal_heuristic(*machine, {});
  ASSERT_FALSE(again);
  EXPECT_EQ(first.error(), again.error());
}

TEST(GdlFuzzyCache, ThreadsAskingAtOnceShareOneBuild) {
  auto machine = gdl::make_prover(tictactoe());
  std::vector<const FuzzyGoalHeuristic*> seen(4, nullptr);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&, i] {
      auto h = shared_fuzzy_goal_heuristic(*machine, {});
      if (h) seen[i] = h->get();
    });
  for (auto& t : threads) t.join();
  ASSERT_NE(seen[0], nullptr);
  for (const auto* h : seen) EXPECT_EQ(h, seen[0]);
}

}  // namespace
}  // namespace arena::eval
