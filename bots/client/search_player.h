#pragma once
// Players and puzzle solvers built from text: a search spec (bots/search/spec.h) for a
// two-player game, a solver spec ("idastar:h=manhattan|linear_conflict|misplaced|pdb") for a
// puzzle, "breadth_first" (or "bfs") or "best_first" for a GDL sheet of one role
// (bots/gdl/puzzle_search.h), solved by bots/solver/puzzle_solver.h. This is the only place where
// the client meets the search code; the client itself sees only the Player interface.

#include <string>
#include <string_view>

#include "bots/player/player.h"
#include "games/core/expected.h"
#include "protocol/messages.h"

namespace arena::client {

// A Player for game `game` that searches with `spec`. The spec's movetime is a cap: the
// clock's budget wins when it is shorter, so a preset never flags. Errors name the game or
// the bad part of the spec. For "gdl" and "gdl:NAME" the spec is a GDL player's
// (bots/client/gdl_client_player.h).
Expected<std::unique_ptr<Player>> make_search_player(std::string_view game, std::string_view spec);

// A factory that makes a fresh search Player per game (the spec is checked on each call).
PlayerFactory search_player_factory(std::string spec);

// A solver for puzzle sessions: "idastar:h=NAME", "breadth_first", "bfs" or "best_first";
// errors name the bad part.
Expected<PuzzleSolver> make_puzzle_solver(std::string_view spec);

// What a bot that plays `game` with `spec` names in its hello (hello.engine), which the server
// records as its bot version: the spec, and the heuristic that guides it as arena league
// registers one (a search spec's eval, a GDL player's goal heuristic, an IDA* solver's h=).
protocol::Engine engine_of(std::string_view game, std::string_view spec);

// True if `spec` is a puzzle solver spec rather than a search spec.
bool is_puzzle_spec(std::string_view spec);

}  // namespace arena::client
