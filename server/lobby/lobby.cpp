#include "server/lobby/lobby.h"

#include <algorithm>

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

#include "games/catalog/catalog.h"

namespace arena::server {

using protocol::ErrorCode;

namespace {

// Adds make(id) to `offers` under a new id unless `player` already has `limit` offers there
// (`owner` of an offer is its player's id); 0 when it has. A scan: offers are few, and each
// player's are bounded by this.
template <typename Offers, typename Owner, typename Make>
std::int64_t add_offer(Offers& offers, std::int64_t& next_id, std::int64_t player, int limit,
                       Owner owner, Make make) {
  const auto open = std::count_if(offers.begin(), offers.end(),
                                  [&](const auto& o) { return owner(o.second) == player; });
  if (open >= limit) return 0;
  const std::int64_t id = next_id++;
  offers.emplace(id, make(id));
  return id;
}

// The `busy` answer to an offer over its limit.
void refuse_over_limit(const std::shared_ptr<Connection>& c, int limit, const std::string& what,
                       const std::string& ref, const std::string& until) {
  send_error(c, ErrorCode::kBusy,
             "you have " + std::to_string(limit) + " open " + what +
                 ", the most a player may have: cancel one, or " + ref + " again once one is " +
                 until,
             ref);
}

}  // namespace

Lobby::Lobby(boost::asio::any_io_executor executor, HubConfig config,
             std::shared_ptr<const TimeSource> time, std::shared_ptr<Presence> presence,
             std::shared_ptr<GameRooms> rooms)
    : executor_(executor),
      config_(std::move(config)),
      time_(std::move(time)),
      presence_(std::move(presence)),
      rooms_(std::move(rooms)),
      timer_(boost::asio::make_strand(executor)) {}

int Lobby::check_offer(const std::shared_ptr<Connection>& c, const std::string& game,
                       const std::string& options, const std::string& time_control,
                       std::string_view ref) {
  auto opts = parse_game_options(options);
  if (!opts) return send_error(c, ErrorCode::kBadOptions, opts.error(), ref), 0;
  auto made = config_.make_game(game, *opts);
  if (!made) {
    const bool unknown = made.error().starts_with("unknown game");
    send_error(c, unknown ? ErrorCode::kUnknownGame : ErrorCode::kBadOptions, made.error(), ref);
    return 0;
  }
  if ((*made)->num_players() < 2 || (*made)->num_seats() < 2) {
    send_error(c, ErrorCode::kUnknownGame, "'" + game + "' is a puzzle: use puzzle_start", ref);
    return 0;
  }
  const int seats = (*made)->num_seats();
  if (seats > protocol::kMaxSeats) {
    send_error(c, ErrorCode::kUnknownGame,
               "'" + game + "' has " + std::to_string(seats) +
                   " seats; the server hosts games of "
                   "at most " +
                   std::to_string(protocol::kMaxSeats),
               ref);
    return 0;
  }
  auto tc = parse_time_control(time_control);
  if (!tc) return send_error(c, ErrorCode::kBadTimeControl, tc.error(), ref), 0;
  return seats;
}

void Lobby::use_blocking_executor(boost::asio::any_io_executor blocking) {
  blocking_ = std::move(blocking);
}

void Lobby::use_compile_executor(boost::asio::any_io_executor compile) {
  compile_ = std::move(compile);
}

bool Lobby::make_elsewhere_first(const std::shared_ptr<Connection>& c, const std::string& game,
                                 const std::string& options, std::function<void()> then) {
  if (!blocking_ || !is_gdl_game(game)) return false;
  GameOptions ignored;
  std::string name = resolve_game_name(game, ignored);  // one entry per sheet, however spelt
  {
    std::lock_guard lock(mutex_);
    if (made_elsewhere_.contains(name)) return false;
  }
  c->reading_paused = true;
  boost::asio::post(*blocking_, [self = shared_from_this(), c, game, options,
                                 name = std::move(name), then = std::move(then)]() mutable {
    // Made to be made again at once by `then`, which answers (or refuses) the offer. Only a
    // game that was made is remembered: an unknown or refused sheet is tried here each time.
    // Its games are made on the sheet's prover (a second or so) while the sheet compiles
    // afterwards, so that no offer waits for a compile. (The job is posted to the blocking
    // workers themselves: a strand over them would outlive their io_context at shutdown.)
    defer_game_compile(game);
    auto opts = parse_game_options(options);
    const bool made = opts && self->config_.make_game(game, *opts);
    if (made) {
      std::lock_guard lock(self->mutex_);
      self->made_elsewhere_.insert(std::move(name));
    }
    c->continue_reading(std::move(then));
    if (made)
      boost::asio::post(self->compile_.value_or(*self->blocking_), [game] { compile_game(game); });
  });
  return true;
}

void Lobby::on_seek(const std::shared_ptr<Connection>& c, const protocol::Seek& m) {
  if (!make_elsewhere_first(c, m.game, m.options,
                            [self = shared_from_this(), c, m] { self->seek(c, m); }))
    seek(c, m);
}

void Lobby::seek(const std::shared_ptr<Connection>& c, const protocol::Seek& m) {
  const int seats = check_offer(c, m.game, m.options, m.time_control, "seek");
  if (seats == 0) return;
  std::int64_t id = 0;
  {
    // Every seek is in every lobby snapshot: without a bound, one client could make each
    // snapshot as large as its flood.
    std::lock_guard lock(mutex_);
    id = add_offer(
        seeks_, next_offer_id_, c->player.id, protocol::kMaxOpenSeeks,
        [](const SeekRecord& s) { return s.owner.id; },
        [&](std::int64_t new_id) {
          return SeekRecord{new_id,         c->player,       m.game, m.options,
                            m.time_control, time_->now_ms(), seats};
        });
  }
  if (id == 0)
    return refuse_over_limit(c, protocol::kMaxOpenSeeks, "seeks", "seek", "taken or expired");
  c->send(text_of(protocol::SeekCreatedMessage{id}));
  changed();
}

void Lobby::on_cancel(const std::shared_ptr<Connection>& c, const protocol::CancelSeek& m) {
  bool found = false;
  {
    std::lock_guard lock(mutex_);
    if (m.is_challenge) {
      auto it = challenges_.find(m.seek_id);
      found = it != challenges_.end() && it->second.from.id == c->player.id;
      if (found) challenges_.erase(it);
    } else if (auto it = seeks_.find(m.seek_id); it != seeks_.end()) {
      found = it->second.owner.id == c->player.id;
      if (found) seeks_.erase(it);
      // A player who joined a seek of more than two seats leaves it.
      else
        found = std::erase_if(it->second.joined,
                              [&](const auto& p) { return p.id == c->player.id; }) > 0;
    }
  }
  if (!found)
    return send_error(c, m.is_challenge ? ErrorCode::kNoSuchChallenge : ErrorCode::kNoSuchSeek,
                      "you have no open offer " + std::to_string(m.seek_id), "cancel_seek");
  c->send(text_of(protocol::CancelledMessage{m.seek_id, m.is_challenge}));
  changed();
}

void Lobby::on_challenge(const std::shared_ptr<Connection>& c, const protocol::Challenge& m) {
  if (!make_elsewhere_first(c, m.game, m.options,
                            [self = shared_from_this(), c, m] { self->challenge(c, m); }))
    challenge(c, m);
}

void Lobby::challenge(const std::shared_ptr<Connection>& c, const protocol::Challenge& m) {
  const int seats = check_offer(c, m.game, m.options, m.time_control, "challenge");
  if (seats == 0) return;
  if (seats != 2)
    return send_error(c, ErrorCode::kBadField,
                      "'" + m.game + "' has " + std::to_string(seats) +
                          " seats: a challenge is for two; open a seek, which others join",
                      "challenge");
  const std::optional<protocol::PlayerInfo> target = presence_->find_by_name(m.to);
  if (!target || target->id == c->player.id)
    return send_error(c, ErrorCode::kNoSuchPlayer, "no other player named '" + m.to + "' is online",
                      "challenge");
  std::int64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    id = add_offer(
        challenges_, next_offer_id_, c->player.id, protocol::kMaxOpenChallenges,
        [](const ChallengeRecord& ch) { return ch.from.id; },
        [&](std::int64_t new_id) {
          return ChallengeRecord{new_id,    c->player,      *target,        m.game,
                                 m.options, m.time_control, time_->now_ms()};
        });
  }
  if (id == 0)
    return refuse_over_limit(c, protocol::kMaxOpenChallenges, "challenges", "challenge",
                             "answered or expired");
  c->send(text_of(protocol::ChallengeCreatedMessage{id}));
  presence_->send_to_player(target->id, text_of(protocol::ChallengeOfferMessage{
                                            id, c->player, m.game, m.options, m.time_control}));
}

void Lobby::on_accept(const std::shared_ptr<Connection>& c, const protocol::Accept& m) {
  std::optional<SeekRecord> seek;
  std::optional<ChallengeRecord> challenge;
  bool join = false;  // a seek of more than two seats: joined (join_seek takes the lock itself)
  {
    std::lock_guard lock(mutex_);
    if (m.is_challenge) {
      auto it = challenges_.find(m.id);
      if (it != challenges_.end() && it->second.to.id == c->player.id) {
        challenge = it->second;
        challenges_.erase(it);
      }
    } else {
      auto it = seeks_.find(m.id);
      join = it != seeks_.end() && it->second.seats > 2;
      if (!join && it != seeks_.end() && it->second.owner.id != c->player.id) {
        seek = it->second;
        seeks_.erase(it);
      }
    }
  }
  if (challenge)
    return rooms_->start_match({challenge->from, challenge->to}, challenge->game,
                               challenge->options, challenge->time_control, c, "accept");
  if (seek) {
    rooms_->start_match({seek->owner, c->player}, seek->game, seek->options, seek->time_control, c,
                        "accept");
    return changed();
  }
  if (join) return join_seek(c, m.id);
  send_error(c, m.is_challenge ? ErrorCode::kNoSuchChallenge : ErrorCode::kNoSuchSeek,
             (m.is_challenge ? "no challenge " : "no open seek ") + std::to_string(m.id) +
                 " for you (unknown, expired, taken, or your own)",
             "accept");
}

void Lobby::join_seek(const std::shared_ptr<Connection>& c, std::int64_t seek_id) {
  std::optional<SeekRecord> full;
  protocol::SeekJoinedMessage joined;
  std::string refused;
  {
    std::lock_guard lock(mutex_);
    auto it = seeks_.find(seek_id);
    if (it == seeks_.end()) {
      refused = "no open seek " + std::to_string(seek_id) + " (unknown, expired or taken)";
    } else {
      SeekRecord& s = it->second;
      const bool in = s.owner.id == c->player.id ||
                      std::any_of(s.joined.begin(), s.joined.end(),
                                  [&](const auto& p) { return p.id == c->player.id; });
      if (in) {
        refused = "you are already in seek " + std::to_string(seek_id);
      } else {
        s.joined.push_back(c->player);
        joined = {seek_id, s.game, s.seats, {s.owner}};
        joined.players.insert(joined.players.end(), s.joined.begin(), s.joined.end());
        if (static_cast<int>(s.joined.size()) + 1 >= s.seats) {
          full = s;
          seeks_.erase(it);
        }
      }
    }
  }
  if (!refused.empty()) return send_error(c, ErrorCode::kNoSuchSeek, refused, "accept");
  const Text text = text_of(joined);
  for (const auto& p : joined.players) presence_->send_to_player(p.id, text);
  if (full) {
    std::vector<protocol::PlayerInfo> players{full->owner};
    players.insert(players.end(), full->joined.begin(), full->joined.end());
    rooms_->start_match(players, full->game, full->options, full->time_control, c, "accept");
  }
  changed();
}

void Lobby::on_decline(const std::shared_ptr<Connection>& c, const protocol::Decline& m) {
  std::optional<ChallengeRecord> challenge;
  {
    std::lock_guard lock(mutex_);
    auto it = challenges_.find(m.challenge_id);
    if (it != challenges_.end() && it->second.to.id == c->player.id) {
      challenge = it->second;
      challenges_.erase(it);
    }
  }
  if (!challenge)
    return send_error(c, ErrorCode::kNoSuchChallenge,
                      "no challenge " + std::to_string(m.challenge_id) + " for you", "decline");
  const Text declined = text_of(protocol::DeclinedMessage{m.challenge_id, c->player});
  presence_->send_to_player(challenge->from.id, declined);
  c->send(declined);
}

void Lobby::player_left(std::int64_t player_id) {
  std::lock_guard lock(mutex_);
  std::erase_if(seeks_, [&](const auto& s) { return s.second.owner.id == player_id; });
  for (auto& [id, seek] : seeks_)  // a player gone leaves the seeks it joined
    std::erase_if(seek.joined, [&](const auto& p) { return p.id == player_id; });
}

void Lobby::sweep(std::int64_t now) {
  bool seeks_gone = false;
  {
    std::lock_guard lock(mutex_);
    seeks_gone = std::erase_if(seeks_, [&](const auto& s) {
                   return now - s.second.created_ms >= config_.seek_ttl_ms;
                 }) > 0;
    std::erase_if(challenges_, [&](const auto& ch) {
      return now - ch.second.created_ms >= config_.challenge_ttl_ms;
    });
  }
  if (seeks_gone) changed();
}

void Lobby::stop(bool cancel_timer) {
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
  }
  if (cancel_timer) timer_.cancel();
}

void Lobby::changed() {
  std::lock_guard lock(mutex_);
  ++version_;
  if (pending_ || stopped_) return;
  pending_ = true;
  arm_timer();
}

void Lobby::arm_timer() {
  timer_.expires_after(std::chrono::milliseconds(config_.lobby_interval_ms));
  timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    if (!ec) self->tick();
  });
}

void Lobby::tick() {
  std::uint64_t version = 0;
  {
    std::lock_guard lock(mutex_);
    if (stopped_) {
      pending_ = false;
      return;
    }
    version = version_;
  }
  if (built_version_ != version) {
    cache_ = snapshot();
    built_version_ = version;
  }
  // The first connections not up to date, from the player after the cursor around to it.
  const auto batch = static_cast<std::size_t>(kLobbyConnectionsPerInterval);
  const auto targets = presence_->behind(version, batch, cursor_);
  {
    std::lock_guard lock(mutex_);
    // A full batch may have left others behind; a short one reached everyone (a change since
    // has already asked for another round, which this one then continues).
    pending_ = targets.size() >= batch || version_ != version;
    if (pending_) arm_timer();
  }
  for (const auto& c : targets) c->send(cache_);
}

Text Lobby::snapshot() {
  protocol::LobbyMessage lobby;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, s] : seeks_)
      lobby.seeks.push_back({id, s.owner, s.game, s.options, s.time_control, s.seats, s.joined});
  }
  lobby.players_online = presence_->players_online();
  lobby.games_live = static_cast<std::int64_t>(rooms_->live_count());
  // Every seek (bots find games there); players and live games up to a cap, with their
  // totals (the REST API lists them all), so a snapshot stays small on a busy server.
  lobby.players = presence_->online_players(kLobbyListCap);
  lobby.games = rooms_->live_games("", kLobbyListCap);
  return text_of(lobby);
}

}  // namespace arena::server
