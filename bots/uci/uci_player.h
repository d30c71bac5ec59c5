#pragma once
// A client::Player that asks a UCI engine for each chess move: one engine process per game,
// the position sent as FEN, "go movetime" with the client's budget.

#include <string>

#include "bots/player/player.h"
#include "bots/uci/uci_engine.h"

namespace arena::uci {

// Players for chess only; other games get an error naming the game.
client::PlayerFactory uci_player_factory(std::string engine_path, UciOptions options);

}  // namespace arena::uci
