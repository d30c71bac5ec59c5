#pragma once
// Fitting an evaluation's weights to scored positions by logistic regression ("Texel tuning",
// after the engine whose author described it): each position has a target, the probability
// that the side to move wins (from a game's result, or from a stronger engine's score of the
// position), and the evaluation's score s predicts it as 1 / (1 + 10^(-k s / 400)). The
// weights minimise the mean squared difference over the training positions, found by
// coordinate descent: each weight in turn is moved by its step while that lowers the error,
// and the step is halved when neither direction does. k is fitted once, to the start weights,
// so that the weights fit the targets and not the scale.
//
// The evaluation is a black box: a SampleScorer gives every position's score under given
// weights, so any heuristic whose weights are parameters can be fitted (cli/cmd_tune.cpp does
// chess's "tapered"). Every `holdout`-th position is left out of the fit and its error is
// reported beside the training error, as the check that the fit generalises.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "games/core/expected.h"

namespace arena::lab {

// Writes every position's score under `weights` into `scores` (resized by the caller to the
// number of positions); an error (a weight the heuristic rejects) stops the fit.
using SampleScorer =
    std::function<Expected<void>(const std::vector<double>& weights, std::vector<int>& scores)>;

struct TexelOptions {
  int max_passes = 30;
  std::size_t holdout = 10;  // every holdout-th position is for validation; 0: none
  // A weight's step starts at a tenth of it (a quarter under 5, 1 at 0) and stops halving at
  // this fraction of its start.
  double min_step_fraction = 1.0 / 16;
};

struct TexelPass {
  int pass = 0;
  double train_error = 0, valid_error = 0;
  int moved = 0;  // weights changed in this pass
};

struct TexelResult {
  std::vector<double> weights;
  double k = 1;
  double train_error_start = 0, valid_error_start = 0;
  double train_error = 0, valid_error = 0;
  int passes = 0;
  std::size_t train_positions = 0, valid_positions = 0;
};

// The predicted probability that the side to move wins with score `s`.
double win_probability(double s, double k);

// The mean squared error over the training (valid = false) or validation positions.
double texel_error(const std::vector<int>& scores, const std::vector<double>& targets, double k,
                   std::size_t holdout, bool valid);

// The k in [0.05, 5] minimising the training error of `scores` (golden-section search).
double fit_texel_scale(const std::vector<int>& scores, const std::vector<double>& targets,
                       std::size_t holdout);

// Errors: no weights, fewer than 2 * holdout positions, a scorer error.
Expected<TexelResult> texel_tune(std::vector<double> weights, const std::vector<double>& targets,
                                 const SampleScorer& scorer, const TexelOptions& options,
                                 const std::function<void(const TexelPass&)>& on_pass = {});

}  // namespace arena::lab
