#pragma once
// Elo on a calibrated scale from games against anchors of known Elo: the maximum-likelihood
// ratings of the players whose Elo is not known, the anchors held fixed.
//
// Model (logistic Elo): the expected score of a against b is
//   E(a, b) = 1 / (1 + 10^(-(R_a - R_b) / 400)),
// and a game's score s (1, 1/2, 0) enters the log-likelihood as s ln E + (1 - s) ln(1 - E) (a
// draw is half a win and half a loss: the usual quasi-likelihood of Elo fits). The free ratings
// maximise it; Newton's method on the gradient sum (s - E) ln10/400 and the Hessian (Fisher
// information) sum E (1 - E) (ln10/400)^2, with steps capped at 400 Elo. The 95% interval of
// each free rating is R +/- 1.96 sqrt([I^-1]_ii) (Wald, from the inverse of the whole
// information matrix, so a player that met only another free player, e.g. an uncalibrated
// engine that played only Arena's bot, carries that player's uncertainty too).
//
// Without any anchor the scale has no origin: the caller names one (elo 0 for the weakest
// preset, say). A free player whose results do not tie it to an anchor (no path of games), or
// whose score is all wins or all losses, has no finite maximum: a perfect score is reported as
// kAtLeast the best rating it beat, a zero as kAtMost the worst it lost to (its games then
// leave the fit, where they would pull nothing at the limit), an unconnected player as
// kUnknown. Their half_width is 0. So is a group that wins (or loses) every game against the
// others while drawing among themselves: Newton walks them off, and those found 4000 Elo from
// the anchors are bounds too.

#include <optional>
#include <string>
#include <vector>

#include "games/core/expected.h"
#include "tournament/statistics/analysis.h"

namespace arena::tournament {

struct EloEstimate {
  double elo = 0;
  double half_width = 0;  // 95% interval: elo +/- half_width; 0 for an anchor
  bool anchor = false;    // elo was given, not estimated
  enum class Bound { kEstimate, kAtLeast, kAtMost, kUnknown };
  Bound bound = Bound::kEstimate;
  double points = 0;
  int games = 0;
  double low() const { return elo - half_width; }
  double high() const { return elo + half_width; }
};

// `anchors[i]` is player i's known Elo, or nullopt for a player to estimate. `prior_draws`
// virtual draws are added to every pair of players that met (BayesElo's prior, as in
// analysis.h): with 1 or more no score is perfect and every connected rating is finite, at the
// cost of a pull towards equal ratings (points and games count only the real games). Errors:
// no anchor, a game naming a player out of range.
Expected<std::vector<EloEstimate>> fit_anchored_elo(
    const std::vector<std::optional<double>>& anchors, const std::vector<GameOutcome>& games,
    int prior_draws = 0);

// The expected score of a rating difference, and back (clamped to +/- 1200 for 0 and 1).
double elo_expected_score(double diff);
double elo_from_score(double score);

}  // namespace arena::tournament
