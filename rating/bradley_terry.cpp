#include "rating/bradley_terry.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace arena::rating {
namespace {

constexpr double kLog10 = std::numbers::ln10;
constexpr double kEloPerUnit = 400.0 / kLog10;  // theta (natural log-odds) to Elo
constexpr double kZ95 = 1.959963984540054;

using Matrix = std::vector<std::vector<double>>;

double logistic(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

// Inverts a symmetric positive definite-ish matrix by Gauss-Jordan with partial pivoting;
// false if it is singular.
bool invert(Matrix m, Matrix& inverse) {
  const std::size_t n = m.size();
  inverse.assign(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) inverse[i][i] = 1.0;
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < n; ++r)
      if (std::abs(m[r][col]) > std::abs(m[pivot][col])) pivot = r;
    if (std::abs(m[pivot][col]) < 1e-12) return false;
    std::swap(m[pivot], m[col]);
    std::swap(inverse[pivot], inverse[col]);
    const double d = m[col][col];
    for (std::size_t c = 0; c < n; ++c) {
      m[col][c] /= d;
      inverse[col][c] /= d;
    }
    for (std::size_t r = 0; r < n; ++r) {
      if (r == col || m[r][col] == 0.0) continue;
      const double f = m[r][col];
      for (std::size_t c = 0; c < n; ++c) {
        m[r][c] -= f * m[col][c];
        inverse[r][c] -= f * inverse[col][c];
      }
    }
  }
  return true;
}

struct Problem {
  int n = 0;
  const std::vector<PairResult>* games = nullptr;
  double prior = 0;
};

// Log-likelihood, gradient and observed information at theta (natural-log scale).
double evaluate(const Problem& p, const std::vector<double>& theta, std::vector<double>* gradient,
                Matrix* information) {
  const auto n = static_cast<std::size_t>(p.n);
  if (gradient) gradient->assign(n, 0.0);
  if (information) information->assign(n, std::vector<double>(n, 0.0));
  double ll = 0;
  auto add = [&](int i, int j, double score, double weight, bool virtual_opponent) {
    const double diff = theta[static_cast<std::size_t>(i)] -
                        (virtual_opponent ? 0.0 : theta[static_cast<std::size_t>(j)]);
    const double prob = logistic(diff);
    ll += weight * (score * std::log(prob) + (1.0 - score) * std::log(1.0 - prob));
    const double residual = weight * (score - prob);
    const double info = weight * prob * (1.0 - prob);
    const auto a = static_cast<std::size_t>(i);
    if (gradient) (*gradient)[a] += residual;
    if (information) (*information)[a][a] += info;
    if (virtual_opponent) return;
    const auto b = static_cast<std::size_t>(j);
    if (gradient) (*gradient)[b] -= residual;
    if (information) {
      (*information)[b][b] += info;
      (*information)[a][b] -= info;
      (*information)[b][a] -= info;
    }
  };
  for (const auto& game : *p.games) add(game.first, game.second, game.score, 1.0, false);
  if (p.prior > 0)
    for (int i = 0; i < p.n; ++i) add(i, -1, 0.5, p.prior, true);
  return ll;
}

// Without a prior the information matrix has the all-ones null vector (only differences are
// defined); adding 11^T/n makes it invertible and its inverse minus 11^T/n is the pseudo-inverse.
Expected<Matrix> covariance_of(const Problem& p, Matrix information) {
  const auto n = static_cast<std::size_t>(p.n);
  const double shift = p.prior > 0 ? 0.0 : 1.0 / static_cast<double>(n);
  for (auto& row : information)
    for (double& x : row) x += shift;
  Matrix inverse;
  if (!invert(std::move(information), inverse))
    return make_error(
        "the players are split into groups that never met, directly or through "
        "others; their relative ratings are undefined (add games or a prior)");
  for (auto& row : inverse)
    for (double& x : row) x -= shift;
  return inverse;
}

Expected<void> validate(int num_players, const std::vector<PairResult>& games, double prior) {
  if (num_players <= 0) return make_error("no players to rate");
  std::vector<double> scored(static_cast<std::size_t>(num_players), 0.0);
  std::vector<double> played(static_cast<std::size_t>(num_players), 0.0);
  for (const auto& g : games) {
    if (g.first < 0 || g.first >= num_players || g.second < 0 || g.second >= num_players ||
        g.first == g.second)
      return make_error("a game names player " + std::to_string(g.first) + " against " +
                        std::to_string(g.second) + ", outside 0.." +
                        std::to_string(num_players - 1) + " or against itself");
    if (!(g.score >= 0.0 && g.score <= 1.0))
      return make_error("a game has score " + std::to_string(g.score) + ", outside [0, 1]");
    played[static_cast<std::size_t>(g.first)] += 1;
    played[static_cast<std::size_t>(g.second)] += 1;
    scored[static_cast<std::size_t>(g.first)] += g.score;
    scored[static_cast<std::size_t>(g.second)] += 1.0 - g.score;
  }
  if (prior > 0) return {};
  for (std::size_t i = 0; i < played.size(); ++i) {
    if (played[i] == 0) return make_error("player " + std::to_string(i) + " has no games");
    if (scored[i] == 0 || scored[i] == played[i])
      return make_error("player " + std::to_string(i) +
                        " has a perfect score; its maximum-likelihood rating is infinite (use a "
                        "prior)");
  }
  return {};
}

}  // namespace

Expected<BradleyTerryFit> fit_bradley_terry(int num_players, const std::vector<PairResult>& games,
                                            const BradleyTerryOptions& options) {
  if (auto ok = validate(num_players, games, options.prior_draws); !ok) return Error{ok.error()};
  const Problem p{num_players, &games, options.prior_draws};
  const auto n = static_cast<std::size_t>(num_players);
  std::vector<double> theta(n, 0.0);
  std::vector<double> gradient;
  Matrix information;
  BradleyTerryFit fit;
  double ll = evaluate(p, theta, &gradient, &information);
  for (fit.iterations = 0; fit.iterations < options.max_iterations; ++fit.iterations) {
    auto cov = covariance_of(p, information);
    if (!cov) return Error{cov.error()};
    std::vector<double> step(n, 0.0);  // Newton: information^-1 * gradient
    double largest = 0;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) step[i] += (*cov)[i][j] * gradient[j];
      largest = std::max(largest, std::abs(step[i]));
    }
    if (largest < 1e-10) break;
    // Step halving keeps every iteration an ascent step.
    for (double scale = 1.0; scale > 1e-6; scale /= 2) {
      std::vector<double> next = theta;
      for (std::size_t i = 0; i < n; ++i) next[i] += scale * step[i];
      const double next_ll = evaluate(p, next, nullptr, nullptr);
      if (next_ll >= ll - 1e-12) {
        theta = std::move(next);
        break;
      }
    }
    ll = evaluate(p, theta, &gradient, &information);
  }
  auto cov = covariance_of(p, information);
  if (!cov) return Error{cov.error()};
  double mean = 0;
  for (double t : theta) mean += t / static_cast<double>(n);
  fit.log_likelihood = ll;
  fit.covariance = *cov;
  for (std::size_t i = 0; i < n; ++i) {
    fit.ratings.push_back(options.anchor + (theta[i] - mean) * kEloPerUnit);
    for (double& x : fit.covariance[i]) x *= kEloPerUnit * kEloPerUnit;
    fit.half_widths.push_back(kZ95 * std::sqrt(std::max(0.0, fit.covariance[i][i])));
  }
  return fit;
}

double difference_interval(const BradleyTerryFit& fit, int i, int j) {
  const auto a = static_cast<std::size_t>(i);
  const auto b = static_cast<std::size_t>(j);
  const double var = fit.covariance[a][a] + fit.covariance[b][b] - 2 * fit.covariance[a][b];
  return kZ95 * std::sqrt(std::max(0.0, var));
}

double likelihood_of_superiority(double wins, double losses) {
  if (wins + losses <= 0) return 0.5;
  return 0.5 * (1.0 + std::erf((wins - losses) / std::sqrt(2.0 * (wins + losses))));
}

}  // namespace arena::rating
