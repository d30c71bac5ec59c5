// PGN out and in: a real game (Morphy's "Opera Game", Paris 1858) with comments, NAGs and a
// variation; round trips; set-up positions; errors that name the bad token.

#include <gtest/gtest.h>

#include <string>

#include "games/chess/pgn.h"
#include "games/core/zobrist.h"

namespace arena::chess {
namespace {

// The moves as published (e.g. Wikipedia, "Opera Game"); the annotations are ours.
constexpr std::string_view kOperaGame = R"([Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Paul Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]
[ECO "C41"]

1. e4 e5 2. Nf3 d6 {Philidor Defence} 3. d4 Bg4?! 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4
Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 $2 (9. Qxb7 Qb4+ 10. Qxb4 Bxb4+) 9... b5 10. Nxb5!
cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 ; mate follows
16. Qb8+ Nxb8 17. Rd8# 1-0
)";

TEST(ChessPgn, ReadsARealGameToItsFinalMate) {
  auto game = read_pgn(kOperaGame);
  ASSERT_TRUE(game) << game.error();
  EXPECT_EQ(game->moves.size(), 33u);
  EXPECT_EQ(game->result, "1-0");
  EXPECT_EQ(game->tag("White"), "Paul Morphy");
  EXPECT_EQ(game->tag("ECO"), "C41");
  Chess position = *game->start_position();
  for (const Move m : game->moves) position.make_move(m);
  EXPECT_EQ(position.outcome(), Outcome::win_for(Player::kFirst, EndReason::kCheckmate));
  EXPECT_EQ(pgn_result(position.outcome()), game->result);
}

TEST(ChessPgn, WritesTheSevenTagRosterAndStandardMovetext) {
  auto game = read_pgn(kOperaGame);
  ASSERT_TRUE(game) << game.error();
  const std::string text = write_pgn(*game);
  EXPECT_EQ(text.rfind("[Event \"Paris\"]\n[Site \"Paris FRA\"]\n[Date \"1858.??.??\"]\n"
                       "[Round \"?\"]\n[White \"Paul Morphy\"]\n"
                       "[Black \"Duke Karl / Count Isouard\"]\n[Result \"1-0\"]\n[ECO \"C41\"]\n\n"
                       "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find("12. O-O-O Rd8"), std::string::npos) << text;
  EXPECT_NE(text.find("17. Rd8# 1-0\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("SetUp"), std::string::npos);
  for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos;
       start = end + 1) {
    EXPECT_LT(end - start, 80u);
  }
}

TEST(ChessPgn, RoundTripsMovesTagsAndResult) {
  auto game = read_pgn(kOperaGame);
  ASSERT_TRUE(game) << game.error();
  auto again = read_pgn(write_pgn(*game));
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->moves, game->moves);
  EXPECT_EQ(again->tags, game->tags);
  EXPECT_EQ(again->result, game->result);
}

TEST(ChessPgn, WritesSetUpAndFenForAnotherStartAndNumbersBlackFirst) {
  PgnGame game;
  game.start_fen = "4k3/8/8/8/8/8/4P3/R3K3 b Q - 3 40";
  Chess position = *game.start_position();
  for (const char* san : {"Kd7", "O-O-O+", "Kc7"}) {
    const auto m = position.parse_san(san);
    ASSERT_TRUE(m.has_value()) << san;
    game.moves.push_back(*m);
    position.make_move(*m);
  }
  const std::string text = write_pgn(game);
  EXPECT_NE(text.find("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/R3K3 b Q - 3 40\"]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n40... Kd7 41. O-O-O+ Kc7 *\n"), std::string::npos) << text;
  auto back = read_pgn(text);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->moves, game.moves);
  EXPECT_EQ(back->start_fen, game.start_fen);
}

TEST(ChessPgn, ErrorsNameTheBadToken) {
  auto illegal = read_pgn("1. e4 e5 2. Ke3 Nc6 *");
  ASSERT_FALSE(illegal);
  EXPECT_NE(illegal.error().find("move 2 (white)"), std::string::npos) << illegal.error();
  EXPECT_NE(illegal.error().find("'Ke3'"), std::string::npos) << illegal.error();

  auto bad_fen = read_pgn("[FEN \"8/8/8 w - - 0 1\"]\n1. e4 *");
  ASSERT_FALSE(bad_fen);
  EXPECT_NE(bad_fen.error().find("FEN"), std::string::npos) << bad_fen.error();

  auto comment = read_pgn("1. e4 {never closed");
  ASSERT_FALSE(comment);
  EXPECT_NE(comment.error().find("comment"), std::string::npos) << comment.error();

  EXPECT_FALSE(read_pgn("   "));
}

TEST(ChessPgn, ReadsSeveralGames) {
  const std::string two = std::string(kOperaGame) + "\n[Event \"b\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
  auto games = read_pgn_games(two);
  ASSERT_TRUE(games) << games.error();
  ASSERT_EQ(games->size(), 2u);
  EXPECT_EQ((*games)[1].moves.size(), 4u);
  EXPECT_EQ((*games)[1].result, "0-1");
}

TEST(ChessPgn, RoundTripsRandomGamesToTheirEnd) {
  std::uint64_t rng = 11;
  for (int game_no = 0; game_no < 12; ++game_no) {
    PgnGame game;
    game.tags = {{"White", "random " + std::to_string(game_no)}, {"Black", "random"}};
    Chess position = *game.start_position();
    while (!position.outcome().is_terminal() && game.moves.size() < 300) {
      Chess::MoveList list;
      position.generate_moves(list);
      const Move m = list[splitmix64(rng) % list.size()];
      game.moves.push_back(m);
      position.make_move(m);
    }
    game.result = pgn_result(position.outcome());
    auto back = read_pgn(write_pgn(game));
    ASSERT_TRUE(back) << back.error() << "\n" << write_pgn(game);
    EXPECT_EQ(back->moves, game.moves);
    EXPECT_EQ(back->result, game.result);
    EXPECT_EQ(back->tag("White"), "random " + std::to_string(game_no));
  }
}

}  // namespace
}  // namespace arena::chess
