// arena tune: fit the weights of chess's "tapered" evaluation (bots/eval/chess_tapered.h) to
// scored positions by logistic regression (bots/lab/texel.h), starting from a weights file
// whose names are the weights fitted (the others keep their defaults), and write the fitted
// weights as a weights file that `eval=tapered,weights=FILE` reads.
//
//   scripts/tune-data --games 2000 --minutes 8 --seed 1 -o /tmp/tune1.txt
//   arena tune --data /tmp/tune1.txt --start bots/eval/weights/chess_tapered.txt -o /tmp/fit.txt
//
// Data lines are "FEN;score": the score in centipawns from the side to move's point of view
// (scripts/tune-data writes Stockfish's) or, with --results, the game's result for the side
// to move (1, 0.5 or 0). A position given twice is fitted once.

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bots/eval/chess_tapered.h"
#include "bots/eval/weights_file.h"
#include "bots/lab/texel.h"
#include "cli/commands.h"
#include "games/chess/chess.h"

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

struct Samples {
  std::vector<chess::Chess> positions;
  std::vector<double> targets;
};

// The FEN's first four fields (board, side, castling, en passant): a position seen twice.
std::string position_key(const std::string& fen) {
  std::istringstream in(fen);
  std::string key, word;
  for (int i = 0; i < 4 && in >> word; ++i) key += word + " ";
  return key;
}

Expected<void> read_samples(const std::string& path, bool results, std::size_t max_positions,
                            std::set<std::string>& seen, Samples& s) {
  std::ifstream in(path);
  if (!in) return make_error("cannot read '" + path + "'");
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    if (max_positions > 0 && s.positions.size() >= max_positions) break;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    const auto semicolon = line.rfind(';');
    if (semicolon == std::string::npos) return make_error(where + "no ';' between FEN and score");
    const std::string fen = line.substr(0, semicolon);
    double value = 0;
    try {
      std::size_t used = 0;
      value = std::stod(line.substr(semicolon + 1), &used);
      if (semicolon + 1 + used != line.size() && line.find_first_not_of(" \r", semicolon + 1 + used) != std::string::npos)
        throw std::invalid_argument("trailing text");
    } catch (const std::exception&) {
      return make_error(where + "'" + line.substr(semicolon + 1) + "' is not a number");
    }
    if (results && value != 0 && value != 0.5 && value != 1)
      return make_error(where + "a result must be 1, 0.5 or 0, not " + line.substr(semicolon + 1));
    auto position = chess::Chess::deserialize(fen);
    if (!position) return make_error(where + position.error());
    if (!seen.insert(position_key(fen)).second) continue;
    s.positions.push_back(std::move(*position));
    s.targets.push_back(results ? value : lab::win_probability(value, 1.0));
  }
  return {};
}

// Scores every position with the tapered evaluation under `weights` (named by `names`), on two
// threads.
lab::SampleScorer tapered_scorer(const std::vector<std::string>& names, const GameOptions& fixed,
                                 const Samples& s) {
  return [&names, fixed, &s](const std::vector<double>& weights,
                             std::vector<int>& scores) -> Expected<void> {
    GameOptions params = fixed;
    char text[64];
    for (std::size_t i = 0; i < names.size(); ++i) {
      std::snprintf(text, sizeof text, "%.6g", weights[i]);
      params[names[i]] = text;
    }
    auto h = eval::make_chess_tapered_heuristic(params);
    if (!h) return make_error(h.error());
    const std::size_t n = s.positions.size();
    auto run = [&](std::size_t from, std::size_t to) {
      for (std::size_t i = from; i < to; ++i) scores[i] = (*h)(s.positions[i]);
    };
    std::thread other(run, 0, n / 2);
    run(n / 2, n);
    other.join();
    return {};
  };
}

int tune_command(const TuneFlags& f) {
  auto start = eval::read_weights_file(f.start);
  if (!start) {
    std::cerr << "arena tune: " << start.error() << "\n";
    return kExitUsage;
  }
  GameOptions fixed;
  for (const std::string& item : f.fixed) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "arena tune: --set '" << item << "' is not name=value\n";
      return kExitUsage;
    }
    fixed[item.substr(0, eq)] = item.substr(eq + 1);
  }
  std::vector<std::string> names;
  std::vector<double> weights;
  for (const auto& l : *start) {
    if (fixed.count(l.name)) continue;
    names.push_back(l.name);
    weights.push_back(l.value);
  }
  Samples samples;
  std::set<std::string> seen;
  for (const std::string& path : f.data) {
    if (auto ok = read_samples(path, f.results, f.max_positions, seen, samples); !ok) {
      std::cerr << "arena tune: " << ok.error() << "\n";
      return kExitFailure;
    }
  }
  std::printf("%zu positions from %zu file(s), %zu weights fitted\n", samples.positions.size(),
              f.data.size(), names.size());
  const auto scorer = tapered_scorer(names, fixed, samples);
  auto result = lab::texel_tune(weights, samples.targets, scorer, f.texel, [](const lab::TexelPass& p) {
    std::printf("pass %2d: training error %.6f, validation error %.6f, %d weights moved\n", p.pass,
                p.train_error, p.valid_error, p.moved);
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
  std::ostringstream text;
  text << "# chess tapered weights fitted by `arena tune` (bots/lab/texel.h) from " << f.start
       << "\n# on " << result->train_positions << " positions; validation error "
       << result->valid_error_start << " -> " << result->valid_error << "\n";
  for (const auto& [name, value] : fixed) text << name << " " << value << "\n";
  for (std::size_t i = 0; i < names.size(); ++i) {
    char line[128];
    std::snprintf(line, sizeof line, "%s %.4g\n", names[i].c_str(), result->weights[i]);
    text << line;
  }
  std::cout << text.str();
  if (!f.out.empty()) {
    std::ofstream out(f.out);
    out << text.str();
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
