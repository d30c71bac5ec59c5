#pragma once
// The fuzzy logic of the goal heuristics (after Schiffel and Thielscher's Fluxplayer), shared by
// the hand-written tic-tac-toe version (bots/eval/tictactoe.h) and the one derived from any GDL
// game's rules (bots/eval/gdl_fuzzy.h):
//   T(a, b)   the t-norm: the product, or Yager's max(0, 1 - ((1-a)^q + (1-b)^q)^(1/q)) when
//             q > 0; with a threshold theta > 0, a conjunction of two true-ish operands (both
//             > 0.5) is at least theta: T'(a, b) = max(T(a, b), theta)      fuzzy_and
//   S(a, b)   the co-norm of T': 1 - T'(1-a, 1-b)                           fuzzy_or
//   S*(a, b)  the co-norm of T without the threshold: the probabilistic sum a + b - ab, or
//             Yager's min(1, (a^q + b^q)^(1/q)) when q > 0                  fuzzy_combine

#include <algorithm>
#include <cmath>

namespace arena::eval {

struct FuzzyParams {
  double tau = 0.9;    // degree of an atom that holds; one that does not is 1 - tau; (0.5, 1]
  double theta = 0.0;  // threshold of conjunctions of true-ish values; 0 = none; [0, 1]
  double q = 0.0;      // Yager's parameter; 0 = the product t-norm and probabilistic sum; >= 0
};

inline double fuzzy_and(double a, double b, const FuzzyParams& p) {
  double t = a * b;
  if (p.q > 0)
    t = std::max(0.0, 1.0 - std::pow(std::pow(1 - a, p.q) + std::pow(1 - b, p.q), 1.0 / p.q));
  if (p.theta > 0 && std::min(a, b) > 0.5) t = std::max(t, p.theta);
  return t;
}

inline double fuzzy_or(double a, double b, const FuzzyParams& p) {
  return 1.0 - fuzzy_and(1.0 - a, 1.0 - b, p);
}

inline double fuzzy_combine(double a, double b, const FuzzyParams& p) {
  if (p.q > 0) return std::min(1.0, std::pow(std::pow(a, p.q) + std::pow(b, p.q), 1.0 / p.q));
  return a + b - a * b;
}

}  // namespace arena::eval
