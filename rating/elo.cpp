#include "rating/elo.h"

#include <cmath>

namespace arena::rating {

double elo_expected(double rating, double opponent) {
  return 1.0 / (1.0 + std::pow(10.0, (opponent - rating) / 400.0));
}

double elo_k_factor(int games_played) {
  return games_played < kEloProvisionalGames ? kEloProvisionalK : kEloEstablishedK;
}

double elo_update(double rating, double opponent, double score, double k) {
  return rating + k * (score - elo_expected(rating, opponent));
}

}  // namespace arena::rating
