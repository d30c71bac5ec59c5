// arena match: in-process games between two search specs (no network), in colour-swapped
// pairs from the same random opening, with a result line per game and the total for A.

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bots/search/agent_factory.h"
#include "bots/search/search_rng.h"
#include "bots/search/spec.h"
#include "cli/commands.h"
#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"
#include "games/core/join.h"
#include "games/core/random_opening.h"

namespace arena::cli {
namespace {

struct MatchOptions {
  std::string game;
  std::string a;
  std::string b;
  std::string options;
  int games = 2;
  std::uint64_t seed = 1;
  std::int64_t movetime_ms = 0;
  int opening_plies = 0;
  int max_plies = 1000;
};

struct Tally {
  int wins = 0, losses = 0, draws = 0;
};

// Plays one game; returns +1 / 0 / -1 for A, or nullopt (and prints why) on an agent failure.
template <class G>
std::optional<int> play_game(G game, search::Agent<G>& a, search::Agent<G>& b, bool a_first,
                             const MatchOptions& o, std::string& how, int& plies) {
  search::Limits limits;
  limits.movetime_ms = o.movetime_ms;
  plies = 0;
  while (!game.outcome().is_terminal() && plies < o.max_plies) {
    const bool a_to_move = (game.side_to_move() == Player::kFirst) == a_first;
    const auto r = (a_to_move ? a : b).choose_move(game, limits);
    if (!r.move) {
      std::cerr << "arena match: " << (a_to_move ? "A" : "B") << " found no move in "
                << game.serialize() << "\n";
      return std::nullopt;
    }
    game.make_move(*r.move);
    ++plies;
  }
  const Outcome outcome = game.outcome();
  if (!outcome.is_terminal()) {
    how = "adjudicated draw after " + std::to_string(plies) + " plies";
    return 0;
  }
  how = std::string(to_string(outcome.reason));
  if (outcome.result == Result::kDraw) return 0;
  return (outcome.result == Result::kFirstWins) == a_first ? 1 : -1;
}

template <class G>
int run_match(const MatchOptions& o, const GameOptions& game_options,
              const search::SearchSpec& spec_a, const search::SearchSpec& spec_b) {
  if constexpr (G::kNumPlayers != 2) {
    std::cerr << "arena match: " << G::kName << " is a puzzle; use arena solve\n";
    return kExitUsage;
  } else {
    auto start = G::create(game_options);
    if (!start) {
      std::cerr << "arena match: " << G::kName << ": " << start.error() << "\n";
      return kExitUsage;
    }
    // Check both specs against this game (heuristic names) before playing anything.
    for (const auto* spec : {&spec_a, &spec_b}) {
      auto agent = search::make_agent_from_spec<G>(*spec);
      if (!agent) {
        std::cerr << "arena match: " << (spec == &spec_a ? "--a: " : "--b: ") << agent.error()
                  << "\n";
        return kExitUsage;
      }
    }
    Tally tally;
    for (int i = 0; i < o.games; ++i) {
      const int pair = i / 2;
      const bool a_first = i % 2 == 0;
      std::vector<std::string> opening_moves;
      G position = random_opening<G, search::SearchRng>(
          *start, o.opening_plies, o.seed + static_cast<std::uint64_t>(pair), &opening_moves);
      const std::string opening = join(opening_moves);
      auto a = std::move(search::make_agent_from_spec<G>(spec_a).value());
      auto b = std::move(search::make_agent_from_spec<G>(spec_b).value());
      std::string how;
      int plies = 0;
      const auto result = play_game(position, *a, *b, a_first, o, how, plies);
      if (!result) return kExitFailure;
      tally.wins += *result > 0;
      tally.losses += *result < 0;
      tally.draws += *result == 0;
      const char* score = *result > 0   ? (a_first ? "1-0" : "0-1")
                          : *result < 0 ? (a_first ? "0-1" : "1-0")
                                        : "1/2-1/2";
      std::printf("game %d: %s (first) vs %s: %s %s, %d plies%s%s\n", i + 1, a_first ? "A" : "B",
                  a_first ? "B" : "A", score, how.c_str(), plies,
                  opening.empty() ? "" : ", opening ", opening.c_str());
      std::fflush(stdout);
      std::fprintf(stderr, "[%d/%d] A +%d -%d =%d\n", i + 1, o.games, tally.wins, tally.losses,
                   tally.draws);
    }
    const double points = tally.wins + 0.5 * tally.draws;
    std::printf("A %s\nB %s\ntotal for A: %d wins, %d losses, %d draws (%.1f%%)\n",
                spec_a.text.c_str(), spec_b.text.c_str(), tally.wins, tally.losses, tally.draws,
                o.games > 0 ? 100.0 * points / o.games : 0.0);
    return kExitOk;
  }
}

}  // namespace

void add_match(CLI::App& app, Action& action) {
  auto o = std::make_shared<MatchOptions>();
  CLI::App* sub = app.add_subcommand("match", "play in-process games between two search specs");
  sub->add_option("--game,-g", o->game, "game name (" + known_game_names() + ")")->required();
  sub->add_option("--a", o->a, "spec of player A, e.g. alphabeta:eval=improved_score,depth=4")
      ->required();
  sub->add_option("--b", o->b, "spec of player B, e.g. mcts:playouts=2000")->required();
  sub->add_option("--games,-n", o->games, "number of games (pairs swap colours)")
      ->check(CLI::Range(1, 1000000));
  sub->add_option("--seed", o->seed, "seed of the random openings");
  sub->add_option("--movetime", o->movetime_ms, "ms per move unless a spec sets its own limit")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{86'400'000}));
  sub->add_option("--opening-plies", o->opening_plies, "random plies before each pair's games")
      ->check(CLI::Range(0, 200));
  sub->add_option("--max-plies", o->max_plies, "adjudicate a draw after this many plies")
      ->check(CLI::Range(1, 100000));
  sub->add_option("--options", o->options, "game options, key=value,... (e.g. size=5)");
  sub->callback([o, &action] {
    action = [o] {
      auto spec_a = search::parse_search_spec(o->a);
      if (!spec_a) {
        std::cerr << "arena match: --a: " << spec_a.error() << "\n";
        return kExitUsage;
      }
      auto spec_b = search::parse_search_spec(o->b);
      if (!spec_b) {
        std::cerr << "arena match: --b: " << spec_b.error() << "\n";
        return kExitUsage;
      }
      GameOptions game_options;
      const auto resolved = resolve_game(o->game, o->options, game_options);
      if (!resolved) {
        std::cerr << "arena match: --options: " << resolved.error() << "\n";
        return kExitUsage;
      }
      const std::string& name = *resolved;
      int status = kExitUsage;
      const bool found = visit_game_type(name, [&]<class G>(std::type_identity<G>) {
        status = run_match<G>(*o, game_options, *spec_a, *spec_b);
      });
      if (!found) {
        std::cerr << "arena match: unknown game '" << o->game << "' (known: " << known_game_names()
                  << ")\n";
        return kExitUsage;
      }
      return status;
    };
  });
}

}  // namespace arena::cli
