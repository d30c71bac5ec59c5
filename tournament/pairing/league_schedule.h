#pragma once
// The schedule steps a league takes whoever plays it (the server's director or the in-process
// runner): the first schedule from the config, the next Swiss round from the results so far,
// and the store rows for scheduled games.

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "db/store.h"
#include "games/core/expected.h"
#include "tournament/config/league_config.h"
#include "tournament/pairing/schedule.h"

namespace arena::tournament {

inline double first_player_score(const std::string& result) {
  return result == "1-0" ? 1.0 : result == "0-1" ? 0.0 : 0.5;
}

// Round robin and gauntlet: every game; Swiss: round 1.
inline Expected<std::vector<ScheduledGame>> first_schedule(const LeagueConfig& c) {
  const int n = static_cast<int>(c.players.size());
  switch (c.format) {
    case Format::kRoundRobin:
      return round_robin(n, c.games_per_pairing);
    case Format::kGauntlet:
      return gauntlet(c.num_challengers, n - c.num_challengers, c.games_per_pairing);
    case Format::kSwiss:
      break;
  }
  return swiss_round(std::vector<double>(static_cast<std::size_t>(n), 0.0), {}, 0,
                     c.games_per_pairing, 0);
}

// Swiss: the next round paired from `rows` (anything with round, first, second and result),
// or nullopt when every round is scheduled. `index_of` maps player ids to config indices.
template <class Row>
Expected<std::optional<std::vector<ScheduledGame>>> next_swiss_round(
    const LeagueConfig& c, const std::vector<Row>& rows,
    const std::map<db::PlayerId, int>& index_of) {
  int last_round = 0;
  std::vector<double> scores(c.players.size(), 0.0);
  std::set<std::pair<int, int>> played;
  for (const auto& r : rows) {
    last_round = std::max(last_round, r.round);
    const int a = index_of.at(r.first), b = index_of.at(r.second);
    played.insert({std::min(a, b), std::max(a, b)});
    scores[static_cast<std::size_t>(a)] += first_player_score(r.result);
    scores[static_cast<std::size_t>(b)] += 1 - first_player_score(r.result);
  }
  if (last_round + 1 >= c.rounds) return std::optional<std::vector<ScheduledGame>>{};
  auto next = swiss_round(scores, played, last_round + 1, c.games_per_pairing, 0);
  if (!next) return make_error(next.error());
  return std::optional{std::move(*next)};
}

// Adds a pairing row per scheduled game; `ids` are the players' ids by config index.
inline Expected<void> add_pairings(db::Store& store, std::int64_t tournament,
                                   const std::vector<ScheduledGame>& games,
                                   const std::vector<db::PlayerId>& ids) {
  for (const auto& g : games) {
    db::Pairing p;
    p.tournament = tournament;
    p.round = g.round;
    p.first = ids[static_cast<std::size_t>(g.first)];
    p.second = ids[static_cast<std::size_t>(g.second)];
    if (auto id = store.add_pairing(p); !id) return make_error(id.error());
  }
  return {};
}

}  // namespace arena::tournament
