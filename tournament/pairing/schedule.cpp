#include "tournament/pairing/schedule.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace arena::tournament {

std::vector<ScheduledGame> pairing_games(int a, int b, int round, int games_per_pairing,
                                         int& next_pair) {
  std::vector<ScheduledGame> games;
  for (int g = 0; g < games_per_pairing; ++g) {
    const bool swapped = g % 2 == 1;
    games.push_back({round, swapped ? b : a, swapped ? a : b, next_pair + g / 2});
  }
  next_pair += (games_per_pairing + 1) / 2;
  return games;
}

std::vector<ScheduledGame> round_robin(int num_players, int games_per_pairing) {
  std::vector<ScheduledGame> games;
  if (num_players < 2) return games;
  // Circle method: with a dummy player for odd n, n' even; n'-1 circle rounds. Each pairing's
  // colour-swapped pairs are played in cycles through the circle: cycle c plays every
  // pairing's pair c, in rounds c*(n'-1) .. c*(n'-1)+n'-2, so that a round is one pair of games
  // per player, also with two players.
  const int n = num_players + num_players % 2;
  const int circle_rounds = n - 1;
  struct Meeting {
    int round, a, b, first_pair;
  };
  std::vector<Meeting> meetings;
  std::vector<int> circle(static_cast<std::size_t>(n));
  std::iota(circle.begin(), circle.end(), 0);
  int next_pair = 0;
  for (int round = 0; round < circle_rounds; ++round) {
    for (int i = 0; i < n / 2; ++i) {
      int a = circle[static_cast<std::size_t>(i)];
      int b = circle[static_cast<std::size_t>(n - 1 - i)];
      if (a >= num_players || b >= num_players) continue;  // a bye
      // Alternate who starts a pairing so no player always moves first in odd-sized pairings.
      if (round % 2 == 1) std::swap(a, b);
      meetings.push_back({round, a, b, next_pair});
      next_pair += (games_per_pairing + 1) / 2;
    }
    // Rotate every position but the last.
    std::rotate(circle.begin(), circle.begin() + (n - 2), circle.begin() + (n - 1));
  }
  for (int cycle = 0; 2 * cycle < games_per_pairing; ++cycle)
    for (const Meeting& m : meetings)
      for (int g = 2 * cycle; g < std::min(games_per_pairing, 2 * cycle + 2); ++g) {
        const bool swapped = g % 2 == 1;
        games.push_back({cycle * circle_rounds + m.round, swapped ? m.b : m.a,
                         swapped ? m.a : m.b, m.first_pair + cycle});
      }
  return games;
}

std::vector<ScheduledGame> gauntlet(int num_challengers, int num_field, int games_per_pairing) {
  std::vector<ScheduledGame> games;
  int next_pair = 0;
  int round = 0;
  for (int c = 0; c < num_challengers; ++c) {
    for (int f = 0; f < num_field; ++f) {
      auto pg = pairing_games(c, num_challengers + f, round++, games_per_pairing, next_pair);
      games.insert(games.end(), pg.begin(), pg.end());
    }
  }
  return games;
}

namespace {

bool met(const std::set<std::pair<int, int>>& played, int a, int b) {
  return played.count({std::min(a, b), std::max(a, b)}) > 0;
}

// Pairs the still-unpaired players in `order` top-down; backtracks when the rest cannot be paired.
bool pair_rest(const std::vector<int>& order, std::vector<bool>& used,
               const std::set<std::pair<int, int>>& played, bool bye_left,
               std::vector<std::pair<int, int>>& out) {
  auto it = std::find_if(order.begin(), order.end(),
                         [&](int p) { return !used[static_cast<std::size_t>(p)]; });
  if (it == order.end()) return true;
  const int top = *it;
  used[static_cast<std::size_t>(top)] = true;
  for (auto jt = it + 1; jt != order.end(); ++jt) {
    const int other = *jt;
    if (used[static_cast<std::size_t>(other)] || met(played, top, other)) continue;
    used[static_cast<std::size_t>(other)] = true;
    out.emplace_back(top, other);
    if (pair_rest(order, used, played, bye_left, out)) return true;
    out.pop_back();
    used[static_cast<std::size_t>(other)] = false;
  }
  // The bye goes to the lowest-ranked player that can take it: try `top` only as a last resort.
  if (bye_left && pair_rest(order, used, played, false, out)) return true;
  used[static_cast<std::size_t>(top)] = false;
  return false;
}

}  // namespace

Expected<std::vector<ScheduledGame>> swiss_round(const std::vector<double>& scores,
                                                 const std::set<std::pair<int, int>>& played,
                                                 int round, int games_per_pairing, int first_pair) {
  const int n = static_cast<int>(scores.size());
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return scores[static_cast<std::size_t>(a)] > scores[static_cast<std::size_t>(b)];
  });
  // Odd n: the bye is taken by the last unpaired player, so try pairing from the top and let the
  // lowest-ranked player that cannot be paired sit out.
  std::vector<bool> used(static_cast<std::size_t>(n), false);
  std::vector<std::pair<int, int>> pairs;
  if (!pair_rest(order, used, played, n % 2 == 1, pairs))
    return make_error("swiss round " + std::to_string(round + 1) +
                      ": every remaining pairing repeats a game already played");
  std::vector<ScheduledGame> games;
  int next_pair = first_pair;
  for (const auto& [a, b] : pairs) {
    // The higher-ranked player starts in even rounds, the lower-ranked one in odd rounds.
    auto pg = round % 2 == 0 ? pairing_games(a, b, round, games_per_pairing, next_pair)
                             : pairing_games(b, a, round, games_per_pairing, next_pair);
    games.insert(games.end(), pg.begin(), pg.end());
  }
  return games;
}

}  // namespace arena::tournament
