#include "games/chess/chess.h"

#include "tests/games/conformance.h"

namespace arena::test {
INSTANTIATE_TYPED_TEST_SUITE_P(Chess, Conformance, ::testing::Types<chess::Chess>);
}  // namespace arena::test
