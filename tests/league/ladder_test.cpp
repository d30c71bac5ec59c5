// Strength ladders (league/ladder.h): seats and their errors, a tiny ladder of presets end to
// end with colour-swapped pairs and an Elo fit, games in parallel, the chess opening book, and
// (when Debian's stockfish is installed) a ladder against a calibrated engine.
#include "league/ladder.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "games/chess/chess.h"
#include "tournament/pairing/fair_start.h"

namespace arena::league {
namespace {

constexpr const char* kStockfish = "/usr/games/stockfish";

std::string error_of(const std::string& seat, const std::string& game) {
  auto s = parse_ladder_seat(seat, game);
  EXPECT_FALSE(s) << seat;
  return s ? "" : s.error();
}

// A tic-tac-toe ladder of the perfect player against `opponents`.
LadderConfig tictactoe_ladder(std::vector<std::string> opponents, int pairs) {
  LadderConfig c;
  c.game = "tictactoe";
  c.player = "perfect";
  c.opponents = std::move(opponents);
  c.pairs = pairs;
  return c;
}

TEST(LadderSeat, PresetsSpecsAndAnchors) {
  auto preset = parse_ladder_seat("AB_Improved", "isolation");
  ASSERT_TRUE(preset) << preset.error();
  EXPECT_EQ(preset->kind, LadderSeat::Kind::kSearch);
  EXPECT_EQ(preset->spec, "alphabeta:eval=improved_score,depth=5");
  EXPECT_FALSE(preset->anchor);
  auto anchored = parse_ladder_seat("MM_Improved@0", "isolation");
  ASSERT_TRUE(anchored) << anchored.error();
  EXPECT_EQ(anchored->name, "MM_Improved");
  EXPECT_EQ(anchored->anchor, 0.0);
  auto spec = parse_ladder_seat("alphabeta:eval=material,depth=2@-150", "othello");
  ASSERT_TRUE(spec) << spec.error();
  EXPECT_EQ(spec->spec, "alphabeta:eval=material,depth=2");
  EXPECT_EQ(spec->anchor, -150.0);
}

TEST(LadderSeat, ErrorsNameTheProblem) {
  EXPECT_NE(error_of("AB_Improvd", "isolation").find("unknown preset 'AB_Improvd'"),
            std::string::npos);
  EXPECT_NE(error_of("othello_greedy", "chess").find("plays othello, not chess"),
            std::string::npos);
  EXPECT_NE(error_of("id:eval=nonsense", "chess").find("nonsense"), std::string::npos);
  EXPECT_NE(error_of("uci:/usr/games/stockfish", "othello").find("plays chess, not 'othello'"),
            std::string::npos);
  EXPECT_NE(error_of("uci:/no/such/engine", "chess").find("'/no/such/engine' not found"),
            std::string::npos);
  EXPECT_NE(error_of("uci:/usr/games/gnuchess --uci", "chess").find("gnuchessu"),
            std::string::npos);
  EXPECT_NE(error_of("AB_Improved@strong", "isolation").find("not an Elo"), std::string::npos);
  if (::access(kStockfish, X_OK) == 0) {
    EXPECT_NE(error_of(std::string("uci:") + kStockfish + "?Threads", "chess")
                  .find("'Threads' must be NAME=VALUE"),
              std::string::npos);
  }
}

// On a GDL sheet the seats are GDL players: the roster's GDL presets or GDL player specs, with
// anchors as anywhere; what is no GDL player is named.
TEST(LadderSeat, GdlSeatsArePresetsOrGdlPlayerSpecs) {
  auto preset = parse_ladder_seat("GDL_UCT@0", "gdl:tictactoe");
  ASSERT_TRUE(preset) << preset.error();
  EXPECT_EQ(preset->kind, LadderSeat::Kind::kGdl);
  EXPECT_EQ(preset->spec, "uct");
  EXPECT_EQ(preset->anchor, 0.0);
  auto spec = parse_ladder_seat("fuzzy:depth=1", "gdl:tictactoe");
  ASSERT_TRUE(spec) << spec.error();
  EXPECT_EQ(spec->kind, LadderSeat::Kind::kGdl);
  EXPECT_EQ(spec->spec, "fuzzy:depth=1");
  EXPECT_NE(error_of("AB_Improved", "gdl:tictactoe").find("plays isolation, not gdl:tictactoe"),
            std::string::npos);
  EXPECT_NE(error_of("uci:/usr/games/stockfish", "gdl:tictactoe").find("UCI engines play chess"),
            std::string::npos);
  EXPECT_NE(error_of("uct:zz=1", "gdl:tictactoe").find("not a GDL player spec"), std::string::npos);
  EXPECT_NE(error_of("GDL_UCT", "gdl:noSuchSheet").find("unknown game 'gdl:noSuchSheet'"),
            std::string::npos);
}

// A GDL ladder: colour-swapped pairs as for the catalog's games, every game played to the
// sheet's goals (or adjudicated), the Elo fitted on the anchor; a sheet whose roles move at
// once plays too. What it cannot play is refused naming why.
TEST(Ladder, AGdlSheetPlaysPairedGamesBetweenGdlPlayers) {
  for (const char* sheet : {"gdl:tictactoe", "gdl:chickentictactoe"}) {
    LadderConfig c;
    c.game = sheet;
    c.player = "GDL_UCT";
    c.opponents = {"GDL_Random@0"};
    c.pairs = 2;
    c.movetime_ms = 20;
    c.opening_plies = 1;
    c.jobs = 2;
    auto r = run_ladder(c);
    ASSERT_TRUE(r) << sheet << ": " << r.error();
    ASSERT_EQ(r->games.size(), 4u) << sheet;
    for (std::size_t k = 0; k < r->games.size(); k += 2) {
      EXPECT_EQ(r->games[k].first, r->games[k + 1].second);
      EXPECT_EQ(r->games[k].second, r->games[k + 1].first);
    }
    for (const auto& g : r->games) {
      EXPECT_EQ(g.reason, "goals") << sheet;
      EXPECT_GT(g.plies, 0) << sheet;
    }
    EXPECT_FALSE(r->origin_chosen);
    EXPECT_EQ(r->elo[0].games, 4) << sheet;
    const std::string table = format_ladder(c, *r);
    EXPECT_NE(table.find("GDL_UCT: Elo"), std::string::npos) << table;
    EXPECT_NE(table.find("openings from 1 random turns"), std::string::npos) << table;
  }
  auto refused = [](LadderConfig c, const std::string& why) {
    c.player = "GDL_UCT";
    c.opponents = {"GDL_Random"};
    auto r = run_ladder(c);
    ASSERT_FALSE(r) << c.game;
    EXPECT_NE(r.error().find(why), std::string::npos) << r.error();
  };
  LadderConfig three;
  three.game = "gdl:3pttc";
  refused(three, "gdl:3pttc has 3 roles; a ladder plays games of two");
  LadderConfig book;
  book.game = "gdl:tictactoe";
  book.opening_book = "/dev/null";
  refused(book, "opening book");
  LadderConfig options;
  options.game = "gdl:tictactoe";
  options.options = "size=4";
  refused(options, "takes no options");
}

TEST(Ladder, PresetsPlayPairedGamesAndTheScaleStartsAtTheWeakest) {
  LadderConfig c = tictactoe_ladder({"bad_heuristic", "available_wins"}, 2);
  c.movetime_ms = 20;
  c.opening_plies = 1;
  std::vector<std::pair<int, int>> seen;
  auto r = run_ladder(c, [&](const LadderResult& res, int done, int total) {
    EXPECT_EQ(total, 8);
    EXPECT_EQ(static_cast<int>(res.games.size()), done);
  });
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->games.size(), 8u);
  // Each pair: the player first, then second, against the same opponent.
  for (std::size_t k = 0; k < r->games.size(); k += 2) {
    EXPECT_EQ(r->games[k].first, r->games[k + 1].second);
    EXPECT_EQ(r->games[k].second, r->games[k + 1].first);
  }
  // The perfect player never loses.
  for (const auto& g : r->games) {
    const double mine = g.first == 0 ? g.first_score : 1 - g.first_score;
    EXPECT_GE(mine, 0.5) << g.reason;
  }
  EXPECT_TRUE(r->origin_chosen);
  EXPECT_TRUE(r->elo[static_cast<std::size_t>(r->origin)].anchor);
  EXPECT_EQ(r->elo[static_cast<std::size_t>(r->origin)].elo, 0);
  const std::string table = format_ladder(c, *r);
  EXPECT_NE(table.find("perfect: Elo"), std::string::npos) << table;
  EXPECT_NE(table.find("available_wins"), std::string::npos) << table;
  EXPECT_NE(table.find("20 ms a move"), std::string::npos) << table;
}

TEST(Ladder, AllPairsPlaysEverySeatAgainstEveryOther) {
  LadderConfig c = tictactoe_ladder({"bad_heuristic@0", "combined"}, 1);
  c.all_pairs = true;
  c.movetime_ms = 10;
  auto r = run_ladder(c);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->games.size(), 6u);  // three pairings, two games each
  EXPECT_FALSE(r->origin_chosen);
  EXPECT_NE(format_ladder(c, *r).find("every seat, best first"), std::string::npos);
}

TEST(Ladder, TheChessBookIsLegalAndPairsGetDifferentLines) {
  const std::string path = std::string(ARENA_SOURCE_DIR) + "/leagues/openings/chess.txt";
  auto book = tournament::read_opening_book(path);
  ASSERT_TRUE(book) << book.error();
  ASSERT_GE(book->size(), 30u);
  for (const auto& line : *book) {
    auto g = chess::Chess::create({});
    ASSERT_TRUE(g);
    std::istringstream in(line);
    std::string word;
    while (in >> word) {
      auto m = g->parse_move(word);
      ASSERT_TRUE(m) << line << ": " << word;
      g->make_move(*m);
    }
  }
}

// Games in parallel: the same schedule as one at a time (every opening with both colours), the
// games reported in scheduled order, played by more than one thread.
TEST(Ladder, JobsPlayTheSameScheduleOnSeveralThreads) {
  LadderConfig c;  // iterative deepening uses its whole 20 ms: each game takes 80 ms or more
  c.game = "isolation";
  c.player = "AB_Custom_2";
  c.opponents = {"AB_Improved_ID", "AB_Custom"};
  c.pairs = 4;
  c.movetime_ms = 20;
  c.opening_plies = 2;
  c.max_plies = 4;
  c.jobs = 3;
  std::mutex mutex;
  std::set<std::thread::id> threads;
  int calls = 0;
  auto r = run_ladder(c, [&](const LadderResult& res, int done, int total) {
    std::lock_guard lock(mutex);
    threads.insert(std::this_thread::get_id());
    EXPECT_EQ(total, 16);
    EXPECT_EQ(done, ++calls);
    EXPECT_EQ(static_cast<int>(res.games.size()), done);
  });
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->games.size(), 16u);
  EXPECT_GE(threads.size(), 2u);
  for (std::size_t k = 0; k < r->games.size(); k += 2) {
    const auto &a = r->games[k], &b = r->games[k + 1];
    EXPECT_EQ(a.pair, static_cast<int>(k / 4));
    EXPECT_EQ(a.pair, b.pair);
    EXPECT_EQ(a.first, b.second);
    EXPECT_EQ(a.second, b.first);
    EXPECT_EQ(a.first, 0) << "the player moves first in a pair's first game";
  }
  EXPECT_NE(format_ladder(c, *r).find("3 at a time"), std::string::npos);
}

// A stop while games are in play: no new pair starts, every pair begun is played out.
TEST(Ladder, AStopWithJobsFinishesThePairsBegun) {
  LadderConfig c = tictactoe_ladder({"available_wins"}, 50);
  c.movetime_ms = 10;
  c.opening_plies = 1;
  c.jobs = 2;
  std::atomic<bool> stop{false};
  auto r = run_ladder(c, [&](const LadderResult&, int, int) { stop = true; }, &stop);
  ASSERT_TRUE(r) << r.error();
  EXPECT_TRUE(r->stopped_early);
  EXPECT_LT(r->games.size(), 100u);
  ASSERT_EQ(r->games.size() % 2, 0u);
  for (std::size_t k = 0; k < r->games.size(); k += 2)
    EXPECT_EQ(r->games[k].pair, r->games[k + 1].pair);
}

// A games file pools bounded runs: each game appended as it ends, the earlier games of the same
// seats and settings in the next run's table and fit, other settings left out, a bad line named.
TEST(Ladder, AGamesFilePoolsRunsOfTheSameSeatsAndSettings) {
  const std::string path = ::testing::TempDir() + "ladder_games_" + std::to_string(::getpid());
  std::remove(path.c_str());
  LadderConfig c = tictactoe_ladder({"bad_heuristic@0", "available_wins"}, 1);
  c.movetime_ms = 10;
  c.opening_plies = 1;
  c.games_file = path;
  auto first = run_ladder(c);
  ASSERT_TRUE(first) << first.error();
  EXPECT_TRUE(first->earlier.empty());
  const auto count_lines = [&] {
    std::ifstream in(path);
    int n = 0;
    for (std::string line; std::getline(in, line);) n += !line.empty();
    return n;
  };
  EXPECT_EQ(count_lines(), 4);
  auto second = run_ladder(c);
  ASSERT_TRUE(second) << second.error();
  EXPECT_EQ(second->games.size(), 4u);
  EXPECT_EQ(second->earlier.size(), 4u);
  EXPECT_EQ(second->elo[0].games, 8) << "the player's fit counts both runs";
  EXPECT_EQ(count_lines(), 8);
  const std::string table = format_ladder(c, *second);
  EXPECT_NE(table.find("plus 4 earlier games from " + path), std::string::npos) << table;
  // Another time control: the file's games are not this ladder's.
  c.movetime_ms = 11;
  auto other = run_ladder(c);
  ASSERT_TRUE(other) << other.error();
  EXPECT_TRUE(other->earlier.empty());
  EXPECT_EQ(other->earlier_left_out, 8);
  {
    std::ofstream out(path, std::ios::app);
    out << "{\"game\": \"tictactoe\", \"first\": 3}\n";
  }
  auto bad = run_ladder(c);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("line 13: not a game line"), std::string::npos) << bad.error();
  std::remove(path.c_str());
}

TEST(Ladder, ClockTimeControlAndErrors) {
  LadderConfig c = tictactoe_ladder({"combined"}, 1);
  c.base_ms = 2000;
  c.increment_ms = 50;
  auto r = run_ladder(c);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->games.size(), 2u);
  for (const auto& g : r->games) EXPECT_NE(g.reason, "time forfeit");
  EXPECT_NE(format_ladder(c, *r).find("2.0 s + 0.05 s"), std::string::npos);
  c.opponents = {"nobody_at_all"};
  auto bad = run_ladder(c);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("nobody_at_all"), std::string::npos);
}

TEST(Ladder, AgainstCalibratedStockfish) {
  if (::access(kStockfish, X_OK) != 0) GTEST_SKIP() << kStockfish << " is not installed";
  LadderConfig c;
  c.game = "chess";
  c.player = "chess_greedy";
  c.opponents = {std::string("uci:") + kStockfish +
                 "?Threads=1&UCI_LimitStrength=true&UCI_Elo=1400"};
  c.pairs = 1;
  c.movetime_ms = 20;
  c.max_plies = 30;
  c.jobs = 2;  // each game with its own engine process
  c.opening_book = std::string(ARENA_SOURCE_DIR) + "/leagues/openings/chess.txt";
  auto r = run_ladder(c);
  ASSERT_TRUE(r) << r.error();
  ASSERT_EQ(r->games.size(), 2u);
  EXPECT_EQ(r->seats[1].name, "stockfish UCI_Elo=1400");
  EXPECT_TRUE(r->elo[1].anchor);
  EXPECT_EQ(r->elo[1].elo, 1400);
  EXPECT_FALSE(r->origin_chosen);
  for (const auto& g : r->games) EXPECT_EQ(g.reason.find("engine failed"), std::string::npos);
  const std::string table = format_ladder(c, *r);
  EXPECT_NE(table.find("1400 (anchor)"), std::string::npos) << table;
}

}  // namespace
}  // namespace arena::league
