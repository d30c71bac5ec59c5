#pragma once
// Player: what the bot client asks for a move. The client (I/O only) hands over a position
// string, the legal moves the server sent and the time it may spend; a Player answers with a
// move and the search info to send along. One Player per game being played, called from one
// worker thread at a time, so implementations need no locking.
// The interface has a folder of its own so that the players outside the client (bots/uci,
// bots/ggp) implement it without depending on the client; its names stay in arena::client.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "games/core/expected.h"
#include "protocol/messages.h"

namespace arena::client {

struct TurnRequest {
  std::string game;                         // catalog name, e.g. "chess"
  std::string options;                      // the game's options text ("size=7"), as in game_start
  std::string position;                     // the state's position (the game's serialize() text)
  std::vector<std::string> legal_moves;     // never empty when a Player is asked
  std::int64_t budget_ms = 0;               // think at most this long; 0 = no clock
  const std::atomic<bool>* stop = nullptr;  // set when the client shuts down
  int seat = -1;                            // the seat asked to move (-1: not said)
};

struct TurnReply {
  std::string move;  // one of legal_moves
  protocol::SearchInfo info;
};

class Player {
 public:
  virtual ~Player() = default;
  // Errors (a position the Player cannot read) make the client fall back to a legal move.
  virtual Expected<TurnReply> choose_move(const TurnRequest& request) = 0;
  // A Player is made before its first game (so that starting it, say a UCI engine, is not
  // paid on the clock) and reused for later games of its kind; this is called before each.
  virtual void new_game() {}
};

// Makes a fresh Player for one game of kind `game` (catalog name) or says why it cannot.
using PlayerFactory = std::function<Expected<std::unique_ptr<Player>>(std::string_view game)>;

// Solves a puzzle position: the moves from `position` to the goal, in the puzzle's notation.
using PuzzleSolver = std::function<Expected<std::vector<std::string>>(std::string_view puzzle,
                                                                      std::string_view position)>;

}  // namespace arena::client
