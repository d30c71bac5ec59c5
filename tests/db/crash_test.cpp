// Crash safety: the real `arena serve` is killed with SIGKILL in the middle of many live games,
// several times, and restarted on the same file. After every kill the file must be intact
// (integrity_check), hold every move a client saw acknowledged or announced, and hold no game
// half-recorded (plies without gaps, every result with the moves and rating updates that make
// it). After every restart the unfinished games must be back as the protocol README and
// server/lobby/hub_restore.cpp state: listed in the players' welcome.your_games, resumable with
// the version it last saw, or -1 (versions continue above, game_start lists the recorded moves),
// and playable to their end; a game whose last recorded move ended it is finished by the rules.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "db/sqlite_store.h"
#include "games/catalog/catalog.h"
#include "tests/db/raw_db.h"
#include "tests/db/server_process.h"
#include "tests/db/temp_dir.h"
#include "tests/common/ws_client.h"

namespace arena::test {
namespace {

using server::testing::Json;
using server::testing::WsClient;
using namespace std::chrono_literals;

constexpr int kKills = 5;
constexpr int kPairs = 9;  // two guests each, one game at a time, games back to back
constexpr const char* kKinds[] = {"tictactoe", "othello", "isolation"};
constexpr auto kReadTimeout = 10s;

struct Ack {
  std::int64_t game = 0;
  std::size_t ply = 0;
  std::string move, client_id;
  int seat = 0;
};

// What one pair of players has seen, across every round (written only by the pair's thread).
struct Pair {
  int index = 0;
  std::string kind;
  std::string time_control;  // "none", or a clock whose restore the test checks
  std::string session[2];
  std::int64_t player[2] = {0, 0};
  std::int64_t game = 0;                                  // the current game, 0 for none
  std::vector<std::string> moves;                         // its moves as the clients saw them
  std::map<std::int64_t, std::vector<std::string>> seen;  // game -> moves
  std::map<std::int64_t, std::pair<std::string, std::string>> ends;  // game_end seen
  std::vector<Ack> acks;
  std::mt19937_64 rng;
  int resumed_with_moves = 0;  // restored games this pair played on
  std::optional<Ack> pending;  // a move sent and not acknowledged yet
  // Moves the kill caught durable but unacknowledged, sent again after the restart with the
  // same client_id, and what the server answered: "move_ack" or an error code.
  std::vector<std::string> resend_answers;
};

// A game with no result in the file left by a kill, and what the rules say of its moves.
struct Unfinished {
  std::int64_t id = 0;
  std::vector<std::string> moves;
  bool terminal = false;
  std::int64_t clock_left[2] = {-1, -1};  // each side's clock at its last move; -1: none
};

struct RoundControl {
  std::atomic<int> acks{0};
  std::atomic<int> running{0};
  std::atomic<bool> killed{false};
  bool final_round = false;
};

bool is_type(const Json& j, const char* type) {
  return j.value("type", "") == type;
}
bool has_result(const Json& state) {
  return state.contains("result") && state["result"].is_string() && state["result"] != "";
}

// One pair's play in one round: log in again, take up the game the file says is unfinished
// (checking the restore policy), then play random legal moves; in the last round only until the
// current game ends. Returns when the server dies (killed on purpose) or the work is done.
class PairRun {
 public:
  PairRun(Pair& pair, unsigned short port, const Unfinished& unfinished, RoundControl& control)
      : p_(pair), port_(port), unfinished_(unfinished), ctl_(control) {}

  void run() {
    try {
      if (!log_in()) return;
      if (unfinished_.id != 0 && !resume()) return;
      if (unfinished_.id == 0) p_.game = 0;
      while (!ctl_.killed) {
        if (p_.game == 0 && (ctl_.final_round || !start_game())) return;
        if (!play_to_end()) return;
      }
    } catch (const std::exception& e) {
      if (!ctl_.killed) ADD_FAILURE() << "pair " << p_.index << ": " << e.what();
    }
  }

 private:
  // The next message on `seat` that satisfies `pred` or is an error; nullopt when the server
  // is gone (a failure unless the test killed it).
  std::optional<Json> await(int seat, const std::function<bool(const Json&)>& pred,
                            const std::string& what) {
    for (auto it = ends_[seat].begin(); it != ends_[seat].end(); ++it)
      if (pred(*it)) {
        Json j = std::move(*it);
        ends_[seat].erase(it);
        return j;
      }
    for (;;) {
      auto j = ws_[seat]->recv(kReadTimeout);
      if (!j) {
        if (!ctl_.killed)
          ADD_FAILURE() << "pair " << p_.index << " seat " << seat << ": no " << what
                        << " and the server was not killed";
        return std::nullopt;
      }
      if (pred(*j) || is_type(*j, "error")) return j;
      // A game_end that arrives while the answer to a resent move is awaited is kept.
      if (is_type(*j, "game_end")) ends_[seat].push_back(std::move(*j));
    }
  }
  std::optional<Json> await_type(int seat, const char* type) {
    return await(
        seat, [type](const Json& j) { return is_type(j, type); }, type);
  }
  std::optional<Json> await_state(int seat, std::int64_t version) {
    return await(
        seat,
        [&](const Json& j) {
          return is_type(j, "state") && j["game_id"] == p_.game && j["version"] == version;
        },
        "state version " + std::to_string(version));
  }
  bool unexpected(const Json& j, const std::string& context) {
    if (!ctl_.killed) ADD_FAILURE() << "pair " << p_.index << " " << context << ": " << j.dump();
    return false;
  }

  bool log_in() {
    for (int seat = 0; seat < 2; ++seat) {
      ws_[seat] = std::make_unique<WsClient>(port_);
      if (!ws_[seat]->open()) return unexpected(Json{}, "websocket handshake");
      ws_[seat]->send(
          Json{{"type", "hello"},
               {"version", 1},
               {"name", "crash" + std::to_string(p_.index) + "_" + std::to_string(seat)},
               {"resume", p_.session[seat]}});
      auto welcome = await_type(seat, "welcome");
      if (!welcome || !is_type(*welcome, "welcome"))
        return welcome && unexpected(*welcome, "hello");
      const std::int64_t id = (*welcome)["player"]["id"];
      if (p_.player[seat] == 0) {
        p_.player[seat] = id;
        p_.session[seat] = (*welcome)["session"];
      }
      EXPECT_EQ(id, p_.player[seat]) << "a session token must give back the same player";
      // The restore policy: an unfinished game is live again for both of its players. One that
      // the rules had already ended is finished at start-up, so it may be gone by now.
      const auto games = (*welcome)["your_games"].get<std::vector<std::int64_t>>();
      std::vector<std::int64_t> must{}, may{};
      if (unfinished_.id != 0) (unfinished_.terminal ? may : must).push_back(unfinished_.id);
      if (unfinished_.terminal)
        EXPECT_TRUE(games.empty() || games == may) << "pair " << p_.index;
      else
        EXPECT_EQ(games, must) << "pair " << p_.index << " seat " << seat;
    }
    return true;
  }

  // After a restart: resume gets game_start (the recorded moves) and the state after it,
  // which carries the result if the rules ended the game. The first seat resumes with the
  // last version it saw before the kill (a crash sends no 1001 close), the second with -1:
  // both get everything, because versions continue above every version of before.
  bool resume() {
    p_.game = unfinished_.id;
    p_.moves = unfinished_.moves;
    const std::int64_t seen_before = state_.is_object() && state_.contains("version")
                                         ? state_["version"].get<std::int64_t>()
                                         : -1;
    for (int seat = 0; seat < 2; ++seat)
      ws_[seat]->send(Json{{"type", "resume"},
                           {"game_id", p_.game},
                           {"since_version", seat == 0 ? seen_before : -1}});
    for (int seat = 0; seat < 2; ++seat) {
      auto start = await_type(seat, "game_start");
      if (!start) return false;
      if (!is_type(*start, "game_start")) return unexpected(*start, "resume");
      EXPECT_EQ((*start)["game_id"], p_.game);
      const std::int64_t base = (*start)["version"].get<std::int64_t>();
      EXPECT_GT(base, seen_before) << "versions continue above those of before the restart";
      EXPECT_EQ((*start)["moves"].get<std::vector<std::string>>(), unfinished_.moves)
          << "game " << p_.game << " must come back with exactly its recorded moves";
      auto state = await_state(seat, base + 1);
      if (!state) return false;
      if (!is_type(*state, "state")) return unexpected(*state, "resume");
      EXPECT_EQ(has_result(*state), unfinished_.terminal) << state->dump();
      if (!unfinished_.terminal) check_clocks(*state);
      state_ = *state;
    }
    if (!unfinished_.moves.empty()) ++p_.resumed_with_moves;
    return resend_pending();
  }

  // The clock policy: each clock has what it had left at its side's last move; only the side
  // to move's has run since the restart.
  void check_clocks(const Json& state) {
    if (p_.time_control == "none") return;
    const int to_move = state["to_move"];
    for (int side = 0; side < 2; ++side) {
      const std::int64_t stored = unfinished_.clock_left[side];
      if (stored < 0) continue;  // no move of this side yet: its clock is the base time
      const std::int64_t shown = state["clocks"][side];
      if (side == to_move)
        EXPECT_LE(shown, stored) << "game " << p_.game << " side " << side;
      else
        EXPECT_EQ(shown, stored) << "game " << p_.game << " side " << side;
    }
  }

  // A move the kill caught after its commit and before its ack: the client cannot know it
  // arrived, so it sends it again with the same client_id (README, Resending).
  bool resend_pending() {
    const auto pending = std::exchange(p_.pending, std::nullopt);
    if (!pending || pending->game != p_.game || pending->ply >= p_.moves.size()) return true;
    EXPECT_EQ(p_.moves[pending->ply], pending->move);
    ws_[pending->seat]->send(Json{{"type", "move"},
                                  {"game_id", p_.game},
                                  {"move", pending->move},
                                  {"client_id", pending->client_id}});
    auto answer = await(
        pending->seat,
        [&](const Json& j) {
          return is_type(j, "move_ack") && j["client_id"] == pending->client_id;
        },
        "an answer to a resent move");
    if (!answer) return false;
    p_.resend_answers.push_back(is_type(*answer, "error") ? (*answer)["code"] : "move_ack");
    return true;
  }

  bool start_game() {
    ws_[0]->send(Json{
        {"type", "seek"}, {"game", p_.kind}, {"options", ""}, {"time_control", p_.time_control}});
    auto created = await_type(0, "seek_created");
    if (!created || !is_type(*created, "seek_created"))
      return created && unexpected(*created, "seek");
    ws_[1]->send(Json{{"type", "accept"}, {"seek_id", (*created)["seek_id"]}});
    for (int seat = 0; seat < 2; ++seat) {
      auto start = await_type(seat, "game_start");
      if (!start || !is_type(*start, "game_start")) return start && unexpected(*start, "accept");
      p_.game = (*start)["game_id"];
      EXPECT_EQ((*start)["players"][seat]["id"], p_.player[seat]) << "the seeker plays first";
    }
    p_.moves.clear();
    p_.seen[p_.game] = {};
    for (int seat = 0; seat < 2; ++seat) {
      auto state = await_state(seat, 1);
      if (!state || !is_type(*state, "state")) return state && unexpected(*state, "first state");
      state_ = *state;
    }
    return true;
  }

  // Random legal moves until game_end (then the game is over for the pair) or the server dies.
  bool play_to_end() {
    while (!has_result(state_)) {
      const int mover = state_["to_move"];
      const auto legal = state_["legal_moves"].get<std::vector<std::string>>();
      if (legal.empty()) return unexpected(state_, "a live state without legal moves");
      const std::string move = legal[p_.rng() % legal.size()];
      const std::int64_t version = state_["version"].get<std::int64_t>() + 1;
      const std::string client_id =
          "g" + std::to_string(p_.game) + "-" + std::to_string(p_.moves.size());
      bool acked = false;
      Json next;
      p_.pending = Ack{p_.game, p_.moves.size(), move, client_id, mover};
      while (!acked || next.is_null()) {
        ws_[mover]->send(
            Json{{"type", "move"}, {"game_id", p_.game}, {"move", move}, {"client_id", client_id}});
        for (;;) {
          auto j = await(
              mover,
              [&](const Json& m) {
                return (is_type(m, "move_ack") && m["client_id"] == client_id) ||
                       (is_type(m, "state") && m["version"] == version);
              },
              "move_ack");
          if (!j) return false;
          if (is_type(*j, "error")) {
            // The limits of the protocol: a dropped message is sent again a little later.
            const std::string code = (*j)["code"];
            if (code != "rate_limited" && code != "busy") return unexpected(*j, "move " + move);
            std::this_thread::sleep_for(20ms);
            break;
          }
          if (is_type(*j, "move_ack")) {
            EXPECT_EQ((*j)["version"], version) << "the ack names the version the move became";
            p_.acks.push_back({p_.game, p_.moves.size(), move, client_id});
            acked = true;
            p_.pending.reset();
            ++ctl_.acks;
          } else {
            next = *j;
          }
          if (acked && !next.is_null()) break;
        }
      }
      auto other = await_state(1 - mover, version);
      if (!other) return false;
      if (!is_type(*other, "state")) return unexpected(*other, "opponent's state");
      EXPECT_EQ(next["last_move"], move);
      p_.moves.push_back(move);
      p_.seen[p_.game] = p_.moves;
      state_ = next;
    }
    for (int seat = 0; seat < 2; ++seat) {
      auto end = await_type(seat, "game_end");
      if (!end) return false;
      if (!is_type(*end, "game_end")) return unexpected(*end, "game_end");
      EXPECT_EQ((*end)["result"], state_["result"]);
      p_.ends[p_.game] = {(*end)["result"], (*end)["reason"]};
    }
    p_.game = 0;
    return true;
  }

  Pair& p_;
  unsigned short port_;
  const Unfinished& unfinished_;
  RoundControl& ctl_;
  std::unique_ptr<WsClient> ws_[2];
  std::vector<Json> ends_[2];
  Json state_;
};

struct StoredGame {
  std::string kind, start, result, reason, final_position, ended_at;
  std::int64_t first = 0, second = 0;
  std::vector<std::string> moves;
  std::vector<std::int64_t> clock_left;
};

std::string result_text(Result r) {
  return r == Result::kOngoing ? RawDb::kNull : std::string(result_notation(r));
}

// Checks one game against the rules: its moves replay from its start, a result is the one the
// rules give with the position they reach, no result means no end. Returns whether the moves
// end the game.
bool check_game(std::int64_t id, const StoredGame& g) {
  SCOPED_TRACE("game " + std::to_string(id) + " (" + g.kind + ")");
  auto game = load_game(g.kind, g.start);
  if (!game) {
    ADD_FAILURE() << game.error();
    return false;
  }
  for (const auto& m : g.moves)
    if (auto played = (*game)->play(m); !played) {
      ADD_FAILURE() << "stored move '" << m << "' does not replay: " << played.error();
      return false;
    }
  const Outcome outcome = (*game)->outcome();
  if (g.result == RawDb::kNull) {
    EXPECT_EQ(g.reason, RawDb::kNull);
    EXPECT_EQ(g.ended_at, RawDb::kNull);
  } else {
    // This test never resigns, offers draws or claims: every game ends by the rules.
    EXPECT_TRUE(outcome.is_terminal())
        << "a result (" << g.result << ") without the moves that make it";
    EXPECT_EQ(g.result, result_text(outcome.result));
    EXPECT_EQ(g.reason, to_string(outcome.reason));
    EXPECT_EQ(g.final_position, (*game)->serialize());
    EXPECT_NE(g.ended_at, RawDb::kNull);
  }
  return outcome.is_terminal();
}

// The rating tables agree with the results: one history row per player and method for each
// rated game, none for an unfinished one, and every rating's counts equal to its games.
void check_ratings(RawDb& db, const std::map<std::int64_t, StoredGame>& games) {
  std::vector<std::string> methods;
  for (auto& r : db.rows("SELECT DISTINCT method FROM ratings ORDER BY method"))
    methods.push_back(r[0]);
  std::map<std::int64_t, std::map<std::pair<std::int64_t, std::string>, int>> history;
  for (auto& r : db.rows("SELECT game_id, player_id, method FROM rating_history"))
    ++history[std::stoll(r[0])][{std::stoll(r[1]), r[2]}];
  // (player, kind) -> games, wins, losses, draws, from the results alone
  std::map<std::pair<std::int64_t, std::string>, std::array<int, 4>> counts;
  for (const auto& [id, g] : games) {
    const bool rated = g.result == "1-0" || g.result == "0-1" || g.result == "1/2-1/2";
    std::map<std::pair<std::int64_t, std::string>, int> expected;
    if (rated) {
      for (const auto& m : methods) expected[{g.first, m}] = expected[{g.second, m}] = 1;
      const int first_outcome = g.result == "1-0" ? 1 : g.result == "0-1" ? 2 : 3;
      auto& a = counts[{g.first, g.kind}];
      auto& b = counts[{g.second, g.kind}];
      ++a[0], ++b[0], ++a[static_cast<std::size_t>(first_outcome)];
      ++b[static_cast<std::size_t>(first_outcome == 3 ? 3 : 3 - first_outcome)];
    }
    EXPECT_EQ(history[id], expected) << "rating history of game " << id << " (" << g.result << ")";
  }
  for (auto& r :
       db.rows("SELECT player_id, kind, games, wins, losses, draws, method FROM ratings")) {
    const auto& c = counts[{std::stoll(r[0]), r[1]}];
    EXPECT_EQ(
        (std::array<int, 4>{std::stoi(r[2]), std::stoi(r[3]), std::stoi(r[4]), std::stoi(r[5])}), c)
        << "rating of player " << r[0] << " in " << r[1] << " by " << r[6];
  }
}

// Every check of the file left behind; returns each pair's unfinished game (id 0: none).
std::vector<Unfinished> check_file(const std::string& path, const std::vector<Pair>& pairs) {
  RawDb db(path, /*read_only=*/true);
  EXPECT_EQ(db.rows("PRAGMA integrity_check"), (std::vector<std::vector<std::string>>{{"ok"}}));
  EXPECT_TRUE(db.rows("PRAGMA foreign_key_check").empty());
  std::map<std::int64_t, StoredGame> games;
  for (auto& r : db.rows("SELECT id, kind, start_position, COALESCE(first_id, 0), "
                         "COALESCE(second_id, 0), result, reason, final_position, ended_at "
                         "FROM games ORDER BY id"))
    games[std::stoll(r[0])] = {
        r[1], r[2], r[5], r[6], r[7], r[8], std::stoll(r[3]), std::stoll(r[4]), {}, {}};
  for (auto& r :
       db.rows("SELECT game_id, ply, move, clock_left_ms FROM moves ORDER BY game_id, ply")) {
    auto& g = games[std::stoll(r[0])];
    EXPECT_EQ(std::stoul(r[1]), g.moves.size()) << "a gap in the plies of game " << r[0];
    g.moves.push_back(r[2]);
    g.clock_left.push_back(std::stoll(r[3]));
  }
  std::vector<Unfinished> out(pairs.size());
  for (const auto& [id, g] : games) {
    const bool terminal = check_game(id, g);
    if (g.result != RawDb::kNull) continue;
    bool owned = false;
    for (const auto& p : pairs)
      if (p.player[0] == g.first && p.player[1] == g.second) {
        const auto i = static_cast<std::size_t>(p.index);
        EXPECT_EQ(out[i].id, 0) << "pair " << p.index << " has two unfinished games";
        out[i] = {id, g.moves, terminal};
        for (std::size_t ply = 0; ply < g.clock_left.size(); ++ply)
          out[i].clock_left[ply % 2] = g.clock_left[ply];
        owned = true;
      }
    EXPECT_TRUE(owned) << "unfinished game " << id << " of no pair";
  }
  check_ratings(db, games);
  // What the clients were told is what the file holds.
  for (const auto& p : pairs) {
    for (const auto& a : p.acks) {
      const auto& moves = games[a.game].moves;
      EXPECT_TRUE(a.ply < moves.size() && moves[a.ply] == a.move)
          << "move " << a.move << " (client_id " << a.client_id << ") of game " << a.game
          << " was acknowledged as ply " << a.ply << " but is not stored there";
    }
    for (const auto& [id, seen] : p.seen) {
      const auto& moves = games[id].moves;
      EXPECT_TRUE(seen.size() <= moves.size() &&
                  std::equal(seen.begin(), seen.end(), moves.begin()))
          << "game " << id << ": the clients saw moves the file does not hold";
    }
    for (const auto& [id, end] : p.ends)
      EXPECT_EQ((std::pair{games[id].result, games[id].reason}), end)
          << "game " << id << " ended for its players but not in the file";
  }
  return out;
}

TEST(CrashTest, SigkillLosesNoAcknowledgedMoveAndUnfinishedGamesResume) {
  std::uint64_t seed = 20261122;
  if (const char* s = std::getenv("ARENA_CRASH_SEED")) seed = std::strtoull(s, nullptr, 10);
  SCOPED_TRACE("seed " + std::to_string(seed) + " (ARENA_CRASH_SEED)");
  std::mt19937_64 rng(seed);
  TempDir dir;
  const std::string db = dir.file("arena.db");
  std::vector<Pair> pairs(kPairs);
  for (int i = 0; i < kPairs; ++i) {
    pairs[static_cast<std::size_t>(i)].index = i;
    pairs[static_cast<std::size_t>(i)].kind = kKinds[i % 3];
    pairs[static_cast<std::size_t>(i)].time_control = i % 2 ? "fischer:600000+1000" : "none";
    pairs[static_cast<std::size_t>(i)].rng.seed(seed * 1000 + static_cast<std::uint64_t>(i));
  }
  std::vector<Unfinished> unfinished(kPairs);
  int live_at_kills = 0, ended_at_restart = 0;
  for (int round = 0; round <= kKills; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    ServerProcess server(db);
    ASSERT_NE(server.port(), 0) << "arena serve did not start on " << db;
    RoundControl ctl;
    ctl.final_round = round == kKills;
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      ++ctl.running;
      threads.emplace_back([&, i] {
        PairRun(pairs[i], server.port(), unfinished[i], ctl).run();
        --ctl.running;
      });
    }
    if (!ctl.final_round) {
      // The moment: after a random number of acknowledged moves, plus up to 3 ms, so that it
      // falls anywhere in a move's path (read, validate, commit, acknowledge, announce).
      const int target = std::uniform_int_distribution<int>(20, 120)(rng);
      const auto deadline = std::chrono::steady_clock::now() + 20s;
      while (ctl.acks < target && ctl.running > 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(1ms);
      std::this_thread::sleep_for(std::chrono::microseconds(rng() % 3000));
      ctl.killed = true;
      EXPECT_TRUE(server.kill_now()) << "the server died before it was killed";
    }
    for (auto& t : threads) t.join();
    if (ctl.final_round) {
      EXPECT_EQ(server.stop(), 0) << "an orderly shutdown exits with 0";
    }
    // A restart first stores what the move journal holds (moves acknowledged before the
    // writer stored them): open the store as the next `arena serve` will, then check the file.
    if (!ctl.final_round) {
      auto recovered = db::open_sqlite_store(db);
      ASSERT_TRUE(recovered) << recovered.error();
    }
    unfinished = check_file(db, pairs);
    for (const auto& u : unfinished) {
      if (ctl.final_round) {
        EXPECT_EQ(u.id, 0) << "every restored game was played to its end";
      }
      live_at_kills += u.id != 0 && !u.moves.empty() && !u.terminal;
      ended_at_restart += u.id != 0 && u.terminal;
    }
  }
  // The test tested something: games were under way at the kills and were played on.
  int acks = 0, ends = 0, resumed = 0;
  std::map<std::string, int> resends;
  for (const auto& p : pairs) {
    for (const auto& a : p.resend_answers) ++resends[a];
    acks += static_cast<int>(p.acks.size());
    ends += static_cast<int>(p.ends.size());
    resumed += p.resumed_with_moves;
  }
  EXPECT_GT(live_at_kills, 0);
  EXPECT_GT(resumed, 0);
  EXPECT_GT(ends, 0);
  std::printf(
      "crash test: %d kills, %d moves acknowledged, %d games ended, %d games resumed with "
      "moves, %d ended by the rules at a restart\n",
      kKills, acks, ends, resumed, ended_at_restart);
  for (const auto& [answer, n] : resends)
    std::printf("crash test: %d moves durable but unacknowledged at a kill, resent: %s\n", n,
                answer.c_str());
}

}  // namespace
}  // namespace arena::test
