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

  // Free players with a perfect or a zero score leave the fit (with their games), repeatedly:
  // their removal may leave another one perfect.
  std::vector<GameOutcome> kept = games;
  if (prior_draws > 0) {
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
  }
  std::vector<Bound> bound(static_cast<std::size_t>(n), Bound::kEstimate);
  std::vector<std::vector<int>> met(static_cast<std::size_t>(n));  // opponents of a removed player
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<double> pts(static_cast<std::size_t>(n), 0), cnt(static_cast<std::size_t>(n), 0);
    for (const auto& g : kept) {
      pts[static_cast<std::size_t>(g.first)] += g.first_score;
      pts[static_cast<std::size_t>(g.second)] += 1 - g.first_score;
      ++cnt[static_cast<std::size_t>(g.first)];
      ++cnt[static_cast<std::size_t>(g.second)];
    }
    for (int i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      if (out[u].anchor || bound[u] != Bound::kEstimate || cnt[u] == 0) continue;
      if (pts[u] != cnt[u] && pts[u] != 0) continue;
      bound[u] = pts[u] == cnt[u] ? Bound::kAtLeast : Bound::kAtMost;
      std::vector<GameOutcome> rest;
      for (const auto& g : kept) {
        if (g.first == i) {
          met[u].push_back(g.second);
        } else if (g.second == i) {
          met[u].push_back(g.first);
        } else {
          rest.push_back(g);
        }
      }
      kept = std::move(rest);
      changed = true;
    }
  }

  double anchor_sum = 0;
  int anchor_count = 0;
  for (const auto& e : out)
    if (e.anchor) {
      anchor_sum += e.elo;
      ++anchor_count;
    }
  const double anchor_mean = anchor_sum / anchor_count;
  std::vector<double> r(static_cast<std::size_t>(n));
  // A group of players may win (or lose) every game against everyone else while drawing among
  // themselves: no single perfect score, yet no finite maximum. Newton then walks them off
  // to infinity; those found beyond kDiverged of the anchors leave the fit like a perfect
  // score, and the rest is fitted again.
  constexpr double kDiverged = 4000;
  for (;;) {
    // Connected to an anchor through the kept games?
    std::vector<char> reached(static_cast<std::size_t>(n), 0);
    for (int i = 0; i < n; ++i)
      reached[static_cast<std::size_t>(i)] = out[static_cast<std::size_t>(i)].anchor ? 1 : 0;
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
    std::vector<int> free_index(static_cast<std::size_t>(n), -1);
    std::vector<int> free;
    for (int i = 0; i < n; ++i) {
      const auto u = static_cast<std::size_t>(i);
      r[u] = out[u].anchor ? out[u].elo : anchor_mean;
      if (out[u].anchor || bound[u] != Bound::kEstimate) continue;
      if (!reached[u]) {
        bound[u] = Bound::kUnknown;
        continue;
      }
      free_index[u] = static_cast<int>(free.size());
      free.push_back(i);
    }
    const std::size_t m = free.size();
    std::vector<std::vector<double>> info(m, std::vector<double>(m, 0));
    std::vector<double> gradient;
    auto information = [&] {
      gradient.assign(m, 0);
      for (auto& row : info) std::fill(row.begin(), row.end(), 0);
      for (const auto& g : kept) {
        const double e = elo_expected_score(r[static_cast<std::size_t>(g.first)] -
                                            r[static_cast<std::size_t>(g.second)]);
        const double w = kScale * kScale * e * (1 - e);
        const int a = free_index[static_cast<std::size_t>(g.first)];
        const int b = free_index[static_cast<std::size_t>(g.second)];
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
    };
    for (int it = 0; it < kMaxIterations && m > 0; ++it) {
      information();
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
      for (std::size_t k = 0; k < m; ++k) r[static_cast<std::size_t>(free[k])] += shrink * step[k];
      if (largest < 1e-9) break;
    }
    bool diverged = false;
    for (int i : free) {
      const auto u = static_cast<std::size_t>(i);
      if (std::abs(r[u] - anchor_mean) <= kDiverged) continue;
      diverged = true;
      bound[u] = r[u] > anchor_mean ? Bound::kAtLeast : Bound::kAtMost;
      std::vector<GameOutcome> rest;
      for (const auto& g : kept) {
        if (g.first == i)
          met[u].push_back(g.second);
        else if (g.second == i)
          met[u].push_back(g.first);
        else
          rest.push_back(g);
      }
      kept = std::move(rest);
    }
    if (diverged) continue;
    if (m > 0) information();
    for (std::size_t k = 0; k < m; ++k) {
      const auto u = static_cast<std::size_t>(free[k]);
      std::vector<double> unit(m, 0);
      unit[k] = 1;
      double variance = std::numeric_limits<double>::infinity();
      if (solve(info, unit)) variance = unit[k];
      out[u].elo = r[u];
      out[u].half_width = kZ95 * std::sqrt(std::max(variance, 0.0));
    }
    break;
  }
  // The bounds: the best rating a perfect player beat, the worst a zero player lost to.
  for (int i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    out[u].bound = bound[u];
    if (bound[u] == Bound::kAtLeast || bound[u] == Bound::kAtMost) {
      double best = bound[u] == Bound::kAtLeast ? -1e18 : 1e18;
      for (int j : met[u]) {
        const auto& o = out[static_cast<std::size_t>(j)];
        const bool known = o.anchor || bound[static_cast<std::size_t>(j)] == Bound::kEstimate;
        if (!known) continue;
        best = bound[u] == Bound::kAtLeast ? std::max(best, o.elo) : std::min(best, o.elo);
      }
      if (std::abs(best) > 1e17) out[u].bound = Bound::kUnknown;
      else out[u].elo = best;
      out[u].half_width = 0;
    }
  }
  return out;
}

}  // namespace arena::tournament
