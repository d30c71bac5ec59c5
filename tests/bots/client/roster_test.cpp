// The roster (every preset builds a player or a solver; the literature's names are there),
// search players on real positions, puzzle solvers, and the time budget.

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bots/client/house_bots.h"
#include "bots/client/roster.h"
#include "bots/client/search_player.h"
#include "bots/client/time_budget.h"
#include "games/catalog/catalog.h"
#include "games/puzzles/sliding_puzzle.h"
#include "tests/db/temp_dir.h"

namespace arena::client {
namespace {

TEST(Roster, HasTheNamesOfTheLiterature) {
  for (const char* name :
       {"Random", "MM_Open", "MM_Center", "MM_Improved", "AB_Open", "AB_Center", "AB_Improved",
        "AB_Improved_ID", "AB_Custom", "AB_Custom_2", "AB_Custom_3", "bad_heuristic",
        "available_wins", "combined", "fuzzy_goal", "perfect", "chess_ab_quiescence",
        "chess_bestfirst_tactical", "sliding_ida_manhattan"}) {
    EXPECT_NE(find_preset(name), nullptr) << name;
  }
  EXPECT_EQ(find_preset("no_such_bot"), nullptr);
  EXPECT_EQ(find_preset("MM_Open")->spec, "minimax:eval=open_move_score,depth=3");
  EXPECT_EQ(find_preset("AB_Open")->spec, "alphabeta:eval=open_move_score,depth=5");
}

TEST(Roster, EveryPresetBuildsAndEveryGameHasOne) {
  std::set<std::string> names, games;
  for (const Preset& p : presets()) {
    EXPECT_TRUE(names.insert(p.name).second) << "duplicate preset " << p.name;
    EXPECT_FALSE(p.description.empty()) << p.name;
    games.insert(p.game);
    if (is_puzzle_spec(p.spec)) {
      EXPECT_TRUE(make_puzzle_solver(p.spec)) << p.name;
    } else {
      auto player = make_search_player(p.game, p.spec);
      EXPECT_TRUE(player) << p.name << ": " << player.error();
    }
  }
  for (const GameInfo& g : game_catalog()) EXPECT_TRUE(games.contains(g.name)) << g.name;
}

TEST(Roster, HouseBotsCoverEveryTwoPlayerGameAtTwoStrengths) {
  std::map<std::string, int> per_game;
  for (const auto& h : house_bot_roster()) {
    const Preset* p = find_preset(h.preset);
    ASSERT_NE(p, nullptr) << h.preset;
    ++per_game[p->game];
  }
  for (const GameInfo& g : game_catalog())
    if (g.num_players == 2) {
      EXPECT_GE(per_game[g.name], 2) << g.name;
    }
}

// GDL sheets have no house bots of their own: one GDL house bot takes every offer (a person's
// opponent in a game of two is always it), and enough others join offers of games of three
// seats or more that a sheet of up to four roles is filled by house bots.
TEST(Roster, GdlHouseBotsFillASheetOfUpToFourRoles) {
  int any_offer = 0, for_four = 0;
  for (const auto& h : house_bot_roster()) {
    const Preset* p = find_preset(h.preset);
    ASSERT_NE(p, nullptr) << h.preset;
    if (p->game != "gdl") continue;
    if (h.min_seek_seats <= 2) ++any_offer;
    if (h.min_seek_seats <= 4) ++for_four;
  }
  EXPECT_EQ(any_offer, 1);
  EXPECT_GE(for_four, 3);
}

// Every offer of a GDL sheet of N roles, up to the largest sheet served (at most
// kMaxGdlHouseSeats), finds N - 1 house bots that take it, each an account of its own.
TEST(Roster, GdlHouseBotAccountsFillAnOfferOfEverySizeUpToTheLargestSheet) {
  for (int largest : {2, 4, 6, kMaxGdlHouseSeats, 50}) {
    const auto accounts = house_bot_accounts(largest);
    std::set<std::string> names;
    int gdl_bots = 0;
    for (const auto& a : accounts) {
      EXPECT_TRUE(names.insert(a.name).second) << "two house bots named " << a.name;
      const Preset* p = find_preset(a.preset);
      ASSERT_NE(p, nullptr) << a.preset;
      gdl_bots += p->game == "gdl";
    }
    for (int seats = 2; seats <= std::min(std::max(largest, 4), kMaxGdlHouseSeats); ++seats) {
      int take = 0;
      for (const auto& a : accounts)
        if (find_preset(a.preset)->game == "gdl" && a.min_seek_seats <= seats) ++take;
      EXPECT_GE(take, seats - 1) << "an offer of " << seats << " seats, largest sheet " << largest;
    }
    // No more than the largest sheet needs: the roster's three, or one per seat beyond four.
    EXPECT_EQ(gdl_bots, std::clamp(largest, 4, kMaxGdlHouseSeats) - 1) << "largest " << largest;
  }
}

// The page's "Play the computer" finds a game's strengths by the names house_GAME_LEVEL; every
// house bot of a hand-written game takes a person's seek after a wait, the weaker one first.
TEST(Roster, HouseBotsAreNamedByGameAndLevelAndTheWeakerTakesSeeksFirst) {
  std::map<std::string, std::vector<std::int64_t>> waits;  // game -> waits in roster order
  for (const auto& h : house_bot_roster()) {
    const Preset* p = find_preset(h.preset);
    ASSERT_NE(p, nullptr) << h.preset;
    const std::string prefix = "house_" + p->game + "_";
    ASSERT_TRUE(h.bot_name.starts_with(prefix)) << h.bot_name;
    const std::string level = h.bot_name.substr(prefix.size());
    EXPECT_FALSE(level.empty() || level.find('_') != std::string::npos) << h.bot_name;
    if (p->game == "gdl") {
      EXPECT_EQ(h.take_seeks_after_ms, 0) << h.bot_name << ": GDL house bots take offers at once";
      continue;
    }
    EXPECT_GE(h.take_seeks_after_ms, 1000) << h.bot_name << ": people get a moment first";
    EXPECT_LE(h.take_seeks_after_ms, 3000) << h.bot_name << ": a first game starts in 5 s";
    waits[p->game].push_back(h.take_seeks_after_ms);
  }
  for (const auto& [game, w] : waits) {
    ASSERT_EQ(w.size(), 2u) << game;
    EXPECT_LT(w[0], w[1]) << game << ": the weaker bot takes a person's seek first";
  }
}

// The strong house bot of chess is Arena's strongest chess preset (README, Strength ladders).
TEST(Roster, TheStrongChessHouseBotIsChessStrong) {
  bool found = false;
  for (const auto& h : house_bot_roster())
    if (h.bot_name == "house_chess_strong") {
      found = true;
      EXPECT_EQ(h.preset, "chess_strong");
    }
  EXPECT_TRUE(found);
}

TEST(SearchPlayer, ChoosesALegalMoveAndReportsItsSearch) {
  auto game = make_game("chess");
  ASSERT_TRUE(game);
  auto player = make_search_player("chess", "alphabeta:eval=material,depth=2");
  ASSERT_TRUE(player) << player.error();
  TurnRequest r{"chess", "", (*game)->serialize(), (*game)->legal_moves(), 0, nullptr, -1};
  auto reply = (*player)->choose_move(r);
  ASSERT_TRUE(reply) << reply.error();
  EXPECT_NE(std::find(r.legal_moves.begin(), r.legal_moves.end(), reply->move),
            r.legal_moves.end());
  EXPECT_EQ(reply->info.depth, 2);
  EXPECT_GT(reply->info.nodes, 20);  // at least the root's 20 children
  EXPECT_FALSE(reply->info.pv.empty());
}

TEST(SearchPlayer, ErrorsNameTheBadGameOrSpec) {
  auto bad_game = make_search_player("go", "random");
  ASSERT_FALSE(bad_game);
  EXPECT_NE(bad_game.error().find("go"), std::string::npos);
  auto bad_eval = make_search_player("chess", "alphabeta:eval=nonsense");
  ASSERT_FALSE(bad_eval);
  EXPECT_NE(bad_eval.error().find("nonsense"), std::string::npos);
  EXPECT_FALSE(make_puzzle_solver("idastar:h=guess"));
}

// What a bot names in its hello: the spec, the heuristic that guides it, and for weights read
// from a file the file's text, so that the same spec over edited weights is another version
// (a file beyond the message's limit is named by its length and hash instead).
TEST(EngineOf, NamesTheSpecItsHeuristicAndItsWeightsFilesText) {
  const auto plain = engine_of("isolation", "alphabeta:eval=custom_score_2,depth=5");
  EXPECT_EQ(plain.search, "alphabeta:eval=custom_score_2,depth=5");
  EXPECT_EQ(plain.heuristic, "custom_score_2");
  EXPECT_EQ(plain.parameters, "");
  EXPECT_EQ(engine_of("8-puzzle", "idastar:h=manhattan").heuristic, "manhattan");

  const std::string path = test::scratch_file("engine_of_weights.txt");
  const std::string spec = "alphabeta:eval=linear,weights=" + path + ",depth=2";
  std::ofstream(path) << "own1 1\nown2 5\n";
  const auto first = engine_of("qubic", spec);
  EXPECT_EQ(first.heuristic, "linear");
  EXPECT_EQ(first.parameters, "own1 1\nown2 5\n");
  std::ofstream(path) << "own1 2\nown2 5\n";
  EXPECT_EQ(engine_of("qubic", spec).parameters, "own1 2\nown2 5\n");

  const std::string big(protocol::kMaxEngineParametersBytes + 1, '#');
  std::ofstream(path) << big;
  const auto hashed = engine_of("qubic", spec).parameters;
  EXPECT_EQ(hashed.rfind("weights file of 8193 bytes, fnv1a64 ", 0), 0u) << hashed;
  EXPECT_EQ(hashed.size(), std::string("weights file of 8193 bytes, fnv1a64 ").size() + 16);
  std::ofstream(path) << big.substr(1) << ' ';
  EXPECT_NE(engine_of("qubic", spec).parameters, hashed);
  // A file that cannot be read adds nothing: the heuristic's loader reports it when the bot
  // builds its search.
  EXPECT_EQ(engine_of("qubic", "alphabeta:eval=linear,weights=/nonexistent/w.txt").parameters, "");
}

TEST(PuzzleSolver, SolvesAScrambledEightPuzzle) {
  auto solver = make_puzzle_solver("idastar:h=manhattan");
  ASSERT_TRUE(solver);
  // From the goal (blank first) the blank moved right, then down: two moves, Manhattan 2.
  const std::string start = "1 4 2 3 0 5 6 7 8";
  auto moves = (*solver)("8-puzzle", start);
  ASSERT_TRUE(moves) << moves.error();
  auto p = puzzles::SlidingPuzzle::deserialize(start);
  ASSERT_TRUE(p);
  for (const auto& m : *moves) {
    auto parsed = p->parse_move(m);
    ASSERT_TRUE(parsed) << m;
    p->make_move(*parsed);
  }
  EXPECT_TRUE(p->outcome().is_terminal()) << "the moves reach the goal";
  EXPECT_EQ(moves->size(), 2u);
}

TEST(TimeBudget, ParsesTheThreeTimeControls) {
  EXPECT_EQ(parse_time_control("none")->kind, TimeControl::Kind::kNone);
  auto mt = parse_time_control("movetime:150");
  ASSERT_TRUE(mt);
  EXPECT_EQ(mt->base_ms, 150);
  auto f = parse_time_control("fischer:300000+2000");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->base_ms, 300000);
  EXPECT_EQ(f->increment_ms, 2000);
  EXPECT_FALSE(parse_time_control("fischer:abc"));
  EXPECT_FALSE(parse_time_control("blitz"));
}

TEST(TimeBudget, AlwaysLeavesAMarginAndNeverExceedsTheClock) {
  const TimeControl mt = *parse_time_control("movetime:100");
  EXPECT_GT(move_budget_ms(mt, 100), 0);
  EXPECT_LE(move_budget_ms(mt, 100), 75);
  const TimeControl f = *parse_time_control("fischer:60000+1000");
  for (std::int64_t left : {60000, 5000, 500, 60, 5}) {
    const std::int64_t b = move_budget_ms(f, left);
    EXPECT_GE(b, 1);
    EXPECT_LT(b, std::max<std::int64_t>(left, 2)) << left;
  }
  EXPECT_EQ(move_budget_ms(*parse_time_control("none"), std::nullopt), 0);
}

}  // namespace
}  // namespace arena::client
