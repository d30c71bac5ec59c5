#pragma once
// One tournament game of G played in process between two search specs and recorded through the
// Store, with the error policy of league_runner.h. Internal to the league runner.

#include <chrono>
#include <string>

#include "bots/search/agent_factory.h"
#include "bots/search/search_rng.h"
#include "db/store.h"
#include "games/core/join.h"
#include "tournament/config/league_config.h"

namespace arena::league {

struct GameSetup {
  db::GameId game = 0;
  std::string first_spec, second_spec;
};

struct PlayedGame {
  std::string result, reason;
};

namespace detail {

inline PlayedGame forfeit(Player offender, const std::string& why) {
  return {offender == Player::kFirst ? "0-1" : "1-0", why};
}

}  // namespace detail

// Plays from `position` to the end or config.max_plies (then a draw, "adjudicated").
template <class G>
Expected<PlayedGame> play_recorded_game(G position, const GameSetup& setup,
                                        const tournament::LeagueConfig& config, db::Store& store,
                                        std::uint64_t seed) {
  auto first = search::make_agent_from_spec<G>(setup.first_spec);
  if (!first) return make_error(first.error());
  auto second = search::make_agent_from_spec<G>(setup.second_spec);
  if (!second) return make_error(second.error());
  search::SearchRng substitute_rng(seed ^ 0x5bd1e995ULL);
  search::Limits limits;
  limits.movetime_ms = config.movetime_ms;
  typename G::MoveList legal;
  int ply = 0;
  while (!position.outcome().is_terminal() && ply < config.max_plies) {
    const Player mover = position.side_to_move();
    auto& agent = mover == Player::kFirst ? **first : **second;
    const auto start = std::chrono::steady_clock::now();
    auto r = agent.choose_move(position, limits);
    const auto used_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::steady_clock::now() - start)
                             .count();
    position.generate_moves(legal);
    std::string error;
    if (!r.move)
      error = "no move";
    else if (config.forfeit_after_ms > 0 && used_ms > config.forfeit_after_ms)
      error = "timeout";
    else {
      const std::string text = position.move_to_string(*r.move);
      bool ok = false;
      for (const auto& m : legal) ok = ok || position.move_to_string(m) == text;
      if (!ok) error = "illegal move";
    }
    std::string pv = join(r.info.pv);
    if (!error.empty()) {
      if (config.on_error == tournament::ErrorPolicy::kLose || legal.empty())
        return detail::forfeit(mover, error);
      r.move = legal[substitute_rng.below(legal.size())];
      pv = "substituted: " + error;
    }
    db::MoveRecord record;
    record.game = setup.game;
    record.ply = ply;
    record.seat = index(mover);
    record.move = position.move_to_string(*r.move);
    record.time_used_ms = used_ms;
    record.depth = r.info.depth;
    record.nodes = static_cast<std::int64_t>(r.info.nodes);
    record.score = r.info.score;
    record.pv = pv;
    store.append_move(record, [](Expected<void>) {});
    position.make_move(*r.move);
    ++ply;
  }
  const Outcome outcome = position.outcome();
  if (!outcome.is_terminal()) return PlayedGame{"1/2-1/2", "adjudicated"};
  const std::string reason(to_string(outcome.reason));
  if (outcome.result == Result::kDraw) return PlayedGame{"1/2-1/2", reason};
  return PlayedGame{outcome.result == Result::kFirstWins ? "1-0" : "0-1", reason};
}

}  // namespace arena::league
