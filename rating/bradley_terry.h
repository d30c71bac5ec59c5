#pragma once
// Bradley-Terry ratings: the maximum-likelihood Elo of every player from all games at once
// (what BayesElo and Ordo compute for a tournament), with 95% intervals, and the likelihood
// of superiority (LOS) between two players.
//
// Model: P(i scores against j) = 1 / (1 + 10^((r_j - r_i) / 400)). A draw counts as half a win
// and half a loss (Ordo's default; no separate draw parameter). The log-likelihood is concave
// and is maximised by Newton's method with step halving. Ratings are only defined up to a
// constant: they are reported with their average at `anchor`.
//
// Intervals: the covariance is the inverse of the observed information (the negative Hessian
// of the log-likelihood at the maximum; its pseudo-inverse on the sum-zero subspace when there
// is no prior), so an interval is +-1.96 standard errors of a rating relative to the pool's
// average. Use difference_interval for two players' difference.
//
// Perfect scores (all wins or all losses) have no finite maximum. `prior_draws` > 0 adds that
// many virtual draws of each player against a virtual opponent rated at the average (as
// BayesElo's prior does), which keeps every rating finite; with 0 the fit is the plain MLE and
// a perfect score is reported as an error naming the player. Pure functions, standard library.

#include <cstddef>
#include <string>
#include <vector>

#include "games/core/expected.h"

namespace arena::rating {

struct PairResult {
  int first = 0;  // player index, 0..num_players-1
  int second = 0;
  double score = 0.5;  // first player's score: 1 win, 0.5 draw, 0 loss
};

struct BradleyTerryOptions {
  double anchor = 1500.0;    // the reported average rating
  double prior_draws = 0.0;  // virtual draws per player against the average (0 = plain MLE)
  int max_iterations = 100;
};

struct BradleyTerryFit {
  std::vector<double> ratings;                  // Elo scale, averaging `anchor`
  std::vector<double> half_widths;              // 95% interval: rating +- half_width
  std::vector<std::vector<double>> covariance;  // Elo^2, of ratings relative to the average
  int iterations = 0;
  double log_likelihood = 0;
};

// Fits every player 0..num_players-1. Errors: a game naming an unknown player or a score outside
// [0, 1], a player with no games, a perfect score without a prior, or players split into groups
// that never met (their relative strength is unknown).
Expected<BradleyTerryFit> fit_bradley_terry(int num_players, const std::vector<PairResult>& games,
                                            const BradleyTerryOptions& options = {});

// 95% half-width of ratings[i] - ratings[j].
double difference_interval(const BradleyTerryFit& fit, int i, int j);

// Likelihood of superiority from decisive games between two players (draws cancel):
// LOS = Phi((wins - losses) / sqrt(wins + losses)); 0.5 when there is no decisive game.
double likelihood_of_superiority(double wins, double losses);

}  // namespace arena::rating
