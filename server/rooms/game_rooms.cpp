#include "server/rooms/game_rooms.h"

#include <algorithm>

#include <boost/asio/post.hpp>

#include "games/catalog/catalog.h"

namespace arena::server {

using protocol::ErrorCode;

GameRooms::GameRooms(boost::asio::any_io_executor executor, HubConfig config, db::Store& store,
                     std::shared_ptr<const TimeSource> time, std::shared_ptr<Presence> presence)
    : executor_(std::move(executor)),
      config_(std::move(config)),
      store_(store),
      time_(std::move(time)),
      presence_(std::move(presence)) {}

void GameRooms::set_listeners(std::function<void()> changed,
                              std::function<void(db::GameId)> finished) {
  changed_ = std::move(changed);
  finished_listener_ = std::move(finished);
}

void GameRooms::start_match(const std::vector<protocol::PlayerInfo>& players,
                            const std::string& game, const std::string& options,
                            const std::string& time_control, const std::shared_ptr<Connection>& c,
                            std::string_view ref) {
  // The offer was checked when it was made; the catalog has not changed since.
  auto opts = parse_game_options(options);
  auto made = config_.make_game(game, opts ? *opts : GameOptions{});
  auto tc = parse_time_control(time_control);
  if (!opts || !made || !tc || players.size() < 2)
    return send_error(c, ErrorCode::kInternal, "the offer became invalid", ref);
  db::NewGame record{std::string((*made)->name()),
                     options,
                     (*made)->serialize(),
                     players[0].id,
                     players[1].id,
                     tc->to_string(),
                     0,
                     std::nullopt};
  record.first_version = presence_->bot_version(players[0].id);
  record.second_version = presence_->bot_version(players[1].id);
  if (players.size() > 2)
    for (const auto& p : players) record.seats.push_back(p.id);
  // The row is written by the store's thread; this I/O thread goes on serving its other
  // connections meanwhile (with synchronous=FULL a commit waits for the disk).
  auto game_ptr = std::make_shared<std::unique_ptr<AnyGame>>(std::move(*made));
  store_.create_game_async(
      record, [self = shared_from_this(), weak = std::weak_ptr<Connection>(c), players, options,
               tc = *tc, game_ptr, ref = std::string(ref)](Expected<db::GameId> id) {
        boost::asio::post(self->executor_, [=] {
          if (!id) {
            if (auto conn = weak.lock())
              send_error(conn, ErrorCode::kInternal,
                         "the game could not be recorded: " + id.error(), ref);
            return;
          }
          self->begin_match(self->make_match(*id, players, std::move(*game_ptr), options, tc));
        });
      });
}

void GameRooms::begin_match(const std::shared_ptr<Match>& match) {
  const std::int64_t id = match->game_id();
  // Every connection of every player follows the game from its start. Under Presence's lock,
  // so that a player's connection logging in now either is among them or finds the game
  // listed in its welcome (Hub::welcome).
  presence_->with_connections_of(match->settings().players, [&](const Conns& conns) {
    std::lock_guard lock(mutex_);
    matches_[id] = match;
    live_.insert(id);
    auto& subscribers = watchers_[id];
    subscribers.insert(subscribers.end(), conns.begin(), conns.end());
  });
  match->start();
  if (changed_) changed_();
}

std::shared_ptr<Match> GameRooms::make_match(std::int64_t id,
                                             std::vector<protocol::PlayerInfo> players,
                                             std::unique_ptr<AnyGame> game,
                                             const std::string& options, const TimeControl& tc,
                                             const std::optional<TournamentRules>& rules) {
  MatchSettings settings;
  settings.game_id = id;
  settings.kind = std::string(game->name());
  settings.options = options;
  settings.time_control = tc;
  settings.players = std::move(players);
  settings.illegal_move_loses = config_.illegal_move_loses;
  settings.reconnect_grace_ms = config_.reconnect_grace_ms;
  settings.draws_possible = settings.kind != "isolation" && settings.players.size() == 2;
  if (rules) {
    settings.illegal_move_loses = rules->illegal_move_loses;
    settings.substitute_on_error = rules->substitute_on_error;
    settings.max_plies = rules->max_plies;
    settings.seed = rules->seed;
  }
  return std::make_shared<Match>(executor_, std::move(settings), std::move(game), store_, time_,
                                 shared_from_this());
}

std::pair<std::shared_ptr<Match>, int> GameRooms::seat_of(const std::shared_ptr<Connection>& c,
                                                          std::int64_t game_id,
                                                          std::string_view ref) {
  auto match = find_match(game_id);
  if (!match) {
    send_error(c, ErrorCode::kNoSuchGame, "no game " + std::to_string(game_id), ref);
    return {nullptr, -1};
  }
  const auto& players = match->settings().players;
  for (std::size_t seat = 0; seat < players.size(); ++seat)
    if (players[seat].id == c->player.id) return {match, static_cast<int>(seat)};
  send_error(c, ErrorCode::kNotYourGame, "you are not a player of game " + std::to_string(game_id),
             ref);
  return {nullptr, -1};
}

void GameRooms::on_move(const std::shared_ptr<Connection>& c, protocol::MoveRequest m) {
  auto [match, seat] = seat_of(c, m.game_id, "move");
  if (!match) return;
  // The connection comes back with the turn (on_turn_event), where the move is acknowledged
  // in the state its connection is sent (v3) or with a move_ack through the reply (v1, v2).
  // Its measured round trip goes with the move: the clock credits it (lag compensation).
  match->move(seat, std::move(m), reply_to(c), std::weak_ptr<void>(c), c->measured_lag_ms());
}

void GameRooms::on_action(const std::shared_ptr<Connection>& c, const protocol::GameAction& m) {
  static constexpr const char* kRefs[] = {"resign",    "offer_draw", "accept_draw",
                                          "abort",     "claim_win",  "decline_draw"};
  auto [match, seat] = seat_of(c, m.game_id, kRefs[static_cast<int>(m.kind)]);
  if (match) match->action(seat, m.kind, reply_to(c));
}

void GameRooms::on_watch(const std::shared_ptr<Connection>& c, std::int64_t game_id,
                         std::int64_t since, bool as_player) {
  std::shared_ptr<Match> match;
  if (as_player) {
    match = seat_of(c, game_id, "resume").first;
    if (!match) return;
  } else {
    match = find_match(game_id);
    if (!match)
      return send_error(c, ErrorCode::kNoSuchGame, "no game " + std::to_string(game_id), "watch");
  }
  // Subscribing on the match's strand: the history, then every later event, exactly once.
  match->send_history(since, reply_to(c),
                      [self = shared_from_this(), game_id, weak = std::weak_ptr<Connection>(c)] {
                        auto conn = weak.lock();
                        if (!conn) return;
                        std::lock_guard lock(self->mutex_);
                        auto& conns = self->watchers_[game_id];
                        std::erase_if(
                            conns, [&](const auto& w) { return w.expired() || w.lock() == conn; });
                        conns.push_back(conn);
                      });
}

void GameRooms::on_unwatch(const std::shared_ptr<Connection>& c, const protocol::Unwatch& m) {
  std::lock_guard lock(mutex_);
  auto it = watchers_.find(m.game_id);
  if (it == watchers_.end()) return;
  std::erase_if(it->second, [&](const auto& w) { return w.expired() || w.lock() == c; });
  if (it->second.empty()) watchers_.erase(it);
}

std::optional<std::vector<std::shared_ptr<Connection>>> GameRooms::followers(std::int64_t game_id) {
  std::vector<std::shared_ptr<Connection>> targets;
  std::lock_guard lock(mutex_);
  if (!matches_.contains(game_id)) return std::nullopt;
  if (auto wc = watchers_.find(game_id); wc != watchers_.end())
    for (auto& w : wc->second)
      if (auto c = w.lock()) targets.push_back(std::move(c));
  return targets;
}

void GameRooms::on_match_event(std::int64_t game_id, const Text& event) {
  if (auto targets = followers(game_id))
    for (const auto& c : *targets) c->send(event);
}

void GameRooms::probe_players(std::int64_t game_id) {
  auto match = find_match(game_id);
  const auto following = followers(game_id);
  if (!match || !following) return;
  for (const auto& c : *following)
    for (const auto& p : match->settings().players)
      if (p.id == c->player.id) c->probe_turn();
}

void GameRooms::on_turn_event(std::int64_t game_id, const Text& state,
                              const std::vector<MoveAck>& acks, std::size_t moves) {
  moves_total_.fetch_add(moves, std::memory_order_relaxed);
  // The movers' connections that take the acknowledgement in the state, with their text.
  std::vector<std::pair<std::shared_ptr<Connection>, Text>> acked;
  for (const auto& a : acks) {
    auto origin = std::static_pointer_cast<Connection>(a.origin.lock());
    if (origin && origin->protocol >= protocol::kAckInStateVersion)
      acked.emplace_back(
          std::move(origin),
          std::make_shared<const std::string>(protocol::state_with_client_id(*state, a.client_id)));
    else if (a.reply)
      a.reply(a.move_ack(game_id));
  }
  probe_players(game_id);
  if (acked.empty()) return on_match_event(game_id, state);
  const auto following = followers(game_id);
  if (!following) return;
  const auto& targets = *following;
  for (const auto& c : targets) {
    auto it = std::find_if(acked.begin(), acked.end(), [&](const auto& p) { return p.first == c; });
    c->send(it == acked.end() ? state : it->second);
  }
  // A mover's connection that does not follow the game (it never sent resume) still gets its
  // acknowledgement, as it got the move_ack.
  for (const auto& [c, text] : acked)
    if (std::find(targets.begin(), targets.end(), c) == targets.end()) c->send(text);
}

void GameRooms::on_match_finished(std::int64_t game_id) {
  std::shared_ptr<Match> oldest;  // freed after the lock is released
  {
    std::lock_guard lock(mutex_);
    live_.erase(game_id);
    watchers_.erase(game_id);  // the game_end event was the last one
    finished_.emplace_back(time_->now_ms(), game_id);
    // One out for one in past the cap, here rather than hundreds at once in sweep().
    if (finished_.size() > kFinishedKept) {
      if (auto it = matches_.find(finished_.front().second); it != matches_.end()) {
        oldest = std::move(it->second);
        matches_.erase(it);
      }
      finished_.pop_front();
    }
  }
  if (changed_) changed_();
  if (finished_listener_) finished_listener_(game_id);
}

std::vector<std::pair<std::shared_ptr<Match>, int>> GameRooms::seats_of(std::int64_t player_id) {
  std::vector<std::pair<std::shared_ptr<Match>, int>> games;
  std::lock_guard lock(mutex_);
  for (auto id : live_) {
    auto& match = matches_[id];
    const auto& players = match->settings().players;
    for (std::size_t seat = 0; seat < players.size(); ++seat)
      if (players[seat].id == player_id) games.emplace_back(match, static_cast<int>(seat));
  }
  return games;
}

std::shared_ptr<Match> GameRooms::find_match(std::int64_t game_id) {
  std::lock_guard lock(mutex_);
  auto it = matches_.find(game_id);
  return it == matches_.end() ? nullptr : it->second;
}

std::vector<protocol::GameSummary> GameRooms::live_games(const std::string& kind,
                                                         std::size_t limit) {
  std::vector<std::shared_ptr<Match>> live;
  {
    std::lock_guard lock(mutex_);
    for (auto id : live_) {
      if (live.size() >= limit) break;
      const auto& m = matches_[id];
      if (kind.empty() || m->settings().kind == kind) live.push_back(m);
    }
  }
  std::vector<protocol::GameSummary> out;
  for (const auto& m : live) out.push_back(m->summary());
  return out;
}

std::size_t GameRooms::live_count() {
  std::lock_guard lock(mutex_);
  return live_.size();
}

bool GameRooms::is_live(db::GameId id) {
  std::lock_guard lock(mutex_);
  return live_.contains(id);
}

double GameRooms::moves_per_second() {
  std::lock_guard lock(mutex_);
  return moves_per_second_;
}

void GameRooms::sweep(std::int64_t now) {
  std::vector<std::shared_ptr<Match>> expired;  // freed after the lock is released
  std::lock_guard lock(mutex_);
  const std::uint64_t total = moves_total_.load();
  if (last_sweep_ms_ >= 0 && now > last_sweep_ms_)
    moves_per_second_ = static_cast<double>(total - moves_at_last_sweep_) * 1000.0 /
                        static_cast<double>(now - last_sweep_ms_);
  moves_at_last_sweep_ = total;
  last_sweep_ms_ = now;
  // A finished game stays in memory for the reconnect grace period (a player resuming it,
  // or resending its last move, still gets the end), and at most kFinishedKept of them
  // (on_match_finished): after that the store has it. Without this a server of fast games
  // grew without bound.
  while (!finished_.empty() && now - finished_.front().first >= config_.reconnect_grace_ms) {
    if (auto it = matches_.find(finished_.front().second); it != matches_.end()) {
      expired.push_back(std::move(it->second));
      matches_.erase(it);
    }
    finished_.pop_front();
  }
}

void GameRooms::release() {
  std::map<std::int64_t, std::shared_ptr<Match>> matches;
  std::lock_guard lock(mutex_);
  matches.swap(matches_);
  finished_.clear();
  live_.clear();
  watchers_.clear();
  // The matches are destroyed after the lock is released.
}

}  // namespace arena::server
