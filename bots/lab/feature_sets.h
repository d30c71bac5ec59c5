#pragma once
// The feature sets of the games the lab learns weights for (see feature_set.h).
//
//   chess      q r b n p: material count differences (bots/eval/chess.h), start 9 5 3 3 1;
//              a win = 1 + one side's initial material 39 = 40 pawns (start counts
//              1 2 2 2 8, for --fixed-scale). The file is read by
//              the chess `material` heuristic: eval=material,weights=FILE.
//   checkers   man king: count differences (bots/eval/checkers.h), start 1 1.5 (men);
//              a win = 1 + 12 men = 13 (start counts 12 0). Use with
//              eval=material,man=100*w,king=100*w.
//   qubic      own1 own2 own3 opp1 opp2 opp3 (bots/eval/qubic.h), start all 1 (deliberately
//              wrong signs for the opponent's lines, to show that learning fixes them);
//              a win = 1 + 76 lines = 77. Read by eval=linear,weights=FILE.
//   isolation  open_move improved center custom custom_2 custom_3: the named scores'
//              values (bots/eval/isolation.h), start 0 1 0 0 0 0 (improved_score);
//              a win = 1 + 8 + 8 = 17 (the largest move-count difference, plus one).
//   othello    material mobility corners (bots/eval/othello.h), start 1 10 100 as the
//              `combined` heuristic; a win = 1 + 64 discs = 65.

#include <string_view>
#include <type_traits>

#include "bots/lab/feature_set.h"
#include "games/checkers/checkers.h"
#include "games/chess/chess.h"
#include "games/isolation/isolation.h"
#include "games/othello/othello.h"
#include "games/tictactoe/qubic.h"

namespace arena::lab {

FeatureSet<chess::Chess> feature_set(std::type_identity<chess::Chess>);
FeatureSet<checkers::Checkers> feature_set(std::type_identity<checkers::Checkers>);
FeatureSet<tictactoe::Qubic> feature_set(std::type_identity<tictactoe::Qubic>);
FeatureSet<isolation::Isolation> feature_set(std::type_identity<isolation::Isolation>);
FeatureSet<othello::Othello> feature_set(std::type_identity<othello::Othello>);

template <class G>
concept HasFeatureSet = requires {
  { feature_set(std::type_identity<G>{}) } -> std::same_as<FeatureSet<G>>;
};

}  // namespace arena::lab
