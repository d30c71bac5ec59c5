#pragma once
// The chess tests' position from a FEN: a FEN that does not read fails the test, which then
// goes on from the start position.

#include <string>

#include <gtest/gtest.h>

#include "games/chess/chess.h"

namespace arena::chess::test {

inline Chess load(const std::string& fen) {
  auto g = Chess::deserialize(fen);
  EXPECT_TRUE(g) << fen << ": " << g.error();
  return g ? *g : *Chess::create({});
}

}  // namespace arena::chess::test
