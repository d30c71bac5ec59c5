#pragma once
// Spearman's rank correlation of two paired samples, with a 95% interval by Fisher's z
// transform: z = atanh(rho), its standard error sqrt(1.06 / (n - 3)) (Fieller, Hartley and
// Pearson 1957, the variance of atanh of Spearman's rho under a bivariate normal), the interval
// tanh(z -+ 1.96 se). Tied values get the mean of the ranks they share (rho is then the Pearson
// correlation of the ranks). Pure functions: `arena study` (league/study.h) correlates a
// heuristic's outcome determination with its player's score across GDL sheets.

#include <vector>

namespace arena::tournament {

struct RankCorrelation {
  int n = 0;          // pairs used (both values finite)
  double rho = 0;     // NaN when n < 2 or either sample is constant
  double low = 0;     // 95% interval; NaN when n < 4 or rho is NaN
  double high = 0;
};

// The ranks of `v` (1-based, ties averaged).
std::vector<double> average_ranks(const std::vector<double>& v);

// Pairs with a non-finite value on either side are left out (a sheet without the measure).
RankCorrelation spearman(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace arena::tournament
