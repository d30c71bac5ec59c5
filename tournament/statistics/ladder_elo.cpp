#include "tournament/statistics/ladder_elo.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace arena::tournament {
namespace {

constexpr double kScale = 2.302585092994046 / 400;  // ln 10 / 400: d E / d diff = k E (1 - E)
constexpr double kZ95 = 1.959963984540054;
constexpr double kMaxStep = 400;
constexpr int kMaxIterations = 200;

using Bound = EloEstimate::Bound;

// Solves a x = b in place (Gaussian elimination with partial pivoting); false if singular.
bool solve(std::vector<std::vector<double>> a, std::vector<double>& b) {
  const std::size_t n = b.size();
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    if (std::abs(a[pivot][c]) < 1e-300) return false;
    std::swap(a[c], a[pivot]);
    std::swap(b[c], b[pivot]);
    for (std::size_t r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = a[r][c] / a[c][c];
      if (f == 0) continue;
      for (std::size_t k = c; k < n; ++k) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  for (std::size_t c = 0; c < n; ++c) b[c] /= a[c][c];
  return true;
}

// Marks the anchors in `out` and counts each player's games and points; the error names a game
// out of range or a score outside [0, 1], or says that no player is an anchor.
Expected<void> count_games(const std::vector<std::optional<double>>& anchors,
                           const std::vector<GameOutcome>& games, std::vector<EloEstimate>& out) {
  const int n = static_cast<int>(anchors.size());
  bool any_anchor = false;
  for (int i = 0; i < n; ++i) {
    auto& e = out[static_cast<std::size_t>(i)];
    if (anchors[static_cast<std::size_t>(i)]) {
      e.anchor = true;
      e.elo = *anchors[static_cast<std::size_t>(i)];
      any_anchor = true;
    }
  }
  if (!any_anchor) return make_error("no anchor: give at least one player a known Elo");
  for (const GameOutcome& g : games) {
    if (g.first < 0 || g.first >= n || g.second < 0 || g.second >= n || g.first == g.second)
      return make_error("a game of player " + std::to_string(g.first) + " against player " +
                        std::to_string(g.second) + " names a player out of 0 to " +
                        std::to_string(n - 1) + " or the same player twice");
    if (g.first_score < 0 || g.first_score > 1)
      return make_error("a game's score " + std::to_string(g.first_score) + " is not in [0, 1]");
    auto& a = out[static_cast<std::size_t>(g.first)];
    auto& b = out[static_cast<std::size_t>(g.second)];
    ++a.games;
    ++b.games;
    a.points += g.first_score;
    b.points += 1 - g.first_score;
  }
  return {};
}

// `games` and, for every pair of the `n` players that met, `prior_draws` virtual draws.
std::vector<GameOutcome> with_prior_draws(const std::vector<GameOutcome>& games, int n,
                                          int prior_draws) {
  std::vector<GameOutcome> kept = games;
  if (prior_draws <= 0) return kept;
  std::vector<std::vector<char>> met_before(static_cast<std::size_t>(n),
                                            std::vector<char>(static_cast<std::size_t>(n), 0));
  for (const GameOutcome& g : games) {
    const auto a = static_cast<std::size_t>(std::min(g.first, g.second));
    const auto b = static_cast<std::size_t>(std::max(g.first, g.second));
    if (met_before[a][b]) continue;
    met_before[a][b] = 1;
    for (int k = 0; k < prior_draws; ++k)
      kept.push_back({static_cast<int>(a), static_cast<int>(b), 0.5});
  }
  return kept;
}

// What the fit works on: the games still in it, and per player its bound and the opponents of
// its games that left the fit with it.
struct FitState {
  std::vector<GameOutcome> kept;
  std::vector<Bound> bound;
  std::vector<std::vector<int>> met;
};

// Player `i` leaves the fit with its games; their opponents are kept in met[i].
void remove_player(int i, FitState& fit) {
  const auto u = static_cast<std::size_t>(i);
  std::vector<GameOutcome> rest;
  for (const auto& g : fit.kept) {
    if (g.first == i)
      fit.met[u].push_back(g.second);
    else if (g.second == i)
      fit.met[u].push_back(g.first);
    else
      rest.push_back(g);
  }
  fit.kept = std::move(rest);
}

// Free players with a perfect or a zero score leave the fit (with their games), repeatedly:
// their removal may leave another one perfect.
void remove_perfect_scores(const std::vector<EloEstimate>& out, FitState& fit) {
  const std::size_t n = out.size();
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<double> pts(n, 0), cnt(n, 0);
    for (const auto& g : fit.kept) {
      pts[static_cast<std::size_t>(g.first)] += g.first_score;
      pts[static_cast<std::size_t>(g.second)] += 1 - g.first_score;
      ++cnt[static_cast<std::size_t>(g.first)];
      ++cnt[static_cast<std::size_t>(g.second)];
    }
    for (std::size_t u = 0; u < n; ++u) {
      if (out[u].anchor || fit.bound[u] != Bound::kEstimate || cnt[u] == 0) continue;
      if (pts[u] != cnt[u] && pts[u] != 0) continue;
      fit.bound[u] = pts[u] == cnt[u] ? Bound::kAtLeast : Bound::kAtMost;
      remove_player(static_cast<int>(u), fit);
      changed = true;
    }
  }
}

double anchor_mean(const std::vector<EloEstimate>& out) {
  double anchor_sum = 0;
  int anchor_count = 0;
  for (const auto& e : out)
    if (e.anchor) {
      anchor_sum += e.elo;
      ++anchor_count;
    }
  return anchor_sum / anchor_count;
}

// Per player: connected to an anchor through the kept games?
std::vector<char> reached_from_anchors(const std::vector<EloEstimate>& out,
                                       const std::vector<GameOutcome>& kept) {
  std::vector<char> reached(out.size(), 0);
  for (std::size_t u = 0; u < out.size(); ++u) reached[u] = out[u].anchor ? 1 : 0;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& g : kept) {
      auto& a = reached[static_cast<std::size_t>(g.first)];
      auto& b = reached[static_cast<std::size_t>(g.second)];
      if (a != b) {
        a = b = 1;
        grew = true;
      }
    }
  }
  return reached;
}

// The free ratings of one Newton run: free[k] is the player of index k, free_index its inverse
// (-1 for an anchor or a bound), r every player's rating.
struct FreeRatings {
  std::vector<int> free;
  std::vector<int> free_index;
  std::vector<double> r;
};

// The gradient of the log-likelihood and the Fisher information over the free ratings at r.
void information(const std::vector<GameOutcome>& kept, const FreeRatings& f,
                 std::vector<std::vector<double>>& info, std::vector<double>& gradient) {
  gradient.assign(f.free.size(), 0);
  for (auto& row : info) std::fill(row.begin(), row.end(), 0);
  for (const auto& g : kept) {
    const double e = elo_expected_score(f.r[static_cast<std::size_t>(g.first)] -
                                        f.r[static_cast<std::size_t>(g.second)]);
    const double w = kScale * kScale * e * (1 - e);
    const int a = f.free_index[static_cast<std::size_t>(g.first)];
    const int b = f.free_index[static_cast<std::size_t>(g.second)];
    const double residual = kScale * (g.first_score - e);
    if (a >= 0) {
      gradient[static_cast<std::size_t>(a)] += residual;
      info[static_cast<std::size_t>(a)][static_cast<std::size_t>(a)] += w;
    }
    if (b >= 0) {
      gradient[static_cast<std::size_t>(b)] -= residual;
      info[static_cast<std::size_t>(b)][static_cast<std::size_t>(b)] += w;
    }
    if (a >= 0 && b >= 0) {
      info[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] -= w;
      info[static_cast<std::size_t>(b)][static_cast<std::size_t>(a)] -= w;
    }
  }
}

// The free players of this run (reached from an anchor, not a bound; the unreached become
// kUnknown), all ratings starting at the anchors' mean.
FreeRatings free_ratings(const std::vector<EloEstimate>& out, FitState& fit, double mean) {
  const std::vector<char> reached = reached_from_anchors(out, fit.kept);
  FreeRatings f;
  f.free_index.assign(out.size(), -1);
  f.r.resize(out.size());
  for (std::size_t u = 0; u < out.size(); ++u) {
    f.r[u] = out[u].anchor ? out[u].elo : mean;
    if (out[u].anchor || fit.bound[u] != Bound::kEstimate) continue;
    if (!reached[u]) {
      fit.bound[u] = Bound::kUnknown;
      continue;
    }
    f.free_index[u] = static_cast<int>(f.free.size());
    f.free.push_back(static_cast<int>(u));
  }
  return f;
}

// Newton's method on the free ratings, steps capped at kMaxStep.
void newton(const std::vector<GameOutcome>& kept, FreeRatings& f) {
  const std::size_t m = f.free.size();
  std::vector<std::vector<double>> info(m, std::vector<double>(m, 0));
  std::vector<double> gradient;
  for (int it = 0; it < kMaxIterations && m > 0; ++it) {
    information(kept, f, info, gradient);
    std::vector<double> step = gradient;
    if (!solve(info, step)) {
      // Flat (a group far out): a gradient step of the largest size instead.
      double largest = 0;
      for (double g : gradient) largest = std::max(largest, std::abs(g));
      if (largest == 0) break;
      for (auto& v : step) v = v / largest * kMaxStep;
    }
    double largest = 0;
    for (double v : step) largest = std::max(largest, std::abs(v));
    const double shrink = largest > kMaxStep ? kMaxStep / largest : 1.0;
    for (std::size_t k = 0; k < m; ++k)
      f.r[static_cast<std::size_t>(f.free[k])] += shrink * step[k];
    if (largest < 1e-9) break;
  }
}

// A group of players may win (or lose) every game against everyone else while drawing among
// themselves: no single perfect score, yet no finite maximum. Newton then walks them off
// to infinity; those found beyond kDiverged of the anchors leave the fit like a perfect
// score. True if any did (the rest is then fitted again).
bool remove_diverged(const FreeRatings& f, double mean, FitState& fit) {
  constexpr double kDiverged = 4000;
  bool diverged = false;
  for (int i : f.free) {
    const auto u = static_cast<std::size_t>(i);
    if (std::abs(f.r[u] - mean) <= kDiverged) continue;
    diverged = true;
    fit.bound[u] = f.r[u] > mean ? Bound::kAtLeast : Bound::kAtMost;
    remove_player(i, fit);
  }
  return diverged;
}

// The free players' ratings and 95% half-widths (from the inverse of the whole information
// matrix).
void set_estimates(const std::vector<GameOutcome>& kept, const FreeRatings& f,
                   std::vector<EloEstimate>& out) {
  const std::size_t m = f.free.size();
  std::vector<std::vector<double>> info(m, std::vector<double>(m, 0));
  std::vector<double> gradient;
  if (m > 0) information(kept, f, info, gradient);
  for (std::size_t k = 0; k < m; ++k) {
    const auto u = static_cast<std::size_t>(f.free[k]);
    std::vector<double> unit(m, 0);
    unit[k] = 1;
    double variance = std::numeric_limits<double>::infinity();
    if (solve(info, unit)) variance = unit[k];
    out[u].elo = f.r[u];
    out[u].half_width = kZ95 * std::sqrt(std::max(variance, 0.0));
  }
}

// The bounds: the best rating a perfect player beat, the worst a zero player lost to.
void set_bounds(const FitState& fit, std::vector<EloEstimate>& out) {
  for (std::size_t u = 0; u < out.size(); ++u) {
    out[u].bound = fit.bound[u];
    if (fit.bound[u] != Bound::kAtLeast && fit.bound[u] != Bound::kAtMost) continue;
    const bool at_least = fit.bound[u] == Bound::kAtLeast;
    double best = at_least ? -1e18 : 1e18;
    for (int j : fit.met[u]) {
      const auto& o = out[static_cast<std::size_t>(j)];
      const bool known = o.anchor || fit.bound[static_cast<std::size_t>(j)] == Bound::kEstimate;
      if (!known) continue;
      best = at_least ? std::max(best, o.elo) : std::min(best, o.elo);
    }
    if (std::abs(best) > 1e17) out[u].bound = Bound::kUnknown;
    else out[u].elo = best;
    out[u].half_width = 0;
  }
}

}  // namespace

double elo_expected_score(double diff) { return 1.0 / (1.0 + std::pow(10.0, -diff / 400.0)); }

double elo_from_score(double score) {
  if (score <= 0) return -1200;
  if (score >= 1) return 1200;
  return std::clamp(-400.0 * std::log10(1.0 / score - 1.0), -1200.0, 1200.0);
}

Expected<std::vector<EloEstimate>> fit_anchored_elo(
    const std::vector<std::optional<double>>& anchors, const std::vector<GameOutcome>& games,
    int prior_draws) {
  const int n = static_cast<int>(anchors.size());
  std::vector<EloEstimate> out(static_cast<std::size_t>(n));
  if (auto counted = count_games(anchors, games, out); !counted) return make_error(counted.error());
  FitState fit{with_prior_draws(games, n, prior_draws),
               std::vector<Bound>(static_cast<std::size_t>(n), Bound::kEstimate),
               std::vector<std::vector<int>>(static_cast<std::size_t>(n))};
  remove_perfect_scores(out, fit);
  const double mean = anchor_mean(out);
  for (;;) {
    FreeRatings f = free_ratings(out, fit, mean);
    newton(fit.kept, f);
    if (remove_diverged(f, mean, fit)) continue;
    set_estimates(fit.kept, f, out);
    break;
  }
  set_bounds(fit, out);
  return out;
}

}  // namespace arena::tournament
