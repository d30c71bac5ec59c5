// GDL sheets against Arena's native engines, state by state, where their rules agree (issue 23,
// "How it is checked"): the GDL reasoners (compiled and prover) and the hand-written game walk
// the same games side by side; at every state the test maps the GDL state and legal moves into
// the native notation and compares the board, the side to move, the legal move sets, the
// successor of each move played, terminal and the result. Each sheet's rule differences from
// the native game are written beside its test, and only what agrees is compared.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "games/checkers/board.h"
#include "games/checkers/checkers.h"
#include "games/chess/chess.h"
#include "games/core/perft.h"
#include "games/gdl/propnet/compiled.h"
#include "games/gdl/prover/prover.h"
#include "games/othello/othello.h"
#include "games/tictactoe/tictactoe.h"
#include "tests/games/gdl/sheets.h"

namespace arena::gdl {
namespace {

// ---------------------------------------------------------------------------------------------
// Sheets, reasoners and terms.

std::string sheet_path(const std::string& name) {
  return std::string(ARENA_GDL_SHEETS_DIR) + "/" + name + ".kif";
}

enum class Kind { kCompiled, kProver };

// The sheet's reasoner of `kind`; null after a test failure. With `optional`, a compiled
// reasoner refused by `limits` is null with a note instead (the slow test build may not ground
// a big sheet in time; the prover's comparison stands, and compiled_test checks the compiled
// reasoner equals the prover on every sheet).
std::unique_ptr<StateMachine> reasoner(const std::string& path, Kind kind,
                                       const GroundLimits& limits = {}, bool optional = false) {
  auto d = test::load_file(path);
  if (!d) return nullptr;
  if (kind == Kind::kProver) return make_prover(d);
  auto m = make_compiled(d, nullptr, limits);
  if (!m && optional) {
    std::printf("compiled reasoner skipped: %s\n", m.error().c_str());
    return nullptr;
  }
  EXPECT_TRUE(m.has_value()) << (m ? "" : m.error());
  return m ? std::move(*m) : nullptr;
}

const char* kind_name(Kind k) {
  return k == Kind::kCompiled ? "compiled" : "prover";
}

// The symbol of `id` (a constant's name, a compound's functor) and its arguments' symbols.
std::string name_of(StateMachine& m, TermId id) {
  return m.description().symbols.name(m.pool().functor(id));
}
std::vector<std::string> arg_names(StateMachine& m, TermId id) {
  std::vector<std::string> out;
  for (TermId a : m.pool().args(id)) out.push_back(name_of(m, a));
  return out;
}
std::string kif(StateMachine& m, TermId id) {
  return m.pool().to_kif(id, m.description().symbols);
}

int role_index(StateMachine& m, const std::string& role) {
  for (std::size_t r = 0; r < m.roles().size(); ++r)
    if (name_of(m, m.roles()[r]) == role) return static_cast<int>(r);
  ADD_FAILURE() << "no role " << role;
  return 0;
}

// The joint move of a state where only `mover` chooses (the sheets here alternate): every
// other role does its one legal move, noop; the mover's slot is left for the caller to fill.
JointMove waiting_joint(StateMachine& m, const State& s, int mover) {
  JointMove joint(m.roles().size(), 0);
  for (int r = 0; r < static_cast<int>(m.roles().size()); ++r) {
    if (r == mover) continue;
    const auto legal = m.legal_moves(s, r);
    EXPECT_TRUE(legal.size() == 1 && name_of(m, legal[0]) == "noop") << "role " << r << " waits";
    if (!legal.empty()) joint[static_cast<std::size_t>(r)] = legal[0];
  }
  return joint;
}

JointMove with_move(JointMove joint, int mover, Move move) {
  joint[static_cast<std::size_t>(mover)] = move;
  return joint;
}

// The value a fluent (control R) names: the role in control.
std::string control_of(StateMachine& m, const State& s) {
  for (TermId f : s)
    if (name_of(m, f) == "control" && m.pool().args(f).size() == 1) return arg_names(m, f)[0];
  return "";
}

int goal_of(StateMachine& m, const State& s, int role) {
  auto g = m.goal(s, role);
  EXPECT_TRUE(g.has_value()) << (g ? "" : g.error());
  return g ? *g : -1;
}

// "1".."8", also "c1".."c8" (checkers-newgoals renames its numbers); 0 when not a number.
int number_of(const std::string& s) {
  const std::string digits = (s.size() > 1 && s[0] == 'c') ? s.substr(1) : s;
  if (digits.empty() || digits.size() > 3) return 0;
  for (char c : digits)
    if (c < '0' || c > '9') return 0;
  return std::stoi(digits);
}

// ---------------------------------------------------------------------------------------------
// (a) Tic-tac-toe. games/gdl/sheets/tictactoe.kif ("(mark i j x)" fluents, "(play i j x)"
// moves) and tests/data/gdl/ticTacToe.kif ("(cell m n x|o|b)", "(mark m n)") play the native
// game exactly: X (xplayer, the first role) moves first, terminal at a line or a full board,
// goal 100/50/0 for win/draw/loss. GDL cell (i, j) maps to native cell (i-1)*3 + (j-1) (row
// major; the native "row from the top" is a name only, the lines are the same).
// The walk visits each of the 5,478 positions reachable in play once (memoised on the native
// position) and counts the games below each: 255,168 from the start, both published counts.

using tictactoe::TicTacToe;

int ttt_cell(const std::vector<std::string>& args) {
  return (number_of(args[0]) - 1) * 3 + (number_of(args[1]) - 1);
}

// The marks of a GDL state: any (f i j x|o) fluent.
std::array<std::uint16_t, 2> ttt_marks(StateMachine& m, const State& s) {
  std::array<std::uint16_t, 2> marks{};
  for (TermId f : s) {
    const auto a = arg_names(m, f);
    if (a.size() != 3 || (a[2] != "x" && a[2] != "o")) continue;
    marks[a[2] == "x" ? 0 : 1] |= static_cast<std::uint16_t>(1u << ttt_cell(a));
  }
  return marks;
}

struct TttWalk {
  StateMachine& m;
  std::map<std::string, std::pair<State, std::uint64_t>> seen;  // position -> state, games

  std::uint64_t walk(const State& s, TicTacToe& g) {
    const std::string key = g.serialize();
    if (auto it = seen.find(key); it != seen.end()) {
      EXPECT_EQ(it->second.first, s) << "two GDL states for position " << key;
      return it->second.second;
    }
    SCOPED_TRACE("position " + key);
    const auto marks = ttt_marks(m, s);
    EXPECT_EQ(marks[0], g.marks(Player::kFirst));
    EXPECT_EQ(marks[1], g.marks(Player::kSecond));
    const Outcome outcome = g.outcome();
    EXPECT_EQ(m.is_terminal(s), outcome.is_terminal());
    std::uint64_t games = 0;
    if (outcome.is_terminal()) {
      const int x = outcome.result == Result::kFirstWins ? 100
                    : outcome.result == Result::kDraw    ? 50
                                                         : 0;
      EXPECT_EQ(goal_of(m, s, 0), x);
      EXPECT_EQ(goal_of(m, s, 1), 100 - x);
      games = 1;
    } else {
      const int mover = index(g.side_to_move());
      std::map<int, Move> gdl;  // native cell -> GDL move
      for (Move mv : m.legal_moves(s, mover)) gdl[ttt_cell(arg_names(m, mv))] = mv;
      TicTacToe::MoveList list;
      g.generate_moves(list);
      std::set<int> native;
      for (const auto& mv : list) native.insert(mv.cell);
      std::set<int> gdl_cells;
      for (const auto& [cell, mv] : gdl) gdl_cells.insert(cell);
      EXPECT_EQ(gdl_cells, native);
      const JointMove waiting = waiting_joint(m, s, mover);
      for (const auto& mv : list) {
        if (::testing::Test::HasFailure() || !gdl.count(mv.cell)) break;
        const State next = m.next_state(s, with_move(waiting, mover, gdl[mv.cell]));
        g.make_move(mv);
        games += walk(next, g);
        g.unmake_move(mv);
      }
    }
    seen.emplace(key, std::make_pair(s, games));
    return games;
  }
};

void check_tictactoe(const std::string& path, Kind kind) {
  SCOPED_TRACE(path + " " + kind_name(kind));
  auto m = reasoner(path, kind);
  ASSERT_TRUE(m);
  auto g = TicTacToe::create({});
  ASSERT_TRUE(g.has_value());
  ASSERT_EQ(m->roles().size(), 2u);
  TttWalk walk{*m, {}};
  EXPECT_EQ(walk.walk(m->initial_state(), *g), 255'168u);
  EXPECT_EQ(walk.seen.size(), 5'478u);
}

TEST(NativeCrosscheck, TicTacToeSheetsWalkTheNativeTree) {
  for (Kind kind : {Kind::kCompiled, Kind::kProver}) {
    check_tictactoe(sheet_path("tictactoe"), kind);
    check_tictactoe(std::string(ARENA_TEST_DATA_DIR) + "/gdl/ticTacToe.kif", kind);
  }
}


// ---------------------------------------------------------------------------------------------
// (b) Othello. games/gdl/sheets/othello-comp2007.kif against games/othello. How they differ:
// - Start: the sheet puts black on (4,4), (5,5) and red on (4,5), (5,4); native Black is on d5,
//   e4 and White on d4, e5. The reflection y -> 9 - y maps one onto the other and the rules are
//   symmetric under it, so GDL (x, y) is native file x, row 9 - y. Black (the first role,
//   native Player::kFirst) moves first in both; red is native White.
// - Moves: (mark x y) where a disc flanks a line of the opponent's discs, flips as native.
//   The waiting role plays noop.
// - Passing: the sheet's player in control with no placement plays noop while control passes
//   on, which is the native explicit `pass` (both only when the opponent can still move).
// - The end: terminal when neither role can place (native: generate_moves() is empty); no
//   step limit in either.
// - Scoring: goals 100/50/0 by comparing the disc counts (a recursive tally over the 64 cells)
//   at the end, 0 for both before; native: the side with more discs wins, equal counts draw.
//   Empty squares go to nobody in both. So the result agrees exactly and nothing differs but
//   the names; perft agrees too (a noop turn is one ply, as a native pass; no early game over
//   happens at the depths tested).

using othello::Othello;

int othello_square(const std::string& x, const std::string& y) {
  return (8 - number_of(y)) * 8 + (number_of(x) - 1);
}

std::array<othello::Bitboard, 2> othello_discs(StateMachine& m, const State& s) {
  std::array<othello::Bitboard, 2> discs{};
  for (TermId f : s) {
    if (name_of(m, f) != "cell") continue;
    const auto a = arg_names(m, f);
    EXPECT_TRUE(a[2] == "black" || a[2] == "red") << kif(m, f);
    discs[a[2] == "black" ? 0 : 1] |= othello::Bitboard{1} << othello_square(a[0], a[1]);
  }
  return discs;
}

// Compares GDL state `s` with native position `g` (board, side to move, terminal, legal moves
// of both roles, goals at the end) and returns the GDL move of each native move.
std::map<int, Move> compare_othello(StateMachine& m, const State& s, const Othello& g) {
  std::map<int, Move> moves;  // native square (Move::kPass for a pass) -> GDL move
  const auto discs = othello_discs(m, s);
  EXPECT_EQ(discs[0], g.discs(Player::kFirst));
  EXPECT_EQ(discs[1], g.discs(Player::kSecond));
  const int mover = index(g.side_to_move());
  EXPECT_EQ(control_of(m, s), mover == 0 ? "black" : "red");
  Othello::MoveList list;
  g.generate_moves(list);
  EXPECT_EQ(m.is_terminal(s), list.empty());
  if (list.empty()) {
    const Outcome outcome = g.outcome();
    const int black = outcome.result == Result::kFirstWins ? 100
                      : outcome.result == Result::kDraw    ? 50
                                                           : 0;
    EXPECT_EQ(goal_of(m, s, 0), black);
    EXPECT_EQ(goal_of(m, s, 1), 100 - black);
    return moves;
  }
  for (Move mv : m.legal_moves(s, mover)) {
    const auto a = arg_names(m, mv);
    moves[a.empty() ? othello::Move::kPass : othello_square(a[0], a[1])] = mv;
  }
  std::set<int> gdl, native;
  for (const auto& [square, mv] : moves) gdl.insert(square);
  for (const auto& mv : list) native.insert(mv.square);
  EXPECT_EQ(gdl, native);
  return moves;
}

// Random playouts to the end, moves drawn from the native list; returns the plies compared.
int othello_playouts(StateMachine& m, int playouts, std::mt19937& rng) {
  int plies = 0;
  for (int p = 0; p < playouts && !::testing::Test::HasFailure(); ++p) {
    auto g = Othello::create({});
    EXPECT_TRUE(g.has_value());
    State s = m.initial_state();
    for (int ply = 0; ply < 200 && !::testing::Test::HasFailure(); ++ply, ++plies) {
      SCOPED_TRACE("playout " + std::to_string(p) + " ply " + std::to_string(ply) + " " +
                   g->serialize());
      auto moves = compare_othello(m, s, *g);
      Othello::MoveList list;
      g->generate_moves(list);
      if (list.empty()) break;
      const auto mv = list[std::uniform_int_distribution<std::size_t>(0, list.size() - 1)(rng)];
      if (!moves.count(mv.square)) break;
      const int mover = index(g->side_to_move());
      s = m.next_state(s, with_move(waiting_joint(m, s, mover), mover, moves[mv.square]));
      g->make_move(mv);
    }
  }
  return plies;
}

// Perft over GDL joint moves; a terminal state before the last ply counts as one leaf, as in
// the native Othello perft and Bik's figures.
std::uint64_t gdl_perft(StateMachine& m, const State& s, int depth) {
  if (depth == 0 || m.is_terminal(s)) return 1;
  std::vector<JointMove> joints(1);
  for (int r = 0; r < static_cast<int>(m.roles().size()); ++r) {
    std::vector<JointMove> grown;
    for (Move mv : m.legal_moves(s, r))
      for (JointMove j : joints) {
        j.push_back(mv);
        grown.push_back(std::move(j));
      }
    joints = std::move(grown);
  }
  std::uint64_t n = 0;
  for (const JointMove& j : joints) n += gdl_perft(m, m.next_state(s, j), depth - 1);
  return n;
}

TEST(NativeCrosscheck, OthelloComp2007PlaysAsNativeOthello) {
  std::mt19937 rng(23);
  for (Kind kind : {Kind::kCompiled, Kind::kProver}) {
    SCOPED_TRACE(kind_name(kind));
    auto m = reasoner(sheet_path("othello-comp2007"), kind);
    ASSERT_TRUE(m);
    ASSERT_EQ(role_index(*m, "black"), 0);
    const int plies = othello_playouts(*m, kind == Kind::kCompiled ? 20 : 1, rng);
    EXPECT_GE(plies, 50);
  }
}

TEST(NativeCrosscheck, OthelloComp2007PerftEqualsNative) {
  auto m = reasoner(sheet_path("othello-comp2007"), Kind::kCompiled);
  ASSERT_TRUE(m);
  auto g = Othello::create({});
  ASSERT_TRUE(g.has_value());
  const std::uint64_t bik[] = {4, 12, 56, 244, 1'396};  // tests/data/othello_perft.txt
  for (int depth = 1; depth <= 5; ++depth) {
    const std::uint64_t gdl = gdl_perft(*m, m->initial_state(), depth);
    EXPECT_EQ(gdl, perft(*g, depth)) << depth;
    EXPECT_EQ(gdl, bik[depth - 1]) << depth;
  }
}

// ---------------------------------------------------------------------------------------------
// (c) Checkers. Of the checkers sheets only checkers.kif and checkers-newgoals.kif play on the
// plain 8x8 board (cylinder-checkers and checkers-cylinder-mustjump wrap files h -> a,
// checkers-mustjump-torus and checkersTorus wrap ranks too, checkersSmall and checkersTiny are
// smaller boards); those two have the same move rules and differ in goals and step limit.
// checkers.kif is the closest to English checkers (games/checkers). How it differs:
// - Sides: the sheet's white (first role, men on ranks 1-3, moving to rank 8) moves first: it
//   is native Black (Player::kFirst, squares 1-12, moving to 29-32). GDL cell (file, rank) is
//   native row rank - 1, column file - 'a', square 4 * row + column / 2 (the same dark squares).
// - Capture is NOT mandatory: steps stay legal when a jump is available (native: a capture
//   must be made). The *mustjump sheets force it, but on wrapped boards.
// - Multi-jumps: one move of one (move), two (doublejump) or three (triplejump) jumps, the
//   player may stop before the chain ends (native: a capture goes on while the piece can
//   jump), and no chain is longer than three jumps (native: any length). So GDL jumps are the
//   native captures of up to three pieces plus the chains' unfinished beginnings.
// - Promotion ends the move in both (a man jumps forward only, so it cannot go on from the
//   last rank); kings step and jump one square diagonally in both; captured pieces stay on
//   the board until the move ends in both.
// - The end: the side in control with no legal move ends the game (native: it loses), or a
//   side has no pieces, or the step counter reaches 102 (after 101 plies; checkers-newgoals:
//   100, after 99 plies). Native has no step limit but draws on 80 plies without a capture or
//   a man's move, or on threefold repetition; the sheet has neither.
// - Scoring: goals from the piece counts the sheet keeps in (piece_count role n), not from who
//   is stuck: 100/50/0 for more/equal/fewer pieces (newgoals: 100..60 to the side ahead by
//   5+..1, 45/55 on a tie); native: the side that cannot move loses.
// What agrees and is compared at every ply of random playouts (moves drawn from the native
// captures of up to three pieces and the native steps): the board, kings, side to move and
// piece counts; the GDL steps are every diagonal step to an empty square (native's steps when
// native has no capture); with no native capture the sheet has no jump; else every native
// capture of up to three pieces is a GDL move and every GDL jump is one, or the beginning of
// one (same origin, a strict subset of its captured pieces); terminal (no native move, or the
// step limit); the goals from the board's piece counts at the end.

using checkers::Checkers;
namespace cb = checkers::board;

using CheckersKey = std::tuple<int, int, checkers::Bitboard>;  // from, to, captured

CheckersKey key_of(const checkers::Move& m) {
  return {m.from, m.to, m.captured};
}

int checkers_square(int col, int row) {
  EXPECT_EQ((row + col) % 2, 1) << "GDL cell on a light square: column " << col << " row " << row;
  return row * 4 + col / 2;
}

struct CheckersPosition {
  std::array<checkers::Bitboard, 2> pieces{};
  checkers::Bitboard kings = 0;
  std::array<int, 2> counts{-1, -1};  // the sheet's (piece_count white|black n)
};

CheckersPosition checkers_position(StateMachine& m, const State& s) {
  CheckersPosition out;
  for (TermId f : s) {
    const auto a = arg_names(m, f);
    if (name_of(m, f) == "piece_count") out.counts[a[0] == "white" ? 0 : 1] = number_of(a[1]);
    if (name_of(m, f) != "cell" || a[2] == "b") continue;
    const auto bit = checkers::Bitboard{1} << checkers_square(a[0][0] - 'a', number_of(a[1]) - 1);
    out.pieces[a[2][0] == 'w' ? 0 : 1] |= bit;
    if (a[2][1] == 'k') out.kings |= bit;
  }
  return out;
}

// A GDL move (move|doublejump|triplejump piece f1 r1 f2 r2 ...) as a native move.
checkers::Move checkers_move(StateMachine& m, Move mv) {
  const auto a = arg_names(m, mv);
  std::vector<std::pair<int, int>> path;  // column, row
  for (std::size_t i = 1; i + 1 < a.size(); i += 2) path.push_back({a[i][0] - 'a', number_of(a[i + 1]) - 1});
  checkers::Move out;
  if (path.size() < 2) return out;
  out.from = static_cast<std::uint8_t>(checkers_square(path.front().first, path.front().second));
  out.to = static_cast<std::uint8_t>(checkers_square(path.back().first, path.back().second));
  for (std::size_t i = 1; i < path.size(); ++i) {
    const auto [c0, r0] = path[i - 1];
    const auto [c1, r1] = path[i];
    if (std::abs(c1 - c0) == 2)
      out.captured |= checkers::Bitboard{1} << checkers_square((c0 + c1) / 2, (r0 + r1) / 2);
  }
  return out;
}

// Every diagonal step of the side to move to an empty square, captures or not.
std::set<CheckersKey> all_steps(const Checkers& g) {
  const Player side = g.side_to_move();
  const checkers::Bitboard empty = ~(g.pieces(Player::kFirst) | g.pieces(Player::kSecond));
  std::set<CheckersKey> out;
  for (int sq = 0; sq < 32; ++sq) {
    if (!(g.pieces(side) >> sq & 1)) continue;
    const bool king = g.kings(side) >> sq & 1;
    for (int dir = 0; dir < 4; ++dir) {
      if (!king && (dir < 2) != (side == Player::kFirst)) continue;  // men move forward
      const int to = cb::kTables.neighbour[dir][sq];
      if (to >= 0 && (empty >> to & 1)) out.insert({sq, to, 0});
    }
  }
  return out;
}

struct CheckersSheet {
  std::string name;
  int step_limit_plies;  // the sheet's terminal step counter, as plies from the start
  std::pair<int, int> (*goals)(int white, int black);
};

std::pair<int, int> goals_by_more_pieces(int white, int black) {
  const int w = white > black ? 100 : white == black ? 50 : 0;
  return {w, 100 - w};
}

std::pair<int, int> goals_by_margin(int white, int black) {
  if (white == black) return {45, 55};
  const int lead = std::min(std::abs(white - black), 5);
  const int ahead = 50 + 10 * lead;
  return white > black ? std::pair{ahead, 100 - ahead} : std::pair{100 - ahead, ahead};
}

struct CheckersTally {
  int plies = 0, partial_jumps = 0, steps_beside_captures = 0, long_captures = 0;
};

// Compares one ply (see above); returns the GDL move of each native move it can play.
std::map<CheckersKey, Move> compare_checkers(StateMachine& m, const State& s, const Checkers& g,
                                             int ply, const CheckersSheet& sheet,
                                             CheckersTally& tally) {
  std::map<CheckersKey, Move> moves;
  const CheckersPosition pos = checkers_position(m, s);
  for (Player p : {Player::kFirst, Player::kSecond}) {
    EXPECT_EQ(pos.pieces[index(p)], g.pieces(p)) << "pieces of " << index(p);
    EXPECT_EQ(pos.kings & pos.pieces[index(p)], g.kings(p)) << "kings of " << index(p);
    EXPECT_EQ(pos.counts[index(p)], std::popcount(g.pieces(p))) << "piece_count of " << index(p);
  }
  const int mover = index(g.side_to_move());
  EXPECT_EQ(control_of(m, s), mover == 0 ? "white" : "black");
  Checkers::MoveList list;
  g.generate_moves(list);
  const bool terminal = m.is_terminal(s);
  EXPECT_EQ(terminal, list.empty() || ply >= sheet.step_limit_plies);
  if (terminal) {
    const auto [w, b] = sheet.goals(std::popcount(g.pieces(Player::kFirst)),
                                    std::popcount(g.pieces(Player::kSecond)));
    EXPECT_EQ(goal_of(m, s, 0), w);
    EXPECT_EQ(goal_of(m, s, 1), b);
    return moves;
  }
  std::set<CheckersKey> gdl_steps, gdl_jumps, native;
  for (Move mv : m.legal_moves(s, mover)) {
    const checkers::Move c = checkers_move(m, mv);
    (c.is_capture() ? gdl_jumps : gdl_steps).insert(key_of(c));
    moves.emplace(key_of(c), mv);
  }
  for (const auto& mv : list) native.insert(key_of(mv));
  EXPECT_EQ(gdl_steps, all_steps(g));
  if (!list[0].is_capture()) {
    EXPECT_EQ(gdl_steps, native);
    EXPECT_TRUE(gdl_jumps.empty()) << gdl_jumps.size() << " GDL jumps, no native capture";
    return moves;
  }
  tally.steps_beside_captures += !gdl_steps.empty();
  for (const auto& mv : list) {
    if (std::popcount(mv.captured) > 3) ++tally.long_captures;
    else EXPECT_TRUE(gdl_jumps.count(key_of(mv))) << "native capture " << g.move_to_string(mv);
  }
  for (const auto& [from, to, captured] : gdl_jumps) {
    if (native.count({from, to, captured})) continue;
    ++tally.partial_jumps;
    const bool begins_one = std::any_of(list.begin(), list.end(), [&](const checkers::Move& mv) {
      return mv.from == from && (mv.captured & captured) == captured && mv.captured != captured;
    });
    EXPECT_TRUE(begins_one) << "GDL jump from " << from + 1 << " to " << to + 1
                            << " begins no native capture";
  }
  return moves;
}

CheckersTally checkers_playouts(StateMachine& m, const CheckersSheet& sheet, int playouts,
                                int max_plies, std::mt19937& rng) {
  CheckersTally tally;
  for (int p = 0; p < playouts && !::testing::Test::HasFailure(); ++p) {
    auto g = Checkers::create({});
    EXPECT_TRUE(g.has_value());
    State s = m.initial_state();
    for (int ply = 0; ply <= max_plies && !::testing::Test::HasFailure(); ++ply) {
      SCOPED_TRACE(sheet.name + " playout " + std::to_string(p) + " ply " + std::to_string(ply) +
                   " " + g->serialize());
      ++tally.plies;
      auto moves = compare_checkers(m, s, *g, ply, sheet, tally);
      if (moves.empty() || g->outcome().is_terminal()) break;  // native draws end it here
      std::vector<checkers::Move> playable;
      Checkers::MoveList list;
      g->generate_moves(list);
      for (const auto& mv : list)
        if (moves.count(key_of(mv))) playable.push_back(mv);
      if (playable.empty()) break;  // only captures of more than three pieces
      const auto mv = playable[std::uniform_int_distribution<std::size_t>(0, playable.size() - 1)(rng)];
      const int mover = index(g->side_to_move());
      s = m.next_state(s, with_move(waiting_joint(m, s, mover), mover, moves[key_of(mv)]));
      g->make_move(mv);
    }
  }
  return tally;
}

// Random playouts of `sheet` by the prover (`prover_playouts`, whole games) and, when it
// grounds within 5 s, by the compiled reasoner (20 whole games). Grounding checkers takes
// longer than that in the sanitizer build; GDL_CROSSCHECK_ALL=1 grounds with the default
// limits and plays 20 games with each reasoner.
void check_checkers_sheet(const CheckersSheet& sheet, int prover_playouts, std::mt19937& rng) {
  const bool all = std::getenv("GDL_CROSSCHECK_ALL") != nullptr;
  GroundLimits limits;
  if (!all) limits.max_seconds = 5;
  if (all) prover_playouts = 20;
  for (Kind kind : {Kind::kProver, Kind::kCompiled}) {
    SCOPED_TRACE(sheet.name + " " + kind_name(kind));
    auto m = reasoner(sheet_path(sheet.name), kind, limits, true);
    if (!m && kind == Kind::kCompiled) continue;
    ASSERT_TRUE(m);
    ASSERT_EQ(role_index(*m, "white"), 0);
    const int playouts = kind == Kind::kCompiled ? 20 : prover_playouts;
    const CheckersTally t = checkers_playouts(*m, sheet, playouts, 200, rng);
    std::printf("%s %s: %d plies compared; %d GDL unfinished chains, %d plies with steps beside "
                "a capture, %d native captures of 4+ pieces\n",
                sheet.name.c_str(), kind_name(kind), t.plies, t.partial_jumps,
                t.steps_beside_captures, t.long_captures);
    EXPECT_GE(t.plies, playouts * 20);
  }
}

TEST(NativeCrosscheck, CheckersAgreesWithEnglishCheckersWhereTheRulesDo) {
  std::mt19937 rng(1923);
  check_checkers_sheet({"checkers", 101, goals_by_more_pieces}, 3, rng);
}

TEST(NativeCrosscheck, CheckersNewGoalsAgreesWithEnglishCheckersWhereTheRulesDo) {
  std::mt19937 rng(1924);
  check_checkers_sheet({"checkers-newgoals", 99, goals_by_margin}, 2, rng);
}

// ---------------------------------------------------------------------------------------------
// (d) Chess, a few random plies: games/gdl/sheets/chess.kif against games/chess. How they
// differ: a pawn promotes to a queen only (native: queen, rook, bishop or knight); castling is
// the king's two-square move in both, allowed while the king and that rook have not moved, not
// out of, through or into check; en passant in both. The sheet keeps check in a fluent set by
// the move that gives it (the moved piece, or a rook, bishop or queen uncovered by it), so a
// check given otherwise (by a castling rook, a promoted queen, a line opened by an en passant
// capture) goes unnoticed there; native sees every check. The sheet has no fifty-move rule,
// repetition or insufficient-material draw but stops at step 201 (200 plies), where no goal
// holds unless the side to move is mated or stalemated. Compared over the opening plies of
// random games, before those cases can arise: the board, side to move, and the legal moves
// as (from, to) squares (native promotions to other pieces fold into the queen's).

namespace chess_ns = arena::chess;

int chess_square(const std::string& file, const std::string& rank) {
  return (number_of(rank) - 1) * 8 + (file[0] - 'a');
}

// The native piece letter of a GDL piece ("wp" -> 'P', "bk" -> 'k').
char chess_letter(const std::string& piece) {
  return piece[0] == 'w' ? static_cast<char>(piece[1] - 'a' + 'A') : piece[1];
}

void check_chess_plies(StateMachine& m, int playouts, int plies, std::mt19937& rng) {
  static constexpr char kLetters[] = "PNBRQKpnbrqk";
  for (int p = 0; p < playouts && !::testing::Test::HasFailure(); ++p) {
    auto g = chess_ns::Chess::create({});
    ASSERT_TRUE(g.has_value());
    State s = m.initial_state();
    for (int ply = 0; ply < plies && !::testing::Test::HasFailure(); ++ply) {
      SCOPED_TRACE("playout " + std::to_string(p) + " ply " + std::to_string(ply) + " " +
                   g->serialize());
      std::array<char, 64> board;
      board.fill('.');
      for (TermId f : s) {
        const auto a = arg_names(m, f);
        if (name_of(m, f) == "cell" && a[2] != "b") board[chess_square(a[0], a[1])] = chess_letter(a[2]);
      }
      for (int sq = 0; sq < 64; ++sq) {
        const auto code = g->piece_on(sq);
        EXPECT_EQ(board[sq], code == chess_ns::kNoPiece ? '.' : kLetters[code]) << "square " << sq;
      }
      const int mover = index(g->side_to_move());
      EXPECT_EQ(control_of(m, s), mover == 0 ? "white" : "black");
      EXPECT_FALSE(m.is_terminal(s));
      std::map<std::pair<int, int>, Move> gdl;
      for (Move mv : m.legal_moves(s, mover)) {
        const auto a = arg_names(m, mv);
        gdl[{chess_square(a[1], a[2]), chess_square(a[3], a[4])}] = mv;
      }
      chess_ns::Chess::MoveList list;
      g->generate_moves(list);
      std::set<std::pair<int, int>> gdl_squares, native;
      for (const auto& [squares, mv] : gdl) gdl_squares.insert(squares);
      for (const auto& mv : list) native.insert({mv.from(), mv.to()});
      EXPECT_EQ(gdl_squares, native);
      std::vector<chess_ns::Move> playable;
      for (const auto& mv : list)
        if (gdl.count({mv.from(), mv.to()}) &&
            (mv.kind() != chess_ns::Move::Kind::kPromotion || mv.promotion() == chess_ns::PieceType::kQueen))
          playable.push_back(mv);
      if (playable.empty() || ::testing::Test::HasFailure()) break;
      const auto mv = playable[std::uniform_int_distribution<std::size_t>(0, playable.size() - 1)(rng)];
      s = m.next_state(s, with_move(waiting_joint(m, s, mover), mover, gdl[{mv.from(), mv.to()}]));
      g->make_move(mv);
    }
  }
}

TEST(NativeCrosscheck, ChessOpeningPliesAgreeWithNativeChess) {
  auto m = reasoner(sheet_path("chess"), Kind::kProver);
  ASSERT_TRUE(m);
  ASSERT_EQ(role_index(*m, "white"), 0);
  std::mt19937 rng(64);
  check_chess_plies(*m, 2, 5, rng);
}

}  // namespace
}  // namespace arena::gdl
