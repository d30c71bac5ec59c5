// Match: moves and turns. A move is checked, kept until its turn is complete (simultaneous
// turns), played, recorded row by row and announced once durable; clocks and substitutes.

#include <algorithm>
#include <cctype>

#include <boost/asio/post.hpp>

#include "games/catalog/notation.h"
#include "games/core/rng.h"
#include "server/match/match.h"

namespace arena::server {

using protocol::ErrorCode;

namespace {

// Lower case with runs of spaces made one and no spaces inside parentheses' edges, so that
// "( mark 1 1 )" names "(mark 1 1)" (GDL is case-insensitive).
std::string normalized(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (space) {
      if (!out.empty() && out.back() != ' ' && out.back() != '(') out.push_back(' ');
      continue;
    }
    if (c == ')' && !out.empty() && out.back() == ' ') out.pop_back();
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

Text ack(std::int64_t game_id, const std::string& client_id, std::int64_t version) {
  return std::make_shared<const std::string>(
      protocol::encode_move_ack(game_id, client_id, version));
}

}  // namespace

bool Match::is_mover(int seat) const {
  return std::find(movers_.begin(), movers_.end(), seat) != movers_.end();
}

std::optional<std::string> Match::find_legal(int seat, const std::string& text) const {
  const auto legal = game_->legal_moves_of(seat);
  if (std::find(legal.begin(), legal.end(), text) != legal.end()) return text;
  const std::string want = normalized(text);
  for (const auto& m : legal)
    if (normalized(m) == want) return m;
  return std::nullopt;
}

void Match::do_move(int seat, protocol::MoveRequest request, const Reply& reply,
                    const std::weak_ptr<void>& origin, std::optional<std::int64_t> lag_ms,
                    std::int64_t read_ms) {
  if (seat < 0 || seat >= seats())
    return error(reply, ErrorCode::kNotYourGame, "you have no seat in this game", "move");
  if (answer_resend(seat, request, reply, origin)) return;
  if (finished_) return error(reply, ErrorCode::kGameOver, "the game is over", "move");
  if (pending_)
    return error(reply, ErrorCode::kBusy, "the previous move is being recorded", "move");
  if (!is_mover(seat))
    return error(reply, ErrorCode::kNotYourTurn,
                 movers_.size() > 1 ? "your seat (" + std::to_string(seat) +
                                          ") does not move in this turn"
                                    : "it is not your turn",
                 "move");
  // The move counts as made when it was read (never before its turn began).
  const std::int64_t now = std::max(read_ms, turn_started_ms_);
  if (clock_.out_of_time(seat, now, lag_ms)) {
    clock_.end_turn(seat, now);
    if (settings_.substitute_on_error) {
      error(reply, ErrorCode::kIllegalMove, "too late: a random legal move was played for you",
            "move");
      return substitute(seat, "timeout");
    }
    return finish_against(seat, "timeout");
  }
  TurnMove tm{seat, request.move, request.client_id, request.info, {}, reply, origin, 0, -1,
              lag_ms};
  if (request.info)
    for (const auto& m : request.info->pv) tm.pv += (tm.pv.empty() ? "" : " ") + m;
  std::string illegal;
  if (movers_.size() > 1) {
    auto legal = find_legal(seat, request.move);
    if (legal) tm.move = *legal;
    else illegal = "illegal move '" + request.move + "' for seat " + std::to_string(seat);
  }
  if (illegal.empty())
    if (auto taken = take_move(std::move(tm), now); !taken) illegal = taken.error();
  if (illegal.empty()) return;
  if (settings_.substitute_on_error) {
    error(reply, ErrorCode::kIllegalMove, illegal + "; a random legal move was played for you",
          "move");
    return substitute(seat, "illegal move " + request.move);
  }
  if (settings_.illegal_move_loses) return finish_against(seat, "illegal_move");
  error(reply, ErrorCode::kIllegalMove, illegal, "move");
}

bool Match::answer_resend(int seat, const protocol::MoveRequest& request, const Reply& reply,
                          const std::weak_ptr<void>& origin) {
  const auto s = static_cast<std::size_t>(seat);
  // A resend of a move already played is acknowledged again (a move_ack, in every protocol
  // version), never replayed.
  if (auto it = client_ids_[s].find(request.client_id); it != client_ids_[s].end()) {
    const bool recording =
        pending_ && std::any_of(pending_->moves.begin(), pending_->moves.end(), [&](auto& m) {
          return m.seat == seat && m.client_id == request.client_id;
        });
    if (!recording) reply(ack(game_id(), request.client_id, it->second));
    return true;
  }
  // A resend of a move kept for a simultaneous turn: its ack comes with the turn.
  auto it = turn_moves_.find(seat);
  if (it == turn_moves_.end()) return false;
  if (it->second.client_id == request.client_id) {
    it->second.reply = reply;
    it->second.origin = origin;
  } else {
    error(reply, ErrorCode::kAlreadyMoved,
          "you have already chosen your move for this turn ('" + it->second.move +
              "'); wait for the other players",
          "move");
  }
  return true;
}

Expected<void> Match::take_move(TurnMove tm, std::int64_t now) {
  const int seat = tm.seat;
  if (movers_.size() == 1) {
    auto played = game_->play_turn({tm.move});
    if (!played) return Error{played.error()};
    tm.move = *played;
  }
  // do_move checked the time with this lag: the move is in time.
  clock_.end_turn(seat, now, tm.lag_ms);
  tm.time_used_ms = now - turn_started_ms_;
  tm.clock_left_ms = clock_.enabled() ? clock_.remaining(seat, now) : -1;
  if (movers_.size() == 1) {
    commit_turn({std::move(tm)});
    return {};
  }
  turn_moves_[seat] = std::move(tm);
  emit(protocol::MovedMessage{game_id(), 0, seat});
  if (turn_moves_.size() == movers_.size()) {
    play_collected();
  } else {
    arm_timer();
  }
  return {};
}

void Match::play_collected() {
  std::vector<std::string> moves;
  std::vector<TurnMove> turn;
  for (int seat : movers_) {
    moves.push_back(turn_moves_.at(seat).move);
    turn.push_back(std::move(turn_moves_.at(seat)));
  }
  turn_moves_.clear();
  auto played = game_->play_turn(moves);
  if (!played) {
    // Every move was one of its seat's legal moves, so the game refused its own answer:
    // nothing is recorded and the turn starts again.
    for (const auto& m : turn)
      error(m.reply, ErrorCode::kInternal, "the turn could not be played: " + played.error(),
            "move");
    return announce_state();
  }
  commit_turn(std::move(turn));
}

void Match::commit_turn(std::vector<TurnMove> moves) {
  timer_.cancel();
  // A move declines a standing draw offer of the opponent.
  for (const auto& m : moves)
    if (draw_offer_by_ && *draw_offer_by_ != m.seat) draw_offer_by_.reset();
  const auto version = next_version();
  for (const auto& m : moves)
    client_ids_[static_cast<std::size_t>(m.seat)][m.client_id] = version;
  pending_ = PendingTurn{moves, moves.size(), 0, {}};
  for (const auto& m : moves) {
    db::MoveRecord record;
    record.game = game_id();
    record.ply = rows_++;
    record.seat = m.seat;
    record.move = m.move;
    record.time_used_ms = m.time_used_ms;
    record.clock_left_ms = m.clock_left_ms;
    if (m.info) {
      record.depth = m.info->depth;
      record.nodes = m.info->nodes;
      record.score = m.info->score;
    }
    record.pv = m.pv;
    // A store that answers at once (MemoryStore) answers here, on the strand: no second trip
    // through the strand's queue per move. on_turn_durable then runs from the last row's
    // call, which ends this loop.
    store_.append_move(record, [self = shared_from_this()](Expected<void> done) {
      if (self->strand_.running_in_this_thread()) return self->on_row_durable(std::move(done));
      boost::asio::post(self->strand_, [self, done = std::move(done)]() mutable {
        self->on_row_durable(std::move(done));
      });
    });
  }
}

void Match::on_row_durable(Expected<void> done) {
  if (!pending_) return;
  if (done) ++pending_->stored;
  else if (pending_->error.empty()) pending_->error = done.error();
  if (--pending_->waiting == 0) on_turn_durable();
}

void Match::on_turn_durable() {
  PendingTurn p = std::move(*pending_);
  pending_.reset();
  if (!p.error.empty()) {
    if (p.stored > 0) {
      // Part of the turn's rows is stored: the record cannot be mended, the game ends.
      for (const auto& m : p.moves)
        error(m.reply, ErrorCode::kInternal, "the turn could not be recorded: " + p.error, "move");
      return finish("*", "store_error", {});
    }
    // Nothing is announced and the turn is taken back, so the players can send it again.
    game_->undo();
    rows_ -= static_cast<int>(p.moves.size());
    for (const auto& m : p.moves) {
      client_ids_[static_cast<std::size_t>(m.seat)].erase(m.client_id);
      error(m.reply, ErrorCode::kInternal, "the move could not be recorded: " + p.error, "move");
    }
    return announce_state();
  }
  // The movers are acknowledged with the state (MatchObserver::on_turn_event).
  std::vector<MoveAck> acks;
  for (const auto& m : p.moves) {
    client_ids_[static_cast<std::size_t>(m.seat)][m.client_id] = next_version();
    if (m.reply) acks.push_back(MoveAck{m.client_id, next_version(), m.reply, m.origin});
  }
  announce_state(acks, p.moves.size());
}

void Match::substitute(int seat, const std::string& why) {
  const auto moves = game_->legal_moves_of(seat);
  if (moves.empty()) return finish_against(seat, "no_moves");
  Rng rng(settings_.seed ^
          (0x9E3779B97F4A7C15ULL * (static_cast<std::uint64_t>(rows_) + turn_moves_.size() + 1)));
  TurnMove tm{seat,
              moves[rng.below(moves.size())],
              "substituted:" + std::to_string(rows_) + ":" + std::to_string(seat),
              std::nullopt,
              "substituted: " + why,
              {},
              {},
              0,
              -1,
              std::nullopt};
  // Not reached for a legal move: the game refuses only illegal ones.
  if (auto taken = take_move(std::move(tm), time_->now_ms()); !taken)
    finish_against(seat, "illegal_move");
}

void Match::announce_state(const std::vector<MoveAck>& acks, std::size_t moves) {
  const Outcome outcome = game_->outcome();
  const std::int64_t now = time_->now_ms();
  movers_ = outcome.is_terminal() ? std::vector<int>{} : game_->movers();
  std::erase_if(movers_, [&](int seat) { return seat < 0 || seat >= seats(); });
  turn_moves_.clear();
  const bool over = outcome.is_terminal() || movers_.empty();
  if (!over) {
    clock_.start_turn(movers_, now);
    turn_started_ms_ = now;
  }
  protocol::StateMessage s;
  s.game_id = game_id();
  s.version = next_version();
  s.position = game_->serialize();
  const int side = index(game_->side_to_move());
  s.to_move = !movers_.empty() ? movers_.front() : side >= 0 && side < seats() ? side : 0;
  s.movers = movers_;
  if (game_->simultaneous()) {
    s.legal_moves_by_seat.emplace(static_cast<std::size_t>(seats()));
    for (int seat : movers_)
      (*s.legal_moves_by_seat)[static_cast<std::size_t>(seat)] = game_->legal_moves_of(seat);
    if (!over) s.legal_moves = (*s.legal_moves_by_seat)[static_cast<std::size_t>(s.to_move)];
  } else if (!over) {
    s.legal_moves = game_->legal_moves();  // the one mover's (AnyGame::legal_moves)
  }
  if (clock_.enabled()) s.clocks = clock_.remaining_all(now);
  if (!game_->history().empty()) {
    s.last_move = game_->history().back();
    s.last_move_san = last_move_display(*game_);  // chess: SAN for the page's move list
  }
  std::vector<int> scores;
  if (over) {
    scores = game_->scores();
    scores.resize(static_cast<std::size_t>(seats()), 0);
    s.result = protocol::result_from_scores(scores);
  }
  if (moves > 0) {
    auto text = record(s);
    if (auto observer = observer_.lock()) observer->on_turn_event(game_id(), text, acks, moves);
  } else {
    emit(s);
  }
  if (outcome.is_terminal())
    return finish(s.result, std::string(to_string(outcome.reason)), std::move(scores),
                  game_->end_note());
  if (over) return finish(s.result, "no_moves", std::move(scores), game_->end_note());
  if (settings_.max_plies > 0 &&
      game_->history().size() >= static_cast<std::size_t>(settings_.max_plies))
    return finish_draw("adjudicated");
  arm_timer();
}

void Match::check_time() {
  boost::asio::post(strand_, [self = shared_from_this()] {
    if (self->finished_ || self->pending_) return;
    const std::int64_t now = self->time_->now_ms();
    const auto seat = self->clock_.flagged_seat(now);
    if (!seat) return self->arm_timer();
    self->clock_.end_turn(*seat, now);
    if (self->settings_.substitute_on_error) return self->substitute(*seat, "timeout");
    self->finish_against(*seat, "timeout");
  });
}

void Match::arm_timer() {
  if (!clock_.enabled() || !time_->is_real() || finished_) return;
  const auto left = clock_.next_flag_in(time_->now_ms());
  if (!left) return;
  timer_.expires_after(std::chrono::milliseconds(*left + 1));
  timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->check_time();
  });
}

}  // namespace arena::server
