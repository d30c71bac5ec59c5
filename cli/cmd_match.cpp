// arena match: in-process games between two search specs (no network), in colour-swapped
// pairs from the same random opening, with a result line per game and the total for A.
// A GDL sheet (gdl:NAME) is played by GDL players (random, uct, fuzzy: bots/gdl/gdl_player.h)
// with the roles swapped the same way; a game's winner is the side whose roles' mean goal is
// higher.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bots/gdl/gdl_player.h"
#include "bots/gdl/local_match.h"
#include "bots/search/agent_factory.h"
#include "bots/search/search_rng.h"
#include "bots/search/spec.h"
#include "cli/commands.h"
#include "cli/gdl_sheet_flags.h"
#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"
#include "games/core/join.h"
#include "games/core/random_opening.h"
#include "games/gdl/library/library.h"

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
  GdlSheetFlags sheets;
};

struct Tally {
  int wins = 0, losses = 0, draws = 0;
  // A game's result for A: > 0 a win, < 0 a loss, 0 a draw; then "[i/n] A +w -l =d" on stderr.
  void add(int result, int game, int games) {
    wins += result > 0;
    losses += result < 0;
    draws += result == 0;
    std::fflush(stdout);
    std::fprintf(stderr, "[%d/%d] A +%d -%d =%d\n", game, games, wins, losses, draws);
  }
  double percent() const {
    const int n = wins + losses + draws;
    return n > 0 ? 100.0 * (wins + 0.5 * draws) / n : 0.0;
  }
};

// Games that repeat an earlier one move for move, with the same sides: players that choose
// alike from the same start (a deterministic search, or a spec's own seed=) play the same game
// again, which a match of many games should say.
class Repeats {
 public:
  // `key`: who had which side, then every move from the start.
  void add(const std::string& key) { repeated_ += !seen_.insert(key).second; }
  // A note on stderr when some game was a repeat.
  void report(const MatchOptions& o) const {
    if (repeated_ == 0) return;
    std::fflush(stdout);
    std::fprintf(stderr,
                 "note: %d of the %d games repeated an earlier game move for move: the players "
                 "choose alike from the same start (a deterministic search, or a spec's own "
                 "seed=)%s\n",
                 repeated_, o.games,
                 o.opening_plies == 0
                     ? "; --opening-plies N starts each pair from its own random opening"
                     : "");
  }

 private:
  std::set<std::string> seen_;
  int repeated_ = 0;
};

// The seed of side `side` (0 A, 1 B) in game `game` (from 0) for a player whose spec sets none:
// each game its own, so random players and seeded searches do not replay the same game.
std::uint64_t game_seed(std::uint64_t base, int game, int side) {
  std::uint64_t z = base + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(2 * game + side + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  return z ^ (z >> 27);
}

// `spec` for game `game`: its own seed= kept, else game_seed's.
search::SearchSpec for_game(search::SearchSpec spec, const MatchOptions& o, int game, int side) {
  if (!spec.seed_given) spec.seed = game_seed(o.seed, game, side);
  return spec;
}

// Plays one game; returns +1 / 0 / -1 for A, or nullopt (and prints why) on an agent failure.
// `moves` receives the moves played, as text.
template <class G>
std::optional<int> play_game(G game, search::Agent<G>& a, search::Agent<G>& b, bool a_first,
                             const MatchOptions& o, std::string& how, int& plies,
                             std::string& moves) {
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
    moves += game.move_to_string(*r.move) + " ";
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
    Repeats repeats;
    for (int i = 0; i < o.games; ++i) {
      const int pair = i / 2;
      const bool a_first = i % 2 == 0;
      std::vector<std::string> opening_moves;
      G position = random_opening<G, search::SearchRng>(
          *start, o.opening_plies, o.seed + static_cast<std::uint64_t>(pair), &opening_moves);
      const std::string opening = join(opening_moves);
      auto a = std::move(search::make_agent_from_spec<G>(for_game(spec_a, o, i, 0)).value());
      auto b = std::move(search::make_agent_from_spec<G>(for_game(spec_b, o, i, 1)).value());
      std::string how, moves;
      int plies = 0;
      const auto result = play_game(position, *a, *b, a_first, o, how, plies, moves);
      if (!result) return kExitFailure;
      repeats.add(std::string(a_first ? "A " : "B ") + opening + " | " + moves);
      const char* score = *result > 0   ? (a_first ? "1-0" : "0-1")
                          : *result < 0 ? (a_first ? "0-1" : "1-0")
                                        : "1/2-1/2";
      std::printf("game %d: %s (first) vs %s: %s %s, %d plies%s%s\n", i + 1, a_first ? "A" : "B",
                  a_first ? "B" : "A", score, how.c_str(), plies,
                  opening.empty() ? "" : ", opening ", opening.c_str());
      tally.add(*result, i + 1, o.games);
    }
    std::printf("A %s\nB %s\ntotal for A: %d wins, %d losses, %d draws (%.1f%%)\n",
                spec_a.text.c_str(), spec_b.text.c_str(), tally.wins, tally.losses, tally.draws,
                tally.percent());
    repeats.report(o);
    return kExitOk;
  }
}

// A side's mean goal over the roles it played; -1 goals (none in the rules) count as 0.
double mean_goal(const std::vector<int>& goals, const std::vector<bool>& mine, bool side) {
  double sum = 0;
  int n = 0;
  for (std::size_t r = 0; r < goals.size(); ++r)
    if (mine[r] == side) sum += std::max(goals[r], 0), ++n;
  return n > 0 ? sum / n : 0;
}

// A plays the roles r with r + i even in game i (from 0): in a game of two roles, the first role
// in games 1, 3, 5, ... as printed; each pair of games starts from the same random opening.
int run_gdl_match(const MatchOptions& o) {
  if (!o.options.empty()) {
    std::cerr << "arena match: --options are for the catalog's games, not a GDL sheet\n";
    return kExitUsage;
  }
  for (const auto& [flag, spec] : {std::pair{"--a", o.a}, std::pair{"--b", o.b}})
    if (auto p = gdl::make_gdl_player(spec); !p) {
      std::cerr << "arena match: " << flag << ": " << p.error() << "\n";
      return kExitUsage;
    }
  auto machine = gdl::make_gdl_machine(o.game.substr(4));
  if (!machine) {
    std::cerr << "arena match: " << machine.error() << "\n";
    return kExitFailure;
  }
  const std::size_t roles = (*machine)->roles().size();
  if (roles < 2) {
    std::cerr << "arena match: " << o.game << " is a puzzle (one role); use arena solve\n";
    return kExitUsage;
  }
  gdl::LocalMatchConfig config;
  config.movetime = std::chrono::milliseconds(o.movetime_ms > 0 ? o.movetime_ms : 1000);
  config.max_steps = o.max_plies;
  config.opening_steps = o.opening_plies;
  Tally tally;
  Repeats repeats;
  double a_goals = 0;
  for (int i = 0; i < o.games; ++i) {
    config.seed = o.seed + static_cast<std::uint64_t>(i / 2);
    std::vector<bool> is_a(roles);
    std::vector<std::unique_ptr<gdl::GdlPlayer>> owned;
    std::vector<gdl::GdlPlayer*> players;
    for (std::size_t r = 0; r < roles; ++r) {
      is_a[r] = (r + static_cast<std::size_t>(i)) % 2 == 0;
      const int side = is_a[r] ? 0 : 1;
      owned.push_back(std::move(
          gdl::make_gdl_player(side == 0 ? o.a : o.b, game_seed(o.seed, i, side)).value()));
      players.push_back(owned.back().get());
    }
    auto played = gdl::play_local_match(**machine, players, config);
    for (std::size_t r = 0; r < roles; ++r)
      gdl::report_fallback(*owned[r], is_a[r] ? "arena match: A " + o.a : "arena match: B " + o.b);
    if (!played) {
      std::cerr << "arena match: game " << i + 1 << ": " << played.error() << "\n";
      return kExitFailure;
    }
    std::string key = i % 2 == 0 ? "A" : "B";
    for (const auto& step : played->moves) key += " | " + join(step);
    repeats.add(key);
    const double a = mean_goal(played->goals, is_a, true),
                 b = mean_goal(played->goals, is_a, false);
    a_goals += a;
    std::string line;
    for (std::size_t r = 0; r < roles; ++r)
      line += (r ? ", " : "") + played->roles[r] + (is_a[r] ? " A " : " B ") +
              std::to_string(played->goals[r]);
    std::printf("game %d: goals %s: %s, %zu steps%s\n", i + 1, line.c_str(),
                a > b   ? "A wins"
                : a < b ? "B wins"
                        : "drawn",
                played->moves.size(), played->terminal ? "" : " (stopped by --max-plies)");
    if (!played->problem.empty())
      std::printf("game %d: %s (a bug of the rules; shown as -1)\n", i + 1,
                  played->problem.c_str());
    tally.add(a > b ? 1 : a < b ? -1 : 0, i + 1, o.games);
  }
  std::printf("A %s\nB %s\ntotal for A: %d wins, %d losses, %d draws (%.1f%%), mean goal %.1f\n",
              o.a.c_str(), o.b.c_str(), tally.wins, tally.losses, tally.draws, tally.percent(),
              a_goals / o.games);
  repeats.report(o);
  return kExitOk;
}

}  // namespace

void add_match(CLI::App& app, Action& action) {
  auto o = std::make_shared<MatchOptions>();
  CLI::App* sub = app.add_subcommand("match", "play in-process games between two search specs");
  sub->add_option("--game,-g", o->game, "game name (" + known_game_names() + ")")->required();
  sub->add_option(
         "--a", o->a,
         "spec of player A, e.g. alphabeta:eval=improved_score,depth=4; for gdl:NAME a GDL "
         "player: random, uct[:iterations=N], fuzzy[:depth=N], mcts-pb[:bias=X], "
         "mcts-cutoff[:depth=N] or fuzzy-ab (arena bot --list-presets)")
      ->required();
  sub->add_option("--b", o->b, "spec of player B, e.g. mcts:playouts=2000")->required();
  sub->add_option("--games,-n", o->games, "number of games (pairs swap colours)")
      ->check(CLI::Range(1, 1000000));
  sub->add_option("--seed", o->seed,
                  "seed of the random openings, and of each game's players whose spec sets none");
  sub->add_option("--movetime", o->movetime_ms,
                  "ms per move unless a spec sets its own limit (GDL players: default 1000)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{86'400'000}));
  sub->add_option("--opening-plies", o->opening_plies, "random plies before each pair's games")
      ->check(CLI::Range(0, 200));
  sub->add_option("--max-plies", o->max_plies,
                  "adjudicate a draw after this many plies (GDL: steps; the goals reached count)")
      ->check(CLI::Range(1, 100000));
  sub->add_option("--options", o->options, "game options, key=value,... (e.g. size=5)");
  add_gdl_sheet_flags(sub, o->sheets);
  sub->callback([o, &action] {
    action = [o] {
      if (!apply_gdl_sheet_flags(o->sheets, "match")) return kExitUsage;
      if (is_gdl_game(o->game)) return run_gdl_match(*o);
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
