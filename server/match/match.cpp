// Match: starting, actions (resign, draws, abort, claims), connections, history, the end.
// Moves and turns are in match_turns.cpp.

#include "server/match/match.h"

#include <boost/asio/post.hpp>

#include "games/catalog/notation.h"
#include "server/match/board_layout.h"

namespace arena::server {

using protocol::ErrorCode;

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
      clock_(settings_.time_control, static_cast<int>(settings_.players.size())),
      client_ids_(settings_.players.size()),
      gone_since_(settings_.players.size()) {
  update_summary();
}

Expected<std::vector<ReplayedRow>> Match::replay(const std::vector<std::string>& rows) {
  RowReplay r = replay_rows(*game_, rows);
  if (!r.error.empty()) return make_error(r.error);
  rows_ = static_cast<int>(rows.size());
  return std::move(r.rows);
}

void Match::start() {
  boost::asio::post(strand_, [self = shared_from_this()] {
    protocol::GameStartMessage g;
    g.game_id = self->settings_.game_id;
    g.game = self->settings_.kind;
    g.options = self->settings_.options;
    g.time_control = self->settings_.time_control.to_string();
    g.players = self->settings_.players;
    g.moves = self->game_->history();
    g.moves_san = display_history(*self->game_);  // chess: SAN for the page's move list
    g.seats = self->game_->seat_names();
    g.simultaneous = self->game_->simultaneous();
    // A GDL game's board, found once (a few milliseconds of random turns on a clone).
    self->board_ = detect_board_layout(*self->game_);
    g.board = self->board_;
    self->emit(g);
    self->announce_state();
  });
}

void Match::move(int seat, protocol::MoveRequest request, Reply reply, std::weak_ptr<void> origin,
                 std::optional<std::int64_t> lag_ms) {
  const std::int64_t read_ms = time_->now_ms();
  boost::asio::post(strand_, [self = shared_from_this(), seat, request = std::move(request),
                              reply = std::move(reply), origin = std::move(origin), lag_ms,
                              read_ms]() mutable {
    self->do_move(seat, std::move(request), reply, origin, lag_ms, read_ms);
  });
}

void Match::action(int seat, protocol::GameActionKind kind, Reply reply) {
  boost::asio::post(strand_, [self = shared_from_this(), seat, kind, reply = std::move(reply)] {
    self->do_action(seat, kind, reply);
  });
}

void Match::do_action(int seat, protocol::GameActionKind kind, const Reply& reply) {
  using protocol::GameActionKind;
  static constexpr const char* kRefs[] = {"resign",    "offer_draw", "accept_draw",
                                          "abort",     "claim_win",  "decline_draw"};
  const char* ref = kRefs[static_cast<int>(kind)];
  if (finished_) return error(reply, ErrorCode::kGameOver, "the game is over", ref);
  if (seat < 0 || seat >= seats())
    return error(reply, ErrorCode::kNotYourGame, "you have no seat in this game", ref);
  const std::int64_t now = time_->now_ms();
  switch (kind) {
    case GameActionKind::kResign:
      return finish_against(seat, "resignation");
    case GameActionKind::kAbort:
      if (!game_->history().empty() || pending_)
        return error(reply, ErrorCode::kCannotAbort,
                     "a game can be aborted only before the first move", ref);
      return finish("*", "aborted", {});
    case GameActionKind::kOfferDraw:
      if (!settings_.draws_possible)
        return error(reply, ErrorCode::kDrawNotPossible,
                     seats() > 2 ? "a game of " + std::to_string(seats()) + " seats has no draws"
                                 : settings_.kind + " has no draws",
                     ref);
      if (draw_offer_by_ && *draw_offer_by_ != seat) return finish_draw("agreement");
      draw_offer_by_ = seat;
      return emit(protocol::DrawOfferMessage{game_id(), 0, seat});
    case GameActionKind::kAcceptDraw:
      if (!draw_offer_by_ || *draw_offer_by_ == seat)
        return error(reply, ErrorCode::kNoDrawOffer, "your opponent has not offered a draw", ref);
      return finish_draw("agreement");
    case GameActionKind::kDeclineDraw:
      if (!draw_offer_by_ || *draw_offer_by_ == seat)
        return error(reply, ErrorCode::kNoDrawOffer, "your opponent has not offered a draw", ref);
      draw_offer_by_.reset();
      return emit(protocol::DrawDeclinedMessage{game_id(), 0, seat});
    case GameActionKind::kClaimWin:
      // Against a seat gone longer than the grace period (the lowest such seat).
      for (int other = 0; other < seats(); ++other) {
        const auto& gone = gone_since_[static_cast<std::size_t>(other)];
        if (other != seat && gone && now - *gone >= settings_.reconnect_grace_ms)
          return finish_against(other, "abandonment");
      }
      return error(reply, ErrorCode::kCannotClaim,
                   std::string(seats() > 2 ? "every other player is" : "your opponent is") +
                       " connected or within the grace period of " +
                       std::to_string(settings_.reconnect_grace_ms) + " ms",
                   ref);
  }
}

void Match::connection_changed(int seat, bool connected) {
  // The time of the report, not of the strand's turn: the grace period starts when the
  // connection was seen to close.
  const std::int64_t now = time_->now_ms();
  boost::asio::post(strand_, [self = shared_from_this(), seat, connected, now] {
    if (seat < 0 || seat >= self->seats()) return;
    auto& gone = self->gone_since_[static_cast<std::size_t>(seat)];
    if (connected) {
      gone.reset();
    } else if (!gone) {
      gone = now;
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

void Match::finish_against(int loser, const std::string& reason) {
  if (seats() == 2) {
    std::vector<int> scores{100, 100};
    scores[static_cast<std::size_t>(loser == 0 ? 0 : 1)] = 0;
    return finish(loser == 0 ? "0-1" : "1-0", reason, std::move(scores));
  }
  std::vector<int> scores(static_cast<std::size_t>(seats()), 100);
  if (loser >= 0 && loser < seats()) scores[static_cast<std::size_t>(loser)] = 0;
  std::string result = protocol::result_from_scores(scores);  // before scores is moved
  finish(std::move(result), reason, std::move(scores));
}

void Match::finish_draw(const std::string& reason) {
  std::vector<int> scores(static_cast<std::size_t>(seats()), 50);
  std::string result = protocol::result_from_scores(scores);  // before scores is moved
  finish(std::move(result), reason, std::move(scores));
}

void Match::finish(std::string result, std::string reason, std::vector<int> scores,
                   std::string note) {
  if (finished_) return;
  finished_ = true;
  timer_.cancel();
  result_ = std::move(result);
  reason_ = std::move(reason);
  note_ = std::move(note);
  scores_ = std::move(scores);
  db::GameEnd end{game_id(), result_, reason_, game_->serialize(), scores_, note_};
  store_.finish_game(end, [self = shared_from_this()](Expected<void>) {
    // A failed write is logged by the store; the players still learn the result. A store that
    // answers at once answers on the strand: game_end then follows the last state in the
    // same batch of sends (one socket write per connection for both).
    if (self->strand_.running_in_this_thread()) return self->on_finish_durable();
    boost::asio::post(self->strand_, [self] { self->on_finish_durable(); });
  });
}

void Match::on_finish_durable() {
  protocol::GameEndMessage e{game_id(), 0, result_, reason_, scores_, note_};
  emit(e);
  if (auto observer = observer_.lock()) observer->on_match_finished(game_id());
}

Text Match::record(protocol::ServerMessage event) {
  std::visit(
      [this](auto& m) {
        if constexpr (requires { m.version; }) m.version = next_version();
      },
      event);
  auto text = text_of(event);
  history_.push_back(text);
  update_summary();
  return text;
}

void Match::emit(protocol::ServerMessage event) {
  auto text = record(std::move(event));
  if (auto observer = observer_.lock()) observer->on_match_event(game_id(), text);
}

void Match::update_summary() {
  SummaryFields f{game_ ? game_->history().size() : 0,
                  history_.empty() ? version_base_ : next_version() - 1, result_, reason_};
  std::lock_guard lock(summary_mutex_);
  summary_ = std::move(f);
}

protocol::GameSummary Match::summary() const {
  SummaryFields f;
  {
    std::lock_guard lock(summary_mutex_);
    f = summary_;
  }
  return {game_id(),
          settings_.kind,
          settings_.options,
          settings_.time_control.to_string(),
          settings_.players,
          static_cast<std::int64_t>(f.plies),
          f.version,
          f.result.empty(),
          f.result,
          f.reason};
}

void Match::error(const Reply& reply, ErrorCode code, const std::string& message,
                  std::string_view ref) {
  if (reply) reply(std::make_shared<const std::string>(protocol::encode_error(code, message, ref)));
}

}  // namespace arena::server
