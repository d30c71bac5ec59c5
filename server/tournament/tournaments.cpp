#include "server/tournament/tournaments.h"

namespace arena::server {

Tournaments::Tournaments(HubConfig config, db::Store& store, std::shared_ptr<Presence> presence,
                         std::shared_ptr<GameRooms> rooms)
    : config_(std::move(config)),
      store_(store),
      presence_(std::move(presence)),
      rooms_(std::move(rooms)) {}

Expected<db::GameId> Tournaments::start_game(const TournamentGame& g) {
  auto game = config_.load_game(g.kind, g.start_position);
  if (!game) return make_error("tournament " + std::to_string(g.tournament) + ": " + game.error());
  auto tc = parse_time_control(g.time_control);
  if (!tc) return make_error("tournament " + std::to_string(g.tournament) + ": " + tc.error());
  std::vector<protocol::PlayerInfo> players;
  for (const db::PlayerId id : {g.first, g.second}) {
    auto player = presence_->online(id);
    if (!player) return make_error("player " + std::to_string(id) + " is not connected");
    players.push_back(*player);
  }
  db::NewGame record{g.kind,   g.options,       g.start_position, g.first,
                     g.second, tc->to_string(), g.seed,           g.tournament};
  record.first_version = presence_->bot_version(g.first);
  record.second_version = presence_->bot_version(g.second);
  auto id = store_.create_game(record);
  if (!id) return make_error("the game could not be recorded: " + id.error());
  rooms_->begin_match(
      rooms_->make_match(*id, std::move(players), std::move(*game), g.options, *tc, g.rules));
  return *id;
}

}  // namespace arena::server
