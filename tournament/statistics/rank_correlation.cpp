#include "tournament/statistics/rank_correlation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace arena::tournament {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
  const double n = static_cast<double>(a.size());
  const double ma = std::accumulate(a.begin(), a.end(), 0.0) / n;
  const double mb = std::accumulate(b.begin(), b.end(), 0.0) / n;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : kNaN;
}

}  // namespace

std::vector<double> average_ranks(const std::vector<double>& v) {
  std::vector<std::size_t> order(v.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> ranks(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    const double mean = (static_cast<double>(i + j) / 2.0) + 1.0;  // ranks i+1 .. j+1
    for (std::size_t k = i; k <= j; ++k) ranks[order[k]] = mean;
    i = j + 1;
  }
  return ranks;
}

RankCorrelation spearman(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<double> a, b;
  for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
    a.push_back(x[i]);
    b.push_back(y[i]);
  }
  RankCorrelation out{static_cast<int>(a.size()), kNaN, kNaN, kNaN};
  if (out.n < 2) return out;
  out.rho = pearson(average_ranks(a), average_ranks(b));
  if (out.n < 4 || std::isnan(out.rho)) return out;
  const double r = std::clamp(out.rho, -0.999999, 0.999999);
  const double z = std::atanh(r);
  const double se = std::sqrt(1.06 / (out.n - 3));
  out.low = std::tanh(z - 1.96 * se);
  out.high = std::tanh(z + 1.96 * se);
  return out;
}

}  // namespace arena::tournament
