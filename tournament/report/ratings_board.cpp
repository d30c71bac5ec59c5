#include "tournament/report/ratings_board.h"

#include <algorithm>
#include <map>

#include "rating/bradley_terry.h"

namespace arena::tournament {

Expected<RatingsBoard> bradley_terry_board(const std::vector<db::GameResultRow>& results,
                                           const std::string& kind) {
  std::map<db::PlayerId, int> index;
  std::vector<RatingsBoardRow> players;
  std::vector<rating::PairResult> games;
  for (const auto& g : results) {
    for (auto [id, name] : {std::pair{g.first, g.first_name}, std::pair{g.second, g.second_name}})
      if (index.emplace(id, static_cast<int>(players.size())).second)
        players.push_back({.name = name});
    const int a = index[g.first], b = index[g.second];
    games.push_back({a, b, g.first_score});
    auto& first = players[static_cast<std::size_t>(a)];
    auto& second = players[static_cast<std::size_t>(b)];
    first.points += g.first_score;
    second.points += 1 - g.first_score;
    ++first.games;
    ++second.games;
  }
  if (players.size() < 2)
    return make_error("Bradley-Terry needs rated games between at least two players of " + kind);
  const int n = static_cast<int>(players.size());
  auto fit = rating::fit_bradley_terry(n, games);
  RatingsBoard board;
  board.games = games.size();
  board.prior = !fit;
  if (board.prior) fit = rating::fit_bradley_terry(n, games, {.prior_draws = 1});
  if (!fit) return make_error(fit.error());
  for (std::size_t k = 0; k < players.size(); ++k) {
    players[k].rating = fit->ratings[k];
    players[k].half_width = fit->half_widths[k];
  }
  std::stable_sort(players.begin(), players.end(),
                   [](const auto& x, const auto& y) { return x.rating > y.rating; });
  board.rows = std::move(players);
  return board;
}

}  // namespace arena::tournament
