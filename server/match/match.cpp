#include "server/match/match.h"

#include <boost/asio/post.hpp>

#include "games/core/rng.h"

namespace arena::server {

using protocol::ErrorCode;
using protocol::Json;

Match::Match(boost::asio::any_io_executor executor, MatchSettings settings,
             std::unique_ptr<AnyGame> game, db::Store& store,
             std::shared_ptr<const TimeSource> time, std::shared_ptr<MatchObserver> observer)
    : strand_(boost::asio::make_strand(executor)),
      timer_(strand_),
      settings_(std::move(settings)),
      game_(std::move(game)),
      store_(store),
      time_(std::move(time)),
      observer_(std::move(observer)),
      clock_(settings_.time_control) {
  update_summary();
}

bool Match::replay(const std::vector<std::string>& moves) {
  for (const auto& m : moves)
    if (!game_->play(m)) return false;
  return true;
}

void Match::start() {
  boost::asio::post(strand_, [self = shared_from_this()] {
    Json players = Json::array();
    for (const auto& p : self->settings_.players) players.push_back(protocol::to_json(p));
    self->emit(Json{{"type", "game_start"},
                    {"game_id", self->settings_.game_id},
                    {"game", self->settings_.kind},
                    {"options", self->settings_.options},
                    {"time_control", self->settings_.time_control.to_string()},
                    {"players", players},
                    {"moves", self->game_->history()}});
    self->announce_state();
  });
}

void Match::move(int seat, protocol::MoveRequest request, Reply reply) {
  boost::asio::post(strand_, [self = shared_from_this(), seat, request = std::move(request),
                              reply = std::move(reply)]() mutable {
    self->do_move(seat, std::move(request), reply);
  });
}

void Match::do_move(int seat, protocol::MoveRequest request, const Reply& reply) {
  // A resend of a move already played is acknowledged again, never replayed.
  if (auto it = client_ids_[seat].find(request.client_id); it != client_ids_[seat].end()) {
    if (!pending_ || pending_->client_id != request.client_id)
      reply(std::make_shared<const std::string>(Json{
          {"type", "move_ack"},
          {"game_id", game_id()},
          {"client_id", request.client_id},
          {"version", it->second}}.dump()));
    return;
  }
  if (finished_) return error(reply, ErrorCode::kGameOver, "the game is over", "move");
  if (pending_)
    return error(reply, ErrorCode::kBusy, "the previous move is being recorded", "move");
  if (index(game_->side_to_move()) != seat)
    return error(reply, ErrorCode::kNotYourTurn, "it is not your turn", "move");
  const std::int64_t now = time_->now_ms();
  if (clock_.flagged(now)) {
    clock_.end_turn(now);
    if (settings_.substitute_on_error) {
      error(reply, ErrorCode::kIllegalMove, "too late: a random legal move was played for you",
            "move");
      return substitute(seat, "timeout");
    }
    return finish(result_text(1 - seat), "timeout");
  }
  auto played = game_->play(request.move);
  if (!played) {
    if (settings_.substitute_on_error) {
      error(reply, ErrorCode::kIllegalMove,
            played.error() + "; a random legal move was played for you", "move");
      return substitute(seat, "illegal move " + request.move);
    }
    if (settings_.illegal_move_loses) return finish(result_text(1 - seat), "illegal_move");
    return error(reply, ErrorCode::kIllegalMove, played.error(), "move");
  }
  std::string pv;
  if (request.info)
    for (const auto& m : request.info->pv) pv += (pv.empty() ? "" : " ") + m;
  commit_move(seat, request.client_id, *played, request.info, std::move(pv), reply);
}

void Match::substitute(int seat, const std::string& why) {
  const auto moves = game_->legal_moves();
  if (moves.empty()) return finish(result_text(1 - seat), "no_moves");
  Rng rng(settings_.seed ^ (0x9E3779B97F4A7C15ULL * (game_->history().size() + 1)));
  auto played = game_->play(moves[rng.below(moves.size())]);
  if (!played) return finish(result_text(1 - seat), "illegal_move");  // not reached: it is legal
  commit_move(seat, "substituted:" + std::to_string(game_->history().size()), *played, std::nullopt,
              "substituted: " + why, {});
}

void Match::commit_move(int seat, const std::string& client_id, const std::string& move,
                        const std::optional<protocol::SearchInfo>& info, std::string pv,
                        Reply reply) {
  const std::int64_t now = time_->now_ms();
  move_time_used_ = now - turn_started_ms_;
  clock_.end_turn(now);
  timer_.cancel();
  if (draw_offer_by_ && *draw_offer_by_ != seat) draw_offer_by_.reset();  // a move declines
  const auto version = next_version();
  client_ids_[seat][client_id] = version;
  pending_ = PendingMove{seat, client_id, std::move(reply)};
  db::MoveRecord record;
  record.game = game_id();
  record.ply = static_cast<int>(game_->history().size()) - 1;
  record.move = move;
  record.time_used_ms = move_time_used_;
  record.clock_left_ms = clock_.enabled() ? clock_.remaining(seat, now) : -1;
  if (info) {
    record.depth = info->depth;
    record.nodes = info->nodes;
    record.score = info->score;
  }
  record.pv = std::move(pv);
  store_.append_move(record, [self = shared_from_this()](Expected<void> done) {
    boost::asio::post(self->strand_, [self, done = std::move(done)]() mutable {
      self->on_move_durable(std::move(done));
    });
  });
}

void Match::on_move_durable(Expected<void> done) {
  PendingMove pending = std::move(*pending_);
  pending_.reset();
  if (!done) {
    // Nothing is announced and the move is taken back, so the player can send it again.
    game_->undo();
    client_ids_[pending.seat].erase(pending.client_id);
    clock_.start_turn(pending.seat, time_->now_ms());
    arm_timer();
    return error(pending.reply, ErrorCode::kInternal,
                 "the move could not be recorded: " + done.error(), "move");
  }
  client_ids_[pending.seat][pending.client_id] = next_version();
  if (pending.reply)
    pending.reply(std::make_shared<const std::string>(Json{
        {"type", "move_ack"},
        {"game_id", game_id()},
        {"client_id", pending.client_id},
        {"version", next_version()}}.dump()));
  announce_state();
}

void Match::announce_state() {
  const Outcome outcome = game_->outcome();
  const std::int64_t now = time_->now_ms();
  const int side = index(game_->side_to_move());
  if (!outcome.is_terminal()) {
    clock_.start_turn(side, now);
    turn_started_ms_ = now;
  }
  protocol::StateMessage s;
  s.game_id = game_id();
  s.version = next_version();
  s.position = game_->serialize();
  s.to_move = side;
  if (!outcome.is_terminal()) s.legal_moves = game_->legal_moves();
  if (clock_.enabled())
    s.clocks = protocol::Clocks{clock_.remaining(0, now), clock_.remaining(1, now)};
  if (!game_->history().empty()) s.last_move = game_->history().back();
  s.result = std::string(result_notation(outcome.result));
  emit(protocol::to_json(s));
  if (outcome.is_terminal()) return finish(s.result, std::string(to_string(outcome.reason)));
  if (settings_.max_plies > 0 &&
      game_->history().size() >= static_cast<std::size_t>(settings_.max_plies))
    return finish("1/2-1/2", "adjudicated");
  arm_timer();
}

void Match::action(int seat, protocol::GameActionKind kind, Reply reply) {
  boost::asio::post(strand_, [self = shared_from_this(), seat, kind, reply = std::move(reply)] {
    self->do_action(seat, kind, reply);
  });
}

void Match::do_action(int seat, protocol::GameActionKind kind, const Reply& reply) {
  using protocol::GameActionKind;
  static constexpr const char* kRefs[] = {"resign", "offer_draw", "accept_draw", "abort",
                                          "claim_win"};
  const char* ref = kRefs[static_cast<int>(kind)];
  if (finished_) return error(reply, ErrorCode::kGameOver, "the game is over", ref);
  const std::int64_t now = time_->now_ms();
  switch (kind) {
    case GameActionKind::kResign:
      return finish(result_text(1 - seat), "resignation");
    case GameActionKind::kAbort:
      if (!game_->history().empty() || pending_)
        return error(reply, ErrorCode::kCannotAbort,
                     "a game can be aborted only before the first move", ref);
      return finish("*", "aborted");
    case GameActionKind::kOfferDraw:
      if (!settings_.draws_possible)
        return error(reply, ErrorCode::kDrawNotPossible, settings_.kind + " has no draws", ref);
      if (draw_offer_by_ && *draw_offer_by_ != seat) return finish("1/2-1/2", "agreement");
      draw_offer_by_ = seat;
      return emit(Json{{"type", "draw_offer"}, {"game_id", game_id()}, {"by", seat}});
    case GameActionKind::kAcceptDraw:
      if (!draw_offer_by_ || *draw_offer_by_ == seat)
        return error(reply, ErrorCode::kNoDrawOffer, "your opponent has not offered a draw", ref);
      return finish("1/2-1/2", "agreement");
    case GameActionKind::kClaimWin: {
      const auto& gone = gone_since_[1 - seat];
      if (!gone || now - *gone < settings_.reconnect_grace_ms)
        return error(reply, ErrorCode::kCannotClaim,
                     "your opponent is connected or within the grace period of " +
                         std::to_string(settings_.reconnect_grace_ms) + " ms",
                     ref);
      return finish(result_text(seat), "abandonment");
    }
  }
}

void Match::connection_changed(int seat, bool connected) {
  // The time of the report, not of the strand's turn: the grace period starts when the
  // connection was seen to close.
  const std::int64_t now = time_->now_ms();
  boost::asio::post(strand_, [self = shared_from_this(), seat, connected, now] {
    if (connected) {
      self->gone_since_[seat].reset();
    } else if (!self->gone_since_[seat]) {
      self->gone_since_[seat] = now;
    }
  });
}

void Match::send_history(std::int64_t since_version, Reply reply, std::function<void()> before) {
  boost::asio::post(strand_, [self = shared_from_this(), since_version, reply = std::move(reply),
                              before = std::move(before)] {
    if (before) before();
    // Versions run from version_base_; one the history does not have (from before a restart,
    // or beyond it) gets everything.
    const std::int64_t base = self->version_base_, next = self->next_version();
    const std::int64_t from =
        since_version >= next || since_version < base ? base : since_version + 1;
    for (auto v = static_cast<std::size_t>(from - base); v < self->history_.size(); ++v)
      reply(self->history_[v]);
  });
}

void Match::check_time() {
  boost::asio::post(strand_, [self = shared_from_this()] {
    if (self->finished_ || self->pending_) return;
    const std::int64_t now = self->time_->now_ms();
    if (!self->clock_.flagged(now)) return self->arm_timer();
    const int side = self->clock_.running_side();
    self->clock_.end_turn(now);
    if (self->settings_.substitute_on_error) return self->substitute(side, "timeout");
    self->finish(self->result_text(1 - side), "timeout");
  });
}

void Match::arm_timer() {
  if (!clock_.enabled() || !time_->is_real() || finished_) return;
  const int side = clock_.running_side();
  timer_.expires_after(std::chrono::milliseconds(clock_.remaining(side, time_->now_ms()) + 1));
  timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->check_time();
  });
}

std::string Match::result_text(std::optional<int> winner) const {
  if (!winner) return "1/2-1/2";
  return *winner == 0 ? "1-0" : "0-1";
}

void Match::finish(std::string result, std::string reason) {
  if (finished_) return;
  finished_ = true;
  timer_.cancel();
  result_ = std::move(result);
  reason_ = std::move(reason);
  db::GameEnd end{game_id(), result_, reason_, game_->serialize()};
  store_.finish_game(end, [self = shared_from_this()](Expected<void>) {
    // A failed write is logged by the store; the players still learn the result.
    boost::asio::post(self->strand_, [self] { self->on_finish_durable(); });
  });
}

void Match::on_finish_durable() {
  protocol::GameEndMessage e{game_id(), 0, result_, reason_};
  emit(protocol::to_json(e));
  if (auto observer = observer_.lock()) observer->on_match_finished(game_id());
}

void Match::emit(Json event) {
  event["version"] = next_version();
  auto text = std::make_shared<const std::string>(
      event.dump(-1, ' ', false, Json::error_handler_t::replace));
  history_.push_back(text);
  update_summary();
  if (auto observer = observer_.lock()) observer->on_match_event(game_id(), text);
}

void Match::update_summary() {
  SummaryFields f{game_ ? game_->history().size() : 0,
                  history_.empty() ? version_base_ : next_version() - 1, result_, reason_};
  std::lock_guard lock(summary_mutex_);
  summary_ = std::move(f);
}

Json Match::summary() const {
  SummaryFields f;
  {
    std::lock_guard lock(summary_mutex_);
    f = summary_;
  }
  Json players = Json::array();
  for (const auto& p : settings_.players) players.push_back(protocol::to_json(p));
  return Json{{"id", game_id()},
              {"game", settings_.kind},
              {"options", settings_.options},
              {"time_control", settings_.time_control.to_string()},
              {"players", players},
              {"plies", f.plies},
              {"version", f.version},
              {"live", f.result.empty()},
              {"result", f.result},
              {"reason", f.reason}};
}

void Match::error(const Reply& reply, ErrorCode code, const std::string& message,
                  std::string_view ref) {
  if (reply) reply(std::make_shared<const std::string>(protocol::encode_error(code, message, ref)));
}

}  // namespace arena::server
