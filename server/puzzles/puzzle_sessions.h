#pragma once
// PuzzleSessions: the single-player puzzle sessions (one player, moves verified by the rules).
// The end records the length, the time and the optimal length when HubConfig::optimal_length
// can tell it (the server links no solver itself: bots/ is off limits; `arena serve` injects
// one). A session's game row is created through the store's queue; its moves and its end are
// written the same way.
//
// A GDL sheet of one role (gdl:NAME) is a puzzle too: it ends in any terminal state, solved
// when its goal is 100, otherwise with the goal value as the score (puzzle_end.score), and its
// states carry the sheet's board (as game_start's) when it has one.
//
// Threading: the on_* routes run on the calling connection's strand, except that a GDL
// puzzle's instance is made on the blocking executor (a sheet's first load and compile can
// take seconds); a session opens on the hub's executor (after the store created its row) once
// the solver, on the blocking executor, has answered. One mutex guards the sessions, taken with no
// other lock held and never held while sending.
//
// Bounds (a client must not be able to fill the blocking threads or the memory): a player has
// at most kStartsPerPlayer puzzle_start being prepared, the server kStartsInFlight (more are
// answered `busy`); a player holds at most kKeptPerPlayer puzzles (a new one closes the oldest
// finished one, else the oldest unfinished); sweep() closes the puzzles left untouched for
// HubConfig::puzzle_idle_ms and the finished ones after reconnect_grace_ms.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include <boost/asio/any_io_executor.hpp>

#include "db/store.h"
#include "protocol/messages.h"
#include "server/core/connection.h"
#include "server/core/hub_config.h"

namespace arena::server {

class PuzzleSessions : public std::enable_shared_from_this<PuzzleSessions> {
 public:
  static constexpr int kStartsPerPlayer = 1;
  static constexpr int kStartsInFlight = 8;
  static constexpr std::size_t kKeptPerPlayer = 16;

  PuzzleSessions(boost::asio::any_io_executor executor, HubConfig config, db::Store& store,
                 std::shared_ptr<const TimeSource> time);
  // Where the solver runs (Hub::use_blocking_executor). Call before clients connect.
  void use_blocking_executor(boost::asio::any_io_executor blocking);

  void on_start(const std::shared_ptr<Connection>& c, const protocol::PuzzleStart& m);
  void on_move(const std::shared_ptr<Connection>& c, const protocol::PuzzleMove& m);
  void on_solution(const std::shared_ptr<Connection>& c, const protocol::PuzzleSolution& m);

  // The puzzles in progress (not over).
  std::size_t count();
  // Closes idle and long-finished sessions (HubConfig::puzzle_idle_ms, reconnect_grace_ms).
  void sweep(std::int64_t now_ms);
  // After the I/O threads have stopped: drops every session.
  void release();

 private:
  struct Session {
    std::int64_t id = 0, player = 0;
    std::string kind;
    std::unique_ptr<AnyGame> game;
    std::int64_t started_ms = 0;
    std::int64_t touched_ms = 0;  // the last move, or the start; when it ended once over
    int moves = 0;
    bool over = false;  // solved, or a GDL puzzle's terminal state short of its goal
    std::optional<int> optimal_length;
    std::string options, instance;  // as recorded at the start (for the attempt's row)
    std::optional<protocol::BoardLayout> board;  // a GDL puzzle's grid, found at the start
  };

  // A puzzle_start being prepared: counted in starting_ until release() (before the session's
  // first state or the start's error is sent), or the last copy goes. Neither with mutex_ held.
  struct StartTicket {
    StartTicket(std::shared_ptr<PuzzleSessions> s, std::int64_t p)
        : sessions(std::move(s)), player(p) {}
    StartTicket(const StartTicket&) = delete;
    StartTicket& operator=(const StartTicket&) = delete;
    ~StartTicket();
    void release();
    std::shared_ptr<PuzzleSessions> sessions;
    std::int64_t player = 0;
    bool released = false;  // under sessions->mutex_
  };
  using StartSlot = std::shared_ptr<StartTicket>;
  // The puzzle a puzzle_start asks for, scrambled, or nullptr after `ticket` was released and
  // the error sent to c.
  std::unique_ptr<AnyGame> make_instance(const std::shared_ptr<Connection>& c,
                                         const protocol::PuzzleStart& m, StartTicket& ticket);
  // A slot for `player`'s start, or null after the `busy` error was sent to c.
  StartSlot take_start_slot(const std::shared_ptr<Connection>& c);
  // The rest of a puzzle_start once the instance is made (null: the error was sent).
  void create(const std::shared_ptr<Connection>& c, const protocol::PuzzleStart& m,
              std::unique_ptr<AnyGame> instance, StartSlot slot);
  // The rest of a puzzle_start once its row exists (or could not be made).
  void start(const std::shared_ptr<Connection>& c, const db::NewGame& record,
             std::unique_ptr<AnyGame> instance, const Expected<db::GameId>& id, StartSlot slot);
  // ... and once its optimal length is known (or not): the session opens, the state is sent.
  void open(const std::shared_ptr<Connection>& c, const db::NewGame& record,
            std::unique_ptr<AnyGame> instance, db::GameId id, std::optional<int> optimal,
            StartSlot slot);
  // Under mutex_: closes `player`'s oldest finished session, else its oldest unfinished one
  // other than `keep`, while the player holds more than kKeptPerPlayer.
  void close_oldest_of(std::int64_t player, std::int64_t keep);
  Text state_of(const Session& p) const;
  // Under mutex_: `c`'s puzzle `id` still going on, or null with `code` and `error` saying why not.
  Session* open_session_of(const Connection& c, std::int64_t id, protocol::ErrorCode& code,
                           std::string& error);
  // Under mutex_: stores `move` as the puzzle's next ply.
  void record_move(Session& p, const std::string& move);
  Text finish(Session& p);

  boost::asio::any_io_executor executor_;
  boost::asio::any_io_executor blocking_;  // executor_ until use_blocking_executor
  HubConfig config_;
  db::Store& store_;
  std::shared_ptr<const TimeSource> time_;

  std::mutex mutex_;
  std::map<std::int64_t, Session> sessions_;
  std::map<std::int64_t, int> starting_;  // player -> its puzzle_starts being prepared
  int starting_total_ = 0;
};

}  // namespace arena::server
