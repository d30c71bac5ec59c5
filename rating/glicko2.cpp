#include "rating/glicko2.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace arena::rating {
namespace {

constexpr double kScale = 173.7178;  // 400 / ln(10): Glicko to Glicko-2 scale
constexpr double kEpsilon = 1e-6;

double g(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

// Step 5: the new volatility, the root of f(x) found by the Illinois (regula falsi) method.
double new_volatility(double sigma, double phi, double v, double delta, double tau) {
  const double a = std::log(sigma * sigma);
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
  };
  double big_a = a;
  double big_b = 0;
  if (delta * delta > phi * phi + v) {
    big_b = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0) ++k;
    big_b = a - k * tau;
  }
  double fa = f(big_a);
  double fb = f(big_b);
  for (int i = 0; i < 200 && std::abs(big_b - big_a) > kEpsilon; ++i) {
    const double c = big_a + (big_a - big_b) * fa / (fb - fa);
    const double fc = f(c);
    if (fc * fb <= 0) {
      big_a = big_b;
      fa = fb;
    } else {
      fa /= 2.0;
    }
    big_b = c;
    fb = fc;
  }
  return std::exp(big_a / 2.0);
}

}  // namespace

Glicko2Rating glicko2_update(const Glicko2Rating& player, const std::vector<Glicko2Game>& games,
                             double tau) {
  // Step 2: to the Glicko-2 scale.
  const double mu = (player.rating - 1500.0) / kScale;
  const double phi = player.deviation / kScale;
  if (games.empty()) {
    const double grown = std::sqrt(phi * phi + player.volatility * player.volatility);
    return {player.rating, grown * kScale, player.volatility};
  }
  // Steps 3-4: estimated variance v and improvement delta.
  double v_inverse = 0;
  double delta_sum = 0;
  for (const auto& game : games) {
    const double mu_j = (game.opponent_rating - 1500.0) / kScale;
    const double phi_j = game.opponent_deviation / kScale;
    const double e = expected(mu, mu_j, phi_j);
    v_inverse += g(phi_j) * g(phi_j) * e * (1.0 - e);
    delta_sum += g(phi_j) * (game.score - e);
  }
  const double v = 1.0 / v_inverse;
  const double delta = v * delta_sum;
  // Steps 5-7: volatility, pre-period deviation, new deviation and rating.
  const double sigma = new_volatility(player.volatility, phi, v, delta, tau);
  const double phi_star = std::sqrt(phi * phi + sigma * sigma);
  const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double mu_new = mu + phi_new * phi_new * delta_sum;
  // Step 8: back to the Glicko scale.
  return {mu_new * kScale + 1500.0, phi_new * kScale, sigma};
}

Glicko2Rating glicko2_update_live(const Glicko2Rating& player, const Glicko2Game& game) {
  Glicko2Rating r = glicko2_update(player, {game}, kGlickoTau);
  r.deviation = std::clamp(r.deviation, kGlickoMinDeviation, kGlickoMaxDeviation);
  return r;
}

}  // namespace arena::rating
