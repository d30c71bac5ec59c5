#include "bots/lab/measures.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace arena::lab {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Accumulator {
  int n = 0;
  int sign_n = 0, sign_agree = 0;
  double sh = 0, sv = 0, shh = 0, svv = 0, shv = 0;

  void add(double h, double v) {
    ++n;
    sh += h;
    sv += v;
    shh += h * h;
    svv += v * v;
    shv += h * v;
    if (v != 0 && h != 0) {
      ++sign_n;
      sign_agree += (h > 0) == (v > 0);
    }
  }
  OutcomeBucket bucket(std::string label, int min_plies, int max_plies) const {
    OutcomeBucket b;
    b.label = std::move(label);
    b.min_plies = min_plies;
    b.max_plies = max_plies;
    b.positions = n;
    b.sign_agreement = sign_n > 0 ? static_cast<double>(sign_agree) / sign_n : kNaN;
    const double cov = shv - sh * sv / n;
    const double var_h = shh - sh * sh / n;
    const double var_v = svv - sv * sv / n;
    // Relative thresholds: sums of squares of constants leave rounding noise, not zero.
    const bool constant_h = var_h <= 1e-12 * std::max(1.0, shh);
    const bool constant_v = var_v <= 1e-12 * std::max(1.0, svv);
    b.correlation = n > 1 && !constant_h && !constant_v ? cov / std::sqrt(var_h * var_v) : kNaN;
    return b;
  }
};

constexpr std::array<int, 5> kBucketStarts = {1, 5, 10, 20, 40};

int bucket_of(int plies_left) {
  int b = 0;
  for (std::size_t i = 0; i < kBucketStarts.size(); ++i)
    if (plies_left >= kBucketStarts[i]) b = static_cast<int>(i);
  return b;
}

std::string bucket_label(std::size_t i) {
  if (i + 1 == kBucketStarts.size()) return std::to_string(kBucketStarts[i]) + "+";
  return std::to_string(kBucketStarts[i]) + "-" + std::to_string(kBucketStarts[i + 1] - 1);
}

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return kNaN;
  const std::size_t i = static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(i, sorted.size() - 1)];
}

}  // namespace

std::vector<OutcomeBucket> outcome_determination(const std::vector<Trajectory>& trajectories) {
  std::array<Accumulator, kBucketStarts.size()> buckets{};
  Accumulator all;
  for (const Trajectory& t : trajectories) {
    for (std::size_t i = 0; i < t.h.size(); ++i) {
      if (t.plies_left[i] < 1) continue;  // the end itself is not a prediction
      buckets[static_cast<std::size_t>(bucket_of(t.plies_left[i]))].add(t.h[i], t.v[i]);
      all.add(t.h[i], t.v[i]);
    }
  }
  std::vector<OutcomeBucket> out;
  for (std::size_t i = 0; i < buckets.size(); ++i)
    if (buckets[i].n > 0)
      out.push_back(buckets[i].bucket(
          bucket_label(i), kBucketStarts[i],
          i + 1 < kBucketStarts.size() ? kBucketStarts[i + 1] - 1 : -1));
  if (all.n > 0) out.push_back(all.bucket("all", 1, -1));
  return out;
}

InvarianceStats move_invariance(const std::vector<Trajectory>& trajectories) {
  InvarianceStats s;
  std::vector<double> deltas;
  double sum = 0, sum_sq = 0;
  int n = 0;
  for (const Trajectory& t : trajectories) {
    for (std::size_t i = 0; i < t.h.size(); ++i) {
      sum += t.h[i];
      sum_sq += t.h[i] * t.h[i];
      ++n;
      if (i > 0) deltas.push_back(std::abs(t.h[i] - t.h[i - 1]));
    }
  }
  s.moves = static_cast<int>(deltas.size());
  if (deltas.empty()) return s;
  const double mean_h = sum / n;
  s.spread = std::sqrt(std::max(0.0, sum_sq / n - mean_h * mean_h));
  std::sort(deltas.begin(), deltas.end());
  double total = 0;
  int zero = 0;
  for (double d : deltas) {
    total += d;
    zero += d == 0;
  }
  s.mean = total / static_cast<double>(deltas.size());
  s.median = quantile(deltas, 0.5);
  s.p90 = quantile(deltas, 0.9);
  s.max = deltas.back();
  s.unchanged = static_cast<double>(zero) / static_cast<double>(deltas.size());
  const double k = s.spread > 0 ? 1.0 / s.spread : kNaN;
  s.mean_norm = s.mean * k;
  s.median_norm = s.median * k;
  s.p90_norm = s.p90 * k;
  s.max_norm = s.max * k;
  return s;
}

}  // namespace arena::lab
