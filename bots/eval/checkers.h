#pragma once
// English checkers heuristics, each from the side to move's point of view.
//
//   material         man * (own men - opponent's men) + king * (own kings - opponent's kings),
//                    params man= (default 100) and king= (default 150)
//   advancement      rows each own man has advanced from its back row (0..6), summed, minus
//                    the same for the opponent's men
//   back_rank_guard  own men still on their own back row (Black 1-4, White 29-32) minus the
//                    opponent's: they keep the other side from crowning
//   combined         material + advancement * a + back_rank_guard * b, params man=, king=,
//                    advancement= (default 5), back_rank_guard= (default 10); rounded to int
// Unknown parameter keys are an error naming them.

#include <array>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bots/eval/heuristic.h"
#include "games/checkers/checkers.h"

namespace arena::eval {

struct CheckersWeights {
  double man = 100, king = 150, advancement = 5, back_rank_guard = 10;
};

int checkers_material(const checkers::Checkers& game, const CheckersWeights& weights);
int checkers_advancement(const checkers::Checkers& game);
int checkers_back_rank_guard(const checkers::Checkers& game);
int checkers_combined(const checkers::Checkers& game, const CheckersWeights& weights);

// {men difference, kings difference}, side to move minus opponent, for learning weights.
std::array<double, 2> checkers_features(const checkers::Checkers& game);

std::vector<HeuristicInfo> heuristics_for(std::type_identity<checkers::Checkers>);
Expected<Heuristic<checkers::Checkers>> make_heuristic(std::type_identity<checkers::Checkers>,
                                                       std::string_view name,
                                                       const GameOptions& params);

}  // namespace arena::eval
