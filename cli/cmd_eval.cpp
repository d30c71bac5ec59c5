// arena eval: a heuristic's value of one position and, with --moves, of the position after
// each legal move (the AI tutorial's evaluatingHeuristic), so a heuristic can be tried by hand.

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "bots/eval/registry.h"
#include "bots/search/score.h"
#include "cli/commands.h"
#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"

namespace arena::cli {
namespace {

struct EvalOptions {
  std::string game;
  std::string position;
  std::string options;
  std::string eval;
  std::string params;
  bool moves = false;
};

template <class G>
int run_eval(const EvalOptions& o, const GameOptions& game_options) {
  GameOptions params;
  if (!o.params.empty()) {
    auto parsed = parse_game_options(o.params);
    if (!parsed) {
      std::cerr << "arena eval: --params: " << parsed.error() << "\n";
      return kExitUsage;
    }
    params = *parsed;
  }
  auto heuristic = eval::make_named_heuristic<G>(o.eval, params);
  if (!heuristic) {
    std::cerr << "arena eval: " << heuristic.error() << "\n";
    return kExitUsage;
  }
  auto game = o.position.empty() ? G::create(game_options) : G::deserialize(o.position);
  if (!game) {
    std::cerr << "arena eval: " << G::kName << ": " << game.error() << "\n";
    return kExitFailure;
  }
  const eval::Heuristic<G>& h = *heuristic;
  std::cout << "game " << G::kName << "\nposition " << game->serialize() << "\nvalue " << h(*game)
            << " (for the side to move)\n";
  if (!o.moves) return kExitOk;
  // Two players: each move's value is the mover's, minus the heuristic of the position it
  // leads to (or the win/loss score if the move ends the game); the pick is the largest.
  // Puzzles: the heuristic is an estimate of the distance to the goal; the pick is the least.
  constexpr bool kPuzzle = G::kNumPlayers == 1;
  typename G::MoveList list;
  game->generate_moves(list);
  std::string best;
  int best_value = 0;
  for (const auto& m : list) {
    const std::string text = game->move_to_string(m);
    const Player mover = game->side_to_move();
    game->make_move(m);
    const Outcome outcome = game->outcome();
    int value = 0;
    if (kPuzzle)
      value = h(*game);
    else if (outcome.is_terminal())
      value = -search::terminal_score(outcome, game->side_to_move(), 1);
    else
      value = game->side_to_move() != mover ? -h(*game) : h(*game);
    game->unmake_move(m);
    std::printf("  %-8s %d\n", text.c_str(), value);
    if (best.empty() || (kPuzzle ? value < best_value : value > best_value)) {
      best_value = value;
      best = text;
    }
  }
  if (!best.empty()) std::cout << "pick " << best << " (" << best_value << ")\n";
  return kExitOk;
}

}  // namespace

void add_eval(CLI::App& app, Action& action) {
  auto o = std::make_shared<EvalOptions>();
  CLI::App* sub = app.add_subcommand("eval", "evaluate a position with a named heuristic");
  sub->add_option("--game,-g", o->game, "game name (" + known_game_names() + ")")->required();
  sub->add_option("--position,-p", o->position, "position as the game serializes it");
  sub->add_option("--options", o->options, "game options for the start position, key=value,...");
  sub->add_option("--eval,-e", o->eval, "heuristic name (default: the game's first)");
  sub->add_option("--params", o->params, "heuristic parameters, key=value,...");
  sub->add_flag("--moves", o->moves, "also value every legal move and show the pick");
  sub->callback([o, &action] {
    action = [o] {
      GameOptions game_options;
      const std::string name = resolve_game_name(o->game, game_options);
      if (!o->options.empty()) {
        auto parsed = parse_game_options(o->options);
        if (!parsed) {
          std::cerr << "arena eval: --options: " << parsed.error() << "\n";
          return kExitUsage;
        }
        for (const auto& [k, v] : *parsed) game_options[k] = v;
      }
      int status = kExitUsage;
      const bool found = visit_game_type(
          name, [&]<class G>(std::type_identity<G>) { status = run_eval<G>(*o, game_options); });
      if (!found) {
        std::cerr << "arena eval: unknown game '" << o->game << "' (known: " << known_game_names()
                  << ")\n";
        return kExitUsage;
      }
      return status;
    };
  });
}

}  // namespace arena::cli
