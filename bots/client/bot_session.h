#pragma once
// BotSession: the protocol side of a bot (protocol/README.md), independent of the transport.
// It is fed the frames that arrive (on_message), told when a connection opens or drops, and
// sends through a callback. Searches run through a `spawn` callback on worker threads, never
// on the caller's (I/O) thread; their results come back through the same lock.
//
// What it does: hello (with the guest session to resume, if any); accept challenges and
// lobby seeks that match its games; keep seeks open (a number of games, or forever for house
// bots); play several games at once, one Player per game; send every move with its search
// info and a client_id; after a reconnection resume every live game from the last version
// seen and resend an unacknowledged move; run puzzle sessions with a solver; answer draw
// offers by the last search's score.
// Thread-safe: every entry point takes the session's lock. `send` must not call back in.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bots/client/time_budget.h"
#include "bots/player/player.h"
#include "protocol/messages.h"

namespace arena::client {

struct BotConfig {
  std::string name = "bot";           // display name when playing as a guest (no token)
  std::vector<std::string> games{};   // catalog names it plays ("gdl": every gdl:NAME); the
                                      // first one is sought
  std::string seek_options{};         // options of its seeks ("size=7")
  std::string time_control = "none";  // of its seeks
  int seek_games = 0;                 // games to start by seeking, one seek open at a time
  bool keep_seek_open = false;        // house bots: always one open seek while below max
  bool accept_challenges = true;      // challenges for one of `games`
  bool accept_seeks = false;          // take other players' matching seeks from the lobby
  int min_seek_seats = 0;             // of those, only seeks of games of this many seats or more
  bool accept_bot_seeks = true;       // of those, bots' seeks too (house bots: people's only)
  // Of those, only a seek listed in the lobby for this long (from its first snapshot here):
  // house bots leave a person's seek to other people first, then take it.
  std::int64_t accept_seek_after_ms = 0;
  int max_games = 0;                  // finish after this many games (0: never)
  int max_parallel = 4;               // live games at once
  // Puzzle sessions: `puzzles` sessions of games[0] scrambled by `scramble` moves.
  int puzzles = 0;
  std::string puzzle_options{};
  int scramble = 20;
  std::uint64_t seed = 1;
  // When set, every acknowledged move is appended to this file as one line
  // "GAME_ID<TAB>CLIENT_ID<TAB>MOVE" (MOVE as the server recorded it: the acknowledging
  // state's last_move, or the move sent when a move_ack acknowledged it) and flushed, so that
  // a test can check that no move the server acknowledged is missing from its database, even
  // when this process is killed (scripts/soak).
  std::string ack_log{};
  // What it plays with, named in its hello (the server records it as its bot version).
  std::optional<protocol::Engine> engine{};
  // Draw offers are answered at once: accepted when the last search's score of that game (its
  // own point of view) is at most `draw_margin` above a draw (0; a GDL player's value, 0..100,
  // at most `gdl_draw_margin` above 50), declined otherwise or before any search of the game.
  int draw_margin = 25;
  int gdl_draw_margin = 5;
};

struct BotStats {
  int games_started = 0, games_finished = 0;
  int wins = 0, losses = 0, draws = 0, aborted = 0;
  int lost_on_time = 0;  // games this bot lost with reason "timeout"
  int moves_sent = 0, resends = 0, fallbacks = 0, errors = 0;
  int puzzles_solved = 0, puzzles_failed = 0;
  int draws_accepted = 0, draws_declined = 0;  // draw offers answered
  int seeks_gone = 0;  // keep_seek_open: own seeks that left the lobby (taken, expired, cancelled)
  int connections = 0;               // welcomes received
  std::vector<std::string> reasons;  // game_end reasons, in order
  std::string last_error;
};

class BotSession {
 public:
  using Send = std::function<void(std::string)>;
  using Job = std::function<void()>;
  using Spawn = std::function<void(Job)>;

  BotSession(BotConfig config, PlayerFactory players, PuzzleSolver solver, Send send, Spawn spawn);
  ~BotSession();
  BotSession(const BotSession&) = delete;
  BotSession& operator=(const BotSession&) = delete;

  void on_open();                          // a connection opened: says hello
  void on_message(std::string_view text);  // one frame from the server
  void on_closed();                        // the connection dropped
  // Called every few hundred ms (a steady clock): claims the win in games whose opponent has
  // been silent for longer than the server's reconnect grace (the server refuses while they are
  // connected); takes seeks listed for accept_seek_after_ms; forgets an own seek the lobby
  // never listed (taken or expired before any snapshot showed it), so that another is opened.
  void on_tick(std::int64_t now_ms);

  // True when max_games / puzzles are done and no game is live.
  bool done() const;
  bool wait_done(std::int64_t timeout_ms) const;
  BotStats stats() const;
  std::int64_t player_id() const;
  // Sets the stop flag every search polls, so workers finish quickly at shutdown.
  void stop();

 private:
  struct Game;

  // One decoded frame, to the handler of its type.
  void handle(const protocol::ServerMessage& message);
  void on_welcome(const protocol::WelcomeMessage& m);
  void on_lobby(const protocol::LobbyMessage& m);
  void on_seek_created(const protocol::SeekCreatedMessage& m);
  // keep_seek_open: which of our seeks a lobby snapshot lists; one listed before and missing
  // now is gone (taken, expired or cancelled by the server).
  void track_own_seeks(const std::vector<protocol::LobbySeek>& seeks);
  // accept_seeks: takes the first matching seek of the latest lobby, if any.
  void take_seek();
  int open_seeks() const;
  void on_game_start(const protocol::GameStartMessage& m);
  void on_state(const protocol::StateMessage& m);
  void on_move_ack(const protocol::MoveAckMessage& m);
  void on_game_end(const protocol::GameEndMessage& m);
  void on_error(const protocol::ErrorMessage& m);
  void retry_dropped(const std::string& ref);
  void on_challenge(const protocol::ChallengeOfferMessage& m);
  void on_draw_offer(const protocol::DrawOfferMessage& m);
  void on_puzzle_state(const protocol::PuzzleStateMessage& m);
  void on_puzzle_end(const protocol::PuzzleEndMessage& m);
  void start_search(const std::shared_ptr<Game>& g, const protocol::StateMessage& state);
  void search_done(const std::shared_ptr<Game>& g, std::int64_t version, TurnReply reply);
  void send_pending(Game& g);
  void log_ack(const Game& g, const std::string& move);
  void top_up();
  // Makes the Players of the kinds this bot plays before any game starts (an engine that
  // takes a while to start must not spend its first move's clock on it).
  void warm_up();
  // Makes spare Players of `kind` until `needed` are ready. Called before every frame that can
  // start a game (a seek, an accept), so that with max_parallel > 1 no game's clock runs while
  // its Player is made; what the factory cannot make is tried again at the game's start.
  void ready_players(const std::string& kind, int needed);
  int players_to_commit(const std::string& kind) const;
  bool plays(std::string_view game) const;
  int live_games() const;
  bool done_locked() const;

  BotConfig config_;
  PlayerFactory players_;
  PuzzleSolver solver_;
  Send send_;
  Spawn spawn_;

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::atomic<bool> stop_{false};
  bool ready_ = false;  // welcome received on the current connection
  std::int64_t my_id_ = 0;
  std::string session_;  // a guest's session token, for hello.resume
  std::map<std::int64_t, std::shared_ptr<Game>> games_;
  std::map<std::string, std::vector<std::unique_ptr<Player>>> spare_;  // kind -> ready Players
  std::set<std::int64_t> finished_;
  std::set<std::int64_t> tried_seeks_;
  std::int64_t last_accepted_seek_ = -1;
  std::optional<protocol::LobbyMessage> last_lobby_;  // the latest lobby update
  int open_seeks_ = 0;  // seek_games: seeks sent and not yet taken
  // keep_seek_open: the seeks sent and not yet created (or refused), and the ones created, by
  // id, with whether a lobby snapshot listed them and since when they are unlisted.
  struct OwnSeek {
    bool listed = false;
    std::int64_t created_ms = 0;  // now_ms_ at seek_created
  };
  int seek_requests_ = 0;
  std::map<std::int64_t, OwnSeek> own_seeks_;
  // accept_seek_after_ms: when each seek of the latest lobby was first listed (now_ms_).
  std::map<std::int64_t, std::int64_t> seek_first_seen_;
  std::int64_t now_ms_ = 0;  // the latest on_tick
  int seeks_started_ = 0;
  bool puzzle_open_ = false;
  int puzzles_started_ = 0;
  std::int64_t grace_ms_ = 30000;  // welcome.limits.reconnect_grace_ms
  BotStats stats_;
  std::FILE* ack_log_ = nullptr;  // config_.ack_log, open for appending
};

}  // namespace arena::client
