#pragma once
// A Qubic position reached by playing `moves` from the start; a move that does not parse
// fails the test and is skipped.

#include <initializer_list>

#include <gtest/gtest.h>

#include "games/tictactoe/qubic.h"

namespace arena::tictactoe::test {

inline Qubic play(std::initializer_list<const char*> moves) {
  Qubic g = *Qubic::create({});
  for (const char* m : moves) {
    auto parsed = g.parse_move(m);
    EXPECT_TRUE(parsed.has_value()) << m;
    if (parsed) g.make_move(*parsed);
  }
  return g;
}

}  // namespace arena::tictactoe::test
