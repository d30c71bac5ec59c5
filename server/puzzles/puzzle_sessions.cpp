#include "server/puzzles/puzzle_sessions.h"

#include <random>
#include <vector>

#include <boost/asio/post.hpp>

#include "games/catalog/catalog.h"
#include "server/match/board_layout.h"

namespace arena::server {

using protocol::ErrorCode;

PuzzleSessions::PuzzleSessions(boost::asio::any_io_executor executor, HubConfig config,
                               db::Store& store, std::shared_ptr<const TimeSource> time)
    : executor_(executor),
      blocking_(executor),
      config_(std::move(config)),
      store_(store),
      time_(std::move(time)) {}

void PuzzleSessions::use_blocking_executor(boost::asio::any_io_executor blocking) {
  blocking_ = std::move(blocking);
}

Text PuzzleSessions::state_of(const Session& p) const {
  return text_of(protocol::PuzzleStateMessage{p.id, p.kind, p.moves, p.game->serialize(),
                                              p.game->legal_moves(), p.game->history(), p.board});
}

Text PuzzleSessions::finish(Session& p) {
  p.over = true;
  p.touched_ms = time_->now_ms();
  const Outcome outcome = p.game->outcome();
  const bool solved = outcome.result == Result::kFirstWins;
  const std::vector<int> scores = p.game->scores();
  const int score = scores.empty() ? (solved ? 100 : 0) : scores.front();
  const std::string note = p.game->end_note();  // kept with the game, as a match's is
  store_.finish_game({p.id,
                      solved ? "solved" : "unsolved",
                      std::string(to_string(outcome.reason)),
                      p.game->serialize(),
                      {score},
                      note},
                     [](Expected<void>) {});
  db::PuzzleAttempt attempt;
  attempt.player = p.player;
  attempt.kind = p.kind;
  attempt.options = p.options;  // the instance as recorded at the start
  attempt.instance = p.instance;
  attempt.solved = solved;
  attempt.length = p.moves;
  attempt.optimal_length = p.optimal_length;
  attempt.time_ms = time_->now_ms() - p.started_ms;
  for (const auto& m : p.game->history())
    attempt.solution += (attempt.solution.empty() ? "" : " ") + m;
  attempt.game = p.id;
  store_.record_puzzle_attempt(attempt, [](Expected<void>) {});
  protocol::PuzzleEndMessage end{
      p.id, solved, p.moves, std::nullopt, time_->now_ms() - p.started_ms, score, note};
  if (p.optimal_length) end.optimal_length = *p.optimal_length;
  return text_of(end);
}

std::unique_ptr<AnyGame> PuzzleSessions::make_instance(const std::shared_ptr<Connection>& c,
                                                       const protocol::PuzzleStart& m,
                                                       StartTicket& ticket) {
  // The start is freed before its error goes out: the client may send the next one at once.
  const auto refuse = [&](ErrorCode code, const std::string& message) {
    ticket.release();
    send_error(c, code, message, "puzzle_start");
    return nullptr;
  };
  auto opts = parse_game_options(m.options);
  if (!opts) return refuse(ErrorCode::kBadOptions, opts.error());
  // A scramble without a state starts from the solved puzzle: the puzzle makes the random
  // moves itself (its `scramble` and `seed` options), so its optimal length is at most that.
  // A GDL sheet takes no options: it starts from its initial state, and a scramble is random
  // moves from there.
  const bool own_options = !is_gdl_game(m.puzzle);
  const bool puzzle_scrambles =
      own_options && m.state.empty() && m.scramble > 0 && !opts->contains("tiles");
  if (puzzle_scrambles) (*opts)["scramble"] = std::to_string(m.scramble);
  if (own_options && m.state.empty() && !opts->contains("seed"))
    (*opts)["seed"] = std::to_string(m.seed);
  auto made =
      m.state.empty() ? config_.make_game(m.puzzle, *opts) : config_.load_game(m.puzzle, m.state);
  // A game of two or more seats refuses the puzzle's own options (seed, scramble): say what is
  // wrong with it, not with the options.
  if (!made && own_options && m.state.empty())
    if (auto plain = config_.make_game(m.puzzle, *parse_game_options(m.options));
        plain && (*plain)->num_players() != 1)
      made = std::move(plain);
  if (!made) {
    const bool unknown = made.error().starts_with("unknown game");
    return refuse(unknown ? ErrorCode::kUnknownGame : ErrorCode::kBadOptions, made.error());
  }
  auto game = std::move(*made);
  if (game->num_players() != 1)
    return refuse(ErrorCode::kUnknownGame, "'" + m.puzzle + "' is not a puzzle: a game of " +
                                               std::to_string(game->num_players()) +
                                               " players (seek or challenge to play it)");
  std::mt19937_64 rng(m.seed);
  for (int i = 0; i < (puzzle_scrambles ? 0 : m.scramble); ++i) {
    auto moves = game->legal_moves();
    if (moves.empty()) break;
    (void)game->play(moves[rng() % moves.size()]);
  }
  // The scramble is part of the instance, not of the solution: reload to forget its history.
  if (m.scramble > 0) {
    auto reloaded = config_.load_game(game->name(), game->serialize());
    if (!reloaded) return refuse(ErrorCode::kInternal, reloaded.error());
    game = std::move(*reloaded);
  }
  return game;
}

PuzzleSessions::StartSlot PuzzleSessions::take_start_slot(const std::shared_ptr<Connection>& c) {
  const std::int64_t player = c->player.id;
  std::string busy;
  {
    std::lock_guard lock(mutex_);
    if (starting_[player] >= kStartsPerPlayer)
      busy =
          "your previous puzzle_start is still being prepared; send this one after its "
          "puzzle_state or error";
    else if (starting_total_ >= kStartsInFlight)
      busy = "the server is preparing " + std::to_string(kStartsInFlight) +
             " puzzles already; send puzzle_start again in a moment";
    else {
      ++starting_[player];
      ++starting_total_;
    }
  }
  if (!busy.empty()) return send_error(c, ErrorCode::kBusy, busy, "puzzle_start"), nullptr;
  return std::make_shared<StartTicket>(shared_from_this(), player);
}

void PuzzleSessions::StartTicket::release() {
  std::lock_guard lock(sessions->mutex_);
  if (released) return;
  released = true;
  if (--sessions->starting_[player] <= 0) sessions->starting_.erase(player);
  --sessions->starting_total_;
}

PuzzleSessions::StartTicket::~StartTicket() {
  release();
}

void PuzzleSessions::on_start(const std::shared_ptr<Connection>& c,
                              const protocol::PuzzleStart& m) {
  StartSlot slot = take_start_slot(c);
  if (!slot) return;
  if (!is_gdl_game(m.puzzle)) {
    auto instance = make_instance(c, m, *slot);
    return create(c, m, std::move(instance), std::move(slot));
  }
  // A sheet's first making (its load and compile) can take seconds: not on an I/O thread. The
  // client cannot move in the puzzle before its state names the id, so nothing waits.
  boost::asio::post(blocking_, [self = shared_from_this(), c, m, slot = std::move(slot)] {
    self->create(c, m, self->make_instance(c, m, *slot), slot);
  });
}

void PuzzleSessions::create(const std::shared_ptr<Connection>& c, const protocol::PuzzleStart& m,
                            std::unique_ptr<AnyGame> instance, StartSlot slot) {
  if (!instance) return;
  db::NewGame record{std::string(instance->name()),
                     m.options,
                     instance->serialize(),
                     c->player.id,
                     0,
                     "none",
                     m.seed,
                     std::nullopt};
  // The row is created through the store's queue (an I/O thread never waits on it); the
  // puzzle starts on the hub's executor once it exists. The client cannot send a move for it
  // before it has the puzzle's id, so nothing can overtake the start.
  auto shared_game = std::make_shared<std::unique_ptr<AnyGame>>(std::move(instance));
  store_.create_game_async(record, [self = shared_from_this(), c, record, shared_game,
                                    slot = std::move(slot)](Expected<db::GameId> id) {
    boost::asio::post(self->executor_,
                      [self, c, record, shared_game, id = std::move(id), slot = std::move(slot)] {
                        self->start(c, record, std::move(*shared_game), id, slot);
                      });
  });
}

void PuzzleSessions::start(const std::shared_ptr<Connection>& c, const db::NewGame& record,
                           std::unique_ptr<AnyGame> instance, const Expected<db::GameId>& id,
                           StartSlot slot) {
  if (!id) {
    slot->release();
    return send_error(c, ErrorCode::kInternal, id.error(), "puzzle_start");
  }
  if (!config_.optimal_length)
    return open(c, record, std::move(instance), *id, {}, std::move(slot));
  // The solver may take a while (`arena serve` gives IDA* up to 2 million nodes: 20 ms for a
  // hard 15-puzzle, 350 ms for a cube 12 moves from solved, on the development machine): on an
  // I/O thread it would hold up every connection that thread serves. The client cannot move
  // in the puzzle before its state names the id, so nothing waits.
  auto shared_game = std::make_shared<std::unique_ptr<AnyGame>>(std::move(instance));
  boost::asio::post(blocking_, [self = shared_from_this(), c, record, shared_game, id = *id,
                                slot = std::move(slot)] {
    auto optimal = self->config_.optimal_length((*shared_game)->name(), record.start_position);
    boost::asio::post(self->executor_, [self, c, record, shared_game, id, optimal, slot] {
      self->open(c, record, std::move(*shared_game), id, optimal, slot);
    });
  });
}

void PuzzleSessions::open(const std::shared_ptr<Connection>& c, const db::NewGame& record,
                          std::unique_ptr<AnyGame> instance, db::GameId id,
                          std::optional<int> optimal, StartSlot slot) {
  Text state;
  Text end;
  // A GDL puzzle's grid (a few milliseconds of random turns on a clone, as Match::start).
  auto board = detect_board_layout(*instance);
  {
    std::lock_guard lock(mutex_);
    const std::int64_t now = time_->now_ms();
    auto& p = sessions_[id];
    p = Session{id,
                c->player.id,
                std::string(instance->name()),
                std::move(instance),
                now,
                now,
                0,
                false,
                optimal,
                record.options,
                record.start_position,
                std::move(board)};
    state = state_of(p);
    if (p.game->outcome().is_terminal()) end = finish(p);
    close_oldest_of(c->player.id, id);
  }
  slot->release();  // before the state goes out: the client may send its next start at once
  c->send(state);
  if (end) c->send(end);
}

void PuzzleSessions::close_oldest_of(std::int64_t player, std::int64_t keep) {
  for (;;) {
    std::size_t held = 0;
    auto oldest_over = sessions_.end(), oldest_open = sessions_.end();
    // Ids grow with time: the first of each kind in the map is its oldest.
    for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
      if (it->second.player != player) continue;
      ++held;
      if (it->second.over && oldest_over == sessions_.end()) oldest_over = it;
      if (!it->second.over && it->first != keep && oldest_open == sessions_.end()) oldest_open = it;
    }
    if (held <= kKeptPerPlayer) return;
    sessions_.erase(oldest_over != sessions_.end() ? oldest_over : oldest_open);
  }
}

void PuzzleSessions::sweep(std::int64_t now_ms) {
  std::vector<std::unique_ptr<AnyGame>> closed;  // destroyed after the lock is released
  std::lock_guard lock(mutex_);
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    const std::int64_t kept_ms =
        it->second.over ? config_.reconnect_grace_ms : config_.puzzle_idle_ms;
    if (now_ms - it->second.touched_ms < kept_ms) {
      ++it;
      continue;
    }
    closed.push_back(std::move(it->second.game));
    it = sessions_.erase(it);
  }
}

PuzzleSessions::Session* PuzzleSessions::open_session_of(const Connection& c, std::int64_t id,
                                                         ErrorCode& code, std::string& error) {
  auto it = sessions_.find(id);
  if (it == sessions_.end() || it->second.player != c.player.id) {
    code = ErrorCode::kNoSuchPuzzle;
    error = "you have no puzzle " + std::to_string(id) +
            " (unknown, or closed: untouched for too long, or the oldest of more than " +
            std::to_string(kKeptPerPlayer) + " you started)";
    return nullptr;
  }
  if (it->second.over) {
    code = ErrorCode::kGameOver;
    error = it->second.game->outcome().result == Result::kFirstWins
                ? "the puzzle is already solved"
                : "the puzzle is over (ended short of its goal)";
    return nullptr;
  }
  return &it->second;
}

void PuzzleSessions::record_move(Session& p, const std::string& move) {
  db::MoveRecord record;  // one seat
  record.game = p.id;
  record.ply = p.moves;
  record.seat = 0;
  record.move = move;
  store_.append_move(record, [](Expected<void>) {});
  ++p.moves;
  p.touched_ms = time_->now_ms();
}

void PuzzleSessions::on_move(const std::shared_ptr<Connection>& c, const protocol::PuzzleMove& m) {
  Text state, end;
  std::string error;
  ErrorCode code = ErrorCode::kNoSuchPuzzle;
  {
    std::lock_guard lock(mutex_);
    if (Session* p = open_session_of(*c, m.puzzle_id, code, error)) {
      if (auto played = p->game->play(m.move); !played) {
        code = ErrorCode::kIllegalMove;
        error = played.error();
      } else {
        record_move(*p, *played);
        state = state_of(*p);
        if (p->game->outcome().is_terminal()) end = finish(*p);
      }
    }
  }
  if (!error.empty()) return send_error(c, code, error, "puzzle_move");
  c->send(state);
  if (end) c->send(end);
}

void PuzzleSessions::on_solution(const std::shared_ptr<Connection>& c,
                                 const protocol::PuzzleSolution& m) {
  Text state, end;
  std::string error;
  ErrorCode code = ErrorCode::kNoSuchPuzzle;
  {
    std::lock_guard lock(mutex_);
    if (Session* open = open_session_of(*c, m.puzzle_id, code, error)) {
      // Verified on a copy: a wrong solution changes nothing.
      auto trial = open->game->clone();
      for (std::size_t i = 0; i < m.moves.size() && error.empty(); ++i)
        if (auto played = trial->play(m.moves[i]); !played) {
          code = ErrorCode::kIllegalMove;
          error = "moves[" + std::to_string(i) + "]: " + played.error();
        }
      // A GDL puzzle's terminal state short of its goal is no solution either.
      if (error.empty() && trial->outcome().result != Result::kFirstWins) {
        code = ErrorCode::kNotSolved;
        error = "the " + std::to_string(m.moves.size()) + " moves do not reach the goal";
      }
      if (error.empty()) {
        auto& p = *open;
        for (const auto& move : m.moves) {
          auto played = p.game->play(move);
          record_move(p, played ? *played : move);
        }
        state = state_of(p);
        end = finish(p);
      }
    }
  }
  if (!error.empty()) return send_error(c, code, error, "puzzle_solution");
  c->send(state);
  c->send(end);
}

std::size_t PuzzleSessions::count() {
  std::lock_guard lock(mutex_);
  std::size_t open = 0;
  for (const auto& [id, p] : sessions_) open += p.over ? 0 : 1;
  return open;
}

void PuzzleSessions::release() {
  std::map<std::int64_t, Session> sessions;
  std::lock_guard lock(mutex_);
  sessions.swap(sessions_);
}

}  // namespace arena::server
