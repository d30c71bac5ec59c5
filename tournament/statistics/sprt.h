#pragma once
// SPRT of a challenger against a baseline: H0 "the Elo difference is elo0" against H1 "it is
// elo1", stopped at error rates alpha (accepting H1 when H0 holds) and beta.
//
// The generalized SPRT of Van den Bergh (fishtest's), for the trinomial case: each game's
// score x is 0, 1/2 or 1; under logistic Elo the expected score is
// s(elo) = 1 / (1 + 10^(-elo/400)). Each hypothesis is the distribution over {0, 1/2, 1} of
// mean s(elo) that is most likely given the counts (maximum likelihood under that one
// constraint), and
//   LLR = sum over results of count * ln(p1(result) / p0(result)).
// Bounds (Wald): lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha).
// LLR >= upper accepts H1, LLR <= lower accepts H0, else continue.
//
// When the results seen so far all lie on one side of s (every game won, say), no distribution
// over them alone has mean s: the results not seen then get a pseudo-count of 1/1000 each, so
// that the most likely distribution puts the rest of the mass there. Three wins in three games
// give an LLR of about 3 ln(s1 / s0), 0.04 for elo1 = 5, not a decision. (The normal
// approximation N (s1 - s0) (2m - s0 - s1) / (2 var) used before had no variance to divide by
// there, and a floor of 1e-3 accepted H1 after a single win.)
#include <string>

namespace arena::tournament {

struct SprtConfig {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
};

enum class SprtVerdict { kContinue, kAcceptH1, kAcceptH0 };

struct SprtResult {
  double llr = 0, lower = 0, upper = 0;
  SprtVerdict verdict = SprtVerdict::kContinue;
};

// wins, losses, draws: the challenger's games against the baseline.
SprtResult sprt(const SprtConfig& config, int wins, int losses, int draws);

std::string to_string(SprtVerdict verdict);

}  // namespace arena::tournament
