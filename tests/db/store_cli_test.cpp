// The store's commands of the `arena` binary: token, ratings and export, run as a user would.

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>
#include <vector>

#include "db/sqlite_store.h"
#include "tests/cli/run_command.h"
#include "tests/db/temp_dir.h"

namespace arena::db {
namespace {

using test::run_command;

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// pgn-extract from Debian (/usr/games is not always on PATH); empty when not installed.
std::string pgn_extract() {
  for (const char* p : {"/usr/games/pgn-extract", "/usr/bin/pgn-extract"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

class StoreCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = open_sqlite_store(db_);
    ASSERT_TRUE(opened) << opened.error();
    store_ = std::move(*opened);
  }
  std::string arena(const std::string& args) { return std::string(ARENA_BINARY) + " " + args; }
  PlayerId player(const std::string& name) { return store_->find_or_create_player(name, true)->id; }
  GameId play(const std::string& kind, PlayerId a, PlayerId b,
              const std::vector<std::string>& moves, const std::string& result,
              const std::string& start = "", const std::string& note = "") {
    NewGame g;
    g.kind = kind;
    g.first = a;
    g.second = b;
    g.start_position = start;
    GameId id = *store_->create_game(g);
    for (std::size_t i = 0; i < moves.size(); ++i) {
      MoveRecord m;
      m.game = id;
      m.ply = static_cast<int>(i);
      m.move = moves[i];
      store_->append_move(m, nullptr);
    }
    store_->finish_game({id, result, "test", "", {}, note}, nullptr);
    store_->flush();
    return id;
  }

  test::TempDir dir_;
  std::string db_ = dir_.file("arena.db");
  std::unique_ptr<SqliteStore> store_;
};

TEST_F(StoreCliTest, TokenCreatePrintsATokenThatAuthenticates) {
  auto r = run_command(arena("token create alpha-bot --db " + db_ + " 2>/dev/null"));
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string token = r.output.substr(0, r.output.find('\n'));
  ASSERT_EQ(token.size(), 64u) << r.output;
  auto who = store_->authenticate_token(token);
  ASSERT_TRUE(who) << who.error();
  EXPECT_EQ(who->name, "alpha-bot");
}

// A bad name is refused before the database is opened: no file is left behind.
TEST_F(StoreCliTest, TokenCreateRefusesABadNameWithoutMakingTheFile) {
  const std::string fresh = dir_.file("never.db");
  auto r = run_command(arena("token create '' --db " + fresh));
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("player name '' must be 1 to 64 characters"), std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(fresh));
}

TEST_F(StoreCliTest, RatingsPrintTheLeaderboardByEachMethod) {
  const PlayerId a = player("ann"), b = player("bob"), c = player("cid");
  play("othello", a, b, {}, "1-0");
  play("othello", b, a, {}, "0-1");
  play("othello", b, c, {}, "1-0");
  play("othello", c, a, {}, "1/2-1/2");
  play("othello", a, c, {}, "1-0");
  for (const std::string method : {"glicko2", "elo", "bt"}) {
    auto r = run_command(arena("ratings --db " + db_ + " --game othello --method " + method));
    ASSERT_EQ(r.status, 0) << r.output;
    const auto ann = r.output.find("ann"), bob = r.output.find("bob"), cid = r.output.find("cid");
    ASSERT_NE(ann, std::string::npos) << r.output;
    EXPECT_LT(ann, bob) << method << "\n" << r.output;                 // ann scored 3.5 of 4, first
    EXPECT_LT(bob, cid) << method << "\n" << r.output;                 // bob 1 of 2, cid 0.5 of 3
    EXPECT_NE(r.output.find("87.5%"), std::string::npos) << r.output;  // ann: 3.5 / 4
  }
}

TEST_F(StoreCliTest, RatingsNameAnUnknownGameAndAMissingFile) {
  play("othello", player("a"), player("b"), {}, "1-0");
  auto unknown = run_command(arena("ratings --db " + db_ + " --game nosuchgame"));
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.output.find("no games of 'nosuchgame'"), std::string::npos) << unknown.output;
  EXPECT_NE(unknown.output.find("stored: othello"), std::string::npos) << unknown.output;
  const std::string missing = dir_.file("missing.db");
  auto r = run_command(arena("ratings --db " + missing + " --game othello"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.output.find("no database file " + missing), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(missing)) << "a read command must not create the file";
}

// The exported PGN read back by pgn-extract: every game accepted, and its moves converted back
// to UCI equal to what was stored.
TEST_F(StoreCliTest, ExportedPgnIsReadByPgnExtract) {
  const std::string reader = pgn_extract();
  if (reader.empty()) GTEST_SKIP() << "pgn-extract is not installed (apt-get install pgn-extract)";
  const PlayerId w = player("white bot"), b = player("black \"quoted\" bot");
  const std::vector<std::vector<std::string>> games = {
      {"e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"},
      {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "e1g1", "g8f6", "d2d4", "e5d4"},
      {"a7a8q", "h8h7", "a1b2"}};
  play("chess", w, b, games[0], "1-0");
  play("chess", b, w, games[1], "*");
  play("chess", w, b, games[2], "1-0", "7k/P7/8/8/8/8/8/K7 w - - 0 1");
  play("othello", w, b, {"d3"}, "0-1");  // not chess: left out of PGN
  const std::string out = dir_.file("games.pgn");
  auto r = run_command(arena("export --db " + db_ + " --format pgn --out " + out));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("3 games"), std::string::npos) << r.output;
  const std::string pgn = read_file(out);
  EXPECT_NE(pgn.find("[FEN \"7k/P7/8/8/8/8/8/K7 w - - 0 1\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("O-O"), std::string::npos) << pgn;
  auto check = run_command(reader + " -Wuci " + out);
  // pgn-extract writes a promotion's piece in capitals (a7a8Q); UCI has it in lower case.
  for (char& ch : check.output)
    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  EXPECT_NE(check.output.find("3 games matched out of 3."), std::string::npos) << check.output;
  EXPECT_EQ(check.output.find("failed"), std::string::npos) << check.output;
  for (const auto& moves : games) {
    std::string uci;
    for (const auto& m : moves) uci += (uci.empty() ? "" : " ") + m;
    EXPECT_NE(check.output.find(uci), std::string::npos) << uci << "\n" << check.output;
  }
}

TEST_F(StoreCliTest, ExportPdnAndJson) {
  const PlayerId a = player("a"), b = player("b");
  play("checkers", a, b, {"11-15", "23-19", "8-11", "22-17"}, "1/2-1/2");
  play("chess", a, b, {"e2e4"}, "*", "", "the rules ended it");
  auto pdn = run_command(arena("export --db " + db_ + " --format pdn 2>/dev/null"));
  ASSERT_EQ(pdn.status, 0) << pdn.output;
  EXPECT_NE(pdn.output.find("[GameType \"21\"]"), std::string::npos) << pdn.output;
  EXPECT_NE(pdn.output.find("[Black \"a\"]"), std::string::npos) << pdn.output;
  EXPECT_NE(pdn.output.find("1. 11-15 23-19 2. 8-11 22-17 1/2-1/2"), std::string::npos)
      << pdn.output;
  auto json = run_command(arena("export --db " + db_ + " --format json 2>/dev/null"));
  ASSERT_EQ(json.status, 0) << json.output;
  const auto parsed = nlohmann::json::parse(json.output, nullptr, false);
  ASSERT_TRUE(parsed.is_array()) << json.output;
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_EQ(parsed[0]["kind"], "checkers");
  EXPECT_EQ(parsed[0]["moves"].size(), 4u);
  EXPECT_EQ(parsed[0]["moves"][3]["move"], "22-17");
  EXPECT_EQ(parsed[1]["result"], "*");
  EXPECT_EQ(parsed[0]["note"], "");  // none
  EXPECT_EQ(parsed[1]["note"], "the rules ended it");
  auto wrong = run_command(arena("export --db " + db_ + " --format pgn --game checkers"));
  EXPECT_EQ(wrong.status, 1);
  EXPECT_NE(wrong.output.find("is for chess games, not 'checkers'"), std::string::npos)
      << wrong.output;
  auto bad_format = run_command(arena("export --db " + db_ + " --format xml"));
  EXPECT_EQ(bad_format.status, 2);
  EXPECT_NE(bad_format.output.find("unknown export format 'xml'"), std::string::npos);
}

// The JSON export gives each move row the seat stored with it (a GDL sheet whose roles move
// at once stores a turn as one row per mover), and null for a row stored before the seat was.
TEST_F(StoreCliTest, ExportedJsonGivesEachRowItsStoredSeat) {
  const PlayerId a = player("a"), b = player("b");
  NewGame g;
  g.kind = "gdl:chickentictactoe";
  g.first = a;
  g.second = b;
  const GameId id = *store_->create_game(g);
  const std::vector<std::pair<int, std::string>> rows = {
      {0, "(mark 1 1)"}, {1, "(mark 3 3)"}, {1, "(mark 2 2)"}, {-1, "(mark 1 2)"}};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    MoveRecord m;
    m.game = id;
    m.ply = static_cast<int>(i);
    m.seat = rows[i].first;
    m.move = rows[i].second;
    store_->append_move(m, nullptr);
  }
  store_->finish_game({id, "*", "test", ""}, nullptr);
  store_->flush();
  auto json = run_command(arena("export --db " + db_ + " --format json 2>/dev/null"));
  ASSERT_EQ(json.status, 0) << json.output;
  const auto parsed = nlohmann::json::parse(json.output, nullptr, false);
  ASSERT_TRUE(parsed.is_array() && parsed.size() == 1u) << json.output;
  const auto& moves = parsed[0]["moves"];
  ASSERT_EQ(moves.size(), 4u);
  EXPECT_EQ(moves[0]["seat"], 0);
  EXPECT_EQ(moves[1]["seat"], 1);
  EXPECT_EQ(moves[2]["seat"], 1);
  EXPECT_TRUE(moves[3]["seat"].is_null()) << moves[3];
  EXPECT_EQ(moves[3]["move"], "(mark 1 2)");
}

// A file with no game of the format's kind exports nothing and says what it holds instead.
TEST_F(StoreCliTest, AnExportOfNoGamesSaysWhatTheFileHolds) {
  const PlayerId a = player("a"), b = player("b");
  play("isolation", a, b, {"d2", "a2"}, "1-0");
  play("othello", a, b, {"d3"}, "*");
  auto pgn = run_command(arena("export --db " + db_ + " --format pgn 2>&1 >/dev/null"));
  EXPECT_EQ(pgn.status, 0) << pgn.output;
  EXPECT_NE(pgn.output.find("0 games (PGN holds chess games; stored here: isolation, othello; "
                            "--format json writes every kind)"),
            std::string::npos)
      << pgn.output;
  auto json = run_command(arena("export --db " + db_ + " --format json 2>&1 >/dev/null"));
  EXPECT_EQ(json.output, "arena export: 2 games\n");
}

}  // namespace
}  // namespace arena::db
