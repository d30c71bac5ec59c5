#include "bots/lab/texel.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace arena::lab {

double win_probability(double s, double k) { return 1.0 / (1.0 + std::pow(10.0, -k * s / 400.0)); }

double texel_error(const std::vector<int>& scores, const std::vector<double>& targets, double k,
                   std::size_t holdout, bool valid) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const bool is_valid = holdout > 0 && i % holdout == 0;
    if (is_valid != valid) continue;
    const double d = win_probability(scores[i], k) - targets[i];
    sum += d * d;
    ++n;
  }
  return n > 0 ? sum / static_cast<double>(n) : 0.0;
}

double fit_texel_scale(const std::vector<int>& scores, const std::vector<double>& targets,
                       std::size_t holdout) {
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double lo = 0.05, hi = 5.0;
  auto error = [&](double k) { return texel_error(scores, targets, k, holdout, false); };
  double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
  double fa = error(a), fb = error(b);
  for (int i = 0; i < 60; ++i) {
    if (fa < fb) {
      hi = b, b = a, fb = fa;
      a = hi - phi * (hi - lo), fa = error(a);
    } else {
      lo = a, a = b, fa = fb;
      b = lo + phi * (hi - lo), fb = error(b);
    }
  }
  return (lo + hi) / 2;
}

namespace {

double first_step(double w) {
  const double a = std::abs(w);
  if (a >= 5) return a / 10;
  if (a > 0) return a / 4;
  return 1;
}

}  // namespace

Expected<TexelResult> texel_tune(std::vector<double> weights, const std::vector<double>& targets,
                                 const SampleScorer& scorer, const TexelOptions& options,
                                 const std::function<void(const TexelPass&)>& on_pass) {
  if (weights.empty()) return make_error("no weights to fit");
  if (targets.size() < 2 * std::max<std::size_t>(options.holdout, 1))
    return make_error("only " + std::to_string(targets.size()) + " positions: too few to fit");
  std::vector<int> scores(targets.size());
  TexelResult r;
  if (auto ok = scorer(weights, scores); !ok) return make_error(ok.error());
  r.k = fit_texel_scale(scores, targets, options.holdout);
  for (std::size_t i = 0; i < targets.size(); ++i)
    ++(options.holdout > 0 && i % options.holdout == 0 ? r.valid_positions : r.train_positions);
  r.train_error_start = texel_error(scores, targets, r.k, options.holdout, false);
  r.valid_error_start = texel_error(scores, targets, r.k, options.holdout, true);
  auto error_of = [&](const std::vector<double>& w) -> Expected<double> {
    if (auto ok = scorer(w, scores); !ok) return make_error(ok.error());
    return texel_error(scores, targets, r.k, options.holdout, false);
  };

  std::vector<double> step(weights.size()), min_step(weights.size());
  for (std::size_t i = 0; i < weights.size(); ++i) {
    step[i] = first_step(weights[i]);
    min_step[i] = step[i] * options.min_step_fraction;
  }
  double best = r.train_error_start;
  for (int pass = 1; pass <= options.max_passes; ++pass) {
    int moved = 0;
    bool halved = false;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      bool improved = false;
      for (const double direction : {+1.0, -1.0}) {
        // Keep going while it helps (at most 8 steps a pass in one direction).
        for (int n = 0; n < 8; ++n) {
          std::vector<double> trial = weights;
          trial[i] += direction * step[i];
          auto e = error_of(trial);
          if (!e) return make_error(e.error());
          if (*e >= best) break;
          best = *e;
          weights = std::move(trial);
          improved = true;
        }
        if (improved) break;
      }
      if (improved) {
        ++moved;
      } else if (step[i] / 2 >= min_step[i]) {
        step[i] /= 2;
        halved = true;
      }
    }
    r.passes = pass;
    TexelPass p;
    p.pass = pass;
    p.moved = moved;
    p.train_error = best;
    if (auto ok = scorer(weights, scores); !ok) return make_error(ok.error());
    p.valid_error = texel_error(scores, targets, r.k, options.holdout, true);
    if (on_pass) on_pass(p);
    if (moved == 0 && !halved) break;
  }
  if (auto ok = scorer(weights, scores); !ok) return make_error(ok.error());
  r.weights = std::move(weights);
  r.train_error = texel_error(scores, targets, r.k, options.holdout, false);
  r.valid_error = texel_error(scores, targets, r.k, options.holdout, true);
  return r;
}

}  // namespace arena::lab
