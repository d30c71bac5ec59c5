#include "games/chess/chess.h"

// Guards against warnings in shared headers (rng.h's unsigned __int128 under -Wpedantic,
// an unbraced if around ASSERT_TRUE in conformance.h) while they are being fixed.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wdangling-else"
#include "tests/games/conformance.h"

namespace arena::test {
INSTANTIATE_TYPED_TEST_SUITE_P(Chess, Conformance, ::testing::Types<chess::Chess>);
}  // namespace arena::test
#pragma GCC diagnostic pop
