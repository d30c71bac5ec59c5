// The search-spec parser, the agent factory and the heuristic registry.

#include <gtest/gtest.h>

#include "bots/eval/registry.h"
#include "bots/search/agent.h"
#include "bots/search/agent_factory.h"
#include "bots/search/spec.h"
#include "games/chess/chess.h"
#include "tests/bots/search_toy_games.h"

namespace arena::search {
namespace {

TEST(SearchSpec, ParsesAlgorithmHeuristicAndLimits) {
  auto s = parse_search_spec("alphabeta:eval=custom_score_2,depth=5");
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->algorithm, Algorithm::kAlphaBeta);
  EXPECT_EQ(s->eval, "custom_score_2");
  EXPECT_EQ(s->depth, 5);
  auto id = parse_search_spec("id:eval=improved_score,movetime=150,qsearch,tt=0");
  ASSERT_TRUE(id) << id.error();
  EXPECT_EQ(id->algorithm, Algorithm::kIterativeDeepening);
  EXPECT_EQ(id->movetime_ms, 150);
  EXPECT_TRUE(id->quiescence);
  EXPECT_FALSE(id->transposition);
  auto mcts = parse_search_spec("mcts:playouts=300,seed=4,c=0.7");
  ASSERT_TRUE(mcts) << mcts.error();
  EXPECT_EQ(mcts->playouts, 300u);
  EXPECT_EQ(mcts->seed, 4u);
  EXPECT_DOUBLE_EQ(mcts->exploration, 0.7);
  EXPECT_EQ(parse_search_spec("random")->algorithm, Algorithm::kRandom);
}

TEST(SearchSpec, TheIterativeEnginesPartsCanEachBeSwitchedOff) {
  auto all = parse_search_spec("id:eval=material");
  ASSERT_TRUE(all) << all.error();
  EXPECT_TRUE(all->killers && all->history && all->aspiration && all->pvs && all->null_move &&
              all->lmr);
  auto none =
      parse_search_spec("id:eval=material,killers=0,history=0,aspiration=0,pvs=0,nullmove=0,lmr=0");
  ASSERT_TRUE(none) << none.error();
  EXPECT_FALSE(none->killers || none->history || none->aspiration || none->pvs || none->null_move ||
               none->lmr);
  EXPECT_TRUE(none->params.empty());
  auto bad = parse_search_spec("id:eval=material,lmr=maybe");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("'lmr'"), std::string::npos) << bad.error();
}

TEST(SearchSpec, HeuristicParametersGoToParams) {
  auto s = parse_search_spec("greedy:eval=material,q=10,params=r:4;b:3.5");
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(s->params.at("q"), "10");
  EXPECT_EQ(s->params.at("r"), "4");
  EXPECT_EQ(s->params.at("b"), "3.5");
}

TEST(SearchSpec, ErrorsNameTheBadPart) {
  auto unknown = parse_search_spec("alphabta:depth=3");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().find("'alphabta'"), std::string::npos) << unknown.error();
  auto depth = parse_search_spec("alphabeta:depth=x5");
  ASSERT_FALSE(depth);
  EXPECT_NE(depth.error().find("'x5'"), std::string::npos) << depth.error();
  EXPECT_NE(depth.error().find("'depth'"), std::string::npos) << depth.error();
  auto zero = parse_search_spec("id:movetime=0");
  ASSERT_FALSE(zero);
  EXPECT_NE(zero.error().find("movetime"), std::string::npos) << zero.error();
  auto flag = parse_search_spec("id:depth");
  ASSERT_FALSE(flag);
  EXPECT_NE(flag.error().find("'depth'"), std::string::npos) << flag.error();
  auto random_eval = parse_search_spec("random:eval=material");
  ASSERT_FALSE(random_eval);
  EXPECT_NE(random_eval.error().find("random takes no heuristic"), std::string::npos);
  // A key no search knows, on a search without a heuristic, is named as unknown (it was
  // "mcts takes no heuristic", which did not say what was wrong with 'iterations').
  auto mcts_key = parse_search_spec("mcts:iterations=500");
  ASSERT_FALSE(mcts_key);
  EXPECT_NE(mcts_key.error().find("unknown key 'iterations'"), std::string::npos)
      << mcts_key.error();
  EXPECT_NE(mcts_key.error().find("playouts"), std::string::npos) << mcts_key.error();
  EXPECT_TRUE(parse_search_spec("mcts:playouts=500,c=1.4,seed=3"));
}

TEST(Agent, SpecLimitsWinOverTheCallersAndTheAgentPlaysLegalMoves) {
  auto spec = parse_search_spec("alphabeta:depth=2").value();
  auto agent = make_agent<test::Nim>(spec, test::HashEval{});
  ASSERT_TRUE(agent) << agent.error();
  const test::Nim nim(5, 6);
  const auto r = (*agent)->choose_move(nim, Limits::to_depth(7));
  ASSERT_TRUE(r.move.has_value());
  EXPECT_EQ(r.info.depth, 2);
}

TEST(Agent, EverySearchMakesAnAgent) {
  for (const char* text : {"random", "greedy", "minimax:depth=2", "alphabeta:depth=3", "id:depth=4",
                           "mcts:playouts=50", "bestfirst:nodes=200"}) {
    auto spec = parse_search_spec(text).value();
    auto agent = make_agent<test::Nim>(spec, test::HashEval{});
    ASSERT_TRUE(agent) << text << ": " << agent.error();
    const auto r = (*agent)->choose_move(test::Nim(4, 7), {});
    EXPECT_TRUE(r.move.has_value()) << text;
  }
}

TEST(Registry, UnknownHeuristicIsNamedAndTheKnownOnesListed) {
  auto h = eval::make_named_heuristic<chess::Chess>("materal", {});
  ASSERT_FALSE(h);
  EXPECT_NE(h.error().find("'materal'"), std::string::npos) << h.error();
  EXPECT_NE(h.error().find("material"), std::string::npos) << h.error();
}

TEST(Registry, MakesChessHeuristicsByName) {
  ASSERT_FALSE(eval::list_heuristics<chess::Chess>().empty());
  auto h = eval::make_named_heuristic<chess::Chess>("material", {});
  ASSERT_TRUE(h) << h.error();
  const auto start = chess::Chess::create({}).value();
  EXPECT_EQ((*h)(start), 0);
  EXPECT_TRUE(eval::tactical_estimate_for<chess::Chess>());
}

TEST(Registry, AGameWithoutHeuristicsSaysSo) {
  EXPECT_TRUE(eval::list_heuristics<test::Nim>().empty());
  auto h = eval::make_named_heuristic<test::Nim>("x", {});
  ASSERT_FALSE(h);
  EXPECT_NE(h.error().find("nim"), std::string::npos);
  auto agent = make_agent_from_spec<test::Nim>("greedy:eval=x");
  EXPECT_FALSE(agent);
  EXPECT_TRUE(make_agent_from_spec<test::Nim>("random"));
}

}  // namespace
}  // namespace arena::search
