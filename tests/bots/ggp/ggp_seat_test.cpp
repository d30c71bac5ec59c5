// The GGP seat (bots/ggp/ggp_seat.h): an external GGP player, reached over loopback, plays GDL
// games as one of our bots. In process, the seat is fed turn requests as the bot client feeds
// them and must send START with its role, PLAY for every step in order and return the external
// player's moves; a late or garbage answer becomes a random legal move, logged. End to end,
// `arena league` seats a `ggp:http://...` entry against a preset and finishes its games.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "bots/ggp/ggp_seat.h"
#include "games/core/any_game.h"
#include "games/gdl/library/library.h"
#include "tests/bots/ggp/ggp_test_support.h"
#include "tests/cli/run_command.h"

namespace arena::ggp {
namespace {

using Clock = std::chrono::steady_clock;

// A temporary folder, removed with what is in it at the end of the test (declared before the
// children, so that they are killed first).
struct TempDir {
  std::string path;
  TempDir() {
    char dir[] = "/tmp/arena_ggp_seat_XXXXXX";
    if (mkdtemp(dir) == nullptr) throw std::runtime_error("mkdtemp");
    path = dir;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

// The Python player of ggp_test_support.h, started in `mode` with its scripted answers; its
// script and its log of received messages (messages.log) are in `dir`. Returns its URL.
std::string start_python(std::unique_ptr<test::Child>& child, const std::string& mode,
                         const std::string& dir, const std::vector<std::string>& moves) {
  const std::string script = dir + "/player.py";
  std::ofstream(script) << test::kPythonPlayer;
  std::vector<std::string> argv = {"/usr/bin/python3", script, mode, dir + "/messages.log"};
  argv.insert(argv.end(), moves.begin(), moves.end());
  child = std::make_unique<test::Child>(argv);
  const std::string line = child->first_line();
  EXPECT_FALSE(line.empty()) << "the Python GGP player printed no port";
  return test::url_from_line(line);
}

// The log's lines without the START's rules (collapsed to "(start ID ROLE (...) SC PC)"), so
// that whole sequences of messages can be compared.
std::vector<std::string> messages(const std::string& log_path) {
  std::vector<std::string> out;
  static const std::regex start(R"(^\(start (\S+) (\S+) \(.*\) (\d+) (\d+)\)$)");
  for (const auto& line : test::lines_of(log_path)) {
    std::smatch m;
    out.push_back(std::regex_match(line, m, start)
                      ? "(start " + m[1].str() + " " + m[2].str() + " (...) " + m[3].str() + " " +
                            m[4].str() + ")"
                      : line);
  }
  return out;
}

// The match id of a collapsed START line.
std::string match_id(const std::string& start_line) {
  const auto a = start_line.find(' ') + 1;
  return start_line.substr(a, start_line.find(' ', a) - a);
}

// Plays GDL tic-tac-toe to its end: the seat as role `seat` (0 x, 1 o), fed a TurnRequest on
// each of its turns as the bot client does (the position, the mover's legal moves, a budget);
// the other role plays `theirs` in order. Returns the seat's replies.
std::vector<client::TurnReply> play_tictactoe(client::Player& player, int seat,
                                              const std::vector<std::string>& theirs) {
  std::vector<client::TurnReply> replies;
  auto game = gdl::make_gdl_game("tictactoe");
  EXPECT_TRUE(game) << game.error();
  if (!game) return replies;
  std::size_t next = 0;
  for (int ply = 0; ply < 9 && !(*game)->outcome().is_terminal(); ++ply) {
    const auto movers = (*game)->movers();
    EXPECT_EQ(movers.size(), 1u);
    if (movers.front() == seat) {
      client::TurnRequest request;
      request.game = "gdl:tictactoe";
      request.position = (*game)->serialize();
      request.legal_moves = (*game)->legal_moves();
      request.budget_ms = 3000;
      auto reply = player.choose_move(request);
      EXPECT_TRUE(reply) << reply.error();
      if (!reply) return replies;
      replies.push_back(*reply);
      EXPECT_TRUE((*game)->play(reply->move)) << reply->move;
    } else {
      EXPECT_LT(next, theirs.size());
      if (next >= theirs.size()) return replies;
      EXPECT_TRUE((*game)->play(theirs[next++])) << theirs[next - 1];
    }
  }
  EXPECT_TRUE((*game)->outcome().is_terminal());
  return replies;
}

std::vector<std::string> moves_of(const std::vector<client::TurnReply>& replies) {
  std::vector<std::string> out;
  for (const auto& r : replies) out.push_back(r.move);
  return out;
}

// The seat plays x in one game and, reused after new_game() as the bot client reuses Players,
// o in the next. The Python player answers every PLAY with its next scripted move: the answers
// to the PLAYs of steps where the seat has no choice are ignored ("noop" here), the others are
// the seat's moves. Each message the player gets is checked, in order: the role comes from
// the legal moves the server lists, the joint moves of the steps between two turns are found
// from the positions, and a match ends with ABORT.
TEST(GgpSeat, PlaysWholeGamesAsEitherRoleWithTheExternalPlayersMoves) {
  const TempDir tmp;
  const std::string dir = tmp.path, log = dir + "/messages.log";
  std::unique_ptr<test::Child> python;
  const std::string url =
      start_python(python, "list", dir,
                   {// as x: its moves at steps 0, 2, 4
                    "(play 1 1 x)", "noop", "(play 1 2 x)", "noop", "(play 1 3 x)",
                    // as o: step 0's PLAY (x moves) is ignored, then its moves at steps 1, 3, 5
                    "noop", "(play 2 1 o)", "noop", "(play 2 2 o)", "noop", "(PLAY 2 3 O)"});
  std::vector<std::string> events;
  GgpSeatOptions options;
  options.startclock = 2;
  options.playclock = 1;
  options.log = [&events](const std::string& line) { events.push_back(line); };
  auto made = ggp_seat_factory(url, options)("gdl:tictactoe");
  ASSERT_TRUE(made) << made.error();
  client::Player& seat = **made;

  const auto as_x = play_tictactoe(seat, 0, {"(play 3 1 o)", "(play 3 2 o)"});
  EXPECT_EQ(moves_of(as_x),
            (std::vector<std::string>{"(play 1 1 x)", "(play 1 2 x)", "(play 1 3 x)"}));
  seat.new_game();
  // The answer in capitals is the external player's too: moves are compared as KIF.
  const auto as_o = play_tictactoe(seat, 1, {"(play 1 1 x)", "(play 1 2 x)", "(play 3 3 x)"});
  EXPECT_EQ(moves_of(as_o),
            (std::vector<std::string>{"(play 2 1 o)", "(play 2 2 o)", "(play 2 3 o)"}));
  made->reset();  // the seat's end: ABORT of the open match

  for (const auto& r : as_x) EXPECT_TRUE(r.info.pv.empty()) << r.info.pv.front();
  for (const auto& r : as_o) EXPECT_TRUE(r.info.pv.empty()) << r.info.pv.front();
  EXPECT_TRUE(events.empty()) << events.front();

  const auto got = messages(log);
  ASSERT_EQ(got.size(), 15u) << ::testing::PrintToString(got);
  const std::string x = match_id(got[0]), o = match_id(got[7]);
  EXPECT_NE(x, o);
  const std::vector<std::string> want = {
      "(start " + x + " xplayer (...) 2 1)",
      "(play " + x + " nil)",
      "(play " + x + " ((play 1 1 x) noop))",
      "(play " + x + " (noop (play 3 1 o)))",
      "(play " + x + " ((play 1 2 x) noop))",
      "(play " + x + " (noop (play 3 2 o)))",
      "(abort " + x + ")",  // new_game()
      "(start " + o + " oplayer (...) 2 1)",
      "(play " + o + " nil)",  // step 0, where o has no choice
      "(play " + o + " ((play 1 1 x) noop))",
      "(play " + o + " (noop (play 2 1 o)))",
      "(play " + o + " ((play 1 2 x) noop))",
      "(play " + o + " (noop (play 2 2 o)))",
      "(play " + o + " ((play 3 3 x) noop))",
      "(abort " + o + ")",
  };
  EXPECT_EQ(got, want);
}

// A turn of x at the initial state, for the tests of bad answers.
client::TurnRequest first_turn() {
  auto game = gdl::make_gdl_game("tictactoe");
  EXPECT_TRUE(game) << game.error();
  client::TurnRequest request;
  request.game = "gdl:tictactoe";
  if (!game) return request;
  request.position = (*game)->serialize();
  request.legal_moves = (*game)->legal_moves();
  request.budget_ms = 3000;
  return request;
}

bool legal(const client::TurnRequest& request, const std::string& move) {
  return std::find(request.legal_moves.begin(), request.legal_moves.end(), move) !=
         request.legal_moves.end();
}

// The play clock is enforced as game managers do: the player sleeps 3 s on its first PLAY, the
// seat waits the play clock (1 s) and the grace (300 ms), then plays a random legal move and
// logs it. The next turn is asked again and answered in time.
TEST(GgpSeat, ALateAnswerBecomesARandomLegalMove) {
  const TempDir tmp;
  const std::string dir = tmp.path, log = dir + "/messages.log";
  std::unique_ptr<test::Child> python;
  const std::string url =
      start_python(python, "slow-first", dir, {"(play 2 2 x)", "noop", "(play 3 3 x)"});
  std::vector<std::string> events;
  GgpSeatOptions options;
  options.playclock = 1;
  options.grace = std::chrono::milliseconds(300);
  options.log = [&events](const std::string& line) { events.push_back(line); };
  auto seat = ggp_seat_factory(url, options)("gdl:tictactoe");
  ASSERT_TRUE(seat) << seat.error();

  const client::TurnRequest request = first_turn();
  const auto begin = Clock::now();
  auto reply = (*seat)->choose_move(request);
  const auto took = Clock::now() - begin;
  ASSERT_TRUE(reply) << reply.error();
  EXPECT_TRUE(legal(request, reply->move)) << reply->move;
  EXPECT_LT(took, std::chrono::milliseconds(2800));  // not the player's 3 s
  EXPECT_GE(took, std::chrono::milliseconds(1200));  // but the whole play clock
  ASSERT_EQ(reply->info.pv.size(), 1u);
  EXPECT_EQ(reply->info.pv.front().rfind("substituted: ", 0), 0u) << reply->info.pv.front();
  ASSERT_EQ(events.size(), 1u) << ::testing::PrintToString(events);
  EXPECT_NE(events[0].find("GGP seat " + url), std::string::npos) << events[0];
  EXPECT_NE(events[0].find("random move " + reply->move + " played"), std::string::npos)
      << events[0];

  // The game goes on: o answers, x is asked again and the player's answer is taken.
  auto game = gdl::make_gdl_game("tictactoe");
  ASSERT_TRUE(game);
  ASSERT_TRUE((*game)->play(reply->move));
  const std::string o_move = reply->move == "(play 1 1 x)" ? "(play 1 2 o)" : "(play 1 1 o)";
  ASSERT_TRUE((*game)->play(o_move));
  client::TurnRequest second = request;
  second.position = (*game)->serialize();
  second.legal_moves = (*game)->legal_moves();
  auto next = (*seat)->choose_move(second);
  ASSERT_TRUE(next) << next.error();
  if (reply->move != "(play 3 3 x)") {
    EXPECT_EQ(next->move, "(play 3 3 x)");
    EXPECT_TRUE(next->info.pv.empty());
    EXPECT_EQ(events.size(), 1u) << ::testing::PrintToString(events);
  } else {
    // The random move took the square of the player's next answer (one time in nine): that
    // answer is illegal now, and is replaced and logged as such.
    EXPECT_TRUE(legal(second, next->move)) << next->move;
    ASSERT_EQ(events.size(), 2u) << ::testing::PrintToString(events);
    EXPECT_NE(events[1].find("is not a legal move"), std::string::npos) << events[1];
  }
  // The PLAYs sent after the late one carry the substituted move: the player is told what x
  // played in its place.
  const auto got = messages(log);
  ASSERT_GE(got.size(), 4u) << ::testing::PrintToString(got);
  EXPECT_NE(got[2].find("((" + reply->move.substr(1) + " noop))"), std::string::npos) << got[2];
}

// The bot client's budget for the turn bounds the seat too: with 800 ms to move and a play clock
// of 1 s plus grace, a player that sleeps 3 s costs a random move within the budget, not the
// game on the server's clock.
TEST(GgpSeat, TheTurnsBudgetBoundsTheWait) {
  const TempDir tmp;
  const std::string dir = tmp.path;
  std::unique_ptr<test::Child> python;
  const std::string url =
      start_python(python, "slow-first", dir, {"(play 2 2 x)", "noop", "(play 3 3 x)"});
  std::vector<std::string> events;
  GgpSeatOptions options;
  options.playclock = 1;
  options.grace = std::chrono::milliseconds(500);
  options.log = [&events](const std::string& line) { events.push_back(line); };
  auto seat = ggp_seat_factory(url, options)("gdl:tictactoe");
  ASSERT_TRUE(seat) << seat.error();
  client::TurnRequest request = first_turn();
  request.budget_ms = 800;
  const auto begin = Clock::now();
  auto reply = (*seat)->choose_move(request);
  const auto took = Clock::now() - begin;
  ASSERT_TRUE(reply) << reply.error();
  EXPECT_TRUE(legal(request, reply->move)) << reply->move;
  EXPECT_LT(took, std::chrono::milliseconds(800)) << "the budget, not the play clock's 1.5 s";
  ASSERT_EQ(reply->info.pv.size(), 1u);
  EXPECT_EQ(reply->info.pv.front().rfind("substituted: ", 0), 0u) << reply->info.pv.front();
  ASSERT_EQ(events.size(), 1u) << ::testing::PrintToString(events);
}

// Garbage is replaced as late answers are: a START answered with something else than "ready"
// is logged (the match goes on), a PLAY answered with what is not KIF, or with a move that is
// not legal, becomes a random legal move.
// x's first turn of tic-tac-toe against the Python player in `mode` answering `moves` (play
// clock 1 s): the seat's reply; its log lines go to `events`, the player's URL to `url`.
Expected<client::TurnReply> first_reply(const std::string& mode,
                                        const std::vector<std::string>& moves,
                                        std::vector<std::string>& events, std::string& url) {
  const TempDir tmp;
  std::unique_ptr<test::Child> python;
  url = start_python(python, mode, tmp.path, moves);
  GgpSeatOptions options;
  options.playclock = 1;
  options.log = [&events](const std::string& line) { events.push_back(line); };
  auto seat = ggp_seat_factory(url, options)("gdl:tictactoe");
  if (!seat) return make_error(seat.error());
  return (*seat)->choose_move(first_turn());
}

TEST(GgpSeat, GarbageAndIllegalAnswersBecomeRandomLegalMoves) {
  {
    std::vector<std::string> events;
    std::string url;
    auto reply = first_reply("garbage", {}, events, url);
    ASSERT_TRUE(reply) << reply.error();
    EXPECT_TRUE(legal(first_turn(), reply->move)) << reply->move;
    ASSERT_EQ(events.size(), 2u) << ::testing::PrintToString(events);
    EXPECT_NE(events[0].find("START to " + url + ": HTTP 200 whatever"), std::string::npos)
        << events[0];
    EXPECT_NE(events[1].find("the answer ')((' is not a legal move"), std::string::npos)
        << events[1];
    EXPECT_NE(events[1].find("random move " + reply->move), std::string::npos) << events[1];
  }
  {
    std::vector<std::string> events;
    std::string url;
    // o's move, not x's: well-formed but not legal.
    auto reply = first_reply("list", {"(play 1 1 o)"}, events, url);
    ASSERT_TRUE(reply) << reply.error();
    EXPECT_TRUE(legal(first_turn(), reply->move)) << reply->move;
    ASSERT_EQ(events.size(), 1u) << ::testing::PrintToString(events);
    EXPECT_NE(events[0].find("the answer '(play 1 1 o)' is not a legal move"), std::string::npos)
        << events[0];
  }
}

// Only gdl:NAME games, and only URLs, are taken.
// In a sheet whose roles mark at once with the same legal moves, the role is the request's
// seat: START names oplayer for seat 1 and the external player's move is played. Without a seat
// the role cannot be told from the moves, and the first turn is refused, naming why.
TEST(GgpSeat, TheRequestsSeatIsTheRoleWhereRolesHaveTheSameMoves) {
  auto game = gdl::make_gdl_game("chickentictactoe");
  ASSERT_TRUE(game) << game.error();
  ASSERT_EQ((*game)->movers().size(), 2u);
  client::TurnRequest request;
  request.game = "gdl:chickentictactoe";
  request.position = (*game)->serialize();
  request.legal_moves = (*game)->legal_moves_of(1);
  ASSERT_EQ(request.legal_moves, (*game)->legal_moves_of(0)) << "the roles' moves are the same";
  request.budget_ms = 3000;

  auto nameless = ggp_seat_factory("http://127.0.0.1:9147")("gdl:chickentictactoe");
  ASSERT_TRUE(nameless) << nameless.error();
  auto refused = (*nameless)->choose_move(request);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("several roles"), std::string::npos) << refused.error();

  const TempDir tmp;
  const std::string dir = tmp.path, log = dir + "/messages.log";
  std::unique_ptr<test::Child> python;
  const std::string url = start_python(python, "list", dir, {"(mark 2 2)"});
  GgpSeatOptions options;
  options.startclock = 2;
  options.playclock = 1;
  auto made = ggp_seat_factory(url, options)("gdl:chickentictactoe");
  ASSERT_TRUE(made) << made.error();
  request.seat = 1;
  auto reply = (*made)->choose_move(request);
  ASSERT_TRUE(reply) << reply.error();
  EXPECT_EQ(reply->move, "(mark 2 2)");
  EXPECT_TRUE(reply->info.pv.empty()) << "the external player's own move, not a random one";
  made->reset();
  const auto got = messages(log);
  ASSERT_FALSE(got.empty());
  EXPECT_NE(got.front().find(" oplayer (...)"), std::string::npos) << got.front();
}

TEST(GgpSeat, RefusesOtherGamesAndBadUrls) {
  auto chess = ggp_seat_factory("http://127.0.0.1:9147")("chess");
  ASSERT_FALSE(chess);
  EXPECT_NE(chess.error().find("'chess'"), std::string::npos) << chess.error();
  EXPECT_FALSE(ggp_seat_factory("not a url")("gdl:tictactoe"));
  // A sheet that is not found fails the first turn, before anything is sent.
  auto unknown = ggp_seat_factory("http://127.0.0.1:9147")("gdl:noSuchSheet");
  ASSERT_TRUE(unknown) << unknown.error();
  client::TurnRequest request = first_turn();
  request.game = "gdl:noSuchSheet";
  auto reply = (*unknown)->choose_move(request);
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().find("noSuchSheet"), std::string::npos) << reply.error();
}

// A proxy in Python between the seat and a GGP player: it appends each message it forwards to
// LOG, then the reply as "-> REPLY". `python3 SCRIPT UPSTREAM LOG` prints its port.
constexpr const char* kProxy = R"PY(
import sys, threading, urllib.error, urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

upstream, log_path = sys.argv[1], sys.argv[2]
lock = threading.Lock()

class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        status, reply = 200, b""
        try:
            req = urllib.request.Request(upstream, data=body, method="POST",
                                         headers={"Content-Type": "text/acl"})
            with urllib.request.urlopen(req, timeout=30) as r:
                reply = r.read()
        except urllib.error.HTTPError as e:
            status, reply = e.code, e.read()
        except Exception as e:
            status, reply = 502, str(e).encode()
        with lock:
            with open(log_path, "a") as f:
                f.write(" ".join(body.decode("utf-8", "replace").split()) + "\n")
                f.write("-> " + " ".join(reply.decode("utf-8", "replace").split()) + "\n")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "text/acl")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)
        except (BrokenPipeError, ConnectionResetError):
            pass

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
)PY";

// `arena league` on a local server (its own processes, a temporary database, loopback): an
// entry `ggp:http://...` (`arena ggp-player --preset GDL_Random`, behind the logging proxy)
// plays two games of GDL tic-tac-toe against the preset GDL_Random. The league must finish with
// both games' results in its standings, and the GGP player must have been sent START and
// PLAYs and have answered them with moves.
TEST(GgpSeat, LeagueSeatsAGgpPlayerByUrl) {
  const TempDir tmp;
  const std::string dir = tmp.path;
  std::unique_ptr<test::Child> player, proxy;
  player = std::make_unique<test::Child>(std::vector<std::string>{
      ARENA_BINARY, "ggp-player", "--port", "0", "--preset", "GDL_Random", "--quiet"});
  const std::string player_line = player->first_line();
  ASSERT_NE(player_line.find("listening on http://127.0.0.1:"), std::string::npos) << player_line;
  const std::string script = dir + "/proxy.py", log = dir + "/messages.log";
  std::ofstream(script) << kProxy;
  proxy = std::make_unique<test::Child>(
      std::vector<std::string>{"/usr/bin/python3", script, test::url_from_line(player_line), log});
  const std::string proxy_url = test::url_from_line(proxy->first_line());
  ASSERT_NE(proxy_url, "http://127.0.0.1:");

  const std::string config = dir + "/league.json";
  std::ofstream(config) << R"({
  "name": "ggp-seat",
  "game": "gdl:tictactoe",
  "format": "round-robin",
  "players": [{"name": "Outside", "spec": "ggp:)"
                        << proxy_url << R"("}, "GDL_Random"],
  "games_per_pairing": 2,
  "concurrency": 1,
  "movetime_ms": 5000,
  "max_plies": 20,
  "seed": 1
})";
  const std::string db = dir + "/league.db";
  // `timeout`: a league that hangs fails the test instead of the whole run.
  const auto r =
      arena::test::run_command("timeout -k 10 300 " + std::string(ARENA_BINARY) +
                               " league --config " + config + " --db " + db + " --quiet");
  const std::string bot_log = test::read_text(db + ".logs/bot-0.log");
  ASSERT_EQ(r.status, 0) << r.output << "\nGGP bot's log:\n" << bot_log;
  EXPECT_NE(r.output.find("2 games played"), std::string::npos) << r.output;
  // The standings list both entries with two games each (the GGP entry's won, lost and drawn
  // add up to them).
  std::smatch row;
  ASSERT_TRUE(std::regex_search(r.output, row,
                                std::regex(R"(\n\s*\d+\s+Outside\s+2\s+(\d+)\s+(\d+)\s+(\d+))")))
      << r.output;
  EXPECT_EQ(std::stoi(row[1]) + std::stoi(row[2]) + std::stoi(row[3]), 2) << r.output;
  EXPECT_TRUE(std::regex_search(r.output, std::regex(R"(\n\s*\d+\s+GDL_Random\s+2\s)")))
      << r.output;

  // What the GGP player was sent: a START per game (once as x, once as o: colors alternate),
  // PLAYs of those matches, and moves for answers.
  const auto lines = test::lines_of(log);
  int starts = 0, plays = 0, moves = 0;
  std::string roles;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (std::regex_search(lines[i], m, std::regex(R"(^\(start \S+ (\S+) \()"))) {
      ++starts;
      roles += m[1].str() + " ";
    }
    if (lines[i].starts_with("(play ")) ++plays;
    if (lines[i].starts_with("-> (play ")) ++moves;
  }
  EXPECT_EQ(starts, 2) << ::testing::PrintToString(lines);
  EXPECT_TRUE(roles == "xplayer oplayer " || roles == "oplayer xplayer ") << roles;
  EXPECT_GE(plays, 5) << ::testing::PrintToString(lines);  // a game is 5 steps at least
  EXPECT_GE(moves, 5) << ::testing::PrintToString(lines);  // 3 as x, 2 as o at least
  // The entry's bot is the seat (`arena bot --ggp URL`), and every move it sent was the GGP
  // player's: GDL_Random answers at once, well within the 2 s play clock of a 5 s move.
  EXPECT_NE(bot_log.find("playing gdl:tictactoe with the GGP player at " + proxy_url),
            std::string::npos)
      << bot_log;
  EXPECT_EQ(bot_log.find("random move"), std::string::npos) << bot_log;
  EXPECT_NE(bot_log.find("games 2:"), std::string::npos) << bot_log;
}

}  // namespace
}  // namespace arena::ggp
