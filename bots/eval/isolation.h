#pragma once
// Isolation heuristics, named as in the well-known AI course ("AB_Custom_2 on 7x7").
//
// Sign convention: "the player" of the course's definitions is the side to move here, and
// "the opponent" is the other player; every value is good for the side to move when positive.
// A terminal position (the side to move has no legal move, so it has lost) scores -kScoreWin
// (the double versions: -infinity). The opponent being stuck is not terminal while it is our
// turn, so it gets no special value (the course's is_winner only fires on the opponent's turn).
//
//   open_move_score  own legal moves
//   center_score     squared distance of own piece from the board centre (the course rewards
//                    being far from the centre); the true centre ((w-1)/2, (h-1)/2) is used,
//                    so it is exact on odd boards; 0 before the piece is placed
//   improved_score   own moves - opponent moves
//   custom_score     own moves * weight(own square)
//   custom_score_2   own moves * weight(own) - opponent moves * weight(opponent)
//   custom_score_3   sum of weight(t) over own move targets t - the same for the opponent
// with the directional weight weight(x, y) = wx * wy, wx = 1 - |x - cx| / ((w-1)/2) * 0.5:
// 1.0 at the centre, 0.5 at the middle of an edge, 0.25 in a corner. A piece not yet placed
// counts weight 1.0 for its own square, and its move targets are every empty square.
//
// The real-valued ones have a double version for exact tests; the int heuristics used by the
// searches are those values times kIsolationScale (1000), rounded. None takes parameters.

#include <string_view>
#include <type_traits>
#include <vector>

#include "bots/eval/heuristic.h"
#include "games/isolation/isolation.h"

namespace arena::eval {

inline constexpr double kIsolationScale = 1000.0;

// weight(x, y) of `square` on a size x size board (size 5..9, square < size * size).
double directional_weight(int square, int size);

int open_move_score(const isolation::Isolation& g);
double center_score_value(const isolation::Isolation& g);
int center_score(const isolation::Isolation& g);
int improved_score(const isolation::Isolation& g);
double custom_score_value(const isolation::Isolation& g);
double custom_score_2_value(const isolation::Isolation& g);
double custom_score_3_value(const isolation::Isolation& g);
int custom_score(const isolation::Isolation& g);
int custom_score_2(const isolation::Isolation& g);
int custom_score_3(const isolation::Isolation& g);

std::vector<HeuristicInfo> heuristics_for(std::type_identity<isolation::Isolation>);
Expected<Heuristic<isolation::Isolation>> make_heuristic(std::type_identity<isolation::Isolation>,
                                                         std::string_view name,
                                                         const GameOptions& params);

}  // namespace arena::eval
