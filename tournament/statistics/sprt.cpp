#include "tournament/statistics/sprt.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace arena::tournament {
namespace {

constexpr std::array<double, 3> kScores = {0.0, 0.5, 1.0};  // loss, draw, win
constexpr double kPseudoCount = 1e-3;

double expected_score(double elo) {
  return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

// The distribution over kScores of mean `s` most likely to give `counts`. With frequencies f,
// it is p_i = f_i / (1 + t (x_i - s)) for the t where sum f_i (x_i - s) / (1 + t (x_i - s)) = 0;
// that sum falls strictly as t grows, from +infinity to -infinity over the t where every
// denominator is positive, so bisection finds t. The p_i then sum to 1.
std::array<double, 3> most_likely(std::array<double, 3> counts, double s) {
  for (double& c : counts) c = std::max(c, kPseudoCount);
  const double total = counts[0] + counts[1] + counts[2];
  std::array<double, 3> f{};
  double lo = -std::numeric_limits<double>::infinity(),
         hi = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < 3; ++i) {
    f[i] = counts[i] / total;
    const double d = kScores[i] - s;
    if (f[i] <= 0 || d == 0) continue;
    if (d > 0) lo = std::max(lo, -1 / d);
    if (d < 0) hi = std::min(hi, -1 / d);
  }
  const auto sum = [&](double t) {
    double g = 0;
    for (std::size_t i = 0; i < 3; ++i) g += f[i] * (kScores[i] - s) / (1 + t * (kScores[i] - s));
    return g;
  };
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (sum(mid) > 0 ? lo : hi) = mid;
  }
  const double t = lo + (hi - lo) / 2;
  std::array<double, 3> p{};
  for (std::size_t i = 0; i < 3; ++i) p[i] = f[i] / (1 + t * (kScores[i] - s));
  return p;
}

}  // namespace

SprtResult sprt(const SprtConfig& config, int wins, int losses, int draws) {
  SprtResult r;
  r.lower = std::log(config.beta / (1 - config.alpha));
  r.upper = std::log((1 - config.beta) / config.alpha);
  if (wins < 0 || losses < 0 || draws < 0 || wins + losses + draws <= 0) return r;
  const std::array<double, 3> counts = {static_cast<double>(losses), static_cast<double>(draws),
                                        static_cast<double>(wins)};
  const auto p0 = most_likely(counts, expected_score(config.elo0));
  const auto p1 = most_likely(counts, expected_score(config.elo1));
  for (std::size_t i = 0; i < 3; ++i)
    if (counts[i] > 0) r.llr += counts[i] * std::log(p1[i] / p0[i]);
  if (r.llr >= r.upper)
    r.verdict = SprtVerdict::kAcceptH1;
  else if (r.llr <= r.lower)
    r.verdict = SprtVerdict::kAcceptH0;
  return r;
}

std::string to_string(SprtVerdict verdict) {
  switch (verdict) {
    case SprtVerdict::kAcceptH1:
      return "H1 accepted (challenger stronger by elo1)";
    case SprtVerdict::kAcceptH0:
      return "H0 accepted (not stronger by elo1)";
    case SprtVerdict::kContinue:
      break;
  }
  return "continue (no decision yet)";
}

}  // namespace arena::tournament
