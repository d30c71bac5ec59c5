#include "server/hub.h"

#include <random>
#include <utility>

#include "db/sha256.h"
#include "games/core/overload.h"

namespace arena::server {

using protocol::ErrorCode;

namespace {

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
  lobby_->use_blocking_executor(blocking);
  puzzles_->use_blocking_executor(std::move(blocking));
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
          [&](const protocol::Ping& m) { c->send(text_of(protocol::PongMessage{m.id})); }},
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
  if (auto guest = presence_->guest(token)) return welcome(c, *guest, token);
  if (token.empty()) token = new_session_token();
  if (token.size() < 16)
    return send_error(c, ErrorCode::kBadField, "field 'resume' is not a session token", "hello");
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

void Hub::register_engine(const std::shared_ptr<Connection>& c, const protocol::PlayerInfo& player,
                          const std::string& token) {
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
                                 c->bot ? "" : token,
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

}  // namespace arena::server
