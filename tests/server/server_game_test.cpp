// Complete games over real WebSockets: every game kind, a spectator, a reconnection in the
// middle, challenges, and puzzle sessions.

#include <future>
#include <set>

#include "tests/server/server_fixture.h"

namespace arena::server::testing {
namespace {

// The first making of a GDL game for a seek can take seconds (the sheet's load and compile:
// chess.kif about 17 s). It happens on the server's blocking workers: with a single I/O
// thread, another connection is answered meanwhile, and the seeker's next message waits
// behind its seek. The hub's make_game stands for the slow sheet by waiting on a latch.
TEST_F(ServerTest, TheFirstMakingOfAGdlGameHoldsUpNoOtherConnection) {
  server_->stop();
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  HubConfig hub = test_hub_config();
  hub.make_game = [inner = hub.make_game, released](
                      std::string_view name,
                      const GameOptions& o) -> Expected<std::unique_ptr<AnyGame>> {
    if (name != "gdl:slow") return inner(name, o);
    released.wait();
    return inner("tictactoe", o);
  };
  start_server(std::move(hub), 1);
  auto ann = connect("ann");
  auto bob = connect("bob");
  ann->send(
      Json{{"type", "seek"}, {"game", "gdl:slow"}, {"options", ""}, {"time_control", "none"}});
  ann->send(Json{{"type", "ping"}, {"id", "after-seek"}});
  bob->sync();  // answered while ann's game is being made
  release.set_value();
  const Json first = ann->wait_for(
      [](const Json& j) { return j["type"] == "seek_created" || j["type"] == "pong"; },
      "the seek's answer or the ping's");
  EXPECT_EQ(first["type"], "seek_created") << "the ping waited behind the seek: " << first.dump();
  ann->expect("pong");
  // Made once: the next seek of it is answered inline, and it is played like any game.
  ann->send(Json{{"type", "cancel_seek"}, {"seek_id", first["seek_id"]}});
  ann->expect("cancelled");
  EXPECT_GT(start_game(*ann, *bob, "gdl:slow"), 0);
  // A sheet that cannot be made is answered each time (and not remembered as made).
  for (int i = 0; i < 2; ++i) {
    bob->send(Json{{"type", "seek"}, {"game", "gdl:no_such_sheet"}, {"options", ""}});
    EXPECT_NE(bob->expect("error").value("message", "").find("no_such_sheet"), std::string::npos);
  }
}

TEST_F(ServerTest, EveryGameKindCanBePlayedToTheEndWithRandomMoves) {
  std::uint64_t seed = 1;
  for (const auto& kind : two_player_kinds()) {
    SCOPED_TRACE(kind);
    auto a = connect("ann");
    auto b = connect("bob");
    std::int64_t id = start_game(*a, *b, kind);
    ASSERT_GT(id, 0);
    WsClient* seats[2] = {a.get(), b.get()};
    Json last = play_random(seats, id, seed++);
    ASSERT_FALSE(last["result"].is_null());
    Json end_a = a->expect("game_end");
    Json end_b = b->expect("game_end");
    EXPECT_EQ(end_a, end_b);
    EXPECT_EQ(end_a["result"], last["result"]);
    // One of the reasons protocol/README.md lists, as it spells them.
    static const std::set<std::string> kRulesReasons = {"line",
                                                        "board_full",
                                                        "no_moves",
                                                        "disc_count",
                                                        "checkmate",
                                                        "stalemate",
                                                        "threefold_repetition",
                                                        "fifty_move_rule",
                                                        "insufficient_material",
                                                        "no_progress"};
    if (kind != "race") {
      EXPECT_TRUE(kRulesReasons.contains(end_a["reason"])) << end_a;
    }
    // The store has every move, in order.
    auto detail = store_.game_detail(id);
    ASSERT_TRUE(detail);
    EXPECT_EQ(detail->summary.result, last["result"]);
    EXPECT_EQ(static_cast<std::int64_t>(detail->moves.size()),
              last["version"].get<std::int64_t>() - 1);
  }
}

TEST_F(ServerTest, ASpectatorSeesTheCurrentStateAndEveryEventAfter) {
  auto a = connect("ann");
  auto b = connect("bob");
  auto watcher = connect("carol");
  std::int64_t id = start_game(*a, *b, "race");
  WsClient* seats[2] = {a.get(), b.get()};
  bool watching = false;
  Json last = play_random(seats, id, 7, [&](int ply, std::int64_t) {
    if (ply != 2 || watching) return;
    watching = true;
    watcher->send(Json{{"type", "watch"}, {"game_id", id}});
  });
  ASSERT_TRUE(watching);
  Json start = watcher->expect("game_start");
  EXPECT_EQ(start["version"], 0);
  // Every version from 1 to the last, each once and in order, then the end.
  std::int64_t expected = 1;
  while (expected <= last["version"].get<std::int64_t>()) {
    Json s = watcher->expect("state");
    EXPECT_EQ(s["version"], expected);
    ++expected;
  }
  Json end = watcher->expect("game_end");
  EXPECT_EQ(end["result"], last["result"]);
}

TEST_F(ServerTest, APlayerWhoReconnectsCatchesUpAndFinishesTheGame) {
  auto a = std::make_unique<WsClient>(port());
  const std::string cookie = a->set_cookie();
  ASSERT_FALSE(cookie.empty());
  Json welcome = a->hello("ann");
  auto b = connect("bob");
  std::int64_t id = start_game(*a, *b, "race");
  // ann moves, drops; bob moves while she is away.
  a->send(Json{{"type", "move"}, {"game_id", id}, {"move", "1"}, {"client_id", "a1"}});
  a->expect("move_ack");
  Json seen = next_state(*a, id, 1);
  a->drop();
  Json s = next_state(*b, id, 1);
  ASSERT_EQ(s["version"], 2);
  b->send(Json{{"type", "move"}, {"game_id", id}, {"move", "1"}, {"client_id", "b1"}});
  b->expect("move_ack");
  // She comes back with her cookie: the same player, told of her live game.
  auto again = std::make_unique<WsClient>(port(), Headers{{"Cookie", cookie}});
  Json welcome2 = again->hello("ann");
  EXPECT_EQ(welcome2["player"]["id"], welcome["player"]["id"]);
  EXPECT_EQ(welcome2["your_games"], Json::array({id}));
  // A resend of her last move is acknowledged, not played twice.
  again->send(Json{{"type", "move"}, {"game_id", id}, {"move", "1"}, {"client_id", "a1"}});
  EXPECT_EQ(again->expect("move_ack")["version"], 2);
  again->send(Json{{"type", "resume"}, {"game_id", id}, {"since_version", seen["version"]}});
  Json missed = next_state(*again, id, seen["version"]);
  EXPECT_EQ(missed["version"], 3);
  EXPECT_EQ(missed["position"], "2:0");
  // Resuming again from the same version sends the same events again, nothing more.
  again->send(Json{{"type", "resume"}, {"game_id", id}, {"since_version", seen["version"]}});
  // The game goes on from there: both must see version 3 (again: the resent one) first.
  WsClient* seats[2] = {again.get(), b.get()};
  Json last = play_random(seats, id, 3, {}, seen["version"]);
  EXPECT_FALSE(last["result"].is_null());
  again->expect("game_end");
}

// Protocol 3: the mover's connection gets the state with its client_id and no move_ack; the
// opponent and the mover's other connections get the state without it; a v1 connection of
// the same game still gets move_ack; a resend is still answered with move_ack.
TEST_F(ServerTest, Version3AcknowledgesAMoveInTheStateItsConnectionGets) {
  auto hello3 = [&](const std::string& name) {
    auto c = std::make_unique<WsClient>(port());
    c->send(Json{{"type", "hello"}, {"version", 3}, {"name", name}});
    EXPECT_EQ(c->expect("welcome")["protocol"], 3);
    return c;
  };
  auto a = hello3("ann");
  auto b = connect("bob");  // version 1
  const std::int64_t id = start_game(*a, *b, "race");
  next_state(*a, id, 0);
  next_state(*b, id, 0);
  a->send(Json{{"type", "move"}, {"game_id", id}, {"move", "2"}, {"client_id", "a1"}});
  Json mine = next_state(*a, id, 1);
  EXPECT_EQ(mine["client_id"], "a1");
  EXPECT_EQ(mine["version"], 2);
  Json theirs = next_state(*b, id, 1);
  EXPECT_FALSE(theirs.contains("client_id")) << theirs;
  mine.erase("client_id");
  EXPECT_EQ(mine, theirs) << "otherwise the same state";
  // bob speaks version 1: his move is acknowledged with move_ack before the state.
  b->send(Json{{"type", "move"}, {"game_id", id}, {"move", "1"}, {"client_id", "b1"}});
  EXPECT_EQ(b->expect("move_ack")["version"], 3);
  EXPECT_FALSE(next_state(*b, id, 2).contains("client_id"));
  EXPECT_FALSE(next_state(*a, id, 2).contains("client_id")) << "not ann's move";
  // A resend of a recorded move: move_ack with its version, in version 3 too.
  a->send(Json{{"type", "move"}, {"game_id", id}, {"move", "2"}, {"client_id", "a1"}});
  EXPECT_EQ(a->expect("move_ack")["version"], 2);
  // ann's second connection follows the game: it gets her next state without the client_id.
  auto a2 = std::make_unique<WsClient>(port(), Headers{{"Cookie", a->set_cookie()}});
  a2->send(Json{{"type", "hello"}, {"version", 3}, {"name", "ann"}});
  a2->expect("welcome");
  a2->send(Json{{"type", "resume"}, {"game_id", id}, {"since_version", 3}});
  a2->sync();
  a->send(Json{{"type", "move"}, {"game_id", id}, {"move", "1"}, {"client_id", "a2"}});
  EXPECT_EQ(next_state(*a, id, 3)["client_id"], "a2");
  EXPECT_FALSE(next_state(*a2, id, 3).contains("client_id"));
  a->sync();
  EXPECT_TRUE(a->drain("move_ack").empty()) << "no move_ack for a move acknowledged in its state";
}

TEST_F(ServerTest, ADirectChallengeCanBeDeclinedOrAccepted) {
  auto a = connect("ann");
  auto b = connect("bob");
  b->send(Json{{"type", "hello"}, {"version", 1}, {"name", "again"}});
  b->expect_error("bad_field");  // one hello per connection
  a->send(Json{{"type", "challenge"}, {"to", "nobody"}, {"game", "race"}});
  a->expect_error("no_such_player");
  // Find bob's display name from the lobby.
  const auto bob_of = [](const Json& lobby) {
    for (const auto& p : lobby["players"])
      if (p["name"].get<std::string>().starts_with("bob")) return p["name"].get<std::string>();
    return std::string();
  };
  const std::string name =
      bob_of(a->lobby_where([&](const Json& l) { return !bob_of(l).empty(); }, "bob in a lobby"));
  ASSERT_FALSE(name.empty());
  a->send(Json{
      {"type", "challenge"}, {"to", name}, {"game", "race"}, {"time_control", "fischer:60000+0"}});
  Json created = a->expect("challenge_created");
  Json incoming = b->expect("challenge_offer");
  EXPECT_EQ(incoming["challenge_id"], created["challenge_id"]);
  b->send(Json{{"type", "decline"}, {"challenge_id", incoming["challenge_id"]}});
  EXPECT_EQ(a->expect("declined")["challenge_id"], created["challenge_id"]);
  b->send(Json{{"type", "accept"}, {"challenge_id", incoming["challenge_id"]}});
  b->expect_error("no_such_challenge");
  a->send(Json{
      {"type", "challenge"}, {"to", name}, {"game", "race"}, {"time_control", "fischer:60000+0"}});
  a->expect("challenge_created");
  Json second = b->expect("challenge_offer");
  b->send(Json{{"type", "accept"}, {"challenge_id", second["challenge_id"]}});
  Json start = a->expect("game_start");
  EXPECT_EQ(start["time_control"], "fischer:60000+0");
  EXPECT_EQ(b->expect("game_start"), start);
  Json state = next_state(*a, start["game_id"], 0);
  EXPECT_EQ(state["clocks"], Json::array({60000, 60000}));
}

TEST_F(ServerTest, SeeksCanBeCancelledAndExpire) {
  auto a = connect("ann");
  auto b = connect("bob");
  a->send(Json{{"type", "seek"}, {"game", "race"}});
  Json created = a->expect("seek_created");
  b->send(Json{{"type", "cancel_seek"}, {"seek_id", created["seek_id"]}});
  b->expect_error("no_such_seek");  // not bob's to cancel
  a->send(Json{{"type", "cancel_seek"}, {"seek_id", created["seek_id"]}});
  a->expect("cancelled");
  b->send(Json{{"type", "accept"}, {"seek_id", created["seek_id"]}});
  b->expect_error("no_such_seek");
  a->send(Json{{"type", "seek"}, {"game", "race"}});
  Json again = a->expect("seek_created");
  a->send(Json{{"type", "accept"}, {"seek_id", again["seek_id"]}});
  a->expect_error("no_such_seek");  // one's own seek
  a->drop();                        // a seek leaves with its owner
  a.reset();
  b->wait_for(
      [](const Json& j) {
        return j.value("type", "") == "lobby" && j["seeks"].empty() && j["players"].size() == 1;
      },
      "a lobby without ann and her seek");
  b->send(Json{{"type", "accept"}, {"seek_id", again["seek_id"]}});
  b->expect_error("no_such_seek");
}

TEST_F(ServerTest, APuzzleIsSolvedByMovesOrByAWholeSolution) {
  auto a = connect("ann");
  a->send(Json{{"type", "puzzle_start"}, {"puzzle", "counter"}, {"state", "3"}});
  Json s = a->expect("puzzle_state");
  EXPECT_EQ(s["position"], "3");
  const std::int64_t id = s["puzzle_id"];
  a->send(Json{{"type", "puzzle_move"}, {"puzzle_id", id}, {"move", "dec"}});
  EXPECT_EQ(a->expect("puzzle_state")["position"], "2");
  a->send(Json{{"type", "puzzle_solution"}, {"puzzle_id", id}, {"moves", Json::array({"dec"})}});
  a->expect_error("not_solved");
  a->send(Json{
      {"type", "puzzle_solution"}, {"puzzle_id", id}, {"moves", Json::array({"dec", "jump"})}});
  Json bad = a->expect_error("illegal_move");
  EXPECT_NE(bad["message"].get<std::string>().find("moves[1]"), std::string::npos);
  a->send(
      Json{{"type", "puzzle_solution"}, {"puzzle_id", id}, {"moves", Json::array({"dec", "dec"})}});
  a->expect("puzzle_state");
  Json end = a->expect("puzzle_end");
  EXPECT_EQ(end["length"], 3);
  EXPECT_TRUE(end["optimal_length"].is_null());
  EXPECT_TRUE(end["solved"].get<bool>());
  auto b = connect("bob");
  b->send(Json{{"type", "puzzle_move"}, {"puzzle_id", id}, {"move", "dec"}});
  b->expect_error("no_such_puzzle");
  EXPECT_EQ(store_.game_detail(id)->summary.result, "solved");
}

// Breadth-first search over AnyGame, for small scrambles of any catalog puzzle.
std::optional<std::vector<std::string>> solve(const AnyGame& start, int max_depth) {
  struct Node {
    std::unique_ptr<AnyGame> game;
    std::vector<std::string> path;
  };
  std::vector<Node> frontier;
  frontier.push_back({start.clone(), {}});
  for (int depth = 0; depth <= max_depth; ++depth) {
    std::vector<Node> next;
    for (auto& n : frontier) {
      if (n.game->outcome().is_terminal()) return n.path;
      if (depth == max_depth) continue;
      for (const auto& m : n.game->legal_moves()) {
        auto g = n.game->clone();
        if (!g->play(m)) continue;
        auto path = n.path;
        path.push_back(m);
        next.push_back({std::move(g), std::move(path)});
      }
    }
    frontier = std::move(next);
  }
  return std::nullopt;
}

TEST_F(ServerTest, EveryCatalogPuzzleCanBeSolvedFromASmallScramble) {
  auto a = connect("ann");
  const auto config = test_hub_config();
  int puzzles = 0, solved_by_moves = 0;
  std::set<int> done;
  for (const auto& info : game_catalog()) {
    if (info.num_players != 1) continue;
    SCOPED_TRACE(info.name);
    ++puzzles;
    a->send(Json{{"type", "puzzle_start"}, {"puzzle", info.name}, {"seed", 5}, {"scramble", 3}});
    // The new session's first state (a finished one's last state may still be buffered).
    Json s = a->wait_for(
        [&](const Json& j) {
          return j.value("type", "") == "puzzle_state" && !done.contains(j.value("puzzle_id", 0));
        },
        "the state of a new puzzle session");
    done.insert(s.value("puzzle_id", 0));
    // The position the server sent must load: a puzzle whose state cannot be read back is a
    // failure, never a skip.
    auto game = config.load_game(info.name, s["position"].get<std::string>());
    ASSERT_TRUE(game) << game.error();
    ASSERT_EQ((*game)->legal_moves().size(), s["legal_moves"].size()) << s.dump();
    auto moves = solve(**game, 3);
    ASSERT_TRUE(moves.has_value()) << "no solution within 3 moves of " << s["position"];
    if (moves->empty()) {  // the scramble undid itself: the server ended it at once
      Json end = a->expect("puzzle_end");
      EXPECT_EQ(end["puzzle_id"], s["puzzle_id"]);
      EXPECT_TRUE(end["solved"].get<bool>());
      continue;
    }
    a->send(Json{{"type", "puzzle_solution"}, {"puzzle_id", s["puzzle_id"]}, {"moves", *moves}});
    Json end = a->expect("puzzle_end");
    EXPECT_EQ(end["puzzle_id"], s["puzzle_id"]);
    EXPECT_TRUE(end["solved"].get<bool>());
    EXPECT_EQ(end["length"], moves->size());
    ++solved_by_moves;
  }
  // The catalog has puzzles (the sliding tiles, the cube), and a scramble of 3 moves with this
  // seed leaves at least one of them unsolved, so the check above really ran.
  EXPECT_GE(puzzles, 2);
  EXPECT_GE(solved_by_moves, 1);
}

}  // namespace
}  // namespace arena::server::testing
