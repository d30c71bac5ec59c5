// Hub: after a restart, unfinished games come back as live matches. Policy (protocol
// README): the recorded moves are replayed, each clock gets what it had left at its side's
// last move, the side to move's clock runs from the restart, both players count as
// disconnected (so the grace period and claim_win apply), and versions continue above every
// version of before (from the restart time in milliseconds). A running tournament's game is not
// resumed: the tournament director closes it as interrupted and plays the pairing again.

#include <chrono>
#include <cstdio>

#include "games/catalog/catalog.h"
#include "server/hub.h"

namespace arena::server {

int Hub::restore_unfinished() {
  auto games = store_.unfinished_games();
  if (!games) return 0;
  int restored = 0;
  const std::int64_t restart_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count();
  for (auto& detail : *games) {
    const auto& s = detail.summary;
    if (s.first_name.empty() || s.second_name.empty()) continue;  // puzzles are not resumed
    if (hooks_.replays_game && hooks_.replays_game(s.id)) continue;  // its tournament replays it
    auto first = store_.find_or_create_player(s.first_name, false);
    auto second = store_.find_or_create_player(s.second_name, false);
    auto game = config_.load_game(s.kind, detail.start_position);
    auto tc = parse_time_control(s.time_control);
    if (!first || !second || !game || !tc) continue;
    // A guest's stored name is a hash of its session; show "guest#ID" until it says hello.
    auto shown = [](const db::PlayerRecord& p) {
      return p.name.starts_with("guest:") ? "guest#" + std::to_string(p.id) : p.name;
    };
    auto match = make_match(s.id, {first->id, shown(*first), first->is_bot},
                            {second->id, shown(*second), second->is_bot}, std::move(*game),
                            s.options, *tc);
    std::vector<std::string> moves;
    for (const auto& m : detail.moves) moves.push_back(m.move);
    if (!match->replay(moves)) {
      std::fprintf(stderr, "arena serve: game %lld was not resumed: its moves do not replay\n",
                   static_cast<long long>(s.id));
      continue;
    }
    match->continue_versions_from(restart_ms);
    for (const auto& m : detail.moves)
      if (m.clock_left_ms >= 0) match->restore_clock(m.ply % 2, m.clock_left_ms);
    {
      std::lock_guard lock(mutex_);
      matches_[s.id] = match;
      live_.insert(s.id);
    }
    match->connection_changed(0, false);
    match->connection_changed(1, false);
    match->start();
    ++restored;
  }
  return restored;
}

}  // namespace arena::server
