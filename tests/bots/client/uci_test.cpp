// The UCI bridge: Debian's stockfish through pipes, then a full game through a real server.

#include <algorithm>
#include <filesystem>

#include "bots/uci/uci_engine.h"
#include "bots/uci/uci_player.h"
#include "games/catalog/catalog.h"
#include "tests/bots/client/bot_server_fixture.h"

namespace arena::client::testing {
namespace {

constexpr const char* kStockfish = "/usr/games/stockfish";

bool have_stockfish() {
  return std::filesystem::exists(kStockfish);
}

TEST(UciOption, ParsesNameEqualsValue) {
  auto o = uci::parse_uci_option("Skill Level=3");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->first, "Skill Level");
  EXPECT_EQ(o->second, "3");
  EXPECT_FALSE(uci::parse_uci_option("Threads"));
}

TEST(UciEngine, AMissingEngineIsAnErrorNamingIt) {
  auto e = uci::UciEngine::start("/nonexistent/engine");
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().find("/nonexistent/engine"), std::string::npos);
}

TEST(UciEngine, StockfishAnswersWithALegalMove) {
  if (!have_stockfish()) GTEST_SKIP() << "no " << kStockfish;
  auto engine = uci::UciEngine::start(kStockfish, {{"Threads", "1"}, {"Hash", "16"}});
  ASSERT_TRUE(engine) << engine.error();
  EXPECT_NE((*engine)->name().find("Stockfish"), std::string::npos);
  ASSERT_TRUE((*engine)->new_game());
  auto game = make_game("chess");
  ASSERT_TRUE(game);
  uci::UciGo go;
  go.movetime_ms = 20;
  auto r = (*engine)->best_move((*game)->serialize(), {}, go);
  ASSERT_TRUE(r) << r.error();
  const auto legal = (*game)->legal_moves();
  EXPECT_NE(std::find(legal.begin(), legal.end(), r->best_move), legal.end()) << r->best_move;
  EXPECT_GT(r->depth, 0);
  EXPECT_GT(r->nodes, 0);
  // Mate in one (Scholar's mate position, white to move): stockfish finds Qxf7#.
  const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
  auto mate = (*engine)->best_move(fen, {}, go);
  ASSERT_TRUE(mate) << mate.error();
  EXPECT_EQ(mate->best_move, "h5f7");
}

using UciServerTest = BotServerTest;

// The engine is started before the bot seeks, not on the first move's clock. (A quarter second a
// move: at 60 ms this passes alone but not beside the browser tests on two cores.)
TEST_F(UciServerTest, StockfishPlaysAFullGameAgainstAnArenaBot) {
  if (!have_stockfish()) GTEST_SKIP() << "no " << kStockfish;
  start_server();
  BotRunOptions o;
  o.url = url();
  o.config = {
      .name = "stockfish", .games = {"chess"}, .time_control = "movetime:250", .seek_games = 1};
  o.players = uci::uci_player_factory(kStockfish, {{"Threads", "1"}, {"Hash", "16"}});
  auto fish = BotRunner::start(std::move(o));
  ASSERT_TRUE(fish) << fish.error();
  BotRunner& arena_bot =
      start_bot({.name = "arena_ab", .games = {"chess"}, .accept_seeks = true, .max_games = 1},
                "alphabeta:eval=material,depth=2");
  EXPECT_TRUE((*fish)->session().wait_done(90000));
  EXPECT_TRUE(arena_bot.session().wait_done(30000));
  const BotStats f = (*fish)->session().stats();
  const BotStats a = arena_bot.session().stats();
  (*fish)->stop();
  EXPECT_EQ(f.games_finished, 1);
  EXPECT_EQ(a.games_finished, 1);
  EXPECT_EQ(f.fallbacks, 0) << f.last_error;
  EXPECT_EQ(f.lost_on_time + a.lost_on_time, 0);
  EXPECT_EQ(f.losses, 0) << "stockfish does not lose to a depth-2 material search";
  EXPECT_GT(f.moves_sent, 5);
  std::printf("stockfish vs alphabeta depth 2: %s after %d stockfish moves\n",
              f.reasons.empty() ? "?" : f.reasons.front().c_str(), f.moves_sent);
}

}  // namespace
}  // namespace arena::client::testing
