#include "server/hub.h"

#include <algorithm>
#include <random>

#include <boost/asio/post.hpp>

#include "db/sha256.h"

namespace arena::server {

using protocol::ErrorCode;
using protocol::Json;

namespace {

std::string new_session_token() {
  std::random_device rd;
  std::string t;
  for (int i = 0; i < 32; ++i) t += "0123456789abcdef"[rd() % 16];
  return t;
}

template <class... Ts>
struct Overload : Ts... {
  using Ts::operator()...;
};
// Clang 14 (the fuzz build) does not deduce an aggregate's template arguments by itself.
template <class... Ts>
Overload(Ts...) -> Overload<Ts...>;

}  // namespace

Hub::Hub(boost::asio::any_io_executor executor, HubConfig config, db::Store& store,
         std::shared_ptr<const TimeSource> time)
    : executor_(executor),
      blocking_(executor),
      config_(std::move(config)),
      store_(store),
      time_(std::move(time)),
      lobby_timer_(boost::asio::make_strand(executor)) {}

void Hub::use_blocking_executor(boost::asio::any_io_executor blocking) {
  blocking_ = std::move(blocking);
}

Reply Hub::reply_to(const std::shared_ptr<Connection>& c) {
  return [weak = std::weak_ptr<Connection>(c)](Text t) {
    if (auto conn = weak.lock()) conn->send(std::move(t));
  };
}

void Hub::send_error(const std::shared_ptr<Connection>& c, ErrorCode code,
                     const std::string& message, std::string_view ref) {
  c->send(std::make_shared<const std::string>(protocol::encode_error(code, message, ref)));
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

void Hub::dispatch(const std::shared_ptr<Connection>& c, protocol::ClientMessage message) {
  std::visit(
      Overload{[&](const protocol::Hello& m) { on_hello(c, m); },
               [&](const protocol::Seek& m) { on_seek(c, m); },
               [&](const protocol::CancelSeek& m) { on_cancel(c, m); },
               [&](const protocol::Challenge& m) { on_challenge(c, m); },
               [&](const protocol::Accept& m) { on_accept(c, m); },
               [&](const protocol::Decline& m) { on_decline(c, m); },
               [&](protocol::MoveRequest& m) { on_move(c, std::move(m)); },
               [&](const protocol::GameAction& m) { on_action(c, m); },
               [&](const protocol::Watch& m) { on_watch(c, m.game_id, m.since_version, false); },
               [&](const protocol::Unwatch& m) { on_unwatch(c, m); },
               [&](const protocol::Resume& m) { on_watch(c, m.game_id, m.since_version, true); },
               [&](const protocol::PuzzleStart& m) { on_puzzle_start(c, m); },
               [&](const protocol::PuzzleMove& m) { on_puzzle_move(c, m); },
               [&](const protocol::PuzzleSolution& m) { on_puzzle_solution(c, m); },
               [&](const protocol::Ping& m) {
                 c->send(text_of(protocol::PongMessage{m.id}));
               }},
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
  protocol::PlayerInfo player;
  std::string token = !m.resume.empty() ? m.resume : c->cookie_token;
  if (c->bot) {
    player = *c->bot;
  } else {
    std::unique_lock lock(mutex_);
    auto it = token.empty() ? guests_.end() : guests_.find(token);
    if (it != guests_.end()) {
      player = it->second;
    } else {
      lock.unlock();
      if (token.empty()) token = new_session_token();
      if (token.size() < 16)
        return send_error(c, ErrorCode::kBadField, "field 'resume' is not a session token",
                          "hello");
      // The store knows a guest by a hash of the token: the same token is the same player,
      // also after a restart, and what the REST API shows cannot be turned back into it.
      // Through the writer queue: the I/O thread does not wait, and the messages after the
      // hello wait in the socket until the welcome is sent.
      c->reading_paused = true;
      store_.find_or_create_player_async(
          "guest:" + db::sha256_hex(token).substr(0, 24), false,
          [self = shared_from_this(), c, token, name = m.name](Expected<db::PlayerRecord> record) {
            c->continue_reading([self, c, token, name, record = std::move(record)] {
              self->guest_found(c, token, name, record);
            });
          });
      return;
    }
  }
  welcome(c, player, token);
}

void Hub::guest_found(const std::shared_ptr<Connection>& c, const std::string& token,
                      const std::string& name, const Expected<db::PlayerRecord>& record) {
  if (!record) return send_error(c, ErrorCode::kInternal, record.error(), "hello");
  const protocol::PlayerInfo player{
      record->id, (name.empty() ? "guest" : name) + "#" + std::to_string(record->id), false};
  {
    std::lock_guard lock(mutex_);
    if (!connections_.contains(c)) return;  // closed while the store answered
    guests_[token] = player;
    guest_names_[record->name] = player.name;
  }
  welcome(c, player, token);
}

void Hub::welcome(const std::shared_ptr<Connection>& c, const protocol::PlayerInfo& player,
                  const std::string& token) {
  c->hello_done = true;
  c->player = player;
  c->session_token = token;
  std::vector<std::pair<std::shared_ptr<Match>, int>> games;
  bool first_connection = false;
  {
    // The welcome is queued before the connection is listed under its player, in one hold of
    // the lock: a game another thread starts for this player (the tournament director) finds
    // the connection only then, so its game_start comes after the welcome, never before it
    // (a client drops a game_start it cannot place yet and would never play that game).
    std::lock_guard lock(mutex_);
    auto& conns = player_conns_[player.id];
    std::erase_if(conns, [](const auto& w) { return w.expired(); });
    first_connection = conns.empty();
    std::vector<std::int64_t> live;
    for (auto id : live_) {
      auto& match = matches_[id];
      const auto& players = match->settings().players;
      for (std::size_t seat = 0; seat < players.size(); ++seat)
        if (players[seat].id == player.id) {
          games.emplace_back(match, static_cast<int>(seat));
          live.push_back(id);
        }
    }
    c->send(text_of(protocol::WelcomeMessage{
        player, "arena 0.1.0", c->protocol, c->bot ? "" : token, std::move(live),
        {static_cast<std::int64_t>(protocol::kMaxMessageBytes), protocol::kMaxJsonDepth,
         protocol::kMaxMessagesPerSecond, protocol::kMaxMessageBurst,
         config_.reconnect_grace_ms}}));
    conns.push_back(c);
  }
  if (first_connection)
    for (auto& [match, seat] : games) match->connection_changed(seat, true);
  c->send(lobby_snapshot());
  lobby_changed();
  if (hooks_.player_arrived) hooks_.player_arrived();
}

void Hub::on_close(const std::shared_ptr<Connection>& c) {
  std::vector<std::pair<std::shared_ptr<Match>, int>> games;
  {
    std::lock_guard lock(mutex_);
    connections_.erase(c);
    if (!c->hello_done) return;
    auto& conns = player_conns_[c->player.id];
    std::erase_if(conns, [&](const auto& w) { return w.expired() || w.lock() == c; });
    if (!conns.empty()) return;
    player_conns_.erase(c->player.id);
    std::erase_if(seeks_, [&](const auto& s) { return s.second.owner.id == c->player.id; });
    for (auto& [id, seek] : seeks_)  // a player gone leaves the seeks it joined
      std::erase_if(seek.joined, [&](const auto& p) { return p.id == c->player.id; });
    for (auto id : live_) {
      const auto& players = matches_[id]->settings().players;
      for (std::size_t seat = 0; seat < players.size(); ++seat)
        if (players[seat].id == c->player.id)
          games.emplace_back(matches_[id], static_cast<int>(seat));
    }
  }
  for (auto& [match, seat] : games) match->connection_changed(seat, false);
  lobby_changed();
}

void Hub::sweep() {
  const std::int64_t now = time_->now_ms();
  bool changed = false;
  std::vector<std::shared_ptr<Match>> expired;  // freed after the lock is released
  {
    std::lock_guard lock(mutex_);
    const std::uint64_t total = moves_total_.load();
    if (last_sweep_ms_ >= 0 && now > last_sweep_ms_)
      moves_per_second_ = static_cast<double>(total - moves_at_last_sweep_) * 1000.0 /
                          static_cast<double>(now - last_sweep_ms_);
    moves_at_last_sweep_ = total;
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
    last_sweep_ms_ = now;
    changed |= std::erase_if(seeks_, [&](const auto& s) {
                 return now - s.second.created_ms >= config_.seek_ttl_ms;
               }) > 0;
    std::erase_if(challenges_, [&](const auto& ch) {
      return now - ch.second.created_ms >= config_.challenge_ttl_ms;
    });
  }
  if (changed) lobby_changed();
}

void Hub::shutdown() {
  std::set<std::shared_ptr<Connection>> conns;
  {
    std::lock_guard lock(mutex_);
    shutting_down_ = true;
    conns = connections_;
  }
  for (const auto& c : conns) c->close_going_away();
  lobby_timer_.cancel();
}

void Hub::close_remaining() {
  std::set<std::shared_ptr<Connection>> conns;
  {
    std::lock_guard lock(mutex_);
    conns = connections_;
  }
  for (const auto& c : conns) c->close_now();
}

void Hub::release() {
  std::set<std::shared_ptr<Connection>> conns;
  std::map<std::int64_t, std::shared_ptr<Match>> matches;
  {
    std::lock_guard lock(mutex_);
    shutting_down_ = true;
    conns.swap(connections_);
    matches.swap(matches_);
    finished_.clear();
    live_.clear();
    watchers_.clear();
    player_conns_.clear();
    puzzles_.clear();
  }
  // Destroyed here, outside the lock: a session's destructor may call back into the hub.
}

void Hub::on_match_event(std::int64_t game_id, const Text& event) {
  std::vector<std::shared_ptr<Connection>> targets;
  {
    std::lock_guard lock(mutex_);
    auto it = matches_.find(game_id);
    if (it == matches_.end()) return;
    auto add = [&](Conns& conns) {
      for (auto& w : conns)
        if (auto c = w.lock()) targets.push_back(std::move(c));
    };
    if (auto wc = watchers_.find(game_id); wc != watchers_.end()) add(wc->second);
  }
  for (const auto& c : targets) c->send(event);
}

void Hub::on_turn_event(std::int64_t game_id, const Text& state, const std::vector<MoveAck>& acks,
                        std::size_t moves) {
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
  if (acked.empty()) return on_match_event(game_id, state);
  std::vector<std::shared_ptr<Connection>> targets;
  {
    std::lock_guard lock(mutex_);
    if (!matches_.contains(game_id)) return;
    if (auto wc = watchers_.find(game_id); wc != watchers_.end())
      for (auto& w : wc->second)
        if (auto c = w.lock()) targets.push_back(std::move(c));
  }
  for (const auto& c : targets) {
    auto it = std::find_if(acked.begin(), acked.end(), [&](const auto& p) { return p.first == c; });
    c->send(it == acked.end() ? state : it->second);
  }
  // A mover's connection that does not follow the game (it never sent resume) still gets its
  // acknowledgement, as it got the move_ack.
  for (const auto& [c, text] : acked)
    if (std::find(targets.begin(), targets.end(), c) == targets.end()) c->send(text);
}

void Hub::on_match_finished(std::int64_t game_id) {
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
  lobby_changed();
  if (hooks_.game_finished) hooks_.game_finished(game_id);
}

std::shared_ptr<Match> Hub::find_match(std::int64_t game_id) {
  std::lock_guard lock(mutex_);
  auto it = matches_.find(game_id);
  return it == matches_.end() ? nullptr : it->second;
}

std::vector<protocol::GameSummary> Hub::live_games(const std::string& kind, std::size_t limit) {
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

std::vector<protocol::PlayerInfo> Hub::online_players(std::size_t limit) {
  std::lock_guard lock(mutex_);
  std::vector<protocol::PlayerInfo> out;
  for (const auto& [id, conns] : player_conns_) {
    if (out.size() >= limit) break;
    for (const auto& w : conns)
      if (auto c = w.lock()) {
        out.push_back(c->player);
        break;
      }
  }
  return out;
}

HubMetrics Hub::metrics() {
  std::lock_guard lock(mutex_);
  return {connections_.size(), live_.size(), puzzles_.size(), moves_total_.load(),
          moves_per_second_};
}

std::string Hub::display_name(const std::string& stored_name) {
  if (!stored_name.starts_with("guest:")) return stored_name;
  std::lock_guard lock(mutex_);
  auto it = guest_names_.find(stored_name);
  return it == guest_names_.end() ? "guest" : it->second;
}

void Hub::send_to_player(std::int64_t player_id, const Text& text) {
  std::vector<std::shared_ptr<Connection>> targets;
  {
    std::lock_guard lock(mutex_);
    if (auto it = player_conns_.find(player_id); it != player_conns_.end())
      for (auto& w : it->second)
        if (auto c = w.lock()) targets.push_back(std::move(c));
  }
  for (const auto& c : targets) c->send(text);
}

void Hub::lobby_changed() {
  std::lock_guard lock(mutex_);
  ++lobby_version_;
  if (lobby_pending_ || shutting_down_) return;
  lobby_pending_ = true;
  arm_lobby_timer();
}

void Hub::arm_lobby_timer() {
  lobby_timer_.expires_after(std::chrono::milliseconds(config_.lobby_interval_ms));
  lobby_timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->lobby_tick();
  });
}

// On the lobby timer's strand: one batch of the round robin.
void Hub::lobby_tick() {
  std::uint64_t version = 0;
  {
    std::lock_guard lock(mutex_);
    if (shutting_down_) {
      lobby_pending_ = false;
      return;
    }
    version = lobby_version_;
  }
  if (lobby_built_version_ != version) {
    lobby_cache_ = lobby_snapshot();
    lobby_built_version_ = version;
  }
  std::vector<std::shared_ptr<Connection>> targets;
  {
    std::lock_guard lock(mutex_);
    // From the player after the cursor, around to it: the first connections not up to date.
    const auto batch = static_cast<std::size_t>(kLobbyConnectionsPerInterval);
    auto visit = [&](auto from, auto to) {
      for (auto it = from; it != to && targets.size() < batch; ++it)
        for (auto& w : it->second)
          if (auto c = w.lock(); c && c->lobby_seen < version) {
            c->lobby_seen = version;
            targets.push_back(std::move(c));
            lobby_cursor_ = it->first;
          }
    };
    const auto split = player_conns_.upper_bound(lobby_cursor_);
    visit(split, player_conns_.end());
    visit(player_conns_.begin(), split);
    // A full batch may have left others behind; a short one reached everyone (a change since
    // has already asked for another round, which this one then continues).
    lobby_pending_ = targets.size() >= batch || lobby_version_ != version;
    if (lobby_pending_) arm_lobby_timer();
  }
  for (const auto& c : targets) c->send(lobby_cache_);
}

Text Hub::lobby_snapshot() {
  protocol::LobbyMessage lobby;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, s] : seeks_)
      lobby.seeks.push_back({id, s.owner, s.game, s.options, s.time_control, s.seats, s.joined});
    for (const auto& [id, conns] : player_conns_)
      lobby.players_online +=
          std::any_of(conns.begin(), conns.end(), [](const auto& w) { return !w.expired(); });
    lobby.games_live = static_cast<std::int64_t>(live_.size());
  }
  // Every seek (bots find games there); players and live games up to a cap, with their
  // totals (the REST API lists them all), so a snapshot stays small on a busy server.
  lobby.players = online_players(kLobbyListCap);
  lobby.games = live_games("", kLobbyListCap);
  return text_of(lobby);
}

}  // namespace arena::server
