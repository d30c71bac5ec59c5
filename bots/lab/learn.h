#pragma once
// Learning the weights of a linear evaluation from self-play, without a teacher.
//
// One iteration:
//   1. Self-play a batch: games from the start position, each after `opening_plies` random
//      plies (seeded, the same openings every iteration so that only the weights change the
//      games), every move chosen by a fixed-depth alpha-beta (plus quiescence if asked) over
//      LinearEval with the current weights; a game stops at its end or after `move_cap`
//      plies; the batch stops after `batch_plies` searched positions.
//   2. Record, for each searched position, its feature vector and the search's backed-up
//      value in weight units (score / kEvalScale; a forced win or loss = +/- win_value).
//   3. Fit new weights by least squares (least_squares.h) of the values on the features.
// Repeat until, in two fits in a row, no weight moves by more than `tolerance` times
// max(1, largest |weight|), or `iterations` have run. A feature that is constant or dependent in a batch keeps its weight.
//
// Deterministic for fixed options (no time limits). Not thread-safe; call from one thread.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "bots/lab/feature_set.h"
#include "bots/lab/least_squares.h"
#include "bots/search/alphabeta.h"
#include "bots/search/search_rng.h"
#include "games/core/game.h"

namespace arena::lab {

struct LearnOptions {
  int depth = 2;
  bool quiescence = false;
  int batch_plies = 1400;
  int move_cap = 100;
  int iterations = 20;
  int opening_plies = 6;
  double tolerance = 0.02;
  std::uint64_t seed = 1;
};

struct IterationReport {
  int iteration = 0;            // 1-based
  std::vector<double> weights;  // fitted at the end of this iteration
  int positions = 0;            // observations in the fit
  int games = 0;                // games started in the batch
  int decisive = 0;             // games that ended in a win
  double rms_error = 0;         // sqrt(residual / positions), weight units
  double max_change = 0;        // largest |new - old| weight
};

struct LearnResult {
  std::vector<IterationReport> iterations;
  std::vector<double> weights;  // the last fit
  bool converged = false;
};

namespace detail {

struct Batch {
  std::vector<std::vector<double>> rows;
  std::vector<double> values;
  int games = 0;
  int decisive = 0;
};

template <Game G>
G random_opening(const G& start, int plies, std::uint64_t seed) {
  search::SearchRng rng(seed);
  G g = start;
  typename G::MoveList list;
  for (int i = 0; i < plies && !g.outcome().is_terminal(); ++i) {
    g.generate_moves(list);
    if (list.empty()) break;
    const auto m = list[rng.below(list.size())];
    g.make_move(m);
    if (g.outcome().is_terminal()) {
      g.unmake_move(m);
      break;
    }
  }
  return g;
}

template <Game G>
Batch play_batch(const G& start, const FeatureSet<G>& fs, const std::vector<double>& weights,
                 const LearnOptions& o) {
  search::AlphaBetaOptions ab_options{false, false, true, o.quiescence, 10};
  search::AlphaBeta<G, LinearEval<G>> searcher(LinearEval<G>{&fs, weights}, ab_options);
  const search::Limits limits = search::Limits::to_depth(o.depth);
  Batch batch;
  typename G::MoveList list;
  while (static_cast<int>(batch.values.size()) < o.batch_plies) {
    const std::uint64_t game_seed = o.seed * 1'000'003ULL + static_cast<std::uint64_t>(batch.games);
    G g = random_opening(start, o.opening_plies, game_seed);
    ++batch.games;
    for (int ply = 0; ply < o.move_cap && !g.outcome().is_terminal(); ++ply) {
      if (static_cast<int>(batch.values.size()) >= o.batch_plies) break;
      g.generate_moves(list);
      if (list.empty()) break;
      const auto r = searcher.search(g, limits);
      if (!r.move) break;
      const int s = r.info.score;
      const double value =
          search::is_win_score(s) ? (s > 0 ? fs.win_value : -fs.win_value) : s / kEvalScale;
      const FeatureVector f = fs.compute(g);
      batch.rows.emplace_back(f.v.begin(), f.v.begin() + f.size);
      batch.values.push_back(value);
      g.make_move(*r.move);
    }
    const Outcome end = g.outcome();
    batch.decisive += end.is_terminal() && end.result != Result::kDraw;
  }
  return batch;
}

}  // namespace detail

// Runs the learning loop from fs.initial; calls on_iteration after each fit (for progress).
template <Game G>
Expected<LearnResult> learn(const G& start, const FeatureSet<G>& fs, const LearnOptions& o,
                            const std::function<void(const IterationReport&)>& on_iteration = {}) {
  if (fs.initial.size() != fs.names.size() || fs.initial.empty())
    return make_error("feature set: " + std::to_string(fs.names.size()) + " names but " +
                      std::to_string(fs.initial.size()) + " initial weights");
  LearnResult result;
  std::vector<double> weights = fs.initial;
  int calm = 0;
  for (int it = 1; it <= o.iterations; ++it) {
    const detail::Batch batch = detail::play_batch(start, fs, weights, o);
    auto fit = least_squares(batch.rows, batch.values);
    if (!fit) return make_error("iteration " + std::to_string(it) + ": " + fit.error());
    // A feature that never varied in this batch (no queen trade yet, say) keeps its weight.
    for (std::size_t i = 0; i < weights.size(); ++i)
      if (fit->dropped[i]) fit->weights[i] = weights[i];
    IterationReport report;
    report.iteration = it;
    report.weights = fit->weights;
    report.positions = static_cast<int>(batch.values.size());
    report.games = batch.games;
    report.decisive = batch.decisive;
    report.rms_error = std::sqrt(fit->residual_sum_squares / report.positions);
    double scale = 1;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      report.max_change = std::max(report.max_change, std::abs(fit->weights[i] - weights[i]));
      scale = std::max(scale, std::abs(weights[i]));
    }
    weights = fit->weights;
    result.iterations.push_back(report);
    if (on_iteration) on_iteration(report);
    // Two quiet fits in a row: one lucky batch close to the old weights is not convergence.
    calm = report.max_change <= o.tolerance * scale ? calm + 1 : 0;
    if (calm >= 2) {
      result.converged = true;
      break;
    }
  }
  result.weights = weights;
  return result;
}

}  // namespace arena::lab
