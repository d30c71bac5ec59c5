#pragma once
// A board for GDL games on the page. A GDL state is a set of facts ("(cell 1 2 x)
// (control oplayer)"); when one relation of arity >= 3 has facts whose first two arguments
// range over small sets, those are a grid's rows and columns and the other arguments are a
// cell's content. The server finds the grid once, when a game starts (game_start.board), so
// the page draws a stable board; games without one get a list of the state's facts.
//
// Which cells exist: the facts of the state at hand and of states reached by a few random
// turns from it (a sheet's `base` is often absent or partial, and many states name only the
// occupied cells, e.g. connect four's). Integer coordinates are filled in between the
// smallest and the largest seen, so a cell no playout reached is still drawn. A state that
// names every cell of its grid is taken as it is, without random turns (on a large sheet's
// prover one turn can take a second, which the game's start would wait for).
//
// Thread-safe: pure functions; detect_board_layout plays on a clone of the game.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "games/core/any_game.h"
#include "protocol/messages.h"

namespace arena::server {

// Bounds: a side longer than this is no board; a fact deeper or longer than these is skipped.
inline constexpr std::size_t kMaxBoardSide = 32;
inline constexpr int kMaxFactDepth = 32;
inline constexpr std::size_t kMaxPositionBytes = 1 << 20;

// The top-level KIF terms of `text` ("(cell 1 1 b) (control x)" -> both terms, each with
// single spaces); one outer list of lists is unwrapped ("((cell 1 1 b) ...)"). Empty when the
// text is not KIF (unbalanced parentheses, too deep or too long).
std::vector<std::string> kif_facts(std::string_view text);

// The grid the facts describe, if any: the relation with the most distinct (row, column)
// pairs among those whose sides have 2 to kMaxBoardSide values and that name at least a
// quarter of their rows x columns. Rows and columns in order: numerically when all integers
// (with the gaps filled), else as text. Rows are the first argument, columns the second (the
// page draws them transposed, the first argument left to right and the second bottom to top,
// as GGP sheets write (cell X Y)).
std::optional<protocol::BoardLayout> find_board_layout(const std::vector<std::string>& facts);

// The grid of `game`, from its position and those of random turns played on a clone for at
// most `budget_ms` (seeded: the same game gives the same turns). Nullopt at once when the
// position is not KIF with a compound fact (the hand-written games).
std::optional<protocol::BoardLayout> detect_board_layout(const AnyGame& game,
                                                         std::int64_t budget_ms = 30);

}  // namespace arena::server
