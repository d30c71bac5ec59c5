// Players of any GDL game (bots/gdl): specs, legal moves on sheets of every kind (turn-taking,
// simultaneous, three and four roles), UCT against random on tic-tac-toe, the deadline, and
// the bot client's adapter that plays gdl: games from a TurnRequest.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "bots/client/search_player.h"
#include "bots/eval/gdl_fuzzy_cache.h"
#include "bots/gdl/gdl_player.h"
#include "games/gdl/game/gdl_game.h"
#include "games/gdl/library/library.h"
#include "games/gdl/library/sheet_file.h"
#include "games/gdl/prover/prover.h"
#include "games/gdl/reader/description.h"

namespace arena::gdl {
namespace {

using std::chrono::milliseconds;

std::shared_ptr<GdlContext> context_of(const std::string& sheet) {
  auto c = make_gdl_context(sheet);
  EXPECT_TRUE(c) << sheet << ": " << c.error();
  return c ? *c : nullptr;
}

std::unique_ptr<GdlPlayer> player_of(const std::string& spec) {
  auto p = make_gdl_player(spec);
  EXPECT_TRUE(p) << spec << ": " << p.error();
  return p ? std::move(*p) : nullptr;
}

// Plays one game with one player per role from the initial state, at most `max_turns` turns;
// every move chosen must be legal. Returns the goals (empty if the game did not end).
std::vector<int> play_game(StateMachine& m, std::vector<std::unique_ptr<GdlPlayer>>& players,
                           int max_turns, milliseconds per_move) {
  const int roles = static_cast<int>(m.roles().size());
  for (int r = 0; r < roles; ++r) players[static_cast<std::size_t>(r)]->start(m, r, kNoStartClock);
  State s = m.initial_state();
  for (int turn = 0; turn < max_turns && !m.is_terminal(s); ++turn) {
    JointMove joint;
    for (int r = 0; r < roles; ++r) {
      const Move mv = players[static_cast<std::size_t>(r)]->choose(s, Clock::now() + per_move);
      const auto legal = m.legal_moves(s, r);
      EXPECT_NE(std::find(legal.begin(), legal.end(), mv), legal.end())
          << players[static_cast<std::size_t>(r)]->name() << " as role " << r << " chose "
          << m.pool().to_kif(mv, m.description().symbols);
      joint.push_back(mv);
    }
    s = m.next_state(s, joint);
  }
  if (!m.is_terminal(s)) return {};
  std::vector<int> goals;
  for (int r = 0; r < roles; ++r) goals.push_back(m.goal(s, r) ? *m.goal(s, r) : -1);
  return goals;
}

TEST(GdlPlayers, SpecsAreCheckedAndListed) {
  for (const char* ok :
       {"random", "random:seed=3", "uct", "uct:c=1.4,iterations=100", "mcts", "fuzzy",
        "fuzzy:tau=0.8,theta=0.55,q=0,depth=2,iterations=50", "mcts-pb",
        "mcts-pb:bias=2.5,depth=3,tau=0.8,c=1,iterations=9,seed=4", "mcts-cutoff",
        "mcts-cutoff:depth=8,bias=0.5,q=2", "fuzzy-ab", "fuzzy-ab:depth=3,tau=0.7,seed=2"})
    EXPECT_TRUE(make_gdl_player(ok)) << ok;
  struct Bad {
    const char* spec;
    const char* says;
  };
  for (const Bad& bad :
       {Bad{"minimax", "unknown GDL player 'minimax'"},
        Bad{"alphabeta:depth=3", "unknown GDL player 'alphabeta'"},
        Bad{"uct:depth=2", "unknown key 'depth'"}, Bad{"uct:iterations=-5", "iterations=-5"},
        Bad{"uct:c", "not key=value"}, Bad{"fuzzy:tau=2", "tau"},
        Bad{"random:c=1", "unknown key 'c'"},
        Bad{"mctspb", "known: random, uct, fuzzy, mcts-pb, mcts-cutoff, fuzzy-ab"},
        Bad{"mcts-pb:bias=-1", "bias=-1 is not a number"},
        Bad{"mcts-pb:bias=x", "bias=x is not a number"},
        Bad{"mcts-cutoff:depth=deep", "depth=deep"}, Bad{"mcts-cutoff:tau=1.5", "tau"},
        Bad{"fuzzy-ab:c=1", "unknown key 'c' for fuzzy-ab (keys: depth, tau"},
        Bad{"fuzzy-ab:iterations=5", "unknown key 'iterations' for fuzzy-ab"},
        Bad{"fuzzy-ab:depth=0", "depth=0 is not a number in 1..1000"},
        Bad{"uct:bias=1", "unknown key 'bias' for uct"}}) {
    auto p = make_gdl_player(bad.spec);
    ASSERT_FALSE(p) << bad.spec;
    EXPECT_NE(p.error().find(bad.says), std::string::npos) << bad.spec << ": " << p.error();
  }
  std::vector<std::string> listed;
  for (const auto& [name, help] : gdl_player_specs()) {
    listed.push_back(name);
    EXPECT_TRUE(make_gdl_player(name)) << name;
    EXPECT_FALSE(help.empty()) << name;
  }
  EXPECT_EQ(listed, (std::vector<std::string>{"random", "uct", "fuzzy", "mcts-pb", "mcts-cutoff",
                                              "fuzzy-ab"}));
}

// The goal heuristic guiding a player's search: the fuzzy goal values for a fuzzy player;
// none for random playouts, nor for a spec that makes no player.
TEST(GdlPlayers, AFuzzyPlayerIsGuidedByTheFuzzyGoalHeuristicAndNoOtherIs) {
  EXPECT_EQ(gdl_player_heuristic("fuzzy"), "fuzzy_goal");
  EXPECT_EQ(gdl_player_heuristic("fuzzy:depth=2,tau=0.8"), "fuzzy_goal");
  for (const char* guided : {"mcts-pb", "mcts-cutoff:depth=2", "fuzzy-ab"})
    EXPECT_EQ(gdl_player_heuristic(guided), "fuzzy_goal") << guided;
  for (const char* none : {"random", "uct:iterations=10", "mcts", "fuzzy:tau=2", "fuzzyx"})
    EXPECT_EQ(gdl_player_heuristic(none), std::nullopt) << none;
}

// A sheet whose goal rules the fuzzy heuristic cannot ground (here a rule of 2^13 `or` choices,
// over the grounder's limit; the prover plays it): the fuzzy player still moves, with random
// playouts, and says so; on a sheet it grounds, and for uct, nothing is said.
TEST(GdlPlayers, AFuzzyPlayerSaysWhenItCannotBuildItsHeuristic) {
  std::string many = "(<= (next s)";
  for (int i = 0; i < 13; ++i) many += " (or (true s) (does r go))";
  auto d = read_description("(role r) (init s) (<= (legal r go) (true s)) " + many +
                                ") (<= (goal r 100) (true s)) (<= terminal (true s))",
                            "many_ors.kif");
  ASSERT_TRUE(d) << d.error();
  auto prover = make_prover(std::make_shared<const Description>(std::move(*d)));
  auto fuzzy = player_of("fuzzy:iterations=4");
  fuzzy->start(*prover, 0, kNoStartClock);
  EXPECT_NE(fuzzy->fallback().find("fuzzy plays as uct"), std::string::npos) << fuzzy->fallback();
  EXPECT_NE(fuzzy->fallback().find("combinations of `or` choices"), std::string::npos);
  auto uct = player_of("uct:iterations=4");
  uct->start(*prover, 0, kNoStartClock);
  EXPECT_EQ(uct->fallback(), "");
  auto c = context_of("tictactoe");
  ASSERT_TRUE(c);
  fuzzy->start(c->machine(), 0, kNoStartClock);
  EXPECT_EQ(fuzzy->fallback(), "") << "built this time: nothing left from the last sheet";
}

// GGP's start clock: a heuristic that cannot be built by the deadline is dropped, not waited
// for, and the player says so; the cut-short build is not kept, so a start with time builds it.
TEST(GdlPlayers, AFuzzyPlayerDoesNotWaitPastTheStartClockForItsHeuristic) {
  // A machine of its own (the heuristic cache is per description): no other test built it.
  auto sheet = find_gdl_sheet("connectFour");
  ASSERT_TRUE(sheet) << sheet.error();
  auto d = read_description_file(sheet->path);
  ASSERT_TRUE(d) << d.error();
  auto machine = make_prover(std::make_shared<const Description>(std::move(*d)));
  auto fuzzy = player_of("fuzzy:iterations=4");
  const auto begin = Clock::now();
  fuzzy->start(*machine, 0, begin - milliseconds(1));  // the clock has already run out
  EXPECT_LT(Clock::now() - begin, milliseconds(1500));
  EXPECT_NE(fuzzy->fallback().find("not built by the start clock"), std::string::npos)
      << fuzzy->fallback();
  fuzzy->start(*machine, 0, Clock::now() + std::chrono::seconds(60));
  EXPECT_EQ(fuzzy->fallback(), "") << "the earlier cut-short build was kept";
}

TEST(GdlPlayers, MovesAreLegalOnSheetsOfEveryKind) {
  // Turn-taking, simultaneous (roshambo2), three and four roles.
  for (const char* sheet : {"tictactoe", "roshambo2", "tictactoe_3player", "smallest_4player",
                            "connectFour", "nim1"}) {
    SCOPED_TRACE(sheet);
    auto c = context_of(sheet);
    ASSERT_TRUE(c);
    StateMachine& m = c->machine();
    for (const char* spec : {"random:seed=2", "uct:iterations=8", "fuzzy:iterations=8",
                             "mcts-pb:iterations=8", "mcts-cutoff:iterations=8"}) {
      // fuzzy-ab: HeuristicPresetsPlayLegalMovesToTheEnd, FuzzyAlphaBetaSaysWhereItPlaysAsUct.
      SCOPED_TRACE(spec);
      std::vector<std::unique_ptr<GdlPlayer>> players;
      for (std::size_t r = 0; r < m.roles().size(); ++r) players.push_back(player_of(spec));
      const auto goals = play_game(m, players, 8, milliseconds(2000));
      for (int g : goals) EXPECT_TRUE(g >= 0 && g <= 100) << g;
    }
  }
}

// Each heuristic player, both roles, plays tic-tac-toe and connect four to the end with legal
// moves (play_game checks each move), at a small budget.
TEST(GdlPlayers, HeuristicPresetsPlayLegalMovesToTheEnd) {
  for (const char* sheet : {"tictactoe", "connectFour"}) {
    SCOPED_TRACE(sheet);
    auto c = context_of(sheet);
    ASSERT_TRUE(c);
    StateMachine& m = c->machine();
    for (const char* spec : {"mcts-pb:iterations=40", "mcts-cutoff:iterations=40",
                             "mcts-cutoff:depth=0,bias=1,iterations=40", "fuzzy-ab"}) {
      SCOPED_TRACE(spec);
      std::vector<std::unique_ptr<GdlPlayer>> players;
      for (int r = 0; r < 2; ++r) players.push_back(player_of(spec));
      const auto goals = play_game(m, players, 60, milliseconds(30));
      ASSERT_EQ(goals.size(), 2u) << "the game did not end";
      for (int g : goals) EXPECT_TRUE(g >= 0 && g <= 100) << g;
      for (const auto& p : players) EXPECT_EQ(p->fallback(), "") << p->name();
    }
  }
}

// Progressive bias orders the untried moves by the fuzzy goal value after each: with one
// iteration, mcts-pb plays the move whose resulting state the heuristic rates best for the
// mover (tic-tac-toe's first move: the centre, in four lines), whatever the seed; without the
// bias (bias=0) the one iteration tries a move at random, so some seed plays another.
TEST(GdlPlayers, ProgressiveBiasTriesTheHeuristicBestMoveFirst) {
  auto c = context_of("tictactoe");
  ASSERT_TRUE(c);
  StateMachine& m = c->machine();
  auto h = eval::shared_fuzzy_goal_heuristic(m, eval::FuzzyGoalParams{});
  ASSERT_TRUE(h) << h.error();
  eval::FuzzyGoalHeuristic heuristic = **h;
  const State s = m.initial_state();
  const auto moves = m.legal_moves(s, 0);
  const auto noop = m.legal_moves(s, 1);
  ASSERT_EQ(noop.size(), 1u);
  std::vector<double> value;
  for (Move mv : moves) value.push_back(heuristic.values(m.next_state(s, {mv, noop[0]}))[0]);
  const auto best = std::max_element(value.begin(), value.end()) - value.begin();
  ASSERT_EQ(std::count(value.begin(), value.end(), value[static_cast<std::size_t>(best)]), 1)
      << "the test needs one best move";
  int other = 0;
  for (int seed = 1; seed <= 12; ++seed) {
    auto biased = player_of("mcts-pb:iterations=1,seed=" + std::to_string(seed));
    auto plain = player_of("mcts-pb:bias=0,iterations=1,seed=" + std::to_string(seed));
    biased->start(m, 0, kNoStartClock);
    plain->start(m, 0, kNoStartClock);
    const auto far = Clock::now() + std::chrono::seconds(60);
    EXPECT_EQ(biased->choose(s, far), moves[static_cast<std::size_t>(best)]) << "seed " << seed;
    other += plain->choose(s, far) != moves[static_cast<std::size_t>(best)] ? 1 : 0;
  }
  EXPECT_GT(other, 0) << "without the bias one iteration should not always find the centre";
}

// fuzzy-ab: a win in one is taken (x completes the top row), the loss in one is blocked (o
// must take that square), and its report values the win at 100.
TEST(GdlPlayers, FuzzyAlphaBetaWinsAndBlocksAtTicTacToe) {
  auto c = context_of("tictactoe");
  ASSERT_TRUE(c);
  StateMachine& m = c->machine();
  auto game = GdlGame::start(c);
  ASSERT_TRUE(game);
  for (const char* move : {"(play 1 1 x)", "(play 2 1 o)", "(play 1 2 x)"})
    ASSERT_TRUE((*game)->play(move)) << move;
  auto o = player_of("fuzzy-ab");
  o->start(m, 1, kNoStartClock);
  const auto symbols = m.description().symbols;
  Move mv = o->choose((*game)->state(), Clock::now() + milliseconds(2000));
  EXPECT_EQ(m.pool().to_kif(mv, symbols), "(play 1 3 o)");
  ASSERT_TRUE((*game)->play("(play 2 2 o)"));  // not the block: x wins at 1 3
  auto x = player_of("fuzzy-ab");
  x->start(m, 0, kNoStartClock);
  mv = x->choose((*game)->state(), Clock::now() + milliseconds(2000));
  EXPECT_EQ(m.pool().to_kif(mv, symbols), "(play 1 3 x)");
  ASSERT_TRUE(x->last_info().value);
  EXPECT_EQ(*x->last_info().value, 100);
  EXPECT_GT(x->last_info().iterations, 0u);
}

// fuzzy-ab on a game it cannot search (three roles; simultaneous moves) plays as uct, legally
// (play_game checks each move), and says why.
TEST(GdlPlayers, FuzzyAlphaBetaSaysWhereItPlaysAsUct) {
  for (const char* sheet : {"tictactoe_3player", "roshambo2"}) {
    SCOPED_TRACE(sheet);
    auto c = context_of(sheet);
    ASSERT_TRUE(c);
    StateMachine& m = c->machine();
    std::vector<std::unique_ptr<GdlPlayer>> players;
    for (std::size_t r = 0; r < m.roles().size(); ++r) players.push_back(player_of("fuzzy-ab"));
    const auto goals = play_game(m, players, 8, milliseconds(20));
    for (int g : goals) EXPECT_TRUE(g >= 0 && g <= 100) << g;
    for (const auto& p : players) {
      EXPECT_NE(p->fallback().find("fuzzy-ab plays as uct"), std::string::npos) << p->fallback();
      EXPECT_NE(p->fallback().find("two roles taking turns"), std::string::npos) << p->fallback();
    }
  }
}

TEST(GdlPlayers, UctBeatsRandomAtTicTacToe) {
  auto c = context_of("tictactoe");
  ASSERT_TRUE(c);
  StateMachine& m = c->machine();
  int uct_wins = 0, uct_losses = 0, games = 0;
  for (int g = 0; g < 6; ++g) {
    const int uct_role = g % 2;
    std::vector<std::unique_ptr<GdlPlayer>> players(2);
    players[static_cast<std::size_t>(uct_role)] =
        player_of("uct:iterations=400,seed=" + std::to_string(g + 1));
    players[static_cast<std::size_t>(1 - uct_role)] =
        player_of("random:seed=" + std::to_string(g + 11));
    const auto goals = play_game(m, players, 20, milliseconds(5000));
    ASSERT_EQ(goals.size(), 2u);
    ++games;
    const int mine = goals[static_cast<std::size_t>(uct_role)];
    const int theirs = goals[static_cast<std::size_t>(1 - uct_role)];
    uct_wins += mine > theirs ? 1 : 0;
    uct_losses += mine < theirs ? 1 : 0;
  }
  EXPECT_GT(uct_wins * 2, games) << uct_wins << " wins of " << games;
  EXPECT_EQ(uct_losses, 0);
}

TEST(GdlPlayers, UctAnswersByTheDeadline) {
  auto c = context_of("connectFour");
  ASSERT_TRUE(c);
  StateMachine& m = c->machine();
  auto uct = player_of("uct");
  uct->start(m, 0, Clock::now());
  const auto begin = Clock::now();
  const Move mv = uct->choose(m.initial_state(), begin + milliseconds(100));
  const auto took = std::chrono::duration_cast<milliseconds>(Clock::now() - begin);
  EXPECT_LT(took.count(), 400);  // the deadline, plus what one state's question may take
  const auto legal = m.legal_moves(m.initial_state(), 0);
  EXPECT_NE(std::find(legal.begin(), legal.end(), mv), legal.end());
}

// last_info(): what the last choose() searched. UCT counts its iterations (the spec's limit
// here) and gives the chosen move's mean reward in goal points; a random player searches
// nothing. A sure win (xplayer completes a line) is valued near 100.
TEST(GdlPlayers, UctReportsItsIterationsAndTheValueOfItsMove) {
  auto c = context_of("tictactoe");
  ASSERT_TRUE(c);
  StateMachine& m = c->machine();
  auto uct = player_of("uct:iterations=200");
  auto random = player_of("random");
  EXPECT_EQ(uct->last_info().iterations, 0u);
  uct->start(m, 0, Clock::now());
  random->start(m, 0, Clock::now());
  auto game = GdlGame::start(c);
  ASSERT_TRUE(game);
  for (const char* move : {"(play 1 1 x)", "(play 2 1 o)", "(play 1 2 x)", "(play 2 2 o)"})
    ASSERT_TRUE((*game)->play(move)) << move;
  uct->choose((*game)->state(), Clock::now() + milliseconds(5000));
  const GdlMoveInfo info = uct->last_info();
  EXPECT_EQ(info.iterations, 200u);
  ASSERT_TRUE(info.value);
  EXPECT_GE(*info.value, 90);
  EXPECT_LE(*info.value, 100);
  random->choose((*game)->state(), Clock::now() + milliseconds(100));
  EXPECT_EQ(random->last_info().iterations, 0u);
  EXPECT_FALSE(random->last_info().value);
}

TEST(GdlPlayers, TheBotClientPlaysGdlGamesFromATurnRequest) {
  auto c = context_of("tictactoe");
  ASSERT_TRUE(c);
  auto game = GdlGame::start(c);
  ASSERT_TRUE(game);
  ASSERT_TRUE((*game)->play((*game)->legal_moves().front()));
  // The preset's game is "gdl": one Player for every sheet.
  auto player = client::make_search_player("gdl", "uct:iterations=50,movetime=2000");
  ASSERT_TRUE(player) << player.error();
  client::TurnRequest request;
  request.game = "gdl:tictactoe";
  request.position = (*game)->serialize();
  request.legal_moves = (*game)->legal_moves();
  request.budget_ms = 1000;
  auto reply = (*player)->choose_move(request);
  ASSERT_TRUE(reply) << reply.error();
  EXPECT_NE(std::find(request.legal_moves.begin(), request.legal_moves.end(), reply->move),
            request.legal_moves.end())
      << reply->move;
  // The search's report goes with the move: its iterations as nodes, its value as the score.
  EXPECT_EQ(reply->info.nodes, 50);
  ASSERT_TRUE(reply->info.score);
  EXPECT_GE(*reply->info.score, 0);
  EXPECT_LE(*reply->info.score, 100);
  request.position = "(cell 1 1 zebra)";
  EXPECT_FALSE((*player)->choose_move(request));
  EXPECT_FALSE(client::make_search_player("gdl:tictactoe", "uct:movetime=soon"));
}

}  // namespace
}  // namespace arena::gdl
