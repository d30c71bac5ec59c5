#pragma once
// Elo ratings, updated game by game (the live rating of a game kind).
//
// Expected score of A against B: E = 1 / (1 + 10^((Rb - Ra) / 400)); after a game with score S
// (1 win, 0.5 draw, 0 loss) A's rating becomes Ra + K (S - E). K follows FIDE's rule for
// established players without the 2400 step: 40 while a player has played fewer than 30 games
// in this kind (a new rating moves fast to where it belongs), then 20. Pure functions,
// standard library only.

namespace arena::rating {

inline constexpr double kEloInitial = 1500.0;
inline constexpr double kEloProvisionalK = 40.0;
inline constexpr double kEloEstablishedK = 20.0;
inline constexpr int kEloProvisionalGames = 30;

// Expected score (0..1) of a player rated `rating` against one rated `opponent`.
double elo_expected(double rating, double opponent);

// K-factor for a player who has played `games_played` rated games of this kind before this one.
double elo_k_factor(int games_played);

// The player's new rating after scoring `score` (1, 0.5 or 0) against `opponent`.
double elo_update(double rating, double opponent, double score, double k);

}  // namespace arena::rating
