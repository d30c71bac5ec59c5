// arena eval: a heuristic's value of one position and, with --moves, of the position after
// each legal move (the AI tutorial's evaluatingHeuristic), so a heuristic can be tried by hand.
// --explain prints the fuzzy goal heuristic's working (per role, each goal level's degree and
// the value) for the hand-written tic-tac-toe and for GDL games (`--game gdl:NAME` or
// `--gdl FILE`), whose one heuristic is fuzzy_goal (bots/eval/gdl_fuzzy.h); --latches lets the
// GDL heuristic use the game's latches (clingo), which fix latched fluents' degrees at 1 or 0.

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <type_traits>

#include "bots/eval/gdl_fuzzy.h"
#include "bots/eval/registry.h"
#include "bots/search/score.h"
#include "cli/commands.h"
#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/library/library.h"
#include "games/gdl/library/sheet_file.h"

namespace arena::cli {
namespace {

struct EvalOptions {
  std::string game;
  std::string position;
  std::string options;
  std::string eval;
  std::string params;
  bool moves = false;
  bool explain = false;
  bool latches = false;
  std::string gdl_file;
};

Expected<GameOptions> eval_params(const EvalOptions& o) {
  if (o.params.empty()) return GameOptions{};
  auto parsed = parse_game_options(o.params);
  if (!parsed) return make_error("--params: " + parsed.error());
  return parsed;
}

#if defined(ARENA_EVAL_HAVE_TICTACTOE)
// The hand-written fuzzy goal heuristic's working, in the GDL explanation's layout.
int explain_tictactoe(const tictactoe::TicTacToe& g, const GameOptions& params) {
  auto p = eval::parse_fuzzy_goal_params(params);
  if (!p || params.count("reading")) {
    std::cerr << "arena eval: " << (p ? "reading= is for GDL games" : p.error()) << "\n";
    return kExitUsage;
  }
  const eval::FuzzyParams f{p->tau, p->theta, p->q};
  std::printf("fuzzy_goal tau=%g theta=%g q=%g\n", f.tau, f.theta, f.q);
  std::printf("atom (line x) %.6f\natom (line o) %.6f\n", eval::fuzzy_line(g, Player::kFirst, f),
              eval::fuzzy_line(g, Player::kSecond, f));
  for (const Player me : {Player::kFirst, Player::kSecond}) {
    const char* mine = me == Player::kFirst ? "(line x)" : "(line o)";
    const char* theirs = me == Player::kFirst ? "(line o)" : "(line x)";
    std::printf("role %s\n", me == Player::kFirst ? "x" : "o");
    std::printf("  goal 100  %.6f  = %s and not %s\n", eval::fuzzy_goal_win(g, me, f), mine, theirs);
    std::printf("  goal  50  %.6f  = not %s and not %s\n", eval::fuzzy_goal_draw(g, me, f), mine,
                theirs);
    std::printf("  value %.6f\n", eval::fuzzy_goal_value(g, me, f));
  }
  return kExitOk;
}
#endif

// A GDL game: the sheet `gdl_file`, else `gdl:NAME` (games/gdl/library/library.h).
int run_gdl_eval(const EvalOptions& o) {
  if (!o.eval.empty() && o.eval != "fuzzy_goal") {
    std::cerr << "arena eval: GDL games have one heuristic, fuzzy_goal (not '" << o.eval << "')\n";
    return kExitUsage;
  }
  if (o.moves || !o.options.empty()) {
    std::cerr << "arena eval: " << (o.moves ? "--moves" : "--options")
              << " is not available for GDL games\n";
    return kExitUsage;
  }
  auto params = eval_params(o);
  auto p = params ? eval::parse_fuzzy_goal_params(*params) : Expected<eval::FuzzyGoalParams>(
                                                                 make_error(params.error()));
  if (!p) {
    std::cerr << "arena eval: " << p.error() << "\n";
    return kExitUsage;
  }
  std::shared_ptr<const gdl::Description> description;
  if (o.gdl_file.empty()) {
    auto loaded = gdl::load_gdl_description(std::string_view(o.game).substr(4));  // "gdl:"
    if (!loaded) {
      std::cerr << "arena eval: " << loaded.error() << "\n";
      return kExitFailure;
    }
    description = *loaded;
  } else {
    auto read = gdl::read_description_file(o.gdl_file);
    if (!read) {
      std::cerr << "arena eval: " << read.error() << "\n";
      return kExitFailure;
    }
    description = std::make_shared<const gdl::Description>(std::move(*read));
  }
  const gdl::LatchOptions latch_options;
  auto report = eval::fuzzy_goal_report(*description, o.position, *p, o.explain,
                                        o.latches ? &latch_options : nullptr);
  if (!report) {
    std::cerr << "arena eval: " << report.error() << "\n";
    return kExitFailure;
  }
  std::cout << "game " << (o.game.empty() ? o.gdl_file : o.game) << "\n" << *report;
  return kExitOk;
}

// --moves: each legal move's value and the pick.
template <class G>
int print_move_values(G& game, const eval::Heuristic<G>& h) {
  // Two players: each move's value is the mover's, minus the heuristic of the position it
  // leads to (or the win/loss score if the move ends the game); the pick is the largest.
  // Puzzles: the heuristic is an estimate of the distance to the goal; the pick is the least.
  constexpr bool kPuzzle = G::kNumPlayers == 1;
  typename G::MoveList list;
  game.generate_moves(list);
  std::string best;
  int best_value = 0;
  for (const auto& m : list) {
    const std::string text = game.move_to_string(m);
    const Player mover = game.side_to_move();
    game.make_move(m);
    const Outcome outcome = game.outcome();
    int value = 0;
    if (kPuzzle)
      value = h(game);
    else if (outcome.is_terminal())
      value = -search::terminal_score(outcome, game.side_to_move(), 1);
    else
      value = game.side_to_move() != mover ? -h(game) : h(game);
    game.unmake_move(m);
    std::printf("  %-8s %d\n", text.c_str(), value);
    if (best.empty() || (kPuzzle ? value < best_value : value > best_value)) {
      best_value = value;
      best = text;
    }
  }
  if (!best.empty()) std::cout << "pick " << best << " (" << best_value << ")\n";
  return kExitOk;
}

template <class G>
int run_eval(const EvalOptions& o, const GameOptions& game_options) {
  auto parsed = eval_params(o);
  if (!parsed) {
    std::cerr << "arena eval: " << parsed.error() << "\n";
    return kExitUsage;
  }
  const GameOptions& params = *parsed;
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
  if (o.explain) {
#if defined(ARENA_EVAL_HAVE_TICTACTOE)
    if constexpr (std::is_same_v<G, tictactoe::TicTacToe>) {
      if (o.eval == "fuzzy_goal") {
        std::cout << "game " << G::kName << "\nposition " << game->serialize() << "\n";
        return explain_tictactoe(*game, params);
      }
    }
#endif
    std::cerr << "arena eval: --explain is for --eval fuzzy_goal on tictactoe and GDL games\n";
    return kExitUsage;
  }
  const eval::Heuristic<G>& h = *heuristic;
  std::cout << "game " << G::kName << "\nposition " << game->serialize() << "\nvalue " << h(*game)
            << " (for the side to move)\n";
  if (!o.moves) return kExitOk;
  return print_move_values(*game, h);
}

}  // namespace

void add_eval(CLI::App& app, Action& action) {
  auto o = std::make_shared<EvalOptions>();
  CLI::App* sub = app.add_subcommand("eval", "evaluate a position with a named heuristic");
  sub->add_option("--game,-g", o->game, "game name (" + known_game_names() + ")");
  sub->add_option("--gdl", o->gdl_file, "a GDL rule sheet (.kif) to evaluate instead of --game");
  sub->add_option("--position,-p", o->position, "position as the game serializes it");
  sub->add_option("--options", o->options, "game options for the start position, key=value,...");
  sub->add_option("--eval,-e", o->eval, "heuristic name (default: the game's first)");
  sub->add_option("--params", o->params, "heuristic parameters, key=value,...");
  sub->add_flag("--moves", o->moves, "also value every legal move and show the pick");
  sub->add_flag("--explain", o->explain,
                "fuzzy_goal: print per role each goal level's degree and the value");
  sub->add_flag("--latches", o->latches,
                "GDL fuzzy_goal: latched fluents' degrees are 1 or 0 (latches found by clingo)");
  sub->callback([o, &action] {
    action = [o] {
      if (o->game.empty() == o->gdl_file.empty()) {
        std::cerr << "arena eval: give either --game or --gdl FILE\n";
        return kExitUsage;
      }
      if (!o->gdl_file.empty() || is_gdl_game(o->game)) return run_gdl_eval(*o);
      if (o->latches) {
        std::cerr << "arena eval: --latches is for GDL games\n";
        return kExitUsage;
      }
      GameOptions game_options;
      const auto resolved = resolve_game(o->game, o->options, game_options);
      if (!resolved) {
        std::cerr << "arena eval: --options: " << resolved.error() << "\n";
        return kExitUsage;
      }
      const std::string& name = *resolved;
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
