#pragma once
// Match: one live game of two to six seats. Owns its strand, the AnyGame, the clocks and the
// event history (every event carries a version: 0 is game_start, then one per state, draw
// offer, simultaneous move taken ("moved") and the end). It talks to the outside only through
// MatchObserver (events for everyone in the game) and Reply callbacks (answers for the one client
// that asked), so it can be tested without a network.
//
// Threading: every public method may be called from any thread; work runs on the strand.
// The observer and the replies are called on the strand.
//
// Turns: the seats in AnyGame::movers() move. With one mover the move is played at once; in a
// simultaneous turn (several movers) each mover's move is checked against its legal moves and
// kept (a "moved" event says that seat has chosen, not what) until every mover has one, then
// the turn is played with play_turn. Each mover's clock runs until its own move arrives.
//
// Durability: a turn is announced (its state event, with each mover's acknowledgement) only
// after the store's append_move callbacks said its rows are durable (one row per mover, in
// movers() order: games/core/turn_rows.h); the end of a game after finish_game's.

#include <cstdint>
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
#include <boost/asio/strand.hpp>

#include "db/store.h"
#include "games/core/any_game.h"
#include "games/core/turn_rows.h"
#include "protocol/server_codec.h"
#include "server/match/clock.h"

namespace arena::server {

using Text = std::shared_ptr<const std::string>;

// A message as the text frame every recipient shares (invalid UTF-8 in a string replaced).
inline Text text_of(const protocol::ServerMessage& m) {
  return std::make_shared<const std::string>(protocol::encode(m));
}
using Reply = std::function<void(Text)>;

// A mover to acknowledge when its turn is announced.
struct MoveAck {
  std::string client_id;
  std::int64_t version = 0;    // the state's
  Reply reply;                 // the mover's answers (errors, a resend's move_ack)
  std::weak_ptr<void> origin;  // the connection the move came from, if the caller named it
  Text move_ack(std::int64_t game_id) const {
    return std::make_shared<const std::string>(
        protocol::encode_move_ack(game_id, client_id, version));
  }
};

class MatchObserver {
 public:
  virtual ~MatchObserver() = default;
  // An event for the players and spectators of the game (JSON text with "version").
  virtual void on_match_event(std::int64_t game_id, const Text& event) = 0;
  // A turn of `moves` moves is durable and `state` (already in the history) announces it;
  // `acks` are its movers that sent their move (not the substituted ones). By default each
  // mover's reply gets a move_ack, then everyone the state; the hub sends a connection of
  // protocol version 3 the state with its client_id instead of the move_ack.
  virtual void on_turn_event(std::int64_t game_id, const Text& state,
                             const std::vector<MoveAck>& acks, std::size_t moves) {
    (void)moves;
    for (const auto& a : acks)
      if (a.reply) a.reply(a.move_ack(game_id));
    on_match_event(game_id, state);
  }
  // The game ended and its end is durable; `event` has already been sent to on_match_event.
  virtual void on_match_finished(std::int64_t game_id) = 0;
};

struct MatchSettings {
  std::int64_t game_id = 0;
  std::string kind, options;
  TimeControl time_control;
  std::vector<protocol::PlayerInfo> players;  // one per seat (2 to protocol::kMaxSeats)
  bool illegal_move_loses = false;
  std::int64_t reconnect_grace_ms = 30'000;  // after this, the opponent may claim the win
  bool draws_possible = true;
  // Tournament rules. max_plies > 0: the game is adjudicated a draw ("adjudicated") once this
  // many plies have been played here. substitute_on_error (research mode): an illegal move or
  // a flag fall does not lose; a random legal move (from `seed`) is played for that side and
  // recorded with "substituted: <why>" as its principal variation.
  int max_plies = 0;
  bool substitute_on_error = false;
  std::uint64_t seed = 0;
};

class Match : public std::enable_shared_from_this<Match> {
 public:
  Match(boost::asio::any_io_executor executor, MatchSettings settings,
        std::unique_ptr<AnyGame> game, db::Store& store, std::shared_ptr<const TimeSource> time,
        std::shared_ptr<MatchObserver> observer);

  // Emits game_start (version 0) and the first state, and starts the first player's clock.
  void start();
  // After a restart, before start(): replays the stored move rows (turns.h); the seat of each
  // row, or an error naming the row that does not replay.
  Expected<std::vector<ReplayedRow>> replay(const std::vector<std::string>& rows);
  // After replay(): what `seat`'s clock had left at its last move.
  void restore_clock(int seat, std::int64_t ms) { clock_.set_remaining(seat, ms); }
  // After a restart, before start(): this game's versions continue from `base`, which must be
  // above every version clients saw before (the hub uses the restart time in milliseconds),
  // so that a client resuming with an old version gets the whole history again.
  void continue_versions_from(std::int64_t base) { version_base_ = base; }

  // `seat` is the client's seat: the caller has already checked that the client is that player.
  // `origin` (the client's connection) comes back in the turn's MoveAck. `lag_ms`: the round
  // trip the server measured on the client's connection (nullopt: none yet), credited to the
  // mover's clock within the bounds of GameClock's LagRule. The move is timed when this is
  // called (where the transport read it), not when the match's strand runs it: the server's
  // own queueing is never charged to a clock.
  void move(int seat, protocol::MoveRequest request, Reply reply, std::weak_ptr<void> origin = {},
            std::optional<std::int64_t> lag_ms = std::nullopt);
  void action(int seat, protocol::GameActionKind kind, Reply reply);
  void connection_changed(int seat, bool connected);
  // Sends every event with a version above `since_version` to `reply`, in order; all of
  // them when `since_version` is beyond the history (the server restarted since). `before`
  // runs first on the strand: subscribing there means no event is missed or sent twice.
  void send_history(std::int64_t since_version, Reply reply, std::function<void()> before = {});
  // Ends the game on time (or substitutes a move) if a seat to move has run out (called by the
  // timer, or by tests after advancing a manual time source).
  void check_time();

  const MatchSettings& settings() const { return settings_; }
  std::int64_t game_id() const { return settings_.game_id; }
  // A JSON summary for the REST API and the lobby; thread-safe (a copy made on the strand).
  protocol::GameSummary summary() const;

 private:
  // A mover's move in the running turn, until its row is durable.
  struct TurnMove {
    int seat = 0;
    std::string move;  // canonical
    std::string client_id;
    std::optional<protocol::SearchInfo> info;
    std::string pv;
    Reply reply;  // empty for a substituted move
    std::weak_ptr<void> origin;
    std::int64_t time_used_ms = 0, clock_left_ms = -1;
    std::optional<std::int64_t> lag_ms;  // its connection's measured round trip
  };
  // A played turn whose rows are being recorded.
  struct PendingTurn {
    std::vector<TurnMove> moves;
    std::size_t waiting = 0, stored = 0;
    std::string error;  // the first failure
  };

  int seats() const { return static_cast<int>(settings_.players.size()); }
  bool is_mover(int seat) const;
  // `read_ms`: when the transport read the move (time_'s clock).
  void do_move(int seat, protocol::MoveRequest request, const Reply& reply,
               const std::weak_ptr<void>& origin, std::optional<std::int64_t> lag_ms,
               std::int64_t read_ms);
  // A move whose client_id this seat has sent before: acknowledged again or kept for its turn
  // (or refused: the seat chose another move this turn). False for a new move.
  bool answer_resend(int seat, const protocol::MoveRequest& request, const Reply& reply,
                     const std::weak_ptr<void>& origin);
  // The listed legal move of `seat` that `text` names (exactly, or up to case and spacing).
  std::optional<std::string> find_legal(int seat, const std::string& text) const;
  // Adds `tm`'s move to the running turn; with one mover plays it at once, else plays the turn
  // once every mover has a move. An error (one mover: an illegal move) changes nothing. `now`:
  // the time the move counts as made.
  Expected<void> take_move(TurnMove tm, std::int64_t now);
  void play_collected();
  // Records a played turn and announces it once every row is durable.
  void commit_turn(std::vector<TurnMove> moves);
  void substitute(int seat, const std::string& why);
  void on_row_durable(Expected<void> done);
  void on_turn_durable();
  void do_action(int seat, protocol::GameActionKind kind, const Reply& reply);
  // The state event; with `acks` (a durable turn), through MatchObserver::on_turn_event.
  void announce_state(const std::vector<MoveAck>& acks = {}, std::size_t moves = 0);
  // `note`: game_end's note (AnyGame::end_note), when the rules ended the game.
  void finish(std::string result, std::string reason, std::vector<int> scores,
              std::string note = {});
  // The game ends against `loser` (timeout, resignation, ...): every other seat wins.
  void finish_against(int loser, const std::string& reason);
  void finish_draw(const std::string& reason);
  void on_finish_durable();
  void emit(protocol::ServerMessage event);
  // Gives `event` the next version and keeps it in the history; the text.
  Text record(protocol::ServerMessage event);
  void arm_timer();
  void update_summary();
  static void error(const Reply& reply, protocol::ErrorCode code, const std::string& message,
                    std::string_view ref);

  boost::asio::strand<boost::asio::any_io_executor> strand_;
  boost::asio::steady_timer timer_;
  MatchSettings settings_;
  std::unique_ptr<AnyGame> game_;
  db::Store& store_;
  std::shared_ptr<const TimeSource> time_;
  // Weak: the hub owns its matches, so a strong pointer back would be a cycle that leaks both.
  std::weak_ptr<MatchObserver> observer_;
  GameClock clock_;
  std::int64_t next_version() const {
    return version_base_ + static_cast<std::int64_t>(history_.size());
  }

  std::vector<Text> history_;  // index = version - version_base_
  std::int64_t version_base_ = 0;
  std::vector<std::map<std::string, std::int64_t>> client_ids_;  // per seat: id -> version
  std::vector<int> movers_;                // of the running turn
  std::map<int, TurnMove> turn_moves_;     // a simultaneous turn's moves so far, by seat
  std::optional<PendingTurn> pending_;
  int rows_ = 0;  // move rows recorded so far: the next row's ply
  std::optional<int> draw_offer_by_;
  std::vector<std::optional<std::int64_t>> gone_since_;  // per seat
  bool finished_ = false;  // no more moves (the end may not be durable yet)
  std::string result_, reason_, note_;
  std::vector<int> scores_;
  std::int64_t turn_started_ms_ = 0;
  std::optional<protocol::BoardLayout> board_;
  // What summary() reports, copied here on the strand after every event (a few integers and
  // two strings: the JSON is built only when someone asks, not on every move).
  struct SummaryFields {
    std::size_t plies = 0;
    std::int64_t version = 0;
    std::string result, reason;
  };
  mutable std::mutex summary_mutex_;
  SummaryFields summary_;
};

}  // namespace arena::server
