// arena tune: fit the weights of chess's "tapered" evaluation (bots/eval/chess_tapered.h) to
// scored positions by logistic regression (bots/lab/chess_tuning.h, bots/lab/texel.h),
// starting from a weights file whose names are the weights fitted (the others keep their
// defaults), and write the fitted weights as a weights file that `eval=tapered,weights=FILE`
// reads.
//
//   scripts/tune-data --games 2000 --minutes 8 --seed 1 -o /tmp/tune1.txt
//   arena tune --data /tmp/tune1.txt --start bots/eval/weights/chess_tapered.txt -o /tmp/fit.txt

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bots/eval/weights_file.h"
#include "bots/lab/chess_tuning.h"
#include "bots/lab/texel.h"
#include "cli/commands.h"

namespace arena::cli {
namespace {

struct TuneFlags {
  std::vector<std::string> data;
  std::string start;
  std::string out;
  std::vector<std::string> fixed;  // --set name=value: held at that value, not fitted
  bool results = false;
  std::size_t max_positions = 0;
  lab::TexelOptions texel;
};

int tune_command(const TuneFlags& f) {
  auto start = eval::read_weights_file(f.start);
  auto fixed = lab::parse_fixed_weights(f.fixed);
  if (!start || !fixed) {
    std::cerr << "arena tune: " << (!start ? start.error() : fixed.error()) << "\n";
    return kExitUsage;
  }
  lab::ScoredPositions samples;
  for (const std::string& path : f.data) {
    if (auto ok = lab::read_scored_positions(path, f.results, f.max_positions, samples); !ok) {
      std::cerr << "arena tune: " << ok.error() << "\n";
      return kExitFailure;
    }
  }
  const lab::FitStart fit = lab::fit_start(*start, *fixed);
  std::printf("%zu positions from %zu file(s), %zu weights fitted\n", samples.positions.size(),
              f.data.size(), fit.names.size());
  const auto scorer = lab::tapered_scorer(fit.names, *fixed, samples);
  auto result = lab::texel_tune(fit.weights, samples.targets, scorer, f.texel,
                                [](const lab::TexelPass& p) {
                                  std::printf("pass %2d: training error %.6f, validation error "
                                              "%.6f, %d weights moved\n",
                                              p.pass, p.train_error, p.valid_error, p.moved);
                                  std::fflush(stdout);
                                });
  if (!result) {
    std::cerr << "arena tune: " << result.error() << "\n";
    return kExitFailure;
  }
  std::printf("k %.4f; training error %.6f -> %.6f (%zu positions), validation error %.6f -> %.6f "
              "(%zu positions), %d passes\n",
              result->k, result->train_error_start, result->train_error, result->train_positions,
              result->valid_error_start, result->valid_error, result->valid_positions,
              result->passes);
  const std::string text = lab::fitted_weights_text(fit.names, *result, *fixed, f.start);
  std::cout << text;
  if (!f.out.empty()) {
    std::ofstream out(f.out);
    out << text;
    if (!out) {
      std::cerr << "arena tune: cannot write '" << f.out << "'\n";
      return kExitFailure;
    }
  }
  return kExitOk;
}

}  // namespace

void add_tune(CLI::App& app, Action& action) {
  auto f = std::make_shared<TuneFlags>();
  CLI::App* sub = app.add_subcommand(
      "tune", "fit chess's tapered evaluation weights to scored positions (logistic regression)");
  sub->add_option("--data", f->data, "\"FEN;score\" files (scripts/tune-data writes them)")
      ->required();
  sub->add_option("--start", f->start,
                  "weights file (\"name value\" lines): the weights fitted and their start")
      ->required();
  sub->add_option("--out,-o", f->out, "write the fitted weights to this file");
  sub->add_option("--set", f->fixed, "name=value: a weight held at this value, not fitted");
  sub->add_flag("--results", f->results,
                "the files' numbers are game results for the side to move (1, 0.5, 0), not "
                "centipawns");
  sub->add_option("--max-positions", f->max_positions, "read at most this many positions a file");
  sub->add_option("--passes", f->texel.max_passes, "at most this many coordinate-descent passes")
      ->check(CLI::Range(1, 1000));
  sub->add_option("--holdout", f->texel.holdout,
                  "every N-th position is left out for validation (0: none)")
      ->check(CLI::Range(0, 1000));
  sub->callback([f, &action] { action = [f] { return tune_command(*f); }; });
}

}  // namespace arena::cli
