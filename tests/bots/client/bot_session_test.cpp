// BotSession against a fake transport: the frames it sends for the frames it gets, with the
// searches run by hand (so the test sees the I/O side never runs one itself).

#include "bots/client/bot_session.h"
#include "bots/client/time_budget.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "protocol/messages.h"

namespace arena::client {
namespace {

using Json = nlohmann::json;

// Frames as the server sends them: the session decodes them with protocol/server_codec.h,
// which needs every field the protocol requires.
Json player(std::int64_t id, const std::string& name = "p", bool bot = false) {
  return {{"id", id}, {"name", name}, {"bot", bot}};
}
Json welcome(std::int64_t my_id, Json your_games) {
  return {{"type", "welcome"},
          {"player", player(my_id, "me", true)},
          {"server", "arena test"},
          {"protocol", protocol::kProtocolVersion},
          {"session", ""},
          {"your_games", std::move(your_games)},
          {"limits",
           {{"max_message_bytes", 65536},
            {"max_json_depth", 32},
            {"messages_per_second", 200},
            {"burst", 400},
            {"reconnect_grace_ms", 30000}}}};
}
Json challenge_offer(std::int64_t id, const std::string& game) {
  return {{"type", "challenge_offer"},
          {"challenge_id", id},
          {"from", player(8)},
          {"game", game},
          {"options", ""},
          {"time_control", "none"}};
}
// A lobby seek by `owner`; without `seats` (a game of two) unless given.
Json seek(std::int64_t id, std::int64_t owner, const std::string& game, int seats = 0) {
  Json s = {{"seek_id", id},
            {"by", player(owner)},
            {"game", game},
            {"options", ""},
            {"time_control", "none"}};
  if (seats > 0) s["seats"] = seats;
  return s;
}
Json lobby(Json seeks) {
  return {{"type", "lobby"},
          {"seeks", std::move(seeks)},
          {"players", Json::array()},
          {"games", Json::array()}};
}

// Plays the first legal move and reports a recognisable search info.
class FirstMovePlayer final : public Player {
 public:
  explicit FirstMovePlayer(std::vector<std::int64_t>* budgets, std::vector<int>* seats)
      : budgets_(budgets), seats_(seats) {}
  Expected<TurnReply> choose_move(const TurnRequest& r) override {
    budgets_->push_back(r.budget_ms);
    seats_->push_back(r.seat);
    TurnReply reply;
    reply.move = r.legal_moves.front();
    reply.info.depth = 4;
    reply.info.nodes = 1234;
    reply.info.score = 17;
    reply.info.pv = {reply.move};
    reply.info.time_ms = 3;
    return reply;
  }

 private:
  std::vector<std::int64_t>* budgets_;
  std::vector<int>* seats_;
};

class SessionTest : public ::testing::Test {
 protected:
  void make(BotConfig config) {
    session_ = std::make_unique<BotSession>(
        std::move(config),
        [this](std::string_view game) -> Expected<std::unique_ptr<Player>> {
          if (game != "tictactoe" && game != "chess")
            return make_error("cannot play " + std::string(game));
          ++made_;
          return std::unique_ptr<Player>(std::make_unique<FirstMovePlayer>(&budgets_, &seats_));
        },
        PuzzleSolver{}, [this](std::string text) { sent_.push_back(Json::parse(text)); },
        [this](BotSession::Job job) { jobs_.push_back(std::move(job)); });
  }
  void feed(const Json& j) { session_->on_message(j.dump()); }
  void run_jobs() {
    while (!jobs_.empty()) {
      auto job = std::move(jobs_.front());
      jobs_.pop_front();
      job();
    }
  }
  std::vector<Json> take(const std::string& type) {
    std::vector<Json> out;
    for (const auto& j : sent_)
      if (j.value("type", "") == type) out.push_back(j);
    return out;
  }
  void connect(std::int64_t my_id = 7, Json your_games = Json::array()) {
    session_->on_open();
    feed(welcome(my_id, std::move(your_games)));
  }
  static Json game_start(std::int64_t id, std::int64_t first, std::int64_t second,
                         const std::string& tc = "none") {
    return {{"type", "game_start"},
            {"version", 0},
            {"game_id", id},
            {"game", "tictactoe"},
            {"options", ""},
            {"time_control", tc},
            {"players", {player(first, "a"), player(second, "b")}},
            {"moves", Json::array()}};
  }
  static Json state(std::int64_t id, std::int64_t version, int to_move, Json clocks = nullptr) {
    return {{"type", "state"},  {"game_id", id},      {"version", version},
            {"position", "x"},  {"to_move", to_move}, {"legal_moves", {"b2", "a1"}},
            {"clocks", clocks}, {"last_move", ""},    {"result", nullptr}};
  }

  std::unique_ptr<BotSession> session_;
  std::vector<Json> sent_;
  std::deque<BotSession::Job> jobs_;
  std::vector<std::int64_t> budgets_;
  std::vector<int> seats_;
  int made_ = 0;  // Players the factory made
};

TEST_F(SessionTest, SaysHelloWithTheProtocolVersionAndSeeksAfterWelcome) {
  make({.name = "me", .games = {"tictactoe"}, .time_control = "movetime:100", .seek_games = 1});
  session_->on_open();
  ASSERT_EQ(sent_.size(), 1u);
  EXPECT_EQ(sent_[0]["type"], "hello");
  EXPECT_EQ(sent_[0]["version"], protocol::kProtocolVersion);  // 3: GDL games, acks in states
  EXPECT_EQ(sent_[0]["name"], "me");
  EXPECT_TRUE(take("seek").empty()) << "no seek before the welcome";
  feed(welcome(7, Json::array()));
  auto seeks = take("seek");
  ASSERT_EQ(seeks.size(), 1u);
  EXPECT_EQ(seeks[0]["game"], "tictactoe");
  EXPECT_EQ(seeks[0]["time_control"], "movetime:100");
}

TEST_F(SessionTest, SearchesOffTheIoThreadAndSendsTheMoveWithItsInfo) {
  make({.games = {"tictactoe"}});
  connect(7);
  feed(game_start(5, 7, 8, "movetime:100"));
  feed(state(5, 1, 0, Json::array({100, 100})));
  EXPECT_TRUE(take("move").empty()) << "on_message must not search";
  ASSERT_EQ(jobs_.size(), 1u);
  run_jobs();
  auto moves = take("move");
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0]["game_id"], 5);
  EXPECT_EQ(moves[0]["move"], "b2");
  EXPECT_FALSE(moves[0]["client_id"].get<std::string>().empty());
  EXPECT_EQ(moves[0]["info"]["depth"], 4);
  EXPECT_EQ(moves[0]["info"]["nodes"], 1234);
  EXPECT_EQ(moves[0]["info"]["score"], 17);
  EXPECT_EQ(moves[0]["info"]["pv"], Json::array({"b2"}));
  EXPECT_EQ(moves[0]["info"]["time_ms"], 3);
  ASSERT_EQ(budgets_.size(), 1u);
  EXPECT_GT(budgets_[0], 0);
  EXPECT_LT(budgets_[0], 100) << "the budget keeps a margin below the 100 ms move time";
}

// Two games at once with one search thread: the second search waits for the first, and the
// wait comes out of its budget (the server's clock ran all along).
TEST_F(SessionTest, ASearchThatWaitedForAWorkerHasOnlyTheRestOfItsBudget) {
  make({.games = {"tictactoe"}, .max_parallel = 2});
  connect(7);
  feed(game_start(5, 7, 8, "movetime:100"));
  feed(game_start(6, 7, 8, "movetime:100"));
  feed(state(5, 1, 0, Json::array({100, 100})));
  feed(state(6, 1, 0, Json::array({100, 100})));
  ASSERT_EQ(jobs_.size(), 2u);
  run_jobs();  // at once: close to the whole budget
  const auto tc = client::parse_time_control("movetime:100");
  ASSERT_TRUE(tc.has_value());
  const std::int64_t nominal = client::move_budget_ms(*tc, 100);
  ASSERT_GT(nominal, 40);
  EXPECT_LE(budgets_.at(0), nominal);
  // The third search is queued behind another for `slept` ms: at least that much is charged
  // to it, and at most the whole time from the state to the run (a slow machine may add more).
  const std::int64_t slept = nominal - 20;
  const auto before = std::chrono::steady_clock::now();
  feed(state(5, 3, 0, Json::array({100, 100})));
  std::this_thread::sleep_for(std::chrono::milliseconds(slept));
  run_jobs();
  const auto span = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - before)
                        .count();
  ASSERT_EQ(budgets_.size(), 3u);
  EXPECT_LE(budgets_[2], nominal - slept) << "the time spent waiting is charged to the search";
  EXPECT_GE(budgets_[2], std::max<std::int64_t>(1, nominal - span - 1));
}

TEST_F(SessionTest, IgnoresTheOpponentsTurnAndRepeatedStates) {
  make({.games = {"tictactoe"}});
  connect(7);
  feed(game_start(5, 8, 7));  // we are second
  feed(state(5, 1, 0));
  EXPECT_TRUE(jobs_.empty());
  feed(state(5, 2, 1));
  feed(state(5, 2, 1));  // a duplicate (a resume overlapping) is not searched twice
  EXPECT_EQ(jobs_.size(), 1u);
}

// A simultaneous turn (protocol 2): every seat in `movers` moves, though `to_move` names the
// first, each from its own list in `legal_moves_by_seat`; the Player is told its seat.
TEST_F(SessionTest, EverySeatAmongTheMoversOfASimultaneousTurnMovesFromItsOwnList) {
  make({.games = {"tictactoe"}});
  connect(7);
  feed(game_start(5, 8, 7));  // we are second
  Json s = state(5, 1, 0);
  s["movers"] = {0, 1};
  s["legal_moves_by_seat"] = Json::array({Json::array({"b2", "a1"}), Json::array({"c3", "a1"})});
  feed(s);
  ASSERT_EQ(jobs_.size(), 1u) << "seat 1 is a mover though to_move is 0";
  run_jobs();
  auto moves = take("move");
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0]["move"], "c3") << "seat 1's own first move";
  EXPECT_EQ(seats_, std::vector<int>{1});
  Json waiting = state(5, 2, 1);
  waiting["movers"] = {0};  // movers, when given, decide over to_move
  feed(waiting);
  EXPECT_TRUE(jobs_.empty());
}

// A game of three seats (3pConnectFour, tictactoe_3player...), we third: the seat is ours, the
// Player is told it, and the search's budget comes from our own clock among three.
TEST_F(SessionTest, PlaysTheThirdSeatOfAGameOfThreeWithItsOwnClock) {
  make({.games = {"tictactoe"}});
  connect(7);
  Json start = game_start(5, 8, 9, "movetime:100");
  start["players"].push_back(player(7, "me", true));
  feed(start);
  feed(state(5, 1, 0, Json::array({100, 100, 100})));
  feed(state(5, 2, 1, Json::array({100, 100, 100})));
  EXPECT_TRUE(jobs_.empty()) << "seats 0 and 1 are the others'";
  feed(state(5, 3, 2, Json::array({100, 100, 30})));
  ASSERT_EQ(jobs_.size(), 1u) << "seat 2 is ours";
  run_jobs();
  auto moves = take("move");
  ASSERT_EQ(moves.size(), 1u);
  EXPECT_EQ(moves[0]["game_id"], 5);
  EXPECT_EQ(seats_, std::vector<int>{2});
  ASSERT_EQ(budgets_.size(), 1u);
  const auto tc = client::parse_time_control("movetime:100");
  ASSERT_TRUE(tc.has_value());
  ASSERT_LT(client::move_budget_ms(*tc, 30), client::move_budget_ms(*tc, 100));
  EXPECT_LE(budgets_[0], client::move_budget_ms(*tc, 30)) << "our clock is the third";
}

// With more than two seats the result is the scores ("0-50-100"): a seat wins above every
// other, draws tied for the top, loses below it (it used to count every such game as seat 1's
// win). game_end's `scores` decide when given, else the result's.
TEST_F(SessionTest, CountsAGameOfThreeByTheSeatsScores) {
  make({.games = {"tictactoe"}, .max_parallel = 4});
  connect(7);
  auto three = [](std::int64_t id, int my_seat) {
    Json start = game_start(id, 8, 9);
    start["players"].insert(start["players"].begin() + my_seat, player(7, "me", true));
    return start;
  };
  auto end = [](std::int64_t id, const std::string& result, Json scores) {
    Json j = {{"type", "game_end"},
              {"game_id", id},
              {"version", 9},
              {"result", result},
              {"reason", "goals"}};
    if (!scores.is_null()) j["scores"] = scores;
    return j;
  };
  feed(three(5, 2));
  feed(three(6, 1));
  feed(three(7, 0));
  feed(three(8, 1));
  feed(end(5, "0-50-100", Json::array({0, 50, 100})));    // seat 2: 100, above both
  feed(end(6, "0-50-100", nullptr));                      // seat 1: 50, below seat 2
  feed(end(7, "100-0-100", Json::array({100, 0, 100})));  // seat 0: tied for the top
  feed(end(8, "0-100-50", nullptr));                      // seat 1: 100, above both
  const BotStats s = session_->stats();
  EXPECT_EQ(s.games_finished, 4);
  EXPECT_EQ(s.wins, 2);
  EXPECT_EQ(s.losses, 1);
  EXPECT_EQ(s.draws, 1);
}

TEST_F(SessionTest, ResumesFromTheLastVersionAndResendsAnUnacknowledgedMove) {
  make({.games = {"tictactoe"}});
  connect(7);
  feed(game_start(5, 7, 8));
  feed(state(5, 1, 0));
  session_->on_closed();  // the connection drops while the search runs
  run_jobs();
  EXPECT_TRUE(take("move").empty()) << "nothing is sent while disconnected";
  sent_.clear();
  connect(7, Json::array({5, 9}));
  auto resumes = take("resume");
  ASSERT_EQ(resumes.size(), 2u);
  EXPECT_EQ(resumes[0]["game_id"], 5);
  EXPECT_EQ(resumes[0]["since_version"], 1);
  EXPECT_EQ(resumes[1]["game_id"], 9);  // a game the server lists that we never saw
  EXPECT_EQ(resumes[1]["since_version"], -1);
  auto moves = take("move");
  ASSERT_EQ(moves.size(), 1u);
  const std::string id = moves[0]["client_id"];
  // Acknowledged: not resent after the next reconnection.
  feed({{"type", "move_ack"}, {"game_id", 5}, {"client_id", id}, {"version", 2}});
  session_->on_closed();
  sent_.clear();
  connect(7, Json::array({5}));
  EXPECT_TRUE(take("move").empty());
  EXPECT_EQ(take("resume").at(0)["since_version"], 1);
}

// Protocol 3: the state that carries the pending move's client_id is its acknowledgement.
TEST_F(SessionTest, AStateWithItsClientIdAcknowledgesTheMove) {
  make({.games = {"tictactoe"}});
  connect(7);
  feed(game_start(5, 7, 8));
  feed(state(5, 1, 0));
  run_jobs();
  auto moves = take("move");
  ASSERT_EQ(moves.size(), 1u);
  Json acked = state(5, 2, 1);
  acked["client_id"] = "someone else's";
  feed(acked);
  session_->on_closed();
  sent_.clear();
  connect(7, Json::array({5}));
  EXPECT_EQ(take("move").size(), 1u) << "another client_id acknowledges nothing: resent";
  acked["client_id"] = moves[0]["client_id"];
  acked["version"] = 3;  // the same state again after the resume would be skipped as seen
  feed(acked);
  session_->on_closed();
  sent_.clear();
  connect(7, Json::array({5}));
  EXPECT_TRUE(take("move").empty()) << "acknowledged: not resent; sent " << Json(sent_).dump();
}

// --ack-log (scripts/soak compares it with the database): one line per acknowledged move, by a
// v3 state (the move as the server recorded it: last_move) or by a move_ack (the move sent),
// and nothing for a state that acknowledges another client's move.
TEST_F(SessionTest, TheAckLogHasOneLinePerAcknowledgedMove) {
  const std::string path = ::testing::TempDir() + "ack_log_test.tsv";
  std::remove(path.c_str());
  make({.games = {"tictactoe"}, .ack_log = path});
  connect(7);
  feed(game_start(5, 7, 8));
  feed(state(5, 1, 0));
  run_jobs();
  const std::string first = take("move").at(0)["client_id"];
  Json other = state(5, 2, 1);
  other["client_id"] = "someone else's";
  other["last_move"] = "b2";
  feed(other);
  Json acked = state(5, 3, 1);
  acked["client_id"] = first;
  acked["last_move"] = "B2";
  feed(acked);
  feed(state(5, 4, 0));
  run_jobs();
  const std::string second = take("move").at(1)["client_id"];
  feed({{"type", "move_ack"}, {"game_id", 5}, {"client_id", second}, {"version", 5}});
  feed({{"type", "move_ack"}, {"game_id", 5}, {"client_id", second}, {"version", 5}});
  session_.reset();  // closes the file
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "5\t" + first + "\tB2");
  EXPECT_EQ(lines[1], "5\t" + second + "\tb2");
  std::remove(path.c_str());
}

TEST_F(SessionTest, ResendsTheSameClientIdWhenTheServerIsBusy) {
  make({.games = {"tictactoe"}});
  connect(7);
  feed(game_start(5, 7, 8));
  feed(state(5, 1, 0));
  run_jobs();
  feed({{"type", "error"}, {"code", "busy"}, {"message", "recording"}, {"ref", "move"}});
  run_jobs();
  auto moves = take("move");
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(moves[0]["client_id"], moves[1]["client_id"]);
  EXPECT_EQ(session_->stats().resends, 1);
}

// The server prepares a few puzzle_starts at a time and answers more `busy`: the same start is
// sent again, and nothing counts as failed.
TEST_F(SessionTest, SendsAPuzzleStartAgainWhenTheServerIsBusy) {
  BotConfig config;
  config.games = {"sliding"};
  config.puzzles = 2;
  config.seed = 40;
  make(std::move(config));
  connect(7);
  ASSERT_EQ(take("puzzle_start").size(), 1u);
  feed({{"type", "error"},
        {"code", "busy"},
        {"message", "the server is preparing 8 puzzles already"},
        {"ref", "puzzle_start"}});
  run_jobs();
  auto starts = take("puzzle_start");
  ASSERT_EQ(starts.size(), 2u);
  EXPECT_EQ(starts[0], starts[1]);
  EXPECT_EQ(session_->stats().puzzles_failed, 0);
  // Any other refusal of a start fails that puzzle.
  feed({{"type", "error"}, {"code", "unknown_game"}, {"message", "no"}, {"ref", "puzzle_start"}});
  EXPECT_EQ(session_->stats().puzzles_failed, 1);
}

TEST_F(SessionTest, AcceptsChallengesForItsGamesOnlyAndSeeksOnce) {
  make({.games = {"tictactoe"}, .accept_seeks = true});
  connect(7);
  feed(challenge_offer(3, "tictactoe"));
  feed(challenge_offer(4, "othello"));
  auto accepts = take("accept");
  ASSERT_EQ(accepts.size(), 1u);
  EXPECT_EQ(accepts[0]["challenge_id"], 3);
  ASSERT_EQ(take("decline").size(), 1u);
  EXPECT_EQ(take("decline")[0]["challenge_id"], 4);
  const Json listed =
      lobby({seek(11, 7, "tictactoe"), seek(12, 8, "chess"), seek(13, 8, "tictactoe")});
  feed(listed);
  feed(listed);  // the same seek is not taken twice
  accepts = take("accept");
  ASSERT_EQ(accepts.size(), 2u);
  EXPECT_EQ(accepts[1]["seek_id"], 13);
}

// min_seek_seats (the GDL house bots that fill games of three seats or more): a seek of a
// game of fewer seats is left to others; a lobby entry without `seats` is a game of two.
TEST_F(SessionTest, TakesOnlySeeksOfGamesOfEnoughSeatsWhenAsked) {
  make({.games = {"tictactoe"}, .accept_seeks = true, .min_seek_seats = 3});
  connect(7);
  feed(lobby({seek(11, 8, "tictactoe", 2), seek(12, 8, "tictactoe"), seek(13, 8, "tictactoe", 3)}));
  auto accepts = take("accept");
  ASSERT_EQ(accepts.size(), 1u);
  EXPECT_EQ(accepts[0]["seek_id"], 13);
}

TEST_F(SessionTest, MakesAPlayerForEachOpenSeekBeforeSendingIt) {
  make({.games = {"tictactoe"}, .seek_games = 2, .max_parallel = 2});
  connect(7);
  ASSERT_EQ(take("seek").size(), 2u);
  EXPECT_EQ(made_, 2) << "one Player per open seek, made before the seeks were sent";
  feed(game_start(5, 7, 8));
  feed(game_start(6, 7, 9));
  EXPECT_EQ(made_, 2) << "no Player is made after a game (and its clock) started";
  feed(state(5, 1, 0));
  feed(state(6, 1, 0));
  run_jobs();
  EXPECT_EQ(take("move").size(), 2u);
}

TEST_F(SessionTest, MakesAPlayerBeforeAcceptingWhenNoneIsSpare) {
  make({.games = {"tictactoe"}, .accept_seeks = true, .max_parallel = 2});
  connect(7);
  EXPECT_EQ(made_, 1) << "the warm-up Player";
  feed(challenge_offer(3, "tictactoe"));
  ASSERT_EQ(take("accept").size(), 1u);
  EXPECT_EQ(made_, 1) << "the spare Player serves the challenge";
  feed(game_start(5, 8, 7));
  EXPECT_EQ(made_, 1);
  feed(lobby(Json::array({seek(13, 8, "tictactoe")})));
  ASSERT_EQ(take("accept").size(), 2u);
  EXPECT_EQ(made_, 2) << "a second Player, made before the accept went out";
  feed(game_start(6, 8, 7));
  EXPECT_EQ(made_, 2) << "no Player is made after a game (and its clock) started";
  feed(challenge_offer(4, "tictactoe"));
  EXPECT_EQ(take("decline").size(), 1u) << "two games live: max_parallel";
  EXPECT_EQ(made_, 2) << "nothing is made for a declined challenge";
}

TEST_F(SessionTest, CountsResultsAndTimeLossesAndFinishesAfterMaxGames) {
  make({.games = {"tictactoe"}, .max_games = 2});
  connect(7);
  feed(game_start(5, 7, 8));
  feed(game_start(6, 8, 7));
  EXPECT_FALSE(session_->done());
  feed({{"type", "game_end"},
        {"game_id", 5},
        {"version", 9},
        {"result", "0-1"},
        {"reason", "timeout"}});
  feed({{"type", "game_end"},
        {"game_id", 6},
        {"version", 9},
        {"result", "0-1"},
        {"reason", "line"}});
  const BotStats s = session_->stats();
  EXPECT_EQ(s.games_finished, 2);
  EXPECT_EQ(s.losses, 1);
  EXPECT_EQ(s.wins, 1);
  EXPECT_EQ(s.lost_on_time, 1);
  EXPECT_TRUE(session_->done());
}

// A lobby snapshot whose seeks are `seeks` (seek id, owner id, owner is a bot, game, options).
struct LobbySeek {
  std::int64_t id, owner;
  bool bot;
  std::string game, options = "";
};
Json lobby_of(const std::vector<LobbySeek>& seeks) {
  Json list = Json::array();
  for (const auto& s : seeks)
    list.push_back({{"seek_id", s.id},
                    {"by", player(s.owner, "p", s.bot)},
                    {"game", s.game},
                    {"options", s.options},
                    {"time_control", "none"},
                    {"seats", 2}});
  return lobby(list);
}

// The house bot's seek, taken: the lobby no longer lists it (whether before or after the
// game_start reaches the bot), and one new seek replaces it.
TEST_F(SessionTest, KeepsOneSeekOpenForAHouseBot) {
  make({.games = {"chess"}, .keep_seek_open = true});
  connect(7);
  EXPECT_EQ(take("seek").size(), 1u);
  feed({{"type", "seek_created"}, {"seek_id", 21}});
  feed(lobby_of({{21, 7, true, "chess"}}));
  EXPECT_EQ(take("seek").size(), 1u) << "one open seek is enough";
  feed(game_start(5, 7, 8));  // our seek was taken (the seeker plays first)
  EXPECT_EQ(take("seek").size(), 1u) << "the lobby says which seek went";
  feed(lobby_of({}));
  EXPECT_EQ(take("seek").size(), 2u) << "a new seek replaces the one taken";
  feed({{"type", "seek_created"}, {"seek_id", 22}});
  feed(lobby_of({}));  // a snapshot made before seek 22: it is not taken for gone
  EXPECT_EQ(take("seek").size(), 2u);
  session_->on_closed();
  connect(7);
  EXPECT_EQ(take("seek").size(), 3u) << "seeks are renewed after a reconnection";
}

// The server expires a seek nobody took (seek_ttl_ms): the lobby stops listing it, and the
// house bot opens another, every time; a seek no snapshot ever listed is given up after a
// few seconds (kUnlistedSeekMs) and opened again too.
TEST_F(SessionTest, AHouseBotSeeksAgainWhenTheServerExpiresItsSeek) {
  make({.games = {"chess"}, .keep_seek_open = true});
  connect(7);
  session_->on_tick(1000);
  for (int i = 0; i < 3; ++i) {
    feed({{"type", "seek_created"}, {"seek_id", 30 + i}});
    feed(lobby_of({{30 + i, 7, true, "chess"}, {99, 8, false, "othello"}}));
    EXPECT_EQ(take("seek").size(), static_cast<std::size_t>(1 + i));
    feed(lobby_of({{99, 8, false, "othello"}}));  // expired
    EXPECT_EQ(take("seek").size(), static_cast<std::size_t>(2 + i)) << "after expiry " << i;
  }
  EXPECT_EQ(session_->stats().seeks_gone, 3);
  feed({{"type", "seek_created"}, {"seek_id", 40}});
  session_->on_tick(4000);
  EXPECT_EQ(take("seek").size(), 4u) << "unlisted for 3 s: still waited for";
  session_->on_tick(6500);
  EXPECT_EQ(take("seek").size(), 5u) << "unlisted for 5.5 s: given up and opened again";
  EXPECT_EQ(session_->stats().games_started, 0);
}

// Non-GDL house bots take a person's seek of their game once it has been listed for
// accept_seek_after_ms (as their own clock sees it), never a bot's, never another game's
// (tic-tac-toe with variant=4x4x4 is qubic).
TEST_F(SessionTest, TakesAPersonsSeekOfItsGameAfterItWaited) {
  make({.games = {"tictactoe"},
        .accept_seeks = true,
        .accept_bot_seeks = false,
        .accept_seek_after_ms = 1500});
  connect(7);
  session_->on_tick(10000);
  feed(lobby_of({{31, 9, true, "tictactoe"},
                 {32, 8, false, "tictactoe", "variant=4x4x4"},
                 {33, 8, false, "chess"},
                 {34, 8, false, "tictactoe"}}));
  EXPECT_TRUE(take("accept").empty()) << "new seeks are left to people first";
  session_->on_tick(11000);
  EXPECT_TRUE(take("accept").empty());
  session_->on_tick(11600);
  auto accepts = take("accept");
  ASSERT_EQ(accepts.size(), 1u);
  EXPECT_EQ(accepts[0]["seek_id"], 34);
  session_->on_tick(13000);
  EXPECT_EQ(take("accept").size(), 1u) << "the others are not for this bot";
}

// A GDL house bot's bookkeeping: a seek first listed before any tick is timed from the first.
TEST_F(SessionTest, ASeekListedBeforeTheFirstTickIsTimedFromIt) {
  make({.games = {"tictactoe"}, .accept_seeks = true, .accept_seek_after_ms = 1500});
  connect(7);
  feed(lobby_of({{34, 8, false, "tictactoe"}}));
  session_->on_tick(50000);
  EXPECT_TRUE(take("accept").empty());
  session_->on_tick(51600);
  EXPECT_EQ(take("accept").size(), 1u);
}

// Draw offers: the opponent's is answered at once by the last search's score of the game (17
// here): accepted within the margin above a draw, declined above it or before any search; our
// own offer and an offer seen again in a resume are not answered.
TEST_F(SessionTest, AnswersADrawOfferByItsLastScore) {
  for (int margin : {20, 16}) {
    sent_.clear();
    BotConfig c{.games = {"tictactoe"}};
    c.draw_margin = margin;
    make(c);
    connect(7);
    feed(game_start(5, 7, 8));
    feed({{"type", "draw_offer"}, {"game_id", 5}, {"version", 1}, {"by", 1}});
    auto declines = take("decline_draw");
    ASSERT_EQ(declines.size(), 1u) << "no search yet: declined";
    EXPECT_EQ(declines[0]["game_id"], 5);
    feed(state(5, 2, 0));
    run_jobs();
    ASSERT_EQ(take("move").size(), 1u);
    feed({{"type", "draw_offer"}, {"game_id", 5}, {"version", 3}, {"by", 0}});  // ours
    EXPECT_TRUE(take("accept_draw").empty());
    EXPECT_EQ(take("decline_draw").size(), 1u);
    feed({{"type", "draw_offer"}, {"game_id", 5}, {"version", 4}, {"by", 1}});
    feed({{"type", "draw_offer"}, {"game_id", 5}, {"version", 4}, {"by", 1}});  // a resume
    const BotStats s = session_->stats();
    if (margin == 20) {
      EXPECT_EQ(take("accept_draw").size(), 1u) << "17 is within 20 of a draw";
      EXPECT_EQ(take("decline_draw").size(), 1u);
      EXPECT_EQ(s.draws_accepted, 1);
    } else {
      EXPECT_TRUE(take("accept_draw").empty()) << "17 is more than 16 above a draw";
      EXPECT_EQ(take("decline_draw").size(), 2u);
      EXPECT_EQ(s.draws_declined, 2);
    }
    // The offer was withdrawn by a move meanwhile: the server's refusal is no fault.
    feed({{"type", "error"}, {"code", "no_draw_offer"}, {"ref", "accept_draw"}, {"message", "x"}});
    EXPECT_EQ(session_->stats().errors, 0);
  }
}

// A later version's message type is ignored; a frame of a known type missing a field the
// protocol requires is an error, named, and acted on no further.
TEST_F(SessionTest, IgnoresUnknownTypesAndCountsABadFrameAsAnError) {
  make({.games = {"tictactoe"}});
  connect(7);
  feed({{"type", "tournament_news"}, {"round", 3}});
  EXPECT_EQ(session_->stats().errors, 0);
  feed({{"type", "challenge_offer"}, {"challenge_id", 3}, {"game", "tictactoe"}});
  EXPECT_EQ(session_->stats().errors, 1);
  EXPECT_NE(session_->stats().last_error.find("challenge_offer: missing field 'from'"),
            std::string::npos)
      << session_->stats().last_error;
  EXPECT_TRUE(take("accept").empty());
}

TEST_F(SessionTest, MovesAtRandomAmongTheServersMovesWhenThePlayerCannot) {
  make({.games = {"othello"}, .accept_seeks = true});
  connect(7);
  Json start = game_start(5, 7, 8);
  start["game"] = "othello";  // the factory refuses othello
  feed(start);
  feed(state(5, 1, 0));
  run_jobs();
  auto moves = take("move");
  ASSERT_EQ(moves.size(), 1u);
  const std::string m = moves[0]["move"];
  EXPECT_TRUE(m == "b2" || m == "a1");
}

}  // namespace
}  // namespace arena::client
