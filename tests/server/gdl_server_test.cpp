// GDL games through the hub, with the catalog's GdlGame (gdl:NAME): a two-player turn-taking
// sheet plays like any game (seek, accept, moves, the store, the replay), a simultaneous sheet
// collects both roles' moves per turn, a three-player sheet gathers three players, and a sheet
// of one role is a puzzle. Every move is the first legal one the state offers (or named), so
// the games are the same each run.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "games/catalog/catalog.h"
#include "games/core/turn_rows.h"
#include "server/hub.h"
#include "tests/games/gdl/lights_sheet.h"
#include "tests/server/hub_fixture.h"

namespace arena::server {
namespace {

// A sheet written for one test, added as gdl:STEM; its file is read when a game of it is first
// made, so it is removed only when the test ends.
struct TestSheet {
  TestSheet(const std::string& stem, const std::string& text)
      : path(std::filesystem::temp_directory_path() /
             (stem + "_" + std::to_string(::getpid()) + ".kif")) {
    std::ofstream(path) << text;
  }
  ~TestSheet() { std::filesystem::remove(path); }
  TestSheet(const TestSheet&) = delete;
  TestSheet& operator=(const TestSheet&) = delete;
  std::filesystem::path path;
};

using protocol::Json;
using testing::FakeConnection;

class GdlServerTest : public testing::FakeHubTest {
 protected:
  void SetUp() override {
    HubConfig config;
    config.lobby_interval_ms = 1;
    config.make_game = [](std::string_view name, const GameOptions& o) {
      return make_game(name, o);
    };
    config.load_game = [](std::string_view name, std::string_view p) { return load_game(name, p); };
    make_hub(std::move(config));
  }
  // Seeks `game` with players[0]; the others accept; returns the game id (0 on failure).
  std::int64_t start(const std::string& game,
                     const std::vector<std::shared_ptr<FakeConnection>>& players) {
    send(players[0], {{"type", "seek"}, {"game", game}});
    if (players[0]->count("seek_created") == 0) {
      ADD_FAILURE() << game << ": " << players[0]->last("error").dump();
      return 0;
    }
    const auto seek = players[0]->last("seek_created")["seek_id"];
    for (std::size_t i = 1; i < players.size(); ++i)
      send(players[i], {{"type", "accept"}, {"seek_id", seek}});
    if (players[0]->count("game_start") == 0) {
      ADD_FAILURE() << game << ": no game_start";
      return 0;
    }
    return players[0]->last("game_start")["game_id"];
  }
  // Every seat in `movers` plays its first legal move, until the game ends; returns the turns.
  int play_first_moves(std::int64_t id, const std::vector<std::shared_ptr<FakeConnection>>& seats) {
    int turns = 0;
    for (; turns < 500 && seats[0]->count("game_end") == 0; ++turns) {
      const Json state = seats[0]->last("state");
      for (int seat : state["movers"]) {
        const Json& moves = state.contains("legal_moves_by_seat")
                                ? state["legal_moves_by_seat"][seat]
                                : state["legal_moves"];
        send(seats[static_cast<std::size_t>(seat)],
             {{"type", "move"},
              {"game_id", id},
              {"move", moves.at(0)},
              {"client_id", "t" + std::to_string(turns)}});
      }
      if (seats[0]->last("state")["version"] == state["version"] &&
          seats[0]->count("game_end") == 0) {
        ADD_FAILURE() << "turn " << turns << " was not played: " << seats[0]->last("error").dump();
        break;
      }
    }
    return turns;
  }
  std::vector<std::string> rows_of(std::int64_t id) {
    std::vector<std::string> rows;
    const auto detail = store.game_detail(id);  // kept alive: the loop reads its moves
    if (!detail) return rows;
    for (const auto& m : detail->moves) rows.push_back(m.move);
    return rows;
  }
};

TEST_F(GdlServerTest, TicTacToeIsPlayedLikeAnyTwoPlayerGame) {
  auto ann = join("ann"), bob = join("bob");
  const auto id = start("gdl:tictactoe", {ann, bob});
  ASSERT_NE(id, 0);
  const Json begin = bob->last("game_start");
  EXPECT_EQ(begin["seats"], Json::array({"xplayer", "oplayer"}));
  ASSERT_TRUE(begin["board"].is_object()) << begin.dump();
  EXPECT_EQ(begin["board"]["relation"], "mark") << begin["board"].dump();
  EXPECT_EQ(begin["board"]["rows"], Json::array({"1", "2", "3"}));
  EXPECT_EQ(begin["board"]["cols"], Json::array({"1", "2", "3"}));
  const Json first = ann->last("state");
  EXPECT_EQ(first["movers"], Json::array({0})) << "oplayer's noop is played for it";
  EXPECT_EQ(first["legal_moves"].size(), 9u);
  EXPECT_EQ(first["position"], "(control xplayer)") << "no marks yet: the sheet has no blank cells";
  // A move out of turn is refused like any game's.
  send(bob, {{"type", "move"}, {"game_id", id}, {"move", "(mark 1 1)"}, {"client_id", "x"}});
  EXPECT_EQ(bob->last("error")["code"], "not_your_turn");
  const int turns = play_first_moves(id, {ann, bob});
  const Json end = ann->last("game_end");
  ASSERT_FALSE(end.is_null());
  EXPECT_EQ(end["reason"], "goals");
  EXPECT_FALSE(end.contains("note")) << "the rules ended it as usual: " << end.dump();
  ASSERT_EQ(end["scores"].size(), 2u);
  EXPECT_EQ(end["result"], protocol::result_from_scores(end["scores"].get<std::vector<int>>()));
  // One row per turn; they replay on a fresh game to the final position.
  const auto rows = rows_of(id);
  EXPECT_EQ(static_cast<int>(rows.size()), turns);
  auto fresh = make_game("gdl:tictactoe");
  ASSERT_TRUE(fresh) << fresh.error();
  const RowReplay replay = replay_rows(**fresh, rows, true);
  EXPECT_EQ(replay.error, "");
  EXPECT_EQ(replay.positions.back(), ann->last("state")["position"]);
  EXPECT_EQ(store.game_detail(id)->summary.scores, end["scores"].get<std::vector<int>>());
  EXPECT_EQ(store.game_detail(id)->summary.note, "");
}

TEST_F(GdlServerTest, ThePrisonersDilemmaCollectsBothMovesEachTurn) {
  auto ann = join("ann"), bob = join("bob");
  const auto id = start("gdl:gt_prisoner", {ann, bob});
  ASSERT_NE(id, 0);
  EXPECT_EQ(ann->last("game_start")["simultaneous"], true);
  EXPECT_EQ(ann->last("state")["movers"], Json::array({0, 1}));
  send(ann, {{"type", "move"}, {"game_id", id}, {"move", "defect"}, {"client_id", "a"}});
  EXPECT_EQ(bob->last("moved")["seat"], 0);
  send(ann, {{"type", "move"}, {"game_id", id}, {"move", "cooperate"}, {"client_id", "b"}});
  EXPECT_EQ(ann->last("error")["code"], "already_moved");
  send(bob, {{"type", "move"}, {"game_id", id}, {"move", "COOPERATE"}, {"client_id", "c"}});
  EXPECT_EQ(ann->last("state")["last_move"], "defect cooperate");
  const int turns = play_first_moves(id, {ann, bob}) + 1;
  const Json end = ann->last("game_end");
  ASSERT_FALSE(end.is_null());
  EXPECT_EQ(end["reason"], "goals");
  EXPECT_EQ(rows_of(id).size(), static_cast<std::size_t>(2 * turns)) << "two rows per turn";
}

TEST_F(GdlServerTest, ThreePlayerTicTacToeGathersThreePlayers) {
  auto ann = join("ann"), bob = join("bob"), cid = join("cid");
  const auto id = start("gdl:tictactoe_3player", {ann, bob, cid});
  ASSERT_NE(id, 0);
  EXPECT_EQ(cid->last("game_start")["players"].size(), 3u);
  play_first_moves(id, {ann, bob, cid});
  const Json end = cid->last("game_end");
  ASSERT_FALSE(end.is_null());
  ASSERT_EQ(end["scores"].size(), 3u);
  EXPECT_EQ(end["result"], protocol::result_from_scores(end["scores"].get<std::vector<int>>()));
  EXPECT_EQ(store.game_detail(id)->summary.seat_names.size(), 3u);
}

// A sheet whose goal rules give white no value at the end (a sheet's bug): the game ends on the
// goals, white scoring 0, and game_end's note says why, to every seat; the store keeps it.
TEST_F(GdlServerTest, GameEndNotesASheetsBugThatEndedTheGame) {
  const TestSheet sheet("arena_no_goal",
                        "(role white) (role black) (init (control white))\n"
                        "(<= (legal white go) (true (control white)))\n"
                        "(<= (legal black noop) (true (control white)))\n"
                        "(<= (next done) (does white go))\n"
                        "(<= terminal (true done))\n"
                        "(<= (goal black 100) (true done)) (<= (goal black 0) (not (true done)))\n"
                        "(<= (goal white 0) (not (true done)))\n");
  auto added = add_gdl_file(sheet.path.string());
  ASSERT_TRUE(added) << added.error();
  auto ann = join("ann"), bob = join("bob");
  const auto id = start(*added, {ann, bob});
  ASSERT_NE(id, 0);
  EXPECT_EQ(play_first_moves(id, {ann, bob}), 1);
  for (const auto& seat : {ann, bob}) {
    const Json end = seat->last("game_end");
    ASSERT_FALSE(end.is_null());
    EXPECT_EQ(end["result"], "0-1");
    EXPECT_EQ(end["reason"], "goals");
    EXPECT_EQ(end["scores"], Json::array({0, 100}));
    ASSERT_TRUE(end.contains("note")) << end.dump();
    const std::string note = end["note"];
    EXPECT_NE(note.find("no goal value"), std::string::npos) << note;
    EXPECT_NE(note.find("white"), std::string::npos) << note;
    EXPECT_EQ(store.game_detail(id)->summary.note, note) << "stored with the game";
  }
}

// A puzzle sheet whose end gives its role no goal value (a sheet's bug): puzzle_end's note says
// why, and the store keeps it with the puzzle's game, as it does a match's.
TEST_F(GdlServerTest, APuzzleEndedByASheetsBugKeepsItsNote) {
  const TestSheet sheet(
      "arena_puzzle_no_goal",
      "(role solver) (init (c 0))\n"
      "(<= (legal solver go) (true (c 0))) (<= (legal solver wait) (true (c 0)))\n"
      "(<= (next (c 1)) (does solver go)) (<= (next (c 0)) (does solver wait))\n"
      "(<= terminal (true (c 1)))\n"
      "(<= (goal solver 50) (true (c 0)))\n");
  auto added = add_gdl_file(sheet.path.string());
  ASSERT_TRUE(added) << added.error();
  auto ann = join("ann");
  send(ann, {{"type", "puzzle_start"}, {"puzzle", *added}});
  const Json s = ann->last("puzzle_state");
  ASSERT_FALSE(s.is_null()) << ann->last("error").dump();
  const std::int64_t id = s["puzzle_id"];
  send(ann, {{"type", "puzzle_move"}, {"puzzle_id", id}, {"move", "go"}});
  const Json end = ann->last("puzzle_end");
  ASSERT_FALSE(end.is_null());
  EXPECT_EQ(end["solved"], false);
  ASSERT_TRUE(end.contains("note")) << end.dump();
  const std::string note = end["note"];
  EXPECT_NE(note.find("no goal value"), std::string::npos) << note;
  EXPECT_NE(note.find("solver"), std::string::npos) << note;
  EXPECT_EQ(store.game_detail(id)->summary.note, note) << "stored with the puzzle's game";
}

// The four lights of tests/games/gdl/lights_sheet.h: solved at 4 presses, ended at the fifth.
TEST_F(GdlServerTest, ASheetOfOneRoleIsAPuzzleEndedByItsGoalRules) {
  const TestSheet sheet("arena_lights", arena::gdl_test::kLightsSheet);
  auto added = add_gdl_file(sheet.path.string());
  ASSERT_TRUE(added) << added.error();
  auto ann = join("ann");
  auto start = [&] {
    const std::size_t before = ann->count("puzzle_state");
    send(ann, {{"type", "puzzle_start"}, {"puzzle", *added}});
    if (ann->count("puzzle_state") == before) {
      ADD_FAILURE() << ann->last("error").dump();
      return Json();
    }
    return ann->last("puzzle_state");
  };
  auto press = [&](std::int64_t id, const std::string& cell) {
    send(ann, {{"type", "puzzle_move"}, {"puzzle_id", id}, {"move", "(press " + cell + ")"}});
  };

  // Solved: all four lights on, goal 100.
  Json s = start();
  ASSERT_FALSE(s.is_null());
  EXPECT_EQ(s["legal_moves"].size(), 4u) << s.dump();
  ASSERT_TRUE(s["board"].is_object()) << "the lights are a grid: " << s.dump();
  EXPECT_EQ(s["board"]["relation"], "cell");
  EXPECT_EQ(s["board"]["rows"], Json::array({"1", "2"}));
  EXPECT_EQ(s["board"]["cols"], Json::array({"1", "2"}));
  const std::int64_t solved_id = s["puzzle_id"];
  for (const char* cell : {"1 1", "1 2", "2 1"}) press(solved_id, cell);
  EXPECT_EQ(ann->count("puzzle_end"), 0u) << "three lights on is no end";
  press(solved_id, "2 2");
  Json end = ann->last("puzzle_end");
  ASSERT_FALSE(end.is_null());
  EXPECT_EQ(end["solved"], true);
  EXPECT_EQ(end["score"], 100);
  EXPECT_EQ(end["length"], 4);
  EXPECT_FALSE(end.contains("note")) << end.dump();
  EXPECT_EQ(store.game_detail(solved_id)->summary.result, "solved");
  EXPECT_EQ(store.game_detail(solved_id)->summary.scores, std::vector<int>{100});

  // Ended short of the goal: the fifth press of one light, goal 10.
  const std::int64_t short_id = start()["puzzle_id"];
  for (int i = 0; i < 5; ++i) press(short_id, "1 1");
  end = ann->last("puzzle_end");
  EXPECT_EQ(end["puzzle_id"], short_id);
  EXPECT_EQ(end["solved"], false);
  EXPECT_EQ(end["score"], 10);
  EXPECT_EQ(end["length"], 5);
  press(short_id, "1 2");
  EXPECT_EQ(ann->last("error")["code"], "game_over");
  EXPECT_NE(ann->last("error")["message"].get<std::string>().find("short of its goal"),
            std::string::npos);
  EXPECT_EQ(store.game_detail(short_id)->summary.result, "unsolved");
  EXPECT_EQ(store.game_detail(short_id)->summary.scores, std::vector<int>{10});

  // A whole solution must reach the goal: five presses of one light end the game short of it.
  const std::int64_t third = start()["puzzle_id"];
  const Json five =
      Json::array({"(press 1 1)", "(press 1 1)", "(press 1 1)", "(press 1 1)", "(press 1 1)"});
  send(ann, {{"type", "puzzle_solution"}, {"puzzle_id", third}, {"moves", five}});
  EXPECT_EQ(ann->last("error")["code"], "not_solved");
  send(ann, {{"type", "puzzle_solution"},
             {"puzzle_id", third},
             {"moves", Json::array({"(press 2 2)", "(press 1 1)", "(press 2 1)", "(press 1 2)"})}});
  EXPECT_EQ(ann->last("puzzle_end")["puzzle_id"], third);
  EXPECT_EQ(ann->last("puzzle_end")["solved"], true);

  // A sheet takes no options; a sheet of two roles is no puzzle.
  send(ann, {{"type", "puzzle_start"}, {"puzzle", *added}, {"options", "size=3"}});
  EXPECT_EQ(ann->last("error")["code"], "bad_options");
  EXPECT_NE(ann->last("error")["message"].get<std::string>().find("no options"), std::string::npos);
  send(ann, {{"type", "puzzle_start"}, {"puzzle", "gdl:tictactoe"}});
  EXPECT_NE(ann->last("error")["message"].get<std::string>().find("is not a puzzle"),
            std::string::npos);
}

}  // namespace
}  // namespace arena::server
