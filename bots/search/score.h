#pragma once
// The one score scheme every search uses. Scores are ints from the side to move's point of
// view. A won position found by search scores kScoreWin - ply (ply = distance from the
// root), a lost one -(kScoreWin - ply), a draw 0; so a quicker win scores higher and a
// slower loss scores higher. Heuristic values stay inside +/- kScoreHeuristicMax
// (bots/eval/heuristic.h), far from any win score.

#include "bots/eval/heuristic.h"
#include "games/core/types.h"

namespace arena::search {

using eval::kScoreHeuristicMax;
using eval::kScoreInfinite;
using eval::kScoreWin;

// Deepest ply any search reaches; also bounds the win-score band.
inline constexpr int kMaxPly = 256;

constexpr int win_in(int ply) {
  return kScoreWin - ply;
}
constexpr int loss_in(int ply) {
  return -(kScoreWin - ply);
}

// True for a score that means a forced win or loss (not a heuristic value).
constexpr bool is_win_score(int score) {
  return score >= kScoreWin - kMaxPly || score <= -(kScoreWin - kMaxPly);
}

// The score of a finished game for the player to move, `ply` plies from the root.
constexpr int terminal_score(Outcome outcome, Player to_move, int ply) {
  if (outcome.result == Result::kDraw) return 0;
  const bool first_wins = outcome.result == Result::kFirstWins;
  const bool mover_wins = first_wins == (to_move == Player::kFirst);
  return mover_wins ? win_in(ply) : loss_in(ply);
}

// A win score is stored in the transposition table relative to the node, not the root, so
// that it stays right when the same position is reached at another ply.
constexpr int score_to_tt(int score, int ply) {
  if (score >= kScoreWin - kMaxPly) return score + ply;
  if (score <= -(kScoreWin - kMaxPly)) return score - ply;
  return score;
}
constexpr int score_from_tt(int score, int ply) {
  if (score >= kScoreWin - kMaxPly) return score - ply;
  if (score <= -(kScoreWin - kMaxPly)) return score + ply;
  return score;
}

// Plies to the end for a win score (positive for a win, negative for a loss), 0 otherwise.
constexpr int plies_to_end(int score) {
  if (score >= kScoreWin - kMaxPly) return kScoreWin - score;
  if (score <= -(kScoreWin - kMaxPly)) return -(kScoreWin + score);
  return 0;
}

}  // namespace arena::search
