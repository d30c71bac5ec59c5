#include "server/tournament/sprt.h"

#include <algorithm>
#include <cmath>

namespace arena::tournament {
namespace {

double expected_score(double elo) {
  return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

}  // namespace

SprtResult sprt(const SprtConfig& config, int wins, int losses, int draws) {
  SprtResult r;
  r.lower = std::log(config.beta / (1 - config.alpha));
  r.upper = std::log((1 - config.beta) / config.alpha);
  const double n = wins + losses + draws;
  if (n <= 0) return r;
  const double mean = (wins + 0.5 * draws) / n;
  const double second_moment = (wins + 0.25 * draws) / n;
  const double variance = std::max(second_moment - mean * mean, 1e-3);
  const double s0 = expected_score(config.elo0);
  const double s1 = expected_score(config.elo1);
  r.llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance);
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
