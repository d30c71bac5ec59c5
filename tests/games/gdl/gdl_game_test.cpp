// GdlGame: a GDL sheet as an AnyGame through the catalog (gdl:NAME): turns, movers, outcome
// and scores from the goal rules, refusals of bad moves and positions, positions as text, and
// perft over turns against published counts.

#include "games/gdl/game/gdl_game.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "games/catalog/catalog.h"
#include "games/gdl/library/library.h"
#include "games/gdl/prover/prover.h"

namespace arena::gdl {
namespace {

const std::string kData = ARENA_TEST_DATA_DIR "/gdl/";

// ggp-base's test tic-tac-toe: (mark ROW COL) moves, xplayer and oplayer.
std::unique_ptr<AnyGame> tictactoe() {
  auto added = arena::add_gdl_file(kData + "ticTacToe.kif");
  EXPECT_TRUE(added) << added.error();
  auto game = make_game("gdl:ticTacToe");
  EXPECT_TRUE(game) << game.error();
  return game ? std::move(*game) : nullptr;
}

// A perft count, or a failure that names the error.
std::uint64_t counted(const Expected<std::uint64_t>& nodes) {
  EXPECT_TRUE(nodes) << nodes.error();
  return nodes ? *nodes : ~std::uint64_t{0};
}

void play_all(AnyGame& game, const std::vector<std::string>& moves) {
  for (const auto& m : moves) {
    auto played = game.play(m);
    ASSERT_TRUE(played) << m << ": " << played.error();
    EXPECT_EQ(*played, m);
  }
}

// Turn perft through the AnyGame interface (play_turn and undo), against gdl_perft's machine.
std::uint64_t turn_perft(AnyGame& game, int depth) {
  if (depth == 0) return 1;
  std::uint64_t n = 0;
  for (const auto& t : all_turns(game)) {
    EXPECT_TRUE(game.play_turn(t));
    n += turn_perft(game, depth - 1);
    EXPECT_TRUE(game.undo());
  }
  return n;
}

TEST(GdlGame, TakesTurnsAndTheGoalRulesDecideAWin) {
  auto game = tictactoe();
  ASSERT_TRUE(game);
  EXPECT_EQ(game->name(), "gdl:ticTacToe");
  EXPECT_EQ(game->num_players(), 2);
  EXPECT_EQ(game->seat_names(), (std::vector<std::string>{"xplayer", "oplayer"}));
  EXPECT_FALSE(game->simultaneous());
  EXPECT_EQ(game->movers(), std::vector<int>{0});
  EXPECT_EQ(game->side_to_move(), Player::kFirst);
  EXPECT_EQ(game->legal_moves().size(), 9u);
  EXPECT_TRUE(game->legal_moves_of(1).empty());  // oplayer's only move, noop, is played for it
  ASSERT_TRUE(game->play("(mark 1 1)"));
  EXPECT_EQ(game->movers(), std::vector<int>{1});
  EXPECT_EQ(game->side_to_move(), Player::kSecond);
  play_all(*game, {"(mark 2 1)", "(mark 1 2)", "(mark 2 2)"});
  EXPECT_FALSE(game->outcome().is_terminal());
  auto last = game->play("(MARK 1  3)");  // KIF is case-insensitive; the record is canonical
  ASSERT_TRUE(last) << last.error();
  EXPECT_EQ(*last, "(mark 1 3)");
  EXPECT_EQ(game->history().back(), "(mark 1 3)");
  EXPECT_EQ(game->outcome(), Outcome::win_for(Player::kFirst, EndReason::kGoals));
  EXPECT_EQ(game->scores(), (std::vector<int>{100, 0}));
  EXPECT_TRUE(game->movers().empty());
  EXPECT_TRUE(game->legal_moves().empty());
  auto late = game->play("(mark 3 3)");
  ASSERT_FALSE(late);
  EXPECT_NE(late.error().find("over"), std::string::npos) << late.error();
}

TEST(GdlGame, AFullBoardWithoutALineIsADrawAtFiftyEach) {
  auto game = tictactoe();
  ASSERT_TRUE(game);
  play_all(*game, {"(mark 1 1)", "(mark 2 2)", "(mark 1 2)", "(mark 1 3)", "(mark 3 1)",
                   "(mark 2 1)", "(mark 2 3)", "(mark 3 2)"});
  // One empty cell: x's only move is the mark, o's is noop. Nobody has a choice, and the
  // mover is the role whose single move is an action.
  EXPECT_EQ(game->movers(), std::vector<int>{0});
  EXPECT_EQ(game->legal_moves(), std::vector<std::string>{"(mark 3 3)"});
  play_all(*game, {"(mark 3 3)"});
  EXPECT_EQ(game->outcome(), Outcome::draw(EndReason::kGoals));
  EXPECT_EQ(game->scores(), (std::vector<int>{50, 50}));
  EXPECT_EQ(to_string(game->outcome().reason), "goals");
}

TEST(GdlGame, RefusesIllegalAndMalformedMovesAndChangesNothing) {
  auto game = tictactoe();
  ASSERT_TRUE(game);
  play_all(*game, {"(mark 2 2)"});
  const std::string before = game->serialize();
  struct Bad {
    std::string move, says;
  };
  for (const Bad& bad : {Bad{"(mark 2 2)", "illegal move '(mark 2 2)' for oplayer"},
                         Bad{"(mark 4 4)", "'4' is not a symbol"}, Bad{"noop", "illegal"},
                         Bad{"(mark 1 1", "')' is missing"}, Bad{"(mark ?x 1)", "variable"},
                         Bad{"(mark 1 1) (mark 1 2)", "takes 1 move"}, Bad{"", "takes 1 move"},
                         Bad{"(jump 1 1)", "not a symbol"}}) {
    auto r = game->play(bad.move);
    ASSERT_FALSE(r) << bad.move;
    EXPECT_NE(r.error().find(bad.says), std::string::npos) << bad.move << ": " << r.error();
  }
  EXPECT_FALSE(game->play_turn({"(mark 1 1)", "noop"}));
  EXPECT_EQ(game->serialize(), before);
  EXPECT_EQ(game->history().size(), 1u);
}

TEST(GdlGame, PositionsAreSortedFluentsAndRoundTrip) {
  auto game = tictactoe();
  ASSERT_TRUE(game);
  play_all(*game, {"(mark 1 1)", "(mark 3 2)"});
  const std::string text = game->serialize();
  EXPECT_EQ(text,
            "(cell 1 1 x) (cell 1 2 b) (cell 1 3 b) (cell 2 1 b) (cell 2 2 b) (cell 2 3 b) "
            "(cell 3 1 b) (cell 3 2 o) (cell 3 3 b) (control xplayer)");
  auto again = load_game("gdl:ticTacToe", text);
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ((*again)->serialize(), text);
  EXPECT_EQ((*again)->hash(), game->hash());
  EXPECT_EQ((*again)->movers(), game->movers());
  EXPECT_EQ((*again)->legal_moves(), game->legal_moves());
  ASSERT_TRUE(game->undo());
  EXPECT_NE(game->hash(), (*again)->hash());
  ASSERT_TRUE(game->play("(mark 3 2)"));
  EXPECT_EQ(game->serialize(), text);
  // The fluents may come in any order and case; the position is the same.
  auto shuffled = load_game("gdl:ticTacToe",
                            "(CONTROL xplayer) (cell 3 3 b) (cell 3 2 o) (cell 3 1 b) (cell 2 3 b)"
                            " (cell 2 2 b) (cell 2 1 b) (cell 1 3 b) (cell 1 2 b) (cell 1 1 x)");
  ASSERT_TRUE(shuffled) << shuffled.error();
  EXPECT_EQ((*shuffled)->serialize(), text);
  auto copy = game->clone();
  ASSERT_TRUE(copy->play("(mark 2 2)"));
  EXPECT_EQ(game->serialize(), text);
}

TEST(GdlGame, RefusesPositionsThatAreNotStatesOfTheGame) {
  ASSERT_TRUE(tictactoe());
  struct Bad {
    std::string position, says;
  };
  for (const Bad& bad :
       {Bad{"(cell 1 1 q)", "'q' is not a symbol"}, Bad{"(cell 1 1 x", "')' is missing"},
        Bad{"(line x)", "(line x) is not a fluent"}, Bad{"(cell 1 1)", "is not a fluent"},
        Bad{"(cell ?x 1 b)", "variable"}, Bad{"(cell 1 1 x))", "unbalanced"},
        Bad{"(cell 1 1 b) (control)", "control is not a fluent"}}) {
    auto r = load_game("gdl:ticTacToe", bad.position);
    ASSERT_FALSE(r) << bad.position;
    EXPECT_NE(r.error().find(bad.says), std::string::npos) << bad.position << ": " << r.error();
  }
}

TEST(GdlGame, UnknownSheetsAndOptionsAreNamed) {
  auto missing = make_game("gdl:noSuchSheet");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("noSuchSheet"), std::string::npos);
  EXPECT_NE(missing.error().find(default_gdl_directory()), std::string::npos) << missing.error();
  auto options = make_game("gdl:tictactoe", {{"size", "4"}});
  ASSERT_FALSE(options);
  EXPECT_NE(options.error().find("no options"), std::string::npos) << options.error();
  EXPECT_NE(known_game_names().find("gdl:NAME"), std::string::npos);
  EXPECT_FALSE(add_gdl_file(kData + "no_such_file.kif"));
}

TEST(GdlGame, TheCatalogListsTheSheetsAndResolvesTheirSpelling) {
  bool found = false;
  for (const auto& info : gdl_game_catalog())
    if (info.name == "gdl:connectFour") {
      found = true;
      EXPECT_EQ(info.num_players, 2);
    }
  EXPECT_TRUE(found);
  GameOptions none;
  EXPECT_EQ(resolve_game_name("gdl:ROSHAMBO2", none), "gdl:roshambo2");
  auto game = make_game("gdl:RoShamBo2");
  ASSERT_TRUE(game) << game.error();
  EXPECT_EQ((*game)->name(), "gdl:roshambo2");
  // Two stems that differ only in case: the exact name is needed.
  ASSERT_TRUE(arena::add_gdl_file(kData + "ticTacToe.kif"));
  auto ambiguous = make_game("gdl:TICTACTOE");
  ASSERT_FALSE(ambiguous);
  EXPECT_NE(ambiguous.error().find("ambiguous"), std::string::npos) << ambiguous.error();
}

// A server that must not wait for a sheet's compile defers it: the sheet's games are made on its
// prover at once, and the ones made after the compile on the compiled reasoner; a position of a
// prover's game loads into the compiled one.
TEST(GdlGame, ADeferredCompileMakesGamesOnTheProverUntilItIsDone) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("arena_deferred_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / "deferredTicTacToe.kif";  // a sheet no other test has made
  std::filesystem::copy_file(kData + "ticTacToe.kif", path,
                             std::filesystem::copy_options::overwrite_existing);
  ASSERT_TRUE(arena::add_gdl_file(path.string()));
  const auto reasoner = [](const AnyGame& g) {
    return std::string(dynamic_cast<const GdlGame&>(g).context()->machine().kind());
  };
  defer_game_compile("gdl:deferredTicTacToe");
  auto first = make_game("gdl:deferredTicTacToe");
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(reasoner(**first), "prover");
  play_all(**first, {"(mark 1 1)", "(mark 2 2)"});
  compile_game("gdl:deferredTicTacToe");
  auto next = make_game("gdl:deferredTicTacToe");
  ASSERT_TRUE(next) << next.error();
  EXPECT_EQ(reasoner(**next), "compiled");
  auto loaded = load_game("gdl:deferredTicTacToe", (*first)->serialize());
  ASSERT_TRUE(loaded) << loaded.error();
  EXPECT_EQ(reasoner(**loaded), "compiled");
  EXPECT_EQ((*loaded)->serialize(), (*first)->serialize());
  std::filesystem::remove_all(dir);
}

// The catalog marks the sheets the reader refuses, with its reason, and reads a sheet again once
// its file changed: a fixed sheet is no longer marked.
TEST(GdlGame, TheCheckedCatalogMarksTheSheetsTheReaderRefuses) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("arena_refused_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string good =
      "(role solo) (init (on)) (<= (legal solo press) (true (on))) (<= (next (off)) (does solo "
      "press)) (<= terminal (true (off))) (<= (goal solo 100) (true (off))) (<= (goal solo 0) "
      "(true (on)))\n";
  auto write = [&](const char* name, const std::string& text) {
    std::ofstream(dir / name) << text;
  };
  write("good.kif", good);
  write("unsafe.kif", good + "(<= (min ?a) (true (on)))\n");  // ?a in no positive literal
  clear_gdl_files();                                          // the files other tests added
  set_gdl_directory(dir.string());
  std::map<std::string, std::string> marked;
  for (const auto& info : gdl_game_catalog(/*check_sheets=*/true)) marked[info.name] = info.refused;
  EXPECT_EQ(marked.size(), 2u);
  EXPECT_EQ(marked["gdl:good"], "");
  EXPECT_NE(marked["gdl:unsafe"].find("safety"), std::string::npos) << marked["gdl:unsafe"];
  EXPECT_NE(marked["gdl:unsafe"].find("unsafe.kif"), std::string::npos) << marked["gdl:unsafe"];
  // Unchecked, nothing is read and nothing is marked.
  for (const auto& info : gdl_game_catalog()) EXPECT_EQ(info.refused, "") << info.name;

  write("unsafe.kif", good + "(<= (min ?a) (true (on)) (true (on)) (distinct ?a ?a))\n");
  EXPECT_NE(gdl_refused_sheets().count("unsafe"), 0u);  // still unsafe, read again
  write("unsafe.kif", good + "(<= (min off) (true (on)))\n");
  EXPECT_TRUE(gdl_refused_sheets().empty());
  set_gdl_directory("");
  std::filesystem::remove_all(dir);
}

TEST(GdlGame, SimultaneousTurnsTakeOneMovePerMover) {
  auto game = make_game("gdl:roshambo2");
  ASSERT_TRUE(game) << game.error();
  EXPECT_TRUE((*game)->simultaneous());
  EXPECT_EQ((*game)->movers(), (std::vector<int>{0, 1}));
  EXPECT_EQ((*game)->legal_moves_of(1).size(), 4u);  // rock, paper, scissors, well
  const auto turns = all_turns(**game);  // every pair, the first mover's move first
  ASSERT_EQ(turns.size(), 16u);
  EXPECT_EQ(turns[1], (std::vector<std::string>{(*game)->legal_moves_of(0)[0],
                                                (*game)->legal_moves_of(1)[1]}));
  auto one = (*game)->play("rock");
  ASSERT_FALSE(one);
  EXPECT_NE(one.error().find("takes 2 move(s)"), std::string::npos) << one.error();
  auto bad = (*game)->play_turn({"rock", "lizard"});
  ASSERT_FALSE(bad);
  auto turn = (*game)->play_turn({"rock", "paper"});
  ASSERT_TRUE(turn) << turn.error();
  EXPECT_EQ(*turn, "rock paper");
  ASSERT_TRUE((*game)->play("scissors paper"));  // a turn's record plays it again
  EXPECT_EQ((*game)->history(), (std::vector<std::string>{"rock paper", "scissors paper"}));
}

TEST(GdlGame, GamesOfThreeRolesHaveThreeSeats) {
  auto game = make_game("gdl:tictactoe_3player");
  ASSERT_TRUE(game) << game.error();
  EXPECT_EQ((*game)->num_seats(), 3);
  EXPECT_EQ((*game)->seat_names().size(), 3u);
  EXPECT_EQ((*game)->scores().size(), 3u);
  ASSERT_EQ((*game)->movers().size(), 1u);
}

// Published connect-four perft (7 columns, 6 rows): 7, 49, 343, 2,401 (the table).
// ggp-base's conn4.kif is that board; its connectFour.kif (here and in tests/data) has 8
// columns, where nothing ends and no column fills before the 7th ply: 8^d for d <= 6.
TEST(GdlGame, PerftOverTurnsMatchesConnectFour) {
  auto game = make_game("gdl:conn4");
  ASSERT_TRUE(game) << game.error();
  EXPECT_EQ(turn_perft(**game, 1), 7u);
  EXPECT_EQ(turn_perft(**game, 2), 49u);
  EXPECT_EQ(turn_perft(**game, 3), 343u);
  auto context = make_gdl_context("conn4");
  ASSERT_TRUE(context) << context.error();
  StateMachine& m = (*context)->machine();
  EXPECT_EQ(counted(gdl_perft(m, m.initial_state(), 4)), 2401u);

  auto added = arena::add_gdl_file(kData + "connectFour.kif");
  ASSERT_TRUE(added) << added.error();
  auto eight = make_gdl_context("connectFour");
  ASSERT_TRUE(eight) << eight.error();
  StateMachine& m8 = (*eight)->machine();
  EXPECT_EQ(counted(gdl_perft(m8, m8.initial_state(), 3)), 512u);
}

// Native tic-tac-toe perft counts: 9, 72, 504, 3,024 (no game ends before the fifth ply).
TEST(GdlGame, PerftOverTurnsMatchesTicTacToe) {
  auto context = make_gdl_context("tictactoe", Reasoner::kProver);
  ASSERT_TRUE(context) << context.error();
  StateMachine& m = (*context)->machine();
  const std::uint64_t expected[] = {1, 9, 72, 504, 3024};
  for (int depth = 0; depth <= 4; ++depth)
    EXPECT_EQ(counted(gdl_perft(m, m.initial_state(), depth)), expected[depth]) << depth;
}

// Divided perft: one line per first turn, as history() writes it, whose counts sum to perft;
// the game is where it was afterwards.
TEST(GdlGame, PerftDividedUnderEachFirstTurnSumsToPerft) {
  auto context = make_gdl_context("tictactoe", Reasoner::kProver);
  ASSERT_TRUE(context) << context.error();
  auto game = GdlGame::start(*context);
  ASSERT_TRUE(game) << game.error();
  StateMachine& m = (*context)->machine();
  const std::string before = (*game)->serialize();
  std::vector<PerftLine> seen;  // as each is counted
  const auto divided =
      gdl_perft_divide(**game, m, 3, [&](const PerftLine& l) { seen.push_back(l); });
  ASSERT_TRUE(divided) << divided.error();
  const auto& lines = *divided;
  ASSERT_EQ(lines.size(), 9u);
  EXPECT_EQ(seen, lines);
  const auto legal = (*game)->legal_moves_of((*game)->movers().front());
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].first, legal[i]);  // a first turn is the one mover's move
    EXPECT_EQ(lines[i].second, 56u) << lines[i].first;  // 8 replies, then 7
    sum += lines[i].second;
  }
  EXPECT_EQ(sum, counted(gdl_perft(m, m.initial_state(), 3)));
  EXPECT_EQ((*game)->serialize(), before);
  auto none = gdl_perft_divide(**game, m, 0);
  ASSERT_TRUE(none) << none.error();
  EXPECT_TRUE(none->empty());
}

// A counter nesting one level deeper every turn, with a prover that stops at terms 10 deep:
// the state after the 9th tick is one it cannot answer about (prover_test's
// TermDepthLimitEndsTheGameWithAnError).
std::shared_ptr<GdlContext> deepening_counter(std::uint32_t max_term_depth) {
  auto d = read_description(
      "(role r) (init (count 0)) (<= (legal r tick) (true (count ?x)))"
      " (<= (next (count (s ?x))) (true (count ?x))) (<= terminal (true (count done)))"
      " (goal r 50)",
      "counter.kif");
  EXPECT_TRUE(d) << d.error();
  if (!d) return nullptr;
  ProverOptions options;
  options.max_term_depth = max_term_depth;
  return GdlContext::make("counter",
                          make_prover(std::make_shared<const Description>(std::move(*d)), nullptr,
                                      options));
}

// Perft does not count a state the reasoner could not answer about as a terminal one: it
// errors, naming the limit; below that state it counts.
TEST(GdlGame, PerftErrorsWhereTheReasonerCouldNotAnswer) {
  auto context = deepening_counter(10);
  ASSERT_TRUE(context);
  StateMachine& m = context->machine();
  EXPECT_EQ(counted(gdl_perft(m, m.initial_state(), 9)), 1u);  // the 9th state is a leaf
  auto deeper = gdl_perft(m, m.initial_state(), 10);
  ASSERT_FALSE(deeper);
  EXPECT_NE(deeper.error().find("prover could not answer"), std::string::npos) << deeper.error();
  EXPECT_NE(deeper.error().find("nested deeper than 10"), std::string::npos) << deeper.error();

  auto game = GdlGame::start(context);
  ASSERT_TRUE(game) << game.error();
  auto divided = gdl_perft_divide(**game, m, 10);
  ASSERT_FALSE(divided);
  EXPECT_NE(divided.error().find("after tick: "), std::string::npos) << divided.error();
  EXPECT_EQ((*game)->history().size(), 0u);  // the first turn was taken back
}

// A game that reaches such a state is over there, and says why; its position cannot be
// loaded again, and a game whose initial state is such a state cannot start.
TEST(GdlGame, AStateTheReasonerCouldNotAnswerEndsTheGameWithTheReason) {
  auto context = deepening_counter(10);
  ASSERT_TRUE(context);
  auto game = GdlGame::start(context);
  ASSERT_TRUE(game) << game.error();
  for (int tick = 1; tick <= 9; ++tick) {
    ASSERT_FALSE((*game)->outcome().is_terminal()) << tick;
    ASSERT_TRUE((*game)->play("tick")) << tick;
  }
  EXPECT_TRUE((*game)->outcome().is_terminal());
  EXPECT_TRUE((*game)->legal_moves().empty());
  const std::string& why = (*game)->rules_problem();
  EXPECT_NE(why.find("the prover could not answer"), std::string::npos) << why;
  EXPECT_NE(why.find("nested deeper than 10"), std::string::npos) << why;
  auto again = GdlGame::load(context, (*game)->serialize());
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().find("nested deeper than 10"), std::string::npos) << again.error();
  ASSERT_TRUE((*game)->undo());
  auto before = GdlGame::load(context, (*game)->serialize());  // answered: loads
  ASSERT_TRUE(before) << before.error();
  EXPECT_FALSE((*before)->outcome().is_terminal());

  auto shallow = deepening_counter(1);  // even (count 0) is too deep: nothing can be answered
  ASSERT_TRUE(shallow);
  auto refused = GdlGame::start(shallow);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("the initial state cannot be played: the prover could not answer"),
            std::string::npos)
      << refused.error();
}

// A shipped sheet whose rules derive more facts than the prover allows for its first state
// (laikLee_hex's lists of up to five of its 25 cells): refused with the limit, not started as a
// game that is already over.
TEST(GdlGame, ASheetBeyondTheProversLimitsIsRefusedWithTheLimit) {
  auto context = make_gdl_context("laikLee_hex", Reasoner::kProver);
  ASSERT_TRUE(context) << context.error();
  auto game = GdlGame::start(*context);
  ASSERT_FALSE(game);
  EXPECT_NE(game.error().find("the prover could not answer"), std::string::npos) << game.error();
  EXPECT_NE(game.error().find("laikLee_hex.kif"), std::string::npos) << game.error();
}

}  // namespace
}  // namespace arena::gdl
