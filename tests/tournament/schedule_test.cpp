// Schedules: every pairing the right number of times with colours swapped, Swiss without repeats.
#include "tournament/pairing/schedule.h"

#include <map>
#include <set>

#include <gtest/gtest.h>

namespace arena::tournament {
namespace {

using PairKey = std::pair<int, int>;

PairKey unordered(const ScheduledGame& g) {
  return {std::min(g.first, g.second), std::max(g.first, g.second)};
}

// Games sharing a pair number are one pairing's colour-swapped pair.
void expect_pairs_swapped(const std::vector<ScheduledGame>& games) {
  std::map<int, std::vector<ScheduledGame>> by_pair;
  for (const auto& g : games) by_pair[g.pair].push_back(g);
  for (const auto& [pair, gs] : by_pair) {
    ASSERT_EQ(gs.size(), 2u) << "pair " << pair;
    EXPECT_EQ(gs[0].first, gs[1].second);
    EXPECT_EQ(gs[0].second, gs[1].first);
  }
}

TEST(RoundRobin, EveryPairingGamesPerPairingTimesWithBothColours) {
  for (int n : {2, 3, 5, 6}) {
    const auto games = round_robin(n, 4);
    EXPECT_EQ(games.size(), static_cast<std::size_t>(n * (n - 1) / 2 * 4)) << n;
    std::map<std::pair<int, int>, int> ordered;
    for (const auto& g : games) {
      ASSERT_NE(g.first, g.second);
      ++ordered[{g.first, g.second}];
    }
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        if (a != b) {
          EXPECT_EQ((ordered[{a, b}]), 2) << n << ": " << a << " first vs " << b;
        }
    expect_pairs_swapped(games);
  }
}

TEST(RoundRobin, NobodyPlaysTwoOpponentsInOneRound) {
  const auto games = round_robin(7, 1);
  std::map<int, std::map<int, std::set<int>>> opponents;  // round -> player -> opponents
  for (const auto& g : games) {
    opponents[g.round][g.first].insert(g.second);
    opponents[g.round][g.second].insert(g.first);
  }
  EXPECT_EQ(opponents.size(), 7u);  // n odd: n rounds, one bye each
  for (const auto& [round, players] : opponents)
    for (const auto& [p, opp] : players) EXPECT_EQ(opp.size(), 1u) << round << " " << p;
}

TEST(RoundRobin, ARoundIsOneColourSwappedPairPerPlayer) {
  // Two players, four games: two rounds of a pair each (not one round of four games).
  std::vector<int> rounds;
  for (const auto& g : round_robin(2, 4)) rounds.push_back(g.round);
  EXPECT_EQ(rounds, (std::vector<int>{0, 0, 1, 1}));
  // Four players, four games a pairing: 3 circle rounds twice, each player in one pair a round,
  // the rounds in order.
  const auto games = round_robin(4, 4);
  std::map<int, std::map<int, int>> played;  // round -> player -> games
  int last = 0;
  for (const auto& g : games) {
    EXPECT_GE(g.round, last);
    last = g.round;
    ++played[g.round][g.first];
    ++played[g.round][g.second];
  }
  EXPECT_EQ(played.size(), 6u);
  for (const auto& [round, players] : played) {
    EXPECT_EQ(players.size(), 4u) << round;
    for (const auto& [p, n] : players) EXPECT_EQ(n, 2) << round << " " << p;
  }
}

TEST(Gauntlet, ChallengersMeetEveryFieldPlayerOnly) {
  const auto games = gauntlet(2, 3, 2);
  EXPECT_EQ(games.size(), 12u);
  std::map<PairKey, int> count;
  for (const auto& g : games) ++count[unordered(g)];
  for (int c = 0; c < 2; ++c)
    for (int f = 2; f < 5; ++f) EXPECT_EQ((count[{c, f}]), 2);
  EXPECT_EQ((count[{0, 1}]), 0);
  expect_pairs_swapped(games);
}

TEST(Gauntlet, OddGamesPerPairingLeavesOneUnpairedGame) {
  const auto games = gauntlet(1, 1, 3);
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(games[0].pair, games[1].pair);
  EXPECT_NE(games[1].pair, games[2].pair);
}

TEST(Swiss, PairsByScoreWithoutRepeats) {
  // 0 and 1 lead; they met already, so the leaders take the next-best unmet opponents.
  const std::set<PairKey> played{{0, 1}, {2, 3}};
  auto games = swiss_round({1, 1, 0, 0}, played, 1, 2, 0);
  ASSERT_TRUE(games);
  std::set<PairKey> pairs;
  for (const auto& g : *games) pairs.insert(unordered(g));
  EXPECT_EQ(pairs, (std::set<PairKey>{{0, 2}, {1, 3}}));
  expect_pairs_swapped(*games);
}

TEST(Swiss, FirstRoundPairsNeighboursAndGivesTheLastAByeWhenOdd) {
  auto games = swiss_round({0, 0, 0, 0, 0}, {}, 0, 1, 0);
  ASSERT_TRUE(games);
  std::set<PairKey> pairs;
  for (const auto& g : *games) pairs.insert(unordered(g));
  EXPECT_EQ(pairs, (std::set<PairKey>{{0, 1}, {2, 3}}));
}

TEST(Swiss, BacktracksWhenTheGreedyPairingDeadEnds) {
  // Greedy 0-2 would leave 1-3, already played: the only complete pairing is 0-3, 1-2.
  const std::set<PairKey> played{{0, 1}, {1, 3}};
  auto games = swiss_round({3, 2, 1, 0}, played, 1, 1, 0);
  ASSERT_TRUE(games);
  std::set<PairKey> pairs;
  for (const auto& g : *games) pairs.insert(unordered(g));
  EXPECT_EQ(pairs, (std::set<PairKey>{{0, 3}, {1, 2}}));
}

TEST(Swiss, EveryPairingRepeatedIsAnError) {
  auto games = swiss_round({1, 0}, {{0, 1}}, 1, 2, 0);
  ASSERT_FALSE(games);
  EXPECT_NE(games.error().find("repeats"), std::string::npos);
}

}  // namespace
}  // namespace arena::tournament
