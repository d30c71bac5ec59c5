// arena learn: learn the weights of a game's linear evaluation from self-play by least
// squares (bots/lab/learn.h), print them per iteration, write the final ones to a file, and
// optionally play the learned weights against the classical ones.

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "bots/lab/feature_sets.h"
#include "bots/lab/learn.h"
#include "bots/lab/learn_setup.h"
#include "bots/lab/linear_match.h"
#include "cli/commands.h"
#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"

namespace arena::cli {
namespace {

struct LearnFlags {
  std::string game;
  std::string search;  // --search (search_given); else the game's FeatureSet::default_search
  std::string out;
  std::string options;
  std::string rows = "played";
  std::string start = "classical";
  lab::LearnOptions learn;
  bool search_given = false;  // --search on the command line (else the game's default)
  bool batch_given = false;   // --batch-plies on the command line (else the game's default)
  bool scale_given = false;   // --fixed-scale or --free-scale on the command line
  int match_games = 0;
  int match_max_plies = 200;
};

void print_weights(const char* label, const std::vector<std::string>& names,
                   const std::vector<double>& w) {
  std::printf("%s", label);
  for (std::size_t i = 0; i < names.size(); ++i) std::printf(" %s=%.3f", names[i].c_str(), w[i]);
  // Normalised so the last weight (the pawn in chess, the king in checkers...) is comparable.
  const double base = w.back();
  if (std::abs(base) > 1e-9) {
    std::printf("  | /%s:", names.back().c_str());
    for (double x : w) std::printf(" %.2f", x / base);
  }
  std::printf("\n");
}

void print_iteration(const std::vector<std::string>& names, const lab::IterationReport& r) {
  char label[32];
  std::snprintf(label, sizeof label, "iter %d", r.iteration);
  print_weights(label, names, r.weights);
  std::fflush(stdout);
  std::fprintf(stderr,
               "[iteration %d] %d positions (batch: %d rows, %d played), %d games (%d decisive), "
               "rms %.3f, scale x%.3f, max change %.3f\n",
               r.iteration, r.positions, r.batch_rows, r.batch_played, r.games, r.decisive,
               r.rms_error, r.scale_factor, r.max_change);
}

void print_result(const LearnFlags& f, const std::vector<std::string>& names,
                  const lab::LearnResult& result) {
  std::printf("%s after %zu iterations\n", result.converged ? "converged" : "not converged",
              result.iterations.size());
  long long rows = 0;
  for (const lab::IterationReport& r : result.iterations) rows += r.batch_rows;
  std::printf("rows per batch (%s): %.0f on average, %d played positions\n", f.rows.c_str(),
              static_cast<double>(rows) / static_cast<double>(result.iterations.size()),
              result.iterations.back().batch_played);
  print_weights("final", names, result.weights);
}

// Plays the learned weights against the classical ones (--match-games N).
template <class G>
void match_learned(const G& start, const lab::FeatureSet<G>& fs, const lab::LearnOptions& options,
                   const std::vector<double>& learned, const LearnFlags& f) {
  lab::LinearMatchOptions mo;
  mo.games = f.match_games;
  mo.depth = options.depth;
  mo.quiescence = options.quiescence;
  mo.opening_plies = f.learn.opening_plies;
  mo.max_plies = f.match_max_plies;
  mo.seed = f.learn.seed + 1;
  const lab::MatchTally t =
      lab::linear_match(start, fs, learned, fs.initial, mo, [&](int i, const lab::MatchTally& s) {
        std::fprintf(stderr, "[match %d/%d] learned +%d -%d =%d\n", i, mo.games, s.wins, s.losses,
                     s.draws);
      });
  std::printf("match learned vs classical, %d games: %d wins, %d losses, %d draws\n", mo.games,
              t.wins, t.losses, t.draws);
}

// The flags as lab::LearnChoices; a --start file is read here. False (and the error printed)
// when it cannot be read.
bool learn_choices(const LearnFlags& f, lab::LearnChoices& c) {
  if (f.search_given) c.search = f.search;
  if (f.batch_given) c.batch_plies = f.learn.batch_plies;
  if (f.scale_given) c.fixed_scale = f.learn.fixed_scale;
  c.start = f.start;
  c.start_file = f.start;
  if (f.start == "ones" || f.start == "classical") return true;
  std::ifstream in(f.start);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    std::cerr << "arena learn: --start: cannot read '" << f.start
              << "' (give classical, ones or a weights file)\n";
    return false;
  }
  c.start = text.str();
  return true;
}

template <class G>
int run_learn(const LearnFlags& f, const GameOptions& game_options) {
  if constexpr (!lab::HasFeatureSet<G>) {
    std::cerr << "arena learn: no feature set for " << G::kName
              << " (known: chess, checkers, qubic, isolation, othello)\n";
    return kExitUsage;
  } else {
    auto start = G::create(game_options);
    if (!start) {
      std::cerr << "arena learn: " << G::kName << ": " << start.error() << "\n";
      return kExitUsage;
    }
    const lab::FeatureSet<G> fs = lab::feature_set(std::type_identity<G>{});
    lab::LearnChoices choices;
    if (!learn_choices(f, choices)) return kExitUsage;
    auto resolved = lab::resolve_learn_options(fs, f.learn, choices);
    if (!resolved) {
      std::cerr << "arena learn: " << resolved.error() << "\n";
      return kExitUsage;
    }
    const lab::LearnOptions& options = *resolved;
    const char* dflt = " (this game's default)";
    std::printf("search alphabeta:depth=%d%s%s; batch %d positions%s, %s scale%s\n", options.depth,
                options.quiescence ? ",qsearch" : "", f.search_given ? "" : dflt,
                options.batch_plies, f.batch_given ? "" : dflt,
                options.fixed_scale ? "fixed" : "free", f.scale_given ? "" : dflt);
    print_weights("start", fs.names,
                  options.start_weights.empty() ? fs.initial : options.start_weights);
    auto result = lab::learn(*start, fs, options,
                             [&](const lab::IterationReport& r) { print_iteration(fs.names, r); });
    if (!result) {
      std::cerr << "arena learn: " << result.error() << "\n";
      return kExitFailure;
    }
    print_result(f, fs.names, *result);
    if (!f.out.empty()) {
      std::ofstream out(f.out);
      out << lab::weights_file_text(fs.names, result->weights, fs.file_header);
      if (!out) {
        std::cerr << "arena learn: cannot write '" << f.out << "'\n";
        return kExitFailure;
      }
      std::printf("weights written to %s\n", f.out.c_str());
    }
    if (f.match_games > 0) match_learned(*start, fs, options, result->weights, f);
    return kExitOk;
  }
}

// The command once its flags are read: the game resolved, then run_learn for its type.
int learn_command(LearnFlags& f) {
  f.learn.rows = f.rows == "tree" ? lab::LearnRows::kTree : lab::LearnRows::kPlayed;
  GameOptions game_options;
  auto resolved = resolve_game(f.game, f.options, game_options);
  if (!resolved) {
    std::cerr << "arena learn: --options: " << resolved.error() << "\n";
    return kExitUsage;
  }
  const std::string name = *resolved;
  int status = kExitUsage;
  const bool found = visit_game_type(
      name, [&]<class G>(std::type_identity<G>) { status = run_learn<G>(f, game_options); });
  if (!found) {
    std::cerr << "arena learn: " << (is_gdl_game(f.game) ? "" : "unknown game ") << "'" << f.game
              << "'"
              << (is_gdl_game(f.game) ? " is a GDL sheet; learn fits the catalog's games" : "")
              << " (known: " << known_game_names(false) << ")\n";
    return kExitUsage;
  }
  return status;
}

}  // namespace

void add_learn(CLI::App& app, Action& action) {
  auto f = std::make_shared<LearnFlags>();
  CLI::App* sub = app.add_subcommand(
      "learn", "learn a linear evaluation's weights from self-play by least squares");
  sub->add_option("--game,-g", f->game, "chess, checkers, qubic, isolation or othello")->required();
  CLI::Option* search =
      sub->add_option("--search", f->search,
                      "fixed-depth search of the self-play (default alphabeta:depth=2; chess "
                      "alphabeta:depth=2,qsearch)");
  CLI::Option* batch =
      sub->add_option("--batch-plies", f->learn.batch_plies,
                      "positions per fit (default 1400; chess 5600, where 1400 does not converge)")
          ->check(CLI::Range(10, 10'000'000));
  sub->add_option("--move-cap", f->learn.move_cap, "plies per self-play game (default 100)")
      ->check(CLI::Range(1, 100'000));
  sub->add_option("--iterations", f->learn.iterations, "at most this many fits (default 20)")
      ->check(CLI::Range(1, 100'000));
  sub->add_option("--tolerance", f->learn.tolerance,
                  "stop when no weight moves more than this times max(1, largest |weight|)")
      ->check(CLI::Range(0.0, 1.0));
  sub->add_option("--opening-plies", f->learn.opening_plies, "random plies before each game")
      ->check(CLI::Range(0, 100));
  sub->add_option("--seed", f->learn.seed, "seed of the random openings");
  sub->add_option("--window", f->learn.window_batches,
                  "fit each iteration on the rows of this many latest batches (default 1)")
      ->check(CLI::Range(1, 1000));
  CLI::Option* scale = sub->add_flag(
      "--fixed-scale,!--free-scale", f->learn.fixed_scale,
      "after each fit, rescale the weights so one side's initial material stays win value - 1 "
      "(chess, checkers; default: fixed for chess, free for the others)");
  sub->add_option("--rows", f->rows,
                  "played: one row per played position (default); tree: also one per legal "
                  "move, valued by a search of depth - 1 from it")
      ->check(CLI::IsMember({"played", "tree"}));
  sub->add_option("--start", f->start,
                  "the first batch's weights: classical (default), ones (every weight 1) or a "
                  "weights file (\"name value\" lines); the match is always against classical");
  sub->add_option("--out,-o", f->out, "write the final weights to this file");
  sub->add_option("--match", f->match_games, "then play this many games learned vs classical")
      ->check(CLI::Range(0, 100'000));
  sub->add_option("--match-max-plies", f->match_max_plies, "adjudicate a match game as a draw")
      ->check(CLI::Range(1, 100'000));
  sub->add_option("--options", f->options, "game options, key=value,...");
  sub->callback([f, &action, search, batch, scale] {
    f->search_given = search->count() > 0;
    f->batch_given = batch->count() > 0;
    f->scale_given = scale->count() > 0;
    action = [f] { return learn_command(*f); };
  });
}

}  // namespace arena::cli
