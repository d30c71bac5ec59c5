#pragma once
// Tournament schedules: which players meet, in which round, and who moves first. Pure functions
// over player indices 0..n-1, so the formats are testable without a store or a network.
//
// Every pairing is played as colour-swapped pairs: games 2k and 2k+1 of a pairing share one
// start position (the same `pair` number, hence the same opening seed) and swap colours. An odd
// games_per_pairing leaves the last game unpaired (first player = the lower round's first).
//
//   round robin: circle method (player n-1 fixed, the others rotate; a dummy for odd n gives
//                byes, which are not scheduled). Each of the n(n-1)/2 pairings appears
//                games_per_pairing times: the circle is gone through once per colour-swapped
//                pair, so that in a round each player plays one pair (two players, four
//                games: rounds 0, 0, 1, 1).
//   gauntlet:    every challenger against every field player, games_per_pairing times.
//   swiss:       one round at a time (swiss_round): players sorted by score (ties by index),
//                each takes the highest-ranked opponent below it it has not met yet (Dutch-style
//                top-down with backtracking); an odd player out gets a bye (not scheduled).

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "games/core/expected.h"

namespace arena::tournament {

struct ScheduledGame {
  int round = 0;   // 0-based round (round robin: cycle and circle round; gauntlet: the pairing)
  int first = 0;   // player index moving first
  int second = 0;  // player index moving second
  int pair = 0;    // games with the same pair number start from the same position
};

// Games of one pairing: games_per_pairing games, colours alternating in pairs.
std::vector<ScheduledGame> pairing_games(int a, int b, int round, int games_per_pairing,
                                         int& next_pair);

std::vector<ScheduledGame> round_robin(int num_players, int games_per_pairing);

// challengers are indices 0..num_challengers-1, the field num_challengers..num_players-1.
std::vector<ScheduledGame> gauntlet(int num_challengers, int num_field, int games_per_pairing);

// One Swiss round from current scores and the pairs already played (unordered, a < b).
// Error when no pairing without repeats exists.
Expected<std::vector<ScheduledGame>> swiss_round(const std::vector<double>& scores,
                                                 const std::set<std::pair<int, int>>& played,
                                                 int round, int games_per_pairing, int first_pair);

}  // namespace arena::tournament
