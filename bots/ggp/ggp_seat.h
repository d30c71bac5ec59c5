#pragma once
// A GGP player as a bot of ours: a client::Player (bots/player/player.h) that forwards each GDL
// game the bot client plays to an external GGP player over HTTP, so that leagues seat GGP
// players (`ggp:http://127.0.0.1:P`) as `arena bot --uci PATH` seats UCI engines.
//
// Per game: START (the sheet's rules, the role, the clocks) at the first turn, then PLAY for
// every step of the game in order. The bot client is asked only on turns where this seat has a
// choice, and hands over the position, not the moves: the joint moves between two of its turns
// are found by search from the last known state (a bounded iterative deepening over the joint
// legal moves, this seat's own move tried first), and the steps where the seat had no choice
// are sent as PLAYs too (their answers are ignored). The game manager's rules apply: an answer
// that is late (none within the play clock + grace), not a move, or not legal is replaced by a
// random legal move and logged; so is every move once the seat has lost track of the game
// (positions no joint move explains). A game ends with ABORT (the client is not told how it
// ended) when the next one starts or the seat is destroyed.
//
// The seat's role is the request's seat (TurnRequest::seat: the bot client's seat, and seats
// are the roles in order) when that role has the listed moves, so symmetric simultaneous games
// (both roles with the same moves) are played as the right role. A request that names no seat
// gets the one role whose legal moves are the listed ones; when several have them, the first
// turn is refused.

#include <chrono>
#include <string>

#include "bots/ggp/reply.h"
#include "bots/player/player.h"

namespace arena::ggp {

struct GgpSeatOptions {
  int startclock = 0;  // seconds; 0: the play clock
  int playclock = 0;   // seconds; 0: the turn's budget (whole seconds, at least 1), else 5
  std::chrono::milliseconds grace{500};
  LogFn log;  // replacements and protocol errors; may be empty
};

// Players of `gdl:NAME` games (sheets found as games/gdl/library/library.h finds them) played by the
// GGP player at `url`; other games get an error naming the game.
client::PlayerFactory ggp_seat_factory(std::string url, GgpSeatOptions options = {});

}  // namespace arena::ggp
