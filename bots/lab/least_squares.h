#pragma once
// Linear least squares for the learning lab: find w minimising |X w - y|^2.
//
// Solved by Householder QR of X (not the normal equations X^T X w = X^T y, whose condition
// number is the square of X's): X = Q R, then R w = Q^T y by back substitution. A column whose
// diagonal of R is below `rank_tolerance` times the largest one (a feature that never varies,
// or one that is a combination of the others) is dropped and its weight reported as 0, so a
// degenerate batch still gives an answer instead of a division by zero.
//
// Errors (as values): no rows, rows of different lengths, fewer rows than columns,
// y of another length than X, non-finite inputs.

#include <cstddef>
#include <vector>

#include "games/core/expected.h"

namespace arena::lab {

struct LeastSquaresFit {
  std::vector<double> weights;      // one per column; 0 for a dropped column
  std::vector<bool> dropped;        // true where a column was (near-)dependent
  double residual_sum_squares = 0;  // |X w - y|^2 at the solution
};

// rows: the design matrix X, one row per observation; y: the targets.
Expected<LeastSquaresFit> least_squares(const std::vector<std::vector<double>>& rows,
                                        const std::vector<double>& y,
                                        double rank_tolerance = 1e-10);

}  // namespace arena::lab
