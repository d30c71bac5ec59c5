#pragma once
// mv(game, ply, move): the MoveRecord the store tests append (no clock, no comment).

#include <string>
#include <utility>

#include "db/store.h"

namespace arena::test {

inline db::MoveRecord mv(db::GameId game, int ply, std::string move) {
  db::MoveRecord m;
  m.game = game;
  m.ply = ply;
  m.move = std::move(move);
  return m;
}

}  // namespace arena::test
