#pragma once
// The bot client's Player for GDL games (`gdl:NAME`): a GdlPlayer (bots/gdl/gdl_player.h) behind
// the client's Player interface. The TurnRequest carries the game's name and position; the
// adapter loads the sheet (games/gdl/library/library.h: the GDL folder and the files added with --gdl)
// into a reasoner of its own, rebuilds the state from the position, and asks the GdlPlayer.
//
// Which role it plays: the one mover when a turn has one (turn-taking games through the
// server); with several movers, the request's seat, else (a request that names no seat) the
// first whose legal moves are those the request lists.
//
// The reasoner is kept while the Player plays games of the same sheet (a Player is reused for
// later games of its kind), so a sheet compiles once per Player. The compile runs on a thread
// of its own: a move that comes before it is done (over 20 s for the largest sheets) is chosen
// on the sheet's prover, within the move's time. The spec's movetime=MS caps
// the time per move (the clock's budget wins when shorter); without a clock and without
// movetime a move takes kDefaultMoveMs.

#include <cstdint>
#include <memory>
#include <string_view>

#include "bots/player/player.h"
#include "games/core/expected.h"

namespace arena::client {

inline constexpr std::int64_t kDefaultGdlMoveMs = 1000;

// A Player of any GDL game with player spec `spec` ("uct", "fuzzy:depth=2,movetime=500", ...).
// Errors name a bad spec.
Expected<std::unique_ptr<Player>> make_gdl_client_player(std::string_view spec);

// True for names the GDL adapter plays: "gdl" (any sheet, as GDL presets say) and "gdl:NAME".
bool is_gdl_kind(std::string_view game);

}  // namespace arena::client
