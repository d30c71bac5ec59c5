// HTTP: the REST API, /healthz, /metrics and the web root; and the protocol/examples
// transcripts replayed against the server.

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <boost/beast/http.hpp>

#include "tests/server/recording_store.h"
#include "tests/server/server_fixture.h"

namespace arena::server::testing {
namespace {

namespace http = boost::beast::http;

struct HttpResult {
  int status = 0;
  std::string body, content_type, set_cookie;
};

HttpResult get(unsigned short port, const std::string& target) {
  boost::asio::io_context ioc;
  boost::beast::tcp_stream stream(ioc);
  boost::asio::ip::tcp::resolver resolver(ioc);
  stream.connect(*resolver.resolve("127.0.0.1", std::to_string(port)).begin());
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1");
  http::write(stream, req);
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  return {static_cast<int>(res.result_int()), res.body(),
          std::string(res[http::field::content_type]), std::string(res[http::field::set_cookie])};
}

// Sends the pieces of a request on a new connection, each `gap` after the last (so that the
// server reads them one by one), and reads the one answer.
HttpResult raw_exchange_in_pieces(unsigned short port, const std::vector<std::string>& pieces,
                                  std::chrono::milliseconds gap) {
  boost::asio::io_context ioc;
  boost::beast::tcp_stream stream(ioc);
  boost::asio::ip::tcp::resolver resolver(ioc);
  stream.connect(*resolver.resolve("127.0.0.1", std::to_string(port)).begin());
  stream.socket().set_option(boost::asio::ip::tcp::no_delay(true));
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (i > 0) std::this_thread::sleep_for(gap);
    boost::asio::write(stream, boost::asio::buffer(pieces[i]));
  }
  boost::beast::flat_buffer buffer;
  http::response<http::string_body> res;
  boost::beast::error_code ec;
  http::read(stream, buffer, res, ec);
  if (ec) return {-1, ec.message(), "", ""};
  return {static_cast<int>(res.result_int()), res.body(), "", ""};
}

// Sends `request` as it is on a new connection and reads the one answer.
HttpResult raw_exchange(unsigned short port, const std::string& request) {
  return raw_exchange_in_pieces(port, {request}, {});
}

// A request the parser cannot take is answered with what is wrong, not dropped: a body over
// the limit (sent whole: the answer must survive the unread rest), a header over its limit,
// and bytes that are not HTTP. The server goes on serving.
TEST_F(ServerTest, RequestsThatCannotBeReadAreAnsweredWithWhy) {
  const std::string body(70'000, 'a');
  auto big = raw_exchange(port(), "POST /api/tournaments HTTP/1.1\r\nHost: x\r\nContent-Length: " +
                                      std::to_string(body.size()) + "\r\n\r\n" + body);
  EXPECT_EQ(big.status, 413) << big.body;
  EXPECT_NE(big.body.find("request body larger than 65536 bytes"), std::string::npos) << big.body;
  auto header = raw_exchange(
      port(), "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(9'000, 'b') + "\r\n\r\n");
  EXPECT_EQ(header.status, 431) << header.body;
  EXPECT_NE(header.body.find("request header larger than 8192 bytes"), std::string::npos);
  auto garbage = raw_exchange(port(), "HELLO WORLD\r\n\r\n");
  EXPECT_EQ(garbage.status, 400) << garbage.body;
  EXPECT_NE(garbage.body.find("malformed HTTP request"), std::string::npos) << garbage.body;
  auto length = raw_exchange(port(), "GET / HTTP/1.1\r\nContent-Length: abc\r\n\r\n");
  EXPECT_EQ(length.status, 400) << length.body;
  EXPECT_NE(length.body.find("Content-Length"), std::string::npos) << length.body;
  EXPECT_EQ(get(port(), "/healthz").status, 200);
}

// A chunked body whose last chunk ("0\r\n") comes before the blank line that ends it, which
// then comes a byte at a time: Beast 1.81's parser asserts `n >= 5` when it resumes there with
// four bytes, which aborted a server built without NDEBUG (as this test build is) until
// support/boost_assert.cpp let that assertion, corrected upstream, pass. The request is
// answered (405: a POST other than to /api/tournaments) and the server goes on serving.
TEST_F(ServerTest, AChunkedBodyWhoseLastChunkArrivesByteByByteIsAnswered) {
  using namespace std::chrono_literals;
  auto r = raw_exchange_in_pieces(port(),
                                  {"POST /api/none HTTP/1.1\r\nHost: x\r\n"
                                   "Transfer-Encoding: chunked\r\n\r\n0\r\n",
                                   "\r", "\n"},
                                  100ms);
  EXPECT_EQ(r.status, 405) << r.body;
  EXPECT_EQ(get(port(), "/healthz").status, 200);
}

// A second server on a port already taken says so from start(), and can then be stopped and
// destroyed (it crashed: stop() used the sweeper that a failed start never made).
TEST_F(ServerTest, APortAlreadyTakenIsAnErrorAndNotACrash) {
  ServerConfig config;
  config.host = "127.0.0.1";
  config.port = port();
  config.hub = test_hub_config();
  auto second = std::make_unique<Server>(config, store_);
  auto started = second->start();
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().find(std::to_string(port())), std::string::npos) << started.error();
  EXPECT_NE(started.error().find("in use"), std::string::npos) << started.error();
  second->stop();
  second.reset();
  EXPECT_EQ(get(port(), "/healthz").status, 200);  // the first one goes on
}

// /api/tournaments passes the id to the configured source and maps its answers to HTTP;
// without a source the server says it keeps none.
TEST_F(ServerTest, TournamentsComeFromTheConfiguredSource) {
  EXPECT_EQ(get(port(), "/api/tournaments").status, 404);
  server_->stop();
  HubConfig hub = test_hub_config();
  std::vector<std::optional<std::int64_t>> asked;
  hub.tournaments = [&](std::optional<std::int64_t> id) -> Expected<Json> {
    asked.push_back(id);
    if (id && *id == 7) return Json{{"id", 7}};
    if (id) return make_error("no tournament " + std::to_string(*id));
    return Json::array({Json{{"id", 7}}});
  };
  start_server(hub);
  EXPECT_EQ(Json::parse(get(port(), "/api/tournaments").body), Json::array({Json{{"id", 7}}}));
  EXPECT_EQ(Json::parse(get(port(), "/api/tournaments/7").body)["id"], 7);
  EXPECT_EQ(get(port(), "/api/tournaments/8").status, 404);
  auto bad = get(port(), "/api/tournaments/seven");
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body.find("'seven'"), std::string::npos) << bad.body;
  ASSERT_EQ(asked.size(), 3u);  // the bad id never reached the source
  EXPECT_FALSE(asked[0]);
  EXPECT_EQ(asked[1], 7);
  EXPECT_EQ(asked[2], 8);
}

TEST(ServerThreads, RestReadsTokenChecksPuzzlesAndGuestHellosStayOffTheIoThreads) {
  db::MemoryStore memory;
  RecordingStore store(memory);
  auto token = memory.create_bot_token("botty");
  ASSERT_TRUE(token);
  ServerConfig config;
  config.port = 0;
  config.threads = 2;
  config.close_grace_ms = 200;
  config.hub = test_hub_config();
  Server server(config, store);
  ASSERT_TRUE(server.start());
  EXPECT_EQ(get(server.port(), "/api/games").status, 200);
  EXPECT_EQ(get(server.port(), "/api/games/999").status, 404);
  EXPECT_EQ(get(server.port(), "/api/leaderboard?game=tictactoe").status, 200);
  {
    WsClient bot(server.port(), Headers{{"Authorization", "Bearer " + *token}});
    ASSERT_TRUE(bot.open());
    EXPECT_EQ(bot.hello("ignored")["player"]["name"], "botty");
    // A puzzle: its row is created and its attempt recorded without a synchronous call.
    bot.send(Json{{"type", "puzzle_start"}, {"puzzle", "counter"}, {"state", "1"}});
    const std::int64_t id = bot.expect("puzzle_state")["puzzle_id"];
    bot.send(Json{{"type", "puzzle_move"}, {"puzzle_id", id}, {"move", "dec"}});
    bot.expect("puzzle_state");
    EXPECT_TRUE(bot.expect("puzzle_end")["solved"].get<bool>());
    store.flush();
    auto attempts = memory.puzzle_attempts("counter");
    ASSERT_TRUE(attempts && attempts->size() == 1u);
    EXPECT_EQ(attempts->front().instance, "1");  // as recorded at the start
    EXPECT_EQ(attempts->front().game, id);
    WsClient impostor(server.port(), Headers{{"Authorization", "Bearer wrong"}});
    EXPECT_FALSE(impostor.open());
    EXPECT_EQ(impostor.handshake_status(), 401);
  }
  {
    // A new guest's hello creates its player through the writer queue; if that fails, the
    // client is told and may say hello again. A ping sent right after the hello waits in the
    // socket until the store has answered, and is answered after the welcome.
    WsClient failed(server.port());
    ASSERT_TRUE(failed.open());
    memory.fail_writes(true);
    failed.send(Json{{"type", "hello"}, {"version", 1}, {"name", "gus"}});
    failed.expect_error("internal");
    memory.fail_writes(false);
    EXPECT_TRUE(failed.hello("gus")["player"]["name"].get<std::string>().starts_with("gus#"));

    WsClient guest(server.port());
    ASSERT_TRUE(guest.open());
    memory.hold_callbacks(true);  // the store has not answered yet
    guest.send(Json{{"type", "hello"}, {"version", 1}, {"name", "gus"}});
    guest.send(Json{{"type", "ping"}, {"id", "after-hello"}});
    // Time for a server that did not hold the ping to answer it "hello_required" first.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    memory.release();
    memory.hold_callbacks(false);
    auto first = guest.recv();
    ASSERT_TRUE(first);
    EXPECT_EQ((*first)["type"], "welcome") << first->dump();
    EXPECT_TRUE((*first)["player"]["name"].get<std::string>().starts_with("gus#")) << *first;
    EXPECT_EQ(guest.expect("pong")["id"], "after-hello");
    // The same session again: the hub knows it, no store call at all.
    WsClient again(server.port());
    ASSERT_TRUE(again.open());
    EXPECT_EQ(again.hello("gus", (*first)["session"])["player"], (*first)["player"]);
  }
  for (const char* call : {"list_games", "game_detail", "leaderboard", "authenticate_token"})
    EXPECT_EQ(store.callers(call), std::set<std::string>{"arena-blocking"}) << call;
  for (const char* call : {"create_game", "find_or_create_player"})
    EXPECT_EQ(store.callers(call), std::set<std::string>{}) << call;
  server.stop();
}

TEST(ServerThreads, ThePuzzleSolverRunsOffTheIoThread) {
  // One I/O thread, and a solver that does not return until the test lets it: a ping from
  // another connection is answered meanwhile, and the solver ran on an "arena-blocking"
  // thread. A solver on the I/O thread would keep the pong until the solver gave up.
  db::MemoryStore store;
  ServerConfig config;
  config.port = 0;
  config.threads = 1;
  config.close_grace_ms = 200;
  config.hub = test_hub_config();
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::mutex mutex;
  std::string solver_thread;
  config.hub.optimal_length = [&](std::string_view, std::string_view) -> std::optional<int> {
    char name[16] = {};
    pthread_getname_np(pthread_self(), name, sizeof name);
    {
      std::lock_guard lock(mutex);
      solver_thread = name;
    }
    released.wait_for(std::chrono::seconds(5));
    return 3;
  };
  Server server(config, store);
  ASSERT_TRUE(server.start());
  WsClient solver(server.port()), other(server.port());
  ASSERT_TRUE(solver.open() && other.open());
  solver.hello("sol");
  other.hello("oth");
  solver.send(Json{{"type", "puzzle_start"}, {"puzzle", "counter"}, {"state", "3"}});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (;;) {  // until the solver has been called
    {
      std::lock_guard lock(mutex);
      if (!solver_thread.empty() || std::chrono::steady_clock::now() > deadline) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  other.send(Json{{"type", "ping"}, {"id", "while-solving"}});
  const Json pong = other.wait_for([](const Json& j) { return j.value("type", "") == "pong"; },
                                   "a pong while the solver ran", std::chrono::milliseconds(2000));
  release.set_value();
  EXPECT_EQ(pong.value("id", ""), "while-solving") << pong;
  {
    std::lock_guard lock(mutex);
    EXPECT_EQ(solver_thread, "arena-blocking");
  }
  // The puzzle then starts as before, with the solver's answer at its end.
  const std::int64_t id = solver.expect("puzzle_state")["puzzle_id"];
  for (int i = 0; i < 3; ++i) {
    solver.send(Json{{"type", "puzzle_move"}, {"puzzle_id", id}, {"move", "dec"}});
    solver.expect("puzzle_state");
  }
  Json end = solver.expect("puzzle_end");
  EXPECT_TRUE(end["solved"].get<bool>());
  EXPECT_EQ(end["optimal_length"], 3);
  server.stop();
}

TEST_F(ServerTest, HealthzMetricsAndTheWebRoot) {
  EXPECT_EQ(get(port(), "/healthz").body, "ok\n");
  auto a = connect("ann");
  a->sync();
  auto metrics = get(port(), "/metrics");
  EXPECT_NE(metrics.body.find("arena_connections 1"), std::string::npos) << metrics.body;
  EXPECT_NE(metrics.body.find("arena_store_queue_length 0"), std::string::npos);
  auto page = get(port(), "/");
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("Arena"), std::string::npos);
  EXPECT_NE(page.set_cookie.find("arena_session="), std::string::npos);
  EXPECT_EQ(get(port(), "/../CMakeLists.txt").status, 400);
  EXPECT_EQ(get(port(), "/nothing-here.html").status, 404);
}

TEST_F(ServerTest, RestListsLiveAndFinishedGamesWithTheirMoves) {
  auto a = connect("ann");
  auto b = connect("bob");
  std::int64_t live = start_game(*a, *b, "race");
  auto games = Json::parse(get(port(), "/api/games?status=live").body);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0]["id"], live);
  WsClient* seats[2] = {a.get(), b.get()};
  Json last = play_random(seats, live, 11);
  a->expect("game_end");
  auto finished = Json::parse(get(port(), "/api/games?status=finished&game=race").body);
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0]["result"], last["result"]);
  // Guests are shown by their display names, not by the store's hash of their session.
  EXPECT_TRUE(finished[0]["players"][0].get<std::string>().starts_with("ann#")) << finished;
  EXPECT_TRUE(finished[0]["players"][1].get<std::string>().starts_with("bob#")) << finished;
  EXPECT_TRUE(Json::parse(get(port(), "/api/games?status=live").body).empty());
  auto detail = Json::parse(get(port(), "/api/games/" + std::to_string(live)).body);
  EXPECT_EQ(detail["moves"].size(), last["version"].get<std::size_t>() - 1);
  // Each move carries the position after it, replayed from the start: the last one is the
  // final state the players saw.
  ASSERT_FALSE(detail["moves"].empty());
  EXPECT_EQ(detail["moves"].back()["position"], last["position"]);
  for (const auto& m : detail["moves"]) EXPECT_TRUE(m["position"].is_string()) << m;
  auto text = get(port(), "/api/games/" + std::to_string(live) + "/export");
  EXPECT_NE(text.body.find("[Result \"" + last["result"].get<std::string>() + "\"]"),
            std::string::npos);
  EXPECT_EQ(get(port(), "/api/games/999").status, 404);
  EXPECT_EQ(get(port(), "/api/games?status=maybe").status, 400);
  // Paging: a limit of 1 to 500 and an offset from 0; anything else is refused, named.
  EXPECT_EQ(Json::parse(get(port(), "/api/games?status=finished&limit=1").body).size(), 1u);
  EXPECT_TRUE(Json::parse(get(port(), "/api/games?status=finished&offset=1").body).empty());
  for (const char* query : {"limit=abc", "limit=0", "limit=-1", "limit=501", "offset=-5",
                            "offset=1x", "player=0", "player=bob", "limit="}) {
    auto r = get(port(), std::string("/api/games?") + query);
    EXPECT_EQ(r.status, 400) << query;
    const std::string name(query, std::string_view(query).find('='));
    EXPECT_NE(r.body.find(name + " must be a whole number from"), std::string::npos)
        << query << ": " << r.body;
  }
  auto board = Json::parse(get(port(), "/api/leaderboard?game=race").body);
  EXPECT_EQ(board.size(), 2u);
  for (const auto& row : board)
    EXPECT_EQ(row["name"].get<std::string>().find("guest:"), std::string::npos);
  EXPECT_EQ(get(port(), "/api/leaderboard").status, 400);
  // A game the server cannot make is named in a 400 (a misspelt name is not an empty list); a
  // game it hosts that nobody played, a GDL sheet among them, is an empty list.
  for (const char* target : {"/api/games?game=rcae", "/api/leaderboard?game=rcae",
                             "/api/games?game=gdl:noSuchSheet&status=finished"}) {
    auto r = get(port(), target);
    EXPECT_EQ(r.status, 400) << target;
    EXPECT_NE(r.body.find("unknown game '"), std::string::npos) << target << ": " << r.body;
  }
  for (const char* target : {"/api/games?game=chess", "/api/leaderboard?game=chess",
                             "/api/games?game=gdl:tictactoe", "/api/games?game=race&offset=99"}) {
    auto r = get(port(), target);
    EXPECT_EQ(r.status, 200) << target << ": " << r.body;
    const Json listed = Json::parse(r.body);
    EXPECT_TRUE(listed.is_array() && listed.empty()) << target << ": " << r.body;
  }
  EXPECT_EQ(get(port(), "/api/players").status, 200);
  EXPECT_EQ(Json::parse(get(port(), "/api/players").body).size(), 2u);
  EXPECT_EQ(Json::parse(get(port(), "/api/catalog").body).size(),
            game_catalog().size() + gdl_game_catalog().size());
}

TEST_F(ServerTest, ExportsChessAsPgnCheckersAsPdnAndOthersAsText) {
  auto a = connect("ann");
  auto b = connect("bob");
  WsClient* seats[2] = {a.get(), b.get()};
  // Plays `moves` alternately from the first player, then `resigner` resigns; returns the
  // export.
  auto play = [&](const std::string& game, const std::vector<std::string>& moves, int resigner) {
    std::int64_t id = start_game(*a, *b, game);
    std::int64_t version = 0;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      Json state = next_state(*a, id, version);
      version = state["version"];
      EXPECT_NE(std::find(state["legal_moves"].begin(), state["legal_moves"].end(), moves[i]),
                state["legal_moves"].end())
          << moves[i] << " in " << state.dump();
      WsClient& mover = *seats[i % 2];
      mover.send(Json{{"type", "move"},
                      {"game_id", id},
                      {"move", moves[i]},
                      {"client_id", "c" + std::to_string(i)}});
      mover.expect("move_ack");
    }
    seats[resigner]->send(Json{{"type", "resign"}, {"game_id", id}});
    a->expect("game_end");
    b->expect("game_end");
    return get(port(), "/api/games/" + std::to_string(id) + "/export");
  };
  // Chess: SAN movetext from the UCI moves the server plays; the second player resigned.
  auto pgn = play("chess", {"e2e4", "e7e5", "g1f3"}, 1);
  EXPECT_EQ(pgn.status, 200);
  EXPECT_NE(pgn.content_type.find("pgn"), std::string::npos) << pgn.content_type;
  EXPECT_NE(pgn.body.find("[Result \"1-0\"]"), std::string::npos) << pgn.body;
  EXPECT_NE(pgn.body.find("1. e4 e5 2. Nf3"), std::string::npos) << pgn.body;
  // Checkers: PDN tags; the first player (Black in PDN) resigned.
  auto pdn = play("checkers", {}, 0);
  EXPECT_EQ(pdn.status, 200);
  EXPECT_NE(pdn.body.find("[GameType \"21\"]"), std::string::npos) << pdn.body;
  EXPECT_NE(pdn.body.find("[Result \"0-1\"]"), std::string::npos) << pdn.body;
  // Any other kind: tagged text with one move per line.
  auto text = play("race", {"2", "1"}, 0);
  EXPECT_EQ(text.status, 200);
  EXPECT_NE(text.body.find("[Game \"race\"]"), std::string::npos) << text.body;
  EXPECT_NE(text.body.find("\n\n2\n1\n"), std::string::npos) << text.body;
}

// Transcript lines: {"client": NAME, "send": MSG} or {"client": NAME, "expect": PARTIAL}.
// In an expected message every given field must match; "$x" strings capture a value the
// first time and must match it afterwards; in sent messages "$x" is replaced by the capture.
bool matches(const Json& want, const Json& got, std::map<std::string, Json>& vars) {
  if (want.is_string() && want.get<std::string>().starts_with("$")) {
    auto [it, fresh] = vars.try_emplace(want.get<std::string>(), got);
    return fresh || it->second == got;
  }
  if (want.is_object()) {
    if (!got.is_object()) return false;
    for (const auto& [k, v] : want.items())
      if (!got.contains(k) || !matches(v, got[k], vars)) return false;
    return true;
  }
  if (want.is_array()) {
    if (!got.is_array() || got.size() != want.size()) return false;
    for (std::size_t i = 0; i < want.size(); ++i)
      if (!matches(want[i], got[i], vars)) return false;
    return true;
  }
  return want == got;
}

Json substitute(const Json& j, const std::map<std::string, Json>& vars) {
  if (j.is_string() && vars.count(j.get<std::string>())) return vars.at(j.get<std::string>());
  if (j.is_object()) {
    Json out = Json::object();
    for (const auto& [k, v] : j.items()) out[k] = substitute(v, vars);
    return out;
  }
  if (j.is_array()) {
    Json out = Json::array();
    for (const auto& v : j) out.push_back(substitute(v, vars));
    return out;
  }
  return j;
}

TEST_F(ServerTest, ProtocolExamplesReplayAgainstTheServer) {
  const std::filesystem::path dir = std::filesystem::path(ARENA_SOURCE_DIR) / "protocol/examples";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".jsonl") continue;
    SCOPED_TRACE(entry.path().filename().string());
    ++files;
    server_->stop();
    start_server();
    std::map<std::string, std::unique_ptr<WsClient>> clients;
    std::map<std::string, Json> vars;
    std::ifstream in(entry.path());
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      if (line.empty() || line[0] == '#') continue;
      Json step = Json::parse(line);
      auto& client = clients[step["client"].get<std::string>()];
      if (!client) client = std::make_unique<WsClient>(port());
      if (step.contains("send")) {
        Json msg = substitute(step["send"], vars);
        client->send_text(msg.is_string() ? msg.get<std::string>() : msg.dump());
      } else {
        const Json want = step["expect"];
        client->wait_for(
            [&](const Json& got) {
              auto trial = vars;
              if (!matches(want, got, trial)) return false;
              vars = std::move(trial);
              return true;
            },
            "line " + std::to_string(number) + ": " + want.dump());
        if (HasFailure()) return;
      }
    }
  }
  EXPECT_GE(files, 2);
}

}  // namespace
}  // namespace arena::server::testing
