#pragma once
// Hub: the server's shared state. Connections and players, the lobby (seeks, challenges),
// live matches, spectators and puzzle sessions; it turns decoded client messages into
// actions and fans match events out to players and spectators.
//
// Threading: on_open/on_message/on_close are called on the calling connection's strand;
// every map is guarded by one mutex that is never held while calling a Match or sending
// (both only post), so there is no lock order to get wrong.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "db/store.h"
#include "games/core/any_game.h"
#include "protocol/codec.h"
#include "server/connection.h"
#include "server/match/match.h"

namespace arena::server {

using GameFactory =
    std::function<Expected<std::unique_ptr<AnyGame>>(std::string_view name, const GameOptions&)>;
using GameLoader = std::function<Expected<std::unique_ptr<AnyGame>>(std::string_view name,
                                                                    std::string_view position)>;

// The rules of a tournament game (set by the tournament director, server/tournament/director.h).
struct TournamentRules {
  int max_plies = 0;  // > 0: adjudicated a draw after this many plies
  bool illegal_move_loses = true;
  bool substitute_on_error = false;  // research mode: a random move instead of a loss
  std::uint64_t seed = 0;
};

struct TournamentGame {
  std::int64_t tournament = 0;
  db::PlayerId first = 0, second = 0;
  std::string kind, options, start_position, time_control;
  std::uint64_t seed = 0;
  TournamentRules rules;
};

// How the hub reaches the tournament director without depending on it. Every hook may be empty.
struct TournamentHooks {
  // Whether an unfinished stored game belongs to a running tournament, which then plays its
  // pairing again from the same start instead of resuming it after a restart (a bot's clock
  // would run while it reconnects).
  std::function<bool(db::GameId)> replays_game;
  std::function<void(db::GameId)> game_finished;  // a live game ended (its end is durable)
  std::function<void()> player_arrived;           // someone logged in
  // POST /api/tournaments: the league config as JSON in, the tournament's id (and whether an
  // unfinished one of that name was resumed) or an error naming the problem out.
  std::function<Expected<std::pair<std::int64_t, bool>>(const std::string& json)> create;
  // Live state of a running tournament for /api/tournaments/ID: running games, players awaited.
  std::function<std::optional<protocol::Json>(std::int64_t id)> status;
};

struct HubConfig {
  std::int64_t seek_ttl_ms = 10 * 60 * 1000;
  std::int64_t challenge_ttl_ms = 60 * 1000;
  std::int64_t reconnect_grace_ms = 30 * 1000;
  bool illegal_move_loses = false;
  std::int64_t lobby_interval_ms = 100;  // lobby updates are coalesced over this interval
  GameFactory make_game;                 // default: the catalog
  GameLoader load_game;                  // default: the catalog
  // The optimal solution length of a puzzle position, or nullopt (unknown, or too costly).
  // Empty: puzzle_end says null. Called when a session starts, before its first state is
  // sent, on the hub's blocking executor (Hub::use_blocking_executor: the server's
  // "arena-blocking" threads).
  std::function<std::optional<int>(std::string_view puzzle, std::string_view position)>
      optimal_length;
  // The tournaments in the store as JSON (all, or one by id) for /api/tournaments; empty:
  // this server shows none. Injected by `arena serve` (server/tournament reads the file).
  std::function<Expected<protocol::Json>(std::optional<std::int64_t> id)> tournaments;
};

// The lobby: every lobby_interval_ms, the latest snapshot goes to the next
// kLobbyConnectionsPerInterval connections (round robin) that have not seen it, so a busy
// server spreads its lobby over time instead of sending a thousand snapshots at once (bursts
// that would hold every move up behind them); players and live games are listed up to
// kLobbyListCap each.
inline constexpr std::int64_t kLobbyConnectionsPerInterval = 50;
inline constexpr std::size_t kLobbyListCap = 20;
// Finished games kept in memory (for late resumes and resends) at most, and for at most the
// reconnect grace period; after that only the store (the REST API) has them.
inline constexpr std::size_t kFinishedKept = 2000;

struct HubMetrics {
  std::size_t connections = 0, live_games = 0, puzzles = 0;
  std::uint64_t moves_total = 0;
  double moves_per_second = 0;  // over the last sweep interval (about a second)
};

class Hub final : public MatchObserver, public std::enable_shared_from_this<Hub> {
 public:
  Hub(boost::asio::any_io_executor executor, HubConfig config, db::Store& store,
      std::shared_ptr<const TimeSource> time);

  // Where work that may take long runs instead of an I/O thread: the puzzle solver
  // (HubConfig::optimal_length). Call before clients connect; until then, the hub's executor.
  void use_blocking_executor(boost::asio::any_io_executor blocking);

  void on_open(const std::shared_ptr<Connection>& c);
  void on_message(const std::shared_ptr<Connection>& c, std::string_view text);
  // A binary frame: refused with an error that says the protocol is text (rate-limited like
  // any message).
  void on_binary_message(const std::shared_ptr<Connection>& c);
  void on_close(const std::shared_ptr<Connection>& c);

  // Reloads the store's unfinished games of two or more seats as live matches (after a restart);
  // returns how many. Call once, before clients connect.
  int restore_unfinished();
  // Drops expired seeks and challenges (called every second by the server, or by tests).
  void sweep();
  // Closes every connection with "going away"; matches keep their durable state.
  void shutdown();
  // Closes the sockets of the connections still open after shutdown() (no handshake).
  void close_remaining();
  // After the I/O threads have stopped: drops every connection, match and timer the hub
  // holds, so that sessions (which hold the hub) and the hub are freed. Nothing runs after.
  void release();

  void on_match_event(std::int64_t game_id, const Text& event) override;
  // Counts the turn's moves (HubMetrics::moves_total) and sends its state: to a mover's
  // connection of protocol version 3 with the move's client_id (its acknowledgement), to one
  // of version 1 or 2 after a move_ack, to every other follower as it is.
  void on_turn_event(std::int64_t game_id, const Text& state, const std::vector<MoveAck>& acks,
                     std::size_t moves) override;
  void on_match_finished(std::int64_t game_id) override;

  // For the REST API and tests.
  std::shared_ptr<Match> find_match(std::int64_t game_id);
  // At most `limit` of each (the lobby lists a few; the REST API all).
  std::vector<protocol::GameSummary> live_games(const std::string& kind,
                                                std::size_t limit = SIZE_MAX);
  std::vector<protocol::PlayerInfo> online_players(std::size_t limit = SIZE_MAX);
  HubMetrics metrics();
  // The name to show for a name the store has: a guest is stored as "guest:<hash of the
  // session>", shown as the display name it last gave (or "guest" if it has not been seen
  // since the start); other names are shown as stored.
  std::string display_name(const std::string& stored_name);
  db::Store& store() { return store_; }

  // Tournaments. Set the hooks before restore_unfinished() and before clients connect.
  void set_tournament_hooks(TournamentHooks hooks) { hooks_ = std::move(hooks); }
  const TournamentHooks& tournament_hooks() const { return hooks_; }
  // Starts a game between two players, whoever is connected (their connections follow it from
  // the start, as after an accepted challenge); the error names what was wrong.
  Expected<db::GameId> start_tournament_game(const TournamentGame& game);
  // How many connections each logged-in player has now.
  std::map<db::PlayerId, int> online_counts();
  bool is_live(db::GameId id);
  const HubConfig& config() const { return config_; }

 private:
  // A seek for a game of N > 2 seats stays open until N - 1 others joined (accept); a joiner
  // leaves by cancel_seek or by closing its last connection.
  struct SeekRecord {
    std::int64_t id = 0;
    protocol::PlayerInfo owner;
    std::string game, options, time_control;
    std::int64_t created_ms = 0;
    int seats = 2;
    std::vector<protocol::PlayerInfo> joined{};
  };
  struct ChallengeRecord {
    std::int64_t id = 0;
    protocol::PlayerInfo from, to;
    std::string game, options, time_control;
    std::int64_t created_ms = 0;
  };
  struct PuzzleSession {
    std::int64_t id = 0, player = 0;
    std::string kind;
    std::unique_ptr<AnyGame> game;
    std::int64_t started_ms = 0;
    int moves = 0;
    bool solved = false;
    std::optional<int> optimal_length;
    std::string options, instance;  // as recorded at the start (for the attempt's row)
  };
  using Conns = std::vector<std::weak_ptr<Connection>>;

  void dispatch(const std::shared_ptr<Connection>& c, protocol::ClientMessage message);
  void on_hello(const std::shared_ptr<Connection>& c, const protocol::Hello& m);
  // A new guest's hello, once the store has its player (on the connection's strand).
  void guest_found(const std::shared_ptr<Connection>& c, const std::string& token,
                   const std::string& name, const Expected<db::PlayerRecord>& record);
  // The end of a hello: registers the connection under `player` and sends the welcome.
  void welcome(const std::shared_ptr<Connection>& c, const protocol::PlayerInfo& player,
               const std::string& token);
  void on_seek(const std::shared_ptr<Connection>& c, const protocol::Seek& m);
  void on_cancel(const std::shared_ptr<Connection>& c, const protocol::CancelSeek& m);
  void on_challenge(const std::shared_ptr<Connection>& c, const protocol::Challenge& m);
  void on_accept(const std::shared_ptr<Connection>& c, const protocol::Accept& m);
  void on_decline(const std::shared_ptr<Connection>& c, const protocol::Decline& m);
  void on_move(const std::shared_ptr<Connection>& c, protocol::MoveRequest m);
  void on_action(const std::shared_ptr<Connection>& c, const protocol::GameAction& m);
  void on_watch(const std::shared_ptr<Connection>& c, std::int64_t game_id, std::int64_t since,
                bool as_player);
  void on_unwatch(const std::shared_ptr<Connection>& c, const protocol::Unwatch& m);
  void on_puzzle_start(const std::shared_ptr<Connection>& c, const protocol::PuzzleStart& m);
  // The rest of a puzzle_start once its row exists (or could not be made).
  void start_puzzle(const std::shared_ptr<Connection>& c, const db::NewGame& record,
                    std::unique_ptr<AnyGame> instance, const Expected<db::GameId>& id);
  // ... and once its optimal length is known (or not): the session opens, the state is sent.
  void open_puzzle(const std::shared_ptr<Connection>& c, const db::NewGame& record,
                   std::unique_ptr<AnyGame> instance, db::GameId id, std::optional<int> optimal);
  void on_puzzle_move(const std::shared_ptr<Connection>& c, const protocol::PuzzleMove& m);
  void on_puzzle_solution(const std::shared_ptr<Connection>& c, const protocol::PuzzleSolution& m);

  // Validates game, options and time control; on failure sends the error and returns 0, else
  // the game's number of seats (2 to protocol::kMaxSeats).
  int check_offer(const std::shared_ptr<Connection>& c, const std::string& game,
                  const std::string& options, const std::string& time_control,
                  std::string_view ref);
  // An accept of a seek of more than two seats: joins it, and starts the game once full.
  void join_seek(const std::shared_ptr<Connection>& c, std::int64_t seek_id);
  std::shared_ptr<Match> make_match(std::int64_t id, std::vector<protocol::PlayerInfo> players,
                                    std::unique_ptr<AnyGame> game, const std::string& options,
                                    const TimeControl& tc,
                                    const std::optional<TournamentRules>& rules = std::nullopt);
  // `players` in seat order (the seeker or challenger first).
  void start_match(const std::vector<protocol::PlayerInfo>& players, const std::string& game,
                   const std::string& options, const std::string& time_control,
                   const std::shared_ptr<Connection>& c, std::string_view ref);
  // Registers a new match as live, subscribes both players' connections, and starts it.
  void begin_match(const std::shared_ptr<Match>& match);
  // The match `game_id` and the seat of `c`'s player, or an error sent to c.
  std::pair<std::shared_ptr<Match>, int> seat_of(const std::shared_ptr<Connection>& c,
                                                 std::int64_t game_id, std::string_view ref);
  Text puzzle_state(const PuzzleSession& p) const;
  // Under mutex_: `c`'s unsolved puzzle `id`, or null with `code` and `error` saying why not.
  PuzzleSession* open_puzzle_of(const Connection& c, std::int64_t id, protocol::ErrorCode& code,
                                std::string& error);
  // Under mutex_: stores `move` as the puzzle's next ply.
  void record_puzzle_move(PuzzleSession& p, const std::string& move);
  Text finish_puzzle(PuzzleSession& p);
  void send_to_player(std::int64_t player_id, const Text& text);
  void lobby_changed();
  // Arms the lobby timer for the next batch (with mutex_ held, lobby_pending_ set).
  void arm_lobby_timer();
  void lobby_tick();
  Text lobby_snapshot();
  static Reply reply_to(const std::shared_ptr<Connection>& c);
  static void send_error(const std::shared_ptr<Connection>& c, protocol::ErrorCode code,
                         const std::string& message, std::string_view ref);
  // Counts a message against the connection's rate; over it, says so (naming `ref`, the
  // message's type) and returns false: the message is dropped.
  bool within_rate(const std::shared_ptr<Connection>& c, const std::string& ref);

  boost::asio::any_io_executor executor_;
  boost::asio::any_io_executor blocking_;  // executor_ until use_blocking_executor
  HubConfig config_;
  db::Store& store_;
  std::shared_ptr<const TimeSource> time_;
  boost::asio::steady_timer lobby_timer_;
  TournamentHooks hooks_;

  std::mutex mutex_;
  std::set<std::shared_ptr<Connection>> connections_;
  std::map<std::int64_t, Conns> player_conns_;
  std::map<std::string, protocol::PlayerInfo> guests_;  // session token -> guest
  std::map<std::string, std::string> guest_names_;      // stored name -> display name
  std::map<std::int64_t, SeekRecord> seeks_;
  std::map<std::int64_t, ChallengeRecord> challenges_;
  std::map<std::int64_t, std::shared_ptr<Match>> matches_;  // live, and recently finished
  std::set<std::int64_t> live_;
  std::deque<std::pair<std::int64_t, std::int64_t>> finished_;  // (when, game id), oldest first
  std::map<std::int64_t, Conns> watchers_;
  std::map<std::int64_t, PuzzleSession> puzzles_;
  std::int64_t next_offer_id_ = 1;
  bool lobby_pending_ = false;       // the lobby timer is armed
  std::uint64_t lobby_version_ = 1;  // one more at every change of the lobby
  std::int64_t lobby_cursor_ = 0;    // the player id the last batch ended at
  // Only on the lobby timer's strand: the snapshot of the lobby at lobby_built_version_.
  Text lobby_cache_;
  std::uint64_t lobby_built_version_ = 0;
  bool shutting_down_ = false;
  std::atomic<std::uint64_t> moves_total_{0};  // moves recorded; outside mutex_ (on_turn_event)
  std::uint64_t moves_at_last_sweep_ = 0;
  std::int64_t last_sweep_ms_ = -1;
  double moves_per_second_ = 0;
};

}  // namespace arena::server
