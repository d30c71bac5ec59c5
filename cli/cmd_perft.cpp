// arena perft: leaf counts of the legal-move tree, for checking and timing move generators.

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/gdl_sheet_flags.h"
#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"
#include "games/core/perft.h"
#include "games/gdl/game/gdl_game.h"
#include "games/gdl/library/library.h"

namespace arena::cli {
namespace {

struct PerftOptions {
  std::string game;
  std::string position;
  std::string options;
  int depth = 1;
  bool divide = false;
  std::string reasoner = "auto";
  GdlSheetFlags sheets;
};

// GDL perft counts turns (joint moves: the product of every role's legal moves) with a
// reasoner of its own: the compiled one when the sheet compiles, else the prover.
int run_gdl_perft(const PerftOptions& o, const std::string& name) {
  if (!o.options.empty()) {
    std::cerr << "arena perft: GDL games take no options\n";
    return kExitUsage;
  }
  auto reasoner = gdl::parse_reasoner(o.reasoner);
  if (!reasoner) {
    std::cerr << "arena perft: " << reasoner.error() << "\n";
    return kExitUsage;
  }
  auto context = gdl::make_gdl_context(name.substr(4), *reasoner);
  if (!context) {
    std::cerr << "arena perft: " << context.error() << "\n";
    return kExitFailure;
  }
  auto game = o.position.empty() ? gdl::GdlGame::start(*context)
                                 : gdl::GdlGame::load(*context, o.position);
  if (!game) {
    std::cerr << "arena perft: " << name << ": " << game.error() << "\n";
    return kExitFailure;
  }
  gdl::StateMachine& machine = (*context)->machine();
  const gdl::State start_state = (*game)->state();
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t nodes = 0;
  std::string failure;
  if (o.divide && o.depth > 0 && !(*game)->movers().empty()) {
    auto lines =
        gdl::gdl_perft_divide(**game, machine, o.depth, [&nodes](const gdl::PerftLine& line) {
          std::cout << line.first << ": " << line.second << std::endl;  // as each is counted
          nodes += line.second;
        });
    if (!lines) failure = lines.error();
  } else {
    auto counted = gdl::gdl_perft(machine, start_state, o.depth);
    if (counted)
      nodes = *counted;
    else
      failure = counted.error();
  }
  if (!failure.empty()) {
    std::cerr << "arena perft: " << name << ": " << failure << "\n";
    return kExitFailure;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("game %s depth %d reasoner %s\nnodes %llu\ntime %.3f s\nnps %.0f\n", name.c_str(),
              o.depth, std::string(machine.kind()).c_str(), static_cast<unsigned long long>(nodes),
              seconds, seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0);
  return kExitOk;
}

template <class G>
int run_perft(const PerftOptions& o) {
  GameOptions game_options;
  if (!o.options.empty()) {
    auto parsed = parse_game_options(o.options);
    if (!parsed) {
      std::cerr << "arena perft: " << parsed.error() << "\n";
      return kExitUsage;
    }
    game_options = *parsed;
  }
  auto game = o.position.empty() ? G::create(game_options) : G::deserialize(o.position);
  if (!game) {
    std::cerr << "arena perft: " << G::kName << ": " << game.error() << "\n";
    return kExitFailure;
  }
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t nodes = 0;
  if (o.divide) {
    for (const auto& [move, count] : perft_divide(*game, o.depth)) {
      std::cout << move << ": " << count << "\n";
      nodes += count;
    }
  } else {
    nodes = perft(*game, o.depth);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("game %s depth %d\nnodes %llu\ntime %.3f s\nnps %.0f\n",
              std::string(G::kName).c_str(), o.depth, static_cast<unsigned long long>(nodes),
              seconds, seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0);
  return kExitOk;
}

}  // namespace

void add_perft(CLI::App& app, Action& action) {
  auto o = std::make_shared<PerftOptions>();
  CLI::App* sub = app.add_subcommand("perft", "count the leaves of the legal-move tree");
  sub->add_option("--game,-g", o->game, "game name (" + known_game_names() + ")")->required();
  sub->add_option("--position,-p", o->position, "start position as the game serializes it (FEN)");
  sub->add_option("--options", o->options, "game options, key=value,... (e.g. size=5)");
  sub->add_option("--depth,-d", o->depth, "depth in plies")->required()->check(CLI::Range(0, 30));
  sub->add_flag("--divide", o->divide, "print the count under each first move");
  add_gdl_sheet_flags(sub, o->sheets);
  sub->add_option("--reasoner", o->reasoner, "GDL: auto, compiled or prover")
      ->capture_default_str();
  sub->callback([o, &action] {
    action = [o] {
      if (!apply_gdl_sheet_flags(o->sheets, "perft")) return kExitUsage;
      GameOptions ignored;
      const std::string name = resolve_game_name(o->game, ignored);
      if (is_gdl_game(name)) return run_gdl_perft(*o, name);
      int status = kExitUsage;
      bool found = visit_game_type(name, [&]<class G>(std::type_identity<G>) {
        PerftOptions with_alias = *o;
        for (const auto& [k, v] : ignored)
          with_alias.options += (with_alias.options.empty() ? "" : ",") + k + "=" + v;
        status = run_perft<G>(with_alias);
      });
      if (!found) {
        std::cerr << "arena perft: unknown game '" << o->game << "' (known: " << known_game_names()
                  << ")\n";
        return kExitUsage;
      }
      return status;
    };
  });
}

}  // namespace arena::cli
