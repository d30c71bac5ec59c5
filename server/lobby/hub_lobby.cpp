// Hub: seeks, challenges, starting matches and routing game commands to them.

#include "server/hub.h"

#include <algorithm>

#include <boost/asio/post.hpp>

#include "games/catalog/catalog.h"

namespace arena::server {

using protocol::ErrorCode;
using protocol::Json;

int Hub::check_offer(const std::shared_ptr<Connection>& c, const std::string& game,
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
               "'" + game + "' has " + std::to_string(seats) + " seats; the server hosts games of "
                   "at most " + std::to_string(protocol::kMaxSeats),
               ref);
    return 0;
  }
  auto tc = parse_time_control(time_control);
  if (!tc) return send_error(c, ErrorCode::kBadTimeControl, tc.error(), ref), 0;
  return seats;
}

void Hub::on_seek(const std::shared_ptr<Connection>& c, const protocol::Seek& m) {
  const int seats = check_offer(c, m.game, m.options, m.time_control, "seek");
  if (seats == 0) return;
  std::int64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    id = next_offer_id_++;
    seeks_[id] = {id, c->player, m.game, m.options, m.time_control, time_->now_ms(), seats};
  }
  c->send(text_of(protocol::SeekCreatedMessage{id}));
  lobby_changed();
}

void Hub::on_cancel(const std::shared_ptr<Connection>& c, const protocol::CancelSeek& m) {
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
      else found = std::erase_if(it->second.joined, [&](const auto& p) {
                     return p.id == c->player.id;
                   }) > 0;
    }
  }
  if (!found)
    return send_error(c, m.is_challenge ? ErrorCode::kNoSuchChallenge : ErrorCode::kNoSuchSeek,
                      "you have no open offer " + std::to_string(m.seek_id), "cancel_seek");
  c->send(text_of(protocol::CancelledMessage{m.seek_id, m.is_challenge}));
  lobby_changed();
}

void Hub::on_challenge(const std::shared_ptr<Connection>& c, const protocol::Challenge& m) {
  const int seats = check_offer(c, m.game, m.options, m.time_control, "challenge");
  if (seats == 0) return;
  if (seats != 2)
    return send_error(c, ErrorCode::kBadField,
                      "'" + m.game + "' has " + std::to_string(seats) +
                          " seats: a challenge is for two; open a seek, which others join",
                      "challenge");
  std::optional<protocol::PlayerInfo> target;
  std::int64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [pid, conns] : player_conns_)
      for (const auto& w : conns)
        if (auto other = w.lock(); other && other->player.name == m.to) target = other->player;
    if (target && target->id != c->player.id) {
      id = next_offer_id_++;
      challenges_[id] = {id,        c->player,      *target,        m.game,
                         m.options, m.time_control, time_->now_ms()};
    }
  }
  if (!target || target->id == c->player.id)
    return send_error(c, ErrorCode::kNoSuchPlayer, "no other player named '" + m.to + "' is online",
                      "challenge");
  c->send(text_of(protocol::ChallengeCreatedMessage{id}));
  send_to_player(target->id, text_of(protocol::ChallengeOfferMessage{
                                 id, c->player, m.game, m.options, m.time_control}));
}

void Hub::on_accept(const std::shared_ptr<Connection>& c, const protocol::Accept& m) {
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
    return start_match({challenge->from, challenge->to}, challenge->game, challenge->options,
                       challenge->time_control, c, "accept");
  if (seek) {
    start_match({seek->owner, c->player}, seek->game, seek->options, seek->time_control, c,
                "accept");
    return lobby_changed();
  }
  if (join) return join_seek(c, m.id);
  send_error(c, m.is_challenge ? ErrorCode::kNoSuchChallenge : ErrorCode::kNoSuchSeek,
             (m.is_challenge ? "no challenge " : "no open seek ") + std::to_string(m.id) +
                 " for you (unknown, expired, taken, or your own)",
             "accept");
}

void Hub::join_seek(const std::shared_ptr<Connection>& c, std::int64_t seek_id) {
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
  for (const auto& p : joined.players) send_to_player(p.id, text);
  if (full) {
    std::vector<protocol::PlayerInfo> players{full->owner};
    players.insert(players.end(), full->joined.begin(), full->joined.end());
    start_match(players, full->game, full->options, full->time_control, c, "accept");
  }
  lobby_changed();
}

void Hub::on_decline(const std::shared_ptr<Connection>& c, const protocol::Decline& m) {
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
  send_to_player(challenge->from.id, declined);
  c->send(declined);
}

void Hub::start_match(const std::vector<protocol::PlayerInfo>& players, const std::string& game,
                      const std::string& options, const std::string& time_control,
                      const std::shared_ptr<Connection>& c, std::string_view ref) {
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
  if (players.size() > 2)
    for (const auto& p : players) record.seats.push_back(p.id);
  // The row is written by the store's thread; this I/O thread goes on serving its other
  // connections meanwhile (with synchronous=FULL a commit waits for the disk).
  auto game_ptr = std::make_shared<std::unique_ptr<AnyGame>>(std::move(*made));
  store_.create_game_async(record, [self = shared_from_this(), weak = std::weak_ptr<Connection>(c),
                                    players, options, tc = *tc, game_ptr,
                                    ref = std::string(ref)](Expected<db::GameId> id) {
    boost::asio::post(self->executor_, [=] {
      if (!id) {
        if (auto conn = weak.lock())
          send_error(conn, ErrorCode::kInternal, "the game could not be recorded: " + id.error(),
                     ref);
        return;
      }
      self->begin_match(self->make_match(*id, players, std::move(*game_ptr), options, tc));
    });
  });
}

void Hub::begin_match(const std::shared_ptr<Match>& match) {
  const std::int64_t id = match->game_id();
  {
    std::lock_guard lock(mutex_);
    matches_[id] = match;
    live_.insert(id);
    // Every connection of both players follows the game from its start.
    auto& subscribers = watchers_[id];
    for (const auto& p : match->settings().players)
      if (auto it = player_conns_.find(p.id); it != player_conns_.end())
        subscribers.insert(subscribers.end(), it->second.begin(), it->second.end());
  }
  match->start();
  lobby_changed();
}

std::shared_ptr<Match> Hub::make_match(std::int64_t id, std::vector<protocol::PlayerInfo> players,
                                       std::unique_ptr<AnyGame> game, const std::string& options,
                                       const TimeControl& tc,
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

std::pair<std::shared_ptr<Match>, int> Hub::seat_of(const std::shared_ptr<Connection>& c,
                                                    std::int64_t game_id, std::string_view ref) {
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

void Hub::on_move(const std::shared_ptr<Connection>& c, protocol::MoveRequest m) {
  auto [match, seat] = seat_of(c, m.game_id, "move");
  if (!match) return;
  // The connection comes back with the turn (on_turn_event), where the hub acknowledges the
  // move in the state it sends it (v3) or with a move_ack through the reply (v1, v2).
  match->move(seat, std::move(m), reply_to(c), std::weak_ptr<void>(c));
}

void Hub::on_action(const std::shared_ptr<Connection>& c, const protocol::GameAction& m) {
  static constexpr const char* kRefs[] = {"resign", "offer_draw", "accept_draw", "abort",
                                          "claim_win"};
  auto [match, seat] = seat_of(c, m.game_id, kRefs[static_cast<int>(m.kind)]);
  if (match) match->action(seat, m.kind, reply_to(c));
}

void Hub::on_watch(const std::shared_ptr<Connection>& c, std::int64_t game_id, std::int64_t since,
                   bool as_player) {
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

void Hub::on_unwatch(const std::shared_ptr<Connection>& c, const protocol::Unwatch& m) {
  std::lock_guard lock(mutex_);
  auto it = watchers_.find(m.game_id);
  if (it == watchers_.end()) return;
  std::erase_if(it->second, [&](const auto& w) { return w.expired() || w.lock() == c; });
  if (it->second.empty()) watchers_.erase(it);
}

}  // namespace arena::server
