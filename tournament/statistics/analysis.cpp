#include "tournament/statistics/analysis.h"

#include <algorithm>

#include "rating/bradley_terry.h"

namespace arena::tournament {
namespace {

void add_game(HeadToHead& h, double score) {
  if (score > 0.75)
    ++h.wins;
  else if (score < 0.25)
    ++h.losses;
  else
    ++h.draws;
}

void fit_ratings(Analysis& a, const std::vector<GameOutcome>& games) {
  std::vector<rating::PairResult> pairs;
  for (const auto& g : games) pairs.push_back({g.first, g.second, g.first_score});
  rating::BradleyTerryOptions options;
  options.prior_draws = 2.0;
  auto fit = rating::fit_bradley_terry(static_cast<int>(a.names.size()), pairs, options);
  if (!fit) {
    a.rating_error = fit.error();
    return;
  }
  a.ratings = fit->ratings;
  a.half_widths = fit->half_widths;
}

}  // namespace

Analysis analyse(const std::vector<std::string>& names, const std::vector<GameOutcome>& games,
                 const std::vector<MoveStats>& search,
                 const std::optional<SprtRequest>& sprt_request) {
  Analysis a;
  a.names = names;
  const auto n = names.size();
  a.crosstable.assign(n, std::vector<HeadToHead>(n));
  a.standings.resize(n);
  for (std::size_t i = 0; i < n; ++i) a.standings[i].player = static_cast<int>(i);
  for (const auto& g : games) {
    const auto f = static_cast<std::size_t>(g.first), s = static_cast<std::size_t>(g.second);
    add_game(a.crosstable[f][s], g.first_score);
    add_game(a.crosstable[s][f], 1 - g.first_score);
  }
  for (std::size_t i = 0; i < n; ++i) {
    Standing& st = a.standings[i];
    for (std::size_t j = 0; j < n; ++j) {
      st.wins += a.crosstable[i][j].wins;
      st.losses += a.crosstable[i][j].losses;
      st.draws += a.crosstable[i][j].draws;
    }
    st.games = st.wins + st.losses + st.draws;
    st.points = st.wins + 0.5 * st.draws;
  }
  std::stable_sort(a.standings.begin(), a.standings.end(), [](const auto& x, const auto& y) {
    if (x.points != y.points) return x.points > y.points;
    return x.wins > y.wins;
  });
  if (!games.empty()) fit_ratings(a, games);
  a.search = search;
  a.search.resize(n);
  if (sprt_request && sprt_request->challenger >= 0 && sprt_request->baseline >= 0 &&
      static_cast<std::size_t>(sprt_request->challenger) < n &&
      static_cast<std::size_t>(sprt_request->baseline) < n) {
    const HeadToHead& h = a.crosstable[static_cast<std::size_t>(sprt_request->challenger)]
                                      [static_cast<std::size_t>(sprt_request->baseline)];
    a.sprt = sprt(sprt_request->config, h.wins, h.losses, h.draws);
  }
  return a;
}

}  // namespace arena::tournament
