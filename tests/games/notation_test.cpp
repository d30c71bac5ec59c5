#include "games/catalog/notation.h"

#include <gtest/gtest.h>

#include "games/catalog/catalog.h"

namespace arena {
namespace {

std::unique_ptr<AnyGame> played(std::string_view name, const std::vector<std::string>& moves,
                                std::string_view position = "") {
  auto g = position.empty() ? make_game(name) : load_game(name, position);
  EXPECT_TRUE(g) << g.error();
  for (const auto& m : moves) EXPECT_TRUE((*g)->play(m)) << m;
  return std::move(*g);
}

TEST(Notation, ChessMovesReadAsSan) {
  auto g = played("chess", {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1"});
  EXPECT_EQ(display_history(*g),
            (std::vector<std::string>{"e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O"}));
  EXPECT_EQ(last_move_display(*g), "O-O");
  EXPECT_EQ(g->history().back(), "e1g1");  // the game's own text is unchanged
}

TEST(Notation, ChessChecksCapturesAndPromotionsCarryTheirMarks) {
  auto mate = played("chess", {"f2f3", "e7e5", "g2g4", "d8h4"});
  EXPECT_EQ(last_move_display(*mate), "Qh4#");
  auto promo = played("chess", {"a7a8q"}, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(last_move_display(*promo), "a8=Q+");
  // From a loaded position, the history starts there.
  EXPECT_EQ(display_history(*promo), (std::vector<std::string>{"a8=Q+"}));
}

TEST(Notation, OtherGamesAndEmptyHistoriesHaveNone) {
  auto chess = played("chess", {});
  EXPECT_TRUE(display_history(*chess).empty());
  EXPECT_EQ(last_move_display(*chess), "");
  auto checkers = played("checkers", {"11-15"});
  EXPECT_TRUE(display_history(*checkers).empty());
  EXPECT_EQ(last_move_display(*checkers), "");
}

}  // namespace
}  // namespace arena
