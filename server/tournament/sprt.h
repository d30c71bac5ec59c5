#pragma once
// SPRT of a challenger against a baseline: H0 "the Elo difference is elo0" against H1 "it is
// elo1", stopped at error rates alpha (accepting H1 when H0 holds) and beta.
//
// Model (the generalized SPRT of Van den Bergh, used by fishtest and cutechess-cli for the
// trinomial case): each game's score x in {0, 1/2, 1}; under logistic Elo the expected score is
// s(elo) = 1 / (1 + 10^(-elo/400)). With the observed mean m and per-game variance v over N
// games, the log-likelihood ratio is approximately
//   LLR = N (s1 - s0) (2m - s0 - s1) / (2v).
// Bounds (Wald): lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha).
// LLR >= upper accepts H1, LLR <= lower accepts H0, else continue. v = 0 (all games the same
// result) uses a tiny variance floor so that one-sided evidence still moves the test.

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
