#pragma once
// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012): a rating, its deviation
// (RD, the uncertainty) and a volatility (how erratic the player's results are).
//
// The store treats every game as its own rating period, as Lichess does, so ratings move
// after each game. Constants are Lichess's: a new player starts at 1500 with RD 500 and
// volatility 0.09, tau (the system constant that limits how fast volatility changes) is 0.75,
// and the RD is kept within [45, 500] after each update. The pure function below takes tau
// as a parameter so that the paper's worked example (tau 0.5) can be checked exactly.

#include <vector>

namespace arena::rating {

inline constexpr double kGlickoInitialRating = 1500.0;
inline constexpr double kGlickoInitialDeviation = 500.0;
inline constexpr double kGlickoInitialVolatility = 0.09;
inline constexpr double kGlickoTau = 0.75;
inline constexpr double kGlickoMinDeviation = 45.0;
inline constexpr double kGlickoMaxDeviation = 500.0;

struct Glicko2Rating {
  double rating = kGlickoInitialRating;  // Glicko scale (1500-centred)
  double deviation = kGlickoInitialDeviation;
  double volatility = kGlickoInitialVolatility;
};

// One game of the rating period: the opponent's rating before the period and the score.
struct Glicko2Game {
  double opponent_rating = kGlickoInitialRating;
  double opponent_deviation = kGlickoInitialDeviation;
  double score = 0.5;  // 1 win, 0.5 draw, 0 loss
};

// The player's rating after one rating period with `games` (Steps 1-8 of the paper; with no
// games only the deviation grows). Volatility is found by the Illinois method, to 1e-6.
Glicko2Rating glicko2_update(const Glicko2Rating& player, const std::vector<Glicko2Game>& games,
                             double tau = kGlickoTau);

// glicko2_update for one game with Lichess's RD bounds applied: what the store uses live.
Glicko2Rating glicko2_update_live(const Glicko2Rating& player, const Glicko2Game& game);

}  // namespace arena::rating
