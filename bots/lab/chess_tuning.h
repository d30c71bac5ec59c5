#pragma once
// Fitting chess's "tapered" evaluation (bots/eval/chess_tapered.h) to scored positions with
// the logistic regression of texel.h: what `arena tune` reads (the data files, the start
// weights, the weights held fixed), the scorer it fits with, and the weights file it writes
// (one that `eval=tapered,weights=FILE` reads).
//
// Data lines are "FEN;score": the score in centipawns from the side to move's point of view
// (scripts/tune-data writes Stockfish's) or, when the files hold results, the game's result
// for the side to move (1, 0.5 or 0). A position given twice (the FEN's first four fields:
// board, side, castling, en passant) is fitted once. '#' lines and blank lines are skipped.

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "bots/eval/weights_file.h"
#include "bots/lab/texel.h"
#include "games/chess/chess.h"
#include "games/core/expected.h"
#include "games/core/types.h"

namespace arena::lab {

struct ScoredPositions {
  std::vector<chess::Chess> positions;
  std::vector<double> targets;  // the side to move's probability of winning
  std::set<std::string> seen;   // the positions' keys (FEN's first four fields)
};

// Appends the positions of the file at `path` that `into` does not have yet, at most
// `max_positions` read from this file (0: all). `results`: the numbers are game results, not
// centipawns. Errors name the file and line: no ';', a score that is not a number, a result
// other than 1, 0.5 or 0, a bad FEN.
Expected<void> read_scored_positions(const std::string& path, bool results,
                                     std::size_t max_positions, ScoredPositions& into);

// "name=value" items (arena tune --set): the weights held at these values and not fitted.
// Error: an item with no name or no '='.
Expected<GameOptions> parse_fixed_weights(const std::vector<std::string>& items);

// The weights fitted: the start file's, in its order, less those held fixed.
struct FitStart {
  std::vector<std::string> names;
  std::vector<double> weights;
};
FitStart fit_start(const std::vector<eval::WeightLine>& start, const GameOptions& fixed);

// Scores every position with the tapered evaluation under the weights named by `names` (the
// `fixed` ones beside them), on two threads. `names` and `samples` must outlive the scorer.
// Error: a weight the evaluation does not know or refuses.
SampleScorer tapered_scorer(const std::vector<std::string>& names, const GameOptions& fixed,
                            const ScoredPositions& samples);

// The weights file of a fit: a comment naming `source` and the fit's validation error, the
// fixed weights, then the fitted ones (4 significant digits).
std::string fitted_weights_text(const std::vector<std::string>& names, const TexelResult& fit,
                                const GameOptions& fixed, const std::string& source);

}  // namespace arena::lab
