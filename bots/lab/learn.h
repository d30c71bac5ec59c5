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
//      With `rows = kTree`, also one row per legal move of each searched position: the
//      child's features and the value of a search of depth - 1 from the child, both from
//      the child's side to move (the view of every row), so that the parent's value is
//      max over children of -(child value), as in the search itself. The batch is still
//      `batch_plies` played positions; it just has about (1 + moves per position) times
//      more rows, many of them after a capture or before a recapture.
//   3. Fit new weights by least squares (least_squares.h) of the values on the features,
//      over the rows of the last `window_batches` batches (1: this batch only).
//   4. With `fixed_scale`, multiply the fitted weights by one factor so that one side's
//      initial material (FeatureSet::start_counts . w) is win_value - 1 again.
// Repeat until, in two fits in a row, no weight differs by more than `tolerance` times
// max(1, largest |weight|) from the fit on the previous disjoint window (window_batches
// iterations back; the last fit when the window is 1), or `iterations` have run. A feature that is
// constant or dependent in a batch keeps its weight.
//
// Why step 4: the fit has no scale of its own. In a quiet position the backed-up value is
// w . f itself, so only captures inside the search and the rare won games anchor it, and
// least squares with noisy regressors shrinks the coefficients (attenuation): without step 4
// all weights drift toward zero together, iteration after iteration. Multiplying w by c > 0
// does not change which moves the search prefers between non-won positions, so the
// direction of w is what is learned; step 4 keeps the scale where the win value says it is
// ("a win = one more than the initial material") and judges convergence on the direction.
//
// Deterministic for fixed options (no time limits). Not thread-safe; call from one thread.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "bots/lab/feature_set.h"
#include "bots/lab/least_squares.h"
#include "bots/search/alphabeta.h"
#include "bots/search/search_rng.h"
#include "games/core/game.h"
#include "games/core/random_opening.h"

namespace arena::lab {

// Which positions give rows: the played ones, or the played ones and all their children.
enum class LearnRows { kPlayed, kTree };

struct LearnOptions {
  int depth = 2;
  bool quiescence = false;
  int batch_plies = 1400;
  int move_cap = 100;
  int iterations = 20;
  int opening_plies = 6;
  double tolerance = 0.02;
  std::uint64_t seed = 1;
  bool fixed_scale = false;             // step 4 above; needs FeatureSet::start_counts
  int window_batches = 1;               // step 3 fits the rows of this many latest batches (>= 1)
  LearnRows rows = LearnRows::kPlayed;  // step 2; kTree needs depth >= 2
  std::vector<double> start_weights;    // the first batch's weights; empty: FeatureSet::initial
};

struct IterationReport {
  int iteration = 0;            // 1-based
  std::vector<double> weights;  // fitted at the end of this iteration
  int positions = 0;            // observations in the fit (all batches of the window)
  int batch_played = 0;         // played (searched) positions in this iteration's batch
  int batch_rows = 0;           // rows of this iteration's batch (= batch_played without kTree)
  int games = 0;                // games started in the batch
  int decisive = 0;             // games that ended in a win
  double rms_error = 0;         // sqrt(residual / positions) of the fit, before step 4
  double max_change = 0;        // largest |new - old| weight, old = previous disjoint window
  double scale_factor = 1;      // what step 4 multiplied the fit by (1 without fixed_scale)
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
  std::vector<int> parent;  // a child row's played row (its index in rows); -1 for played rows
  int played = 0;
  int games = 0;
  int decisive = 0;
};

// A search score in weight units; a forced win or loss is +/- the win value.
inline double weight_units(int score, double win_value) {
  return search::is_win_score(score) ? (score > 0 ? win_value : -win_value) : score / kEvalScale;
}

// kTree: one row per legal move of g (g itself is row `parent`), each the child's features
// and the value of a depth - 1 search from the child, both from the child's side to move.
template <Game G, class Searcher>
void add_children(G& g, const typename G::MoveList& list, const FeatureSet<G>& fs, int depth,
                  Searcher& searcher, int parent, Batch& batch) {
  const search::Limits limits = search::Limits::to_depth(depth - 1);
  for (const auto& m : list) {
    g.make_move(m);
    const FeatureVector f = fs.compute(g);
    batch.rows.emplace_back(f.v.begin(), f.v.begin() + f.size);
    batch.values.push_back(weight_units(searcher.search(g, limits).info.score, fs.win_value));
    batch.parent.push_back(parent);
    g.unmake_move(m);
  }
}

template <Game G>
Batch play_batch(const G& start, const FeatureSet<G>& fs, const std::vector<double>& weights,
                 const LearnOptions& o) {
  search::AlphaBetaOptions ab_options{false, false, true, o.quiescence, 10};
  search::AlphaBeta<G, LinearEval<G>> searcher(LinearEval<G>{&fs, weights}, ab_options);
  // Its own searcher, so that the children's searches leave the move ordering (killers,
  // history) of the played moves alone: the games are the same as with kPlayed.
  search::AlphaBeta<G, LinearEval<G>> child_searcher(LinearEval<G>{&fs, weights}, ab_options);
  const search::Limits limits = search::Limits::to_depth(o.depth);
  Batch batch;
  typename G::MoveList list;
  while (batch.played < o.batch_plies) {
    const std::uint64_t game_seed = o.seed * 1'000'003ULL + static_cast<std::uint64_t>(batch.games);
    G g = random_opening<G, search::SearchRng>(start, o.opening_plies, game_seed);
    ++batch.games;
    for (int ply = 0; ply < o.move_cap && !g.outcome().is_terminal(); ++ply) {
      if (batch.played >= o.batch_plies) break;
      g.generate_moves(list);
      if (list.empty()) break;
      const auto r = searcher.search(g, limits);
      if (!r.move) break;
      const FeatureVector f = fs.compute(g);
      batch.rows.emplace_back(f.v.begin(), f.v.begin() + f.size);
      batch.values.push_back(weight_units(r.info.score, fs.win_value));
      batch.parent.push_back(-1);
      ++batch.played;
      if (o.rows == LearnRows::kTree) {
        const int parent = static_cast<int>(batch.rows.size()) - 1;
        add_children(g, list, fs, o.depth, child_searcher, parent, batch);
      }
      g.make_move(*r.move);
    }
    const Outcome end = g.outcome();
    batch.decisive += end.is_terminal() && end.result != Result::kDraw;
  }
  return batch;
}

// Step 4: w *= (win_value - 1) / initial_material(w). An error when the fitted material is
// not positive (no positive factor can restore it; the fit has lost the meaning of material).
template <class G>
Expected<double> restore_scale(const FeatureSet<G>& fs, std::vector<double>& weights) {
  const double material = initial_material(fs, weights);
  if (!(material > 1e-9))
    return make_error("fitted initial material " + std::to_string(material) +
                      " is not positive; cannot keep the scale fixed");
  const double factor = (fs.win_value - 1) / material;
  for (double& w : weights) w *= factor;
  return factor;
}

}  // namespace detail

// Runs the learning loop from o.start_weights (fs.initial if empty); calls on_iteration after
// each fit (for progress).
template <Game G>
Expected<LearnResult> learn(const G& start, const FeatureSet<G>& fs, const LearnOptions& o,
                            const std::function<void(const IterationReport&)>& on_iteration = {}) {
  if (fs.initial.size() != fs.names.size() || fs.initial.empty())
    return make_error("feature set: " + std::to_string(fs.names.size()) + " names but " +
                      std::to_string(fs.initial.size()) + " initial weights");
  if (o.window_batches < 1)
    return make_error("window of " + std::to_string(o.window_batches) + " batches (at least 1)");
  if (o.rows == LearnRows::kTree && o.depth < 2)
    return make_error("tree rows need a search of depth 2 or more (depth " +
                      std::to_string(o.depth) + "): a child's value is a search of depth - 1");
  if (o.fixed_scale && fs.start_counts.size() != fs.names.size())
    return make_error(
        "fixed scale: the feature set has no start counts (its features are not "
        "piece counts)");
  if (!o.start_weights.empty() && o.start_weights.size() != fs.names.size())
    return make_error("start weights: " + std::to_string(o.start_weights.size()) + " for " +
                      std::to_string(fs.names.size()) + " features");
  const std::vector<double>& start_weights = o.start_weights.empty() ? fs.initial : o.start_weights;
  LearnResult result;
  std::vector<double> weights = start_weights;
  int calm = 0;
  std::deque<detail::Batch> window;
  for (int it = 1; it <= o.iterations; ++it) {
    const detail::Batch batch = detail::play_batch(start, fs, weights, o);
    // The fit sees the last `window_batches` batches: a rare piece (the queen) then has
    // enough rows with a nonzero count that one batch's few trades cannot swing its weight.
    window.push_back(batch);
    if (static_cast<int>(window.size()) > o.window_batches) window.pop_front();
    std::vector<std::vector<double>> rows;
    std::vector<double> values;
    for (const detail::Batch& b : window) {
      rows.insert(rows.end(), b.rows.begin(), b.rows.end());
      values.insert(values.end(), b.values.begin(), b.values.end());
    }
    auto fit = least_squares(rows, values);
    if (!fit) return make_error("iteration " + std::to_string(it) + ": " + fit.error());
    // A feature that never varied in this batch (no queen trade yet, say) keeps its weight.
    for (std::size_t i = 0; i < weights.size(); ++i)
      if (fit->dropped[i]) fit->weights[i] = weights[i];
    IterationReport report;
    if (o.fixed_scale) {
      auto factor = detail::restore_scale(fs, fit->weights);
      if (!factor) return make_error("iteration " + std::to_string(it) + ": " + factor.error());
      report.scale_factor = *factor;
    }
    report.iteration = it;
    report.weights = fit->weights;
    report.positions = static_cast<int>(values.size());
    report.batch_played = batch.played;
    report.batch_rows = static_cast<int>(batch.rows.size());
    report.games = batch.games;
    report.decisive = batch.decisive;
    report.rms_error = std::sqrt(fit->residual_sum_squares / report.positions);
    // The change is measured against the fit on the previous, disjoint window (K iterations
    // back; the start weights before that): consecutive fits of a window share K - 1 of its
    // batches, so their difference would shrink by construction, not by convergence.
    const int k = o.window_batches;
    const std::vector<double>& before =
        it > k ? result.iterations[static_cast<std::size_t>(it - k - 1)].weights : start_weights;
    double scale = 1;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      report.max_change = std::max(report.max_change, std::abs(fit->weights[i] - before[i]));
      scale = std::max(scale, std::abs(before[i]));
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
