// Hub: games the tournament director starts. No seek or challenge: the director picked two
// logged-in players, and their games begin as an accepted challenge's would.

#include "server/hub.h"

namespace arena::server {

Expected<db::GameId> Hub::start_tournament_game(const TournamentGame& g) {
  auto game = config_.load_game(g.kind, g.start_position);
  if (!game) return make_error("tournament " + std::to_string(g.tournament) + ": " + game.error());
  auto tc = parse_time_control(g.time_control);
  if (!tc) return make_error("tournament " + std::to_string(g.tournament) + ": " + tc.error());
  std::vector<protocol::PlayerInfo> players(2);
  {
    std::lock_guard lock(mutex_);
    for (int seat = 0; seat < 2; ++seat) {
      const db::PlayerId id = seat == 0 ? g.first : g.second;
      auto it = player_conns_.find(id);
      std::shared_ptr<Connection> conn;
      if (it != player_conns_.end())
        for (const auto& w : it->second)
          if ((conn = w.lock())) break;
      if (!conn) return make_error("player " + std::to_string(id) + " is not connected");
      players[static_cast<std::size_t>(seat)] = conn->player;
    }
  }
  db::NewGame record{g.kind,   g.options,       g.start_position, g.first,
                     g.second, tc->to_string(), g.seed,           g.tournament};
  auto id = store_.create_game(record);
  if (!id) return make_error("the game could not be recorded: " + id.error());
  begin_match(make_match(*id, std::move(players), std::move(*game), g.options, *tc, g.rules));
  return *id;
}

std::map<db::PlayerId, int> Hub::online_counts() {
  std::lock_guard lock(mutex_);
  std::map<db::PlayerId, int> out;
  for (const auto& [id, conns] : player_conns_) {
    int n = 0;
    for (const auto& w : conns) n += !w.expired();
    if (n > 0) out[id] = n;
  }
  return out;
}

bool Hub::is_live(db::GameId id) {
  std::lock_guard lock(mutex_);
  return live_.contains(id);
}

}  // namespace arena::server
