#include "bots/lab/least_squares.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace arena::lab {
namespace {

Expected<void> check_input(const std::vector<std::vector<double>>& rows,
                           const std::vector<double>& y) {
  if (rows.empty()) return make_error("least squares: no observations");
  const std::size_t n = rows.front().size();
  if (n == 0) return make_error("least squares: no features");
  if (y.size() != rows.size())
    return make_error("least squares: " + std::to_string(rows.size()) + " rows but " +
                      std::to_string(y.size()) + " targets");
  if (rows.size() < n)
    return make_error("least squares: " + std::to_string(rows.size()) + " observations for " +
                      std::to_string(n) + " features");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].size() != n)
      return make_error("least squares: row " + std::to_string(i) + " has " +
                        std::to_string(rows[i].size()) + " values, expected " + std::to_string(n));
    if (!std::isfinite(y[i]))
      return make_error("least squares: target " + std::to_string(i) + " is not finite");
    for (double v : rows[i])
      if (!std::isfinite(v))
        return make_error("least squares: row " + std::to_string(i) + " is not finite");
  }
  return {};
}

}  // namespace

Expected<LeastSquaresFit> least_squares(const std::vector<std::vector<double>>& rows,
                                        const std::vector<double>& y, double rank_tolerance) {
  if (auto ok = check_input(rows, y); !ok) return make_error(ok.error());
  const std::size_t m = rows.size();
  const std::size_t n = rows.front().size();
  // Column-major copy: the Householder steps work on columns.
  std::vector<std::vector<double>> a(n, std::vector<double>(m));
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) a[j][i] = rows[i][j];
  std::vector<double> b = y;
  std::vector<double> diag(n, 0.0);

  // Step 1. Householder reflections H_k = I - 2 v v^T / (v^T v) zero column k below row k;
  // each is applied to the later columns and to b, so b ends as Q^T y.
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<double>& col = a[k];
    double norm = 0;
    for (std::size_t i = k; i < m; ++i) norm += col[i] * col[i];
    norm = std::sqrt(norm);
    if (norm == 0) continue;  // an all-zero column: R_kk = 0, dropped below
    // The sign choice avoids cancellation in v_k = x_k - alpha.
    const double alpha = col[k] > 0 ? -norm : norm;
    std::vector<double> v(col.begin() + static_cast<std::ptrdiff_t>(k), col.end());
    v[0] -= alpha;
    double vv = 0;
    for (double x : v) vv += x * x;
    if (vv == 0) continue;
    auto reflect = [&](std::vector<double>& target) {
      double dot = 0;
      for (std::size_t i = k; i < m; ++i) dot += v[i - k] * target[i];
      const double f = 2 * dot / vv;
      for (std::size_t i = k; i < m; ++i) target[i] -= f * v[i - k];
    };
    for (std::size_t j = k; j < n; ++j) reflect(a[j]);
    reflect(b);
  }

  // Step 2. Back substitution on R w = (Q^T y)[0..n), skipping near-dependent columns.
  double largest = 0;
  for (std::size_t k = 0; k < n; ++k) largest = std::max(largest, std::abs(a[k][k]));
  LeastSquaresFit fit;
  fit.weights.assign(n, 0.0);
  fit.dropped.assign(n, false);
  for (std::size_t kk = n; kk-- > 0;) {
    if (largest == 0 || std::abs(a[kk][kk]) <= rank_tolerance * largest) {
      fit.dropped[kk] = true;
      continue;
    }
    double s = b[kk];
    for (std::size_t j = kk + 1; j < n; ++j) s -= a[j][kk] * fit.weights[j];
    fit.weights[kk] = s / a[kk][kk];
  }

  // Step 3. The residual, computed directly so it is right even with dropped columns.
  for (std::size_t i = 0; i < m; ++i) {
    double r = -y[i];
    for (std::size_t j = 0; j < n; ++j) r += rows[i][j] * fit.weights[j];
    fit.residual_sum_squares += r * r;
  }
  return fit;
}

}  // namespace arena::lab
