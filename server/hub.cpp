#include "server/hub.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <utility>

#include <boost/asio/post.hpp>

#include "db/sha256.h"
#include "games/core/overload.h"
#include "protocol/player_name.h"

namespace arena::server {

using protocol::ErrorCode;

namespace {

bool is_loopback(const std::string& address) {
  return address.starts_with("127.") || address == "::1" || address.starts_with("::ffff:127.");
}

std::int64_t unix_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string new_session_token() {
  std::random_device rd;
  std::string t;
  for (int i = 0; i < 32; ++i) t += "0123456789abcdef"[rd() % 16];
  return t;
}

}  // namespace

Hub::Hub(boost::asio::any_io_executor executor, HubConfig config, db::Store& store,
         std::shared_ptr<const TimeSource> time)
    : config_(std::move(config)),
      store_(store),
      time_(std::move(time)),
      presence_(std::make_shared<Presence>()),
      rooms_(std::make_shared<GameRooms>(executor, config_, store_, time_, presence_)),
      lobby_(std::make_shared<Lobby>(executor, config_, time_, presence_, rooms_)),
      puzzles_(std::make_shared<PuzzleSessions>(executor, config_, store_, time_)),
      tournaments_(std::make_shared<Tournaments>(config_, store_, presence_, rooms_)) {
  // Weak: a room's callbacks must not keep the lobby or the hooks alive after release().
  rooms_->set_listeners(
      [lobby = std::weak_ptr<Lobby>(lobby_)] {
        if (auto l = lobby.lock()) l->changed();
      },
      [tournaments = std::weak_ptr<Tournaments>(tournaments_)](db::GameId id) {
        if (auto t = tournaments.lock()) t->game_finished(id);
      });
}

void Hub::use_blocking_executor(boost::asio::any_io_executor blocking) {
  blocking_ = blocking;
  lobby_->use_blocking_executor(blocking);
  puzzles_->use_blocking_executor(std::move(blocking));
}

void Hub::use_compile_executor(boost::asio::any_io_executor compile) {
  lobby_->use_compile_executor(std::move(compile));
}

void Hub::on_open(const std::shared_ptr<Connection>& c) {
  std::lock_guard lock(mutex_);
  connections_.insert(c);
}

bool Hub::within_rate(const std::shared_ptr<Connection>& c, const std::string& ref) {
  if (c->limiter.allow(time_->now_ms())) return true;
  if (c->limiter.flooding()) {
    // Once: later messages of the same flood still arrive before the close.
    if (c->limiter.dropped() == protocol::kMaxDroppedMessages + 1)
      c->close_for_policy("flooding: " + std::to_string(c->limiter.dropped()) +
                          " messages over the rate of " +
                          std::to_string(protocol::kMaxMessagesPerSecond) + " per second");
    return false;
  }
  send_error(c, ErrorCode::kRateLimited,
             "more than " + std::to_string(protocol::kMaxMessagesPerSecond) +
                 " messages per second; this one was dropped",
             ref);
  return false;
}

void Hub::on_message(const std::shared_ptr<Connection>& c, std::string_view text) {
  // Decoded first (a message is at most kMaxMessageBytes), so the error names what was dropped
  // and a client can send that again.
  protocol::Decoded d = protocol::decode_client_message(text);
  if (!within_rate(c, d.ref_type)) return;
  if (!d.message) return send_error(c, d.error.code, d.error.message, d.ref_type);
  if (!c->hello_done && !std::holds_alternative<protocol::Hello>(*d.message))
    return send_error(c, ErrorCode::kHelloRequired, "the first message must be hello", d.ref_type);
  dispatch(c, std::move(*d.message));
}

void Hub::on_binary_message(const std::shared_ptr<Connection>& c) {
  if (!within_rate(c, "")) return;
  send_error(c, ErrorCode::kBadJson,
             "binary frames are not part of the protocol: send each JSON message as a text "
             "frame",
             "");
}

// The dispatch table: one line per client message type, naming the owner that handles it.
void Hub::dispatch(const std::shared_ptr<Connection>& c, protocol::ClientMessage message) {
  Lobby& lobby = *lobby_;
  GameRooms& rooms = *rooms_;
  PuzzleSessions& puzzles = *puzzles_;
  std::visit(
      Overload{
          [&](const protocol::Hello& m) { on_hello(c, m); },
          [&](const protocol::Seek& m) { lobby.on_seek(c, m); },
          [&](const protocol::CancelSeek& m) { lobby.on_cancel(c, m); },
          [&](const protocol::Challenge& m) { lobby.on_challenge(c, m); },
          [&](const protocol::Accept& m) { lobby.on_accept(c, m); },
          [&](const protocol::Decline& m) { lobby.on_decline(c, m); },
          [&](protocol::MoveRequest& m) { rooms.on_move(c, std::move(m)); },
          [&](const protocol::GameAction& m) { rooms.on_action(c, m); },
          [&](const protocol::Watch& m) { rooms.on_watch(c, m.game_id, m.since_version, false); },
          [&](const protocol::Unwatch& m) { rooms.on_unwatch(c, m); },
          [&](const protocol::Resume& m) { rooms.on_watch(c, m.game_id, m.since_version, true); },
          [&](const protocol::PuzzleStart& m) { puzzles.on_start(c, m); },
          [&](const protocol::PuzzleMove& m) { puzzles.on_move(c, m); },
          [&](const protocol::PuzzleSolution& m) { puzzles.on_solution(c, m); },
          [&](const protocol::Ping& m) { c->send(text_of(protocol::PongMessage{m.id})); },
          [&](const protocol::SetName& m) { on_set_name(c, m); }},
      message);
}

void Hub::on_hello(const std::shared_ptr<Connection>& c, const protocol::Hello& m) {
  if (c->hello_done) return send_error(c, ErrorCode::kBadField, "hello was already sent", "hello");
  if (m.version < protocol::kMinProtocolVersion || m.version > protocol::kProtocolVersion)
    return send_error(c, ErrorCode::kBadVersion,
                      "protocol version " + std::to_string(m.version) + " is not supported (use " +
                          std::to_string(protocol::kMinProtocolVersion) + " to " +
                          std::to_string(protocol::kProtocolVersion) + ")",
                      "hello");
  c->protocol = m.version;
  c->engine = m.engine;
  std::string token = !m.resume.empty() ? m.resume : c->cookie_token;
  if (c->bot) return welcome(c, *c->bot, token);
  // A guest's name is shown to everyone: checked here, where it enters (a bot's is ignored).
  if (!m.name.empty())
    if (auto problem = protocol::name_problem(m.name))
      return send_error(c, ErrorCode::kBadField, "field 'name' " + *problem, "hello");
  if (auto guest = presence_->guest(token)) return welcome(c, *guest, token);
  if (token.empty()) token = new_session_token();
  if (token.size() < 16)
    return send_error(c, ErrorCode::kBadField, "field 'resume' is not a session token", "hello");
  if (const std::int64_t wait = new_guest_wait_ms(c->peer_address); wait > 0)
    return send_error(c, ErrorCode::kRateLimited,
                      "too many new guests from " + c->peer_address + " (at most " +
                          std::to_string(config_.guest_logins_per_minute) +
                          " a minute); say hello again in " + std::to_string((wait + 999) / 1000) +
                          " s",
                      "hello");
  // The store knows a guest by a hash of the token: the same token is the same player, also
  // after a restart, and what the REST API shows cannot be turned back into it. Through the
  // writer queue: the I/O thread does not wait, and the messages after the hello wait in the
  // socket until the welcome is sent.
  c->reading_paused = true;
  store_.find_or_create_player_async(
      "guest:" + db::sha256_hex(token).substr(0, 24), false,
      [self = shared_from_this(), c, token, name = m.name](Expected<db::PlayerRecord> record) {
        c->continue_reading([self, c, token, name, record = std::move(record)] {
          self->guest_found(c, token, name, record);
        });
      });
}

std::int64_t Hub::new_guest_wait_ms(const std::string& address) {
  const int rate = config_.guest_logins_per_minute;
  if (rate <= 0 || address.empty() || (is_loopback(address) && !config_.limit_loopback_guests))
    return 0;
  const std::int64_t now = time_->now_ms();
  const double per_ms = rate / 60000.0;
  std::lock_guard lock(guest_mutex_);
  auto [it, fresh] = guest_buckets_.try_emplace(address, GuestBucket{double(rate), now});
  GuestBucket& b = it->second;
  b.tokens = std::min(double(rate), b.tokens + double(now - b.at_ms) * per_ms);
  b.at_ms = now;
  if (b.tokens >= 1) {
    b.tokens -= 1;
    return 0;
  }
  return std::max<std::int64_t>(1, static_cast<std::int64_t>((1 - b.tokens) / per_ms));
}

void Hub::purge_guests() {
  if (config_.guest_ttl_ms <= 0 || purge_unsupported_ || purging_.exchange(true)) return;
  db::Store::GuestPurge purge;
  purge.created_before_ms = unix_now_ms() - config_.guest_ttl_ms;
  for (const auto& [id, n] : presence_->online_counts()) purge.keep.push_back(id);
  // A player seated in a live game (its connection gone, within the grace) keeps its row:
  // the game refers to it anyway, and the store refuses to delete it.
  store_.purge_guests_async(
      purge, [self = weak_from_this()](Expected<std::vector<db::PlayerId>> deleted) {
        auto hub = self.lock();
        if (!hub) return;
        if (deleted) {
          hub->presence_->forget_guests(*deleted);
          hub->guests_purged_ += deleted->size();
        } else {
          hub->purge_unsupported_ = true;  // e.g. the memory store: nothing to purge there
        }
        hub->purging_ = false;
      });
}

void Hub::guest_found(const std::shared_ptr<Connection>& c, const std::string& token,
                      const std::string& name, const Expected<db::PlayerRecord>& record) {
  if (!record) return send_error(c, ErrorCode::kInternal, record.error(), "hello");
  const protocol::PlayerInfo player{
      record->id, (name.empty() ? "guest" : name) + "#" + std::to_string(record->id), false};
  {
    std::lock_guard lock(mutex_);
    if (!connections_.contains(c)) return;  // closed while the store answered
    presence_->remember_guest(token, record->name, player);
  }
  welcome(c, player, token);
}

void Hub::on_set_name(const std::shared_ptr<Connection>& c, const protocol::SetName& m) {
  if (c->bot)
    return send_error(c, ErrorCode::kBadField,
                      "a bot that logs in with a token is named by its token, not by set_name",
                      "set_name");
  // A stored player's name (a bot's, online or not) is refused too: the store is read on the
  // blocking workers while the connection's reading waits (its later messages keep their
  // order).
  auto rename = [self = shared_from_this(), c, name = m.name](
                    const Expected<std::optional<db::PlayerRecord>>& stored) {
    if (!stored) return send_error(c, ErrorCode::kInternal, stored.error(), "set_name");
    if (*stored && (*stored)->id != c->player.id)
      return send_error(c, ErrorCode::kBadField,
                              "the name '" + name + "' is taken by another player", "set_name");
    if (auto renamed = self->presence_->rename_guest(c, name); !renamed)
      return send_error(c, ErrorCode::kBadField, renamed.error(), "set_name");
    c->send(text_of(protocol::NameSetMessage{c->player}));
    self->lobby_->changed();
  };
  if (!blocking_) return rename(store_.player_by_name(m.name));
  c->reading_paused = true;
  boost::asio::post(*blocking_, [self = shared_from_this(), c, name = m.name,
                                 rename = std::move(rename)]() mutable {
    auto stored = self->store_.player_by_name(name);
    c->continue_reading([rename = std::move(rename), stored = std::move(stored)] { rename(stored); });
  });
}

void Hub::register_engine(const std::shared_ptr<Connection>& c, const protocol::PlayerInfo& guest,
                          const std::string& token) {
  // A program that says what it plays with is a bot, token or not: the lobby badges it so.
  protocol::PlayerInfo player = guest;
  player.bot = true;
  const protocol::Engine e = *std::exchange(c->engine, std::nullopt);
  // Through the writer queue, as a guest's record: the welcome (and so every game this
  // connection starts) comes after the version is known.
  c->reading_paused = true;
  store_.register_bot_version_async(
      {player.id, e.search, e.heuristic, e.parameters},
      [self = shared_from_this(), c, player, token](Expected<std::int64_t> version) {
        c->continue_reading([self, c, player, token, version = std::move(version)] {
          if (!version)
            return send_error(c, ErrorCode::kInternal,
                              "the engine could not be recorded: " + version.error(), "hello");
          {
            std::lock_guard lock(self->mutex_);
            if (!self->connections_.contains(c)) return;  // closed while the store answered
          }
          self->presence_->set_bot_version(player.id, *version);
          self->welcome(c, player, token);
        });
      });
}

void Hub::welcome(const std::shared_ptr<Connection>& c, const protocol::PlayerInfo& player,
                  const std::string& token) {
  if (c->engine) return register_engine(c, player, token);
  c->hello_done = true;
  c->player = player;
  c->session_token = token;
  std::vector<std::pair<std::shared_ptr<Match>, int>> games;
  // The welcome is queued before the connection is listed under its player, under Presence's
  // lock: a game another thread starts for this player (the tournament director) finds the
  // connection only then, so its game_start comes after the welcome, never before it (a
  // client drops a game_start it cannot place yet and would never play that game).
  const bool first_connection = presence_->add(c, [&] {
    games = rooms_->seats_of(player.id);
    std::vector<std::int64_t> live;
    for (const auto& [match, seat] : games) live.push_back(match->game_id());
    c->send(text_of(
        protocol::WelcomeMessage{player,
                                 "arena 0.1.0",
                                 c->protocol,
                                 c->bot || c->browser ? "" : token,
                                 std::move(live),
                                 {static_cast<std::int64_t>(protocol::kMaxMessageBytes),
                                  protocol::kMaxJsonDepth, protocol::kMaxMessagesPerSecond,
                                  protocol::kMaxMessageBurst, config_.reconnect_grace_ms}}));
  });
  if (first_connection)
    for (auto& [match, seat] : games) match->connection_changed(seat, true);
  c->send(lobby_->snapshot());
  lobby_->changed();
  tournaments_->player_arrived();
}

void Hub::on_close(const std::shared_ptr<Connection>& c) {
  {
    std::lock_guard lock(mutex_);
    connections_.erase(c);
  }
  if (!c->hello_done) return;
  const std::int64_t id = c->player.id;
  if (!presence_->remove(c, [&] { lobby_->player_left(id); })) return;
  for (auto& [match, seat] : rooms_->seats_of(id)) match->connection_changed(seat, false);
  lobby_->changed();
}

int Hub::restore_unfinished() {
  return rooms_->restore_unfinished(
      [this](db::GameId id) { return tournaments_->replays_game(id); });
}

void Hub::sweep() {
  const std::int64_t now = time_->now_ms();
  rooms_->sweep(now);
  lobby_->sweep(now);
  puzzles_->sweep(now);
  if (config_.guest_ttl_ms > 0 && now - last_purge_ms_ >= config_.guest_purge_interval_ms) {
    last_purge_ms_ = now;
    purge_guests();
    // Buckets that have filled up again say nothing a fresh one would not.
    const double per_ms = config_.guest_logins_per_minute / 60000.0;
    std::lock_guard lock(guest_mutex_);
    std::erase_if(guest_buckets_, [&](const auto& kv) {
      return kv.second.tokens + double(now - kv.second.at_ms) * per_ms >=
             config_.guest_logins_per_minute;
    });
  }
}

std::set<std::shared_ptr<Connection>> Hub::open_connections() {
  std::lock_guard lock(mutex_);
  return connections_;
}

void Hub::shutdown() {
  lobby_->stop(false);  // the closes below change the lobby: no round goes out any more
  for (const auto& c : open_connections()) c->close_going_away();
  lobby_->stop(true);
}

void Hub::close_remaining() {
  for (const auto& c : open_connections()) c->close_now();
}

void Hub::release() {
  std::set<std::shared_ptr<Connection>> conns;
  {
    std::lock_guard lock(mutex_);
    conns.swap(connections_);
  }
  lobby_->stop(false);
  rooms_->release();
  presence_->clear();
  puzzles_->release();
  // The connections are destroyed here, outside the lock: a session's destructor may call
  // back into the hub.
}

HubMetrics Hub::metrics() {
  HubMetrics m;
  {
    std::lock_guard lock(mutex_);
    m.connections = connections_.size();
    for (const auto& c : connections_)
      if (auto lag = c->measured_lag_ms(); lag && *lag > m.max_lag_ms) m.max_lag_ms = *lag;
  }
  m.live_games = rooms_->live_count();
  m.puzzles = puzzles_->count();
  m.moves_total = rooms_->moves_total();
  m.moves_per_second = rooms_->moves_per_second();
  return m;
}

Expected<std::pair<std::int64_t, bool>> Hub::create_tournament(const std::string& json) {
  const auto& create = tournaments_->hooks().create;
  if (!create) return make_error("this server runs no tournaments");
  return create(json);
}

std::optional<protocol::ApiDirectorStatus> Hub::tournament_status(std::int64_t id) {
  const auto& status = tournaments_->hooks().status;
  if (!status) return std::nullopt;
  return status(id);
}

}  // namespace arena::server
