// GameRooms: after a restart, unfinished games come back as live matches. Policy (protocol
// README): the recorded moves are replayed turn by turn (games/core/turn_rows.h), each clock gets
// what it had left at its seat's last move, the clocks of the seats to move run from the
// restart, every player counts as disconnected (so the grace period and claim_win apply), and
// versions continue above every version of before (from the restart time in milliseconds). A
// running tournament's game is not resumed: the tournament director closes it as interrupted
// and plays the pairing again.

#include <chrono>
#include <cstdio>

#include "server/rooms/game_rooms.h"

namespace arena::server {

int GameRooms::restore_unfinished(const std::function<bool(db::GameId)>& replays_game) {
  auto games = store_.unfinished_games();
  if (!games) return 0;
  int restored = 0;
  const std::int64_t restart_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count();
  for (auto& detail : *games) {
    const auto& s = detail.summary;
    if (s.first_name.empty() || s.second_name.empty()) continue;  // puzzles are not resumed
    if (replays_game && replays_game(s.id)) continue;             // its tournament replays it
    auto match = restore(detail, restart_ms);
    if (!match) continue;
    {
      std::lock_guard lock(mutex_);
      matches_[s.id] = match;
      live_.insert(s.id);
    }
    const int seats = static_cast<int>(match->settings().players.size());
    for (int seat = 0; seat < seats; ++seat) match->connection_changed(seat, false);
    match->start();
    ++restored;
  }
  return restored;
}

std::shared_ptr<Match> GameRooms::restore(const db::GameDetail& detail, std::int64_t restart_ms) {
  const auto& s = detail.summary;
  // Every seat's player: game_seats for more than two seats, else first and second.
  const std::vector<std::string> names =
      s.seat_names.size() > 2 ? s.seat_names
                              : std::vector<std::string>{s.first_name, s.second_name};
  // A guest's stored name is a hash of its session; show "guest#ID" until it says hello.
  auto shown = [](const db::PlayerRecord& p) {
    return p.name.starts_with("guest:") ? "guest#" + std::to_string(p.id) : p.name;
  };
  std::vector<protocol::PlayerInfo> players;
  for (const auto& name : names) {
    auto p = name.empty() ? Expected<db::PlayerRecord>(make_error("no player"))
                          : store_.find_or_create_player(name, false);
    if (!p) break;
    players.push_back({p->id, shown(*p), p->is_bot});
  }
  auto game = config_.load_game(s.kind, detail.start_position);
  auto tc = parse_time_control(s.time_control);
  if (players.size() != names.size() || !game || !tc) return nullptr;
  auto match = make_match(s.id, std::move(players), std::move(*game), s.options, *tc);
  std::vector<std::string> moves;
  for (const auto& m : detail.moves) moves.push_back(m.move);
  auto replayed = match->replay(moves);
  if (!replayed) {
    std::fprintf(stderr, "arena serve: game %lld was not resumed: %s\n",
                 static_cast<long long>(s.id), replayed.error().c_str());
    return nullptr;
  }
  match->continue_versions_from(restart_ms);
  for (std::size_t i = 0; i < detail.moves.size() && i < replayed->size(); ++i)
    if (detail.moves[i].clock_left_ms >= 0)
      match->restore_clock((*replayed)[i].seat, detail.moves[i].clock_left_ms);
  return match;
}

}  // namespace arena::server
