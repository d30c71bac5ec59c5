#pragma once
// The Bradley-Terry leaderboard of one game kind's stored results (`arena ratings --method
// bt`): maximum likelihood over all the games at once, with no prior unless a perfect score
// leaves the fit without a finite maximum, then one virtual draw per player. (A tournament's
// analysis, statistics/analysis.h, always uses two virtual draws, as BayesElo does.)

#include <cstddef>
#include <string>
#include <vector>

#include "db/store.h"
#include "games/core/expected.h"

namespace arena::tournament {

struct RatingsBoardRow {
  std::string name;
  double rating = 0, half_width = 0;  // Elo scale averaging 1500; 95% interval
  int games = 0;
  double points = 0;  // a draw is half a point
};

struct RatingsBoard {
  std::vector<RatingsBoardRow> rows;  // best rating first
  std::size_t games = 0;
  bool prior = false;  // whether the fit needed the virtual draws
};

// Errors: fewer than two players in `results` (naming `kind`), a fit that fails.
Expected<RatingsBoard> bradley_terry_board(const std::vector<db::GameResultRow>& results,
                                           const std::string& kind);

}  // namespace arena::tournament
