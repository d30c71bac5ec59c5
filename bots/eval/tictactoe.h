#pragma once
// Tic-tac-toe heuristics.
//
// The tutorial heuristics judge a move by the position after it, for the player who made it
// ("the mover" = opponent of the side to move). The plain functions take that player
// explicitly; the search heuristics (side to move's point of view, like every heuristic here)
// return minus the mover's value, so that a one-ply negamax picks the move with the highest
// tutorial value. A finished game scores -kScoreWin / 0 / +kScoreWin for the side to move
// (except bad_heuristic, which is always 1).
//
//   bad_heuristic   1, always: a baseline that knows nothing
//   available_wins  lines holding at least one of p's marks and none of the opponent's
//                   (4 for X in the centre of the empty board; 3 for X on a2 after X b2,
//                   O a3: rows 2, column b and the a1-c3 diagonal)
//   block_win       lines holding two of the opponent's marks and one of p's: threats p has
//                   blocked
//   combined        w_available * available_wins + w_block * block_win (params w_available,
//                   default 1, and w_block, default 2: a block is worth more than a chance)
//   fuzzy_goal      the fuzzy-logic evaluation of the game's goal formulas (below), x1000,
//                   side to move's value minus the opponent's
//
// Fuzzy goal heuristic (after Schiffel and Thielscher's Fluxplayer): an atom "cell is p" is
// tau (0.9) when true and 1 - tau when false; AND is the t-norm T', OR its co-norm S and
// NOT a = 1 - a (bots/eval/fuzzy_logic.h: the product or Yager's, with the threshold theta).
//   line(p)        = OR over the 8 lines of (AND of "cell is p" over the line's 3 cells)
//   goal(p, 100)   = line(p) AND NOT line(opp)
//   goal(p, 50)    = NOT line(p) AND NOT line(opp)
//   value(p)       = 100 * [g100 + 0.5 g50 - 0.5 g100 g50]
// For "x......ox": line(x) = 0.116296, line(o) = 0.023797, goal(x,100) = 0.113529,
// goal(x,50) = 0.862674, value(x) = 49.589684. Params: tau, theta, q.

#include <string_view>
#include <type_traits>
#include <vector>

#include "bots/eval/fuzzy_logic.h"
#include "bots/eval/heuristic.h"
#include "games/tictactoe/tictactoe.h"

namespace arena::eval {

int available_wins(const tictactoe::TicTacToe& g, Player p);
int block_win(const tictactoe::TicTacToe& g, Player p);

double fuzzy_line(const tictactoe::TicTacToe& g, Player p, const FuzzyParams& f);
double fuzzy_goal_win(const tictactoe::TicTacToe& g, Player p, const FuzzyParams& f);
double fuzzy_goal_draw(const tictactoe::TicTacToe& g, Player p, const FuzzyParams& f);
// 100 * [g100 + 0.5 g50 - 0.5 g100 g50], in 0..100.
double fuzzy_goal_value(const tictactoe::TicTacToe& g, Player p, const FuzzyParams& f);

std::vector<HeuristicInfo> heuristics_for(std::type_identity<tictactoe::TicTacToe>);
Expected<Heuristic<tictactoe::TicTacToe>> make_heuristic(std::type_identity<tictactoe::TicTacToe>,
                                                         std::string_view name,
                                                         const GameOptions& params);

}  // namespace arena::eval
