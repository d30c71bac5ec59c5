// The prunings of the iterative engine (bots/search/alphabeta.h), each checked on its own:
// aspiration windows and PVS keep the value of plain alpha-beta at a fixed depth; null move
// and late move reductions still find the mates and tactics of Win At Chess and Bratko-Kopec
// that the full-width search finds; null move is used only where the game allows it; and
// each option, switched off, changes the node count (so it is really switched).

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bots/search/alphabeta.h"
#include "bots/search/minimax.h"
#include "bots/search/search_rng.h"
#include "games/checkers/checkers.h"
#include "games/chess/chess.h"
#include "games/isolation/isolation.h"
#include "games/othello/othello.h"
#include "tests/bots/search_chess_material.h"
#include "tests/bots/search_toy_games.h"

namespace arena::search {
namespace {

using chess::Chess;
using test::HashEval;
using test::RandomTree;

static_assert(HasNullMove<Chess>);
static_assert(!HasNullMove<othello::Othello>, "Othello's passes are moves; zugzwang is common");
static_assert(!HasNullMove<checkers::Checkers>, "checkers is full of zugzwang");
static_assert(!HasNullMove<isolation::Isolation>, "Isolation is full of zugzwang");

// The iterative engine without a table (so no value comes from a deeper transposition) and
// without the selective parts, with aspiration and PVS as asked.
AlphaBetaOptions exact(bool aspiration, bool pvs) {
  AlphaBetaOptions o = AlphaBetaOptions::full_width();
  o.transposition = false;
  o.aspiration = aspiration;
  o.pvs = pvs;
  return o;
}

using test::random_positions;

TEST(Pruning, AspirationAndPvsKeepTheMinimaxValueOnRandomTrees) {
  for (std::uint64_t seed = 200; seed <= 220; ++seed) {
    RandomTree tree(seed);
    for (int depth : {3, 5, 7}) {
      Minimax<RandomTree, HashEval> mm(HashEval{});
      const int expected = mm.search(tree, Limits::to_depth(depth)).info.score;
      for (auto [aspiration, pvs] : {std::pair{true, false}, {false, true}, {true, true}}) {
        AlphaBetaOptions o = exact(aspiration, pvs);
        o.aspiration_delta = 3;  // narrow, so that the window fails and is widened often
        AlphaBeta<RandomTree, HashEval> ab(HashEval{}, o);
        EXPECT_EQ(ab.search(tree, Limits::to_depth(depth)).info.score, expected)
            << "seed " << seed << " depth " << depth << " aspiration " << aspiration << " pvs "
            << pvs;
      }
    }
  }
}

// Aspiration and PVS, each alone and together, give the value of the engine with neither,
// at a fixed depth, on random positions of the game, and search another number of nodes
// (not always fewer: with a random evaluation, the null windows fail often and are
// searched again; bench_search measures the real evaluations).
template <class G, class Eval>
void expect_same_value(const G& start, Eval eval, int depth, int count, bool quiescence = false) {
  std::uint64_t nodes_without = 0, nodes_with = 0;
  for (const G& g : random_positions(start, count, 30, 91)) {
    AlphaBetaOptions base = exact(false, false);
    base.quiescence = quiescence;
    AlphaBeta<G, Eval> reference(eval, base);
    const auto r = reference.search(g, Limits::to_depth(depth));
    nodes_without += r.info.nodes;
    for (auto [aspiration, pvs] : {std::pair{true, false}, {false, true}, {true, true}}) {
      AlphaBetaOptions o = exact(aspiration, pvs);
      o.quiescence = quiescence;
      AlphaBeta<G, Eval> ab(eval, o);
      const auto x = ab.search(g, Limits::to_depth(depth));
      EXPECT_EQ(x.info.score, r.info.score)
          << g.serialize() << " aspiration " << aspiration << " pvs " << pvs;
      if (aspiration && pvs) nodes_with += x.info.nodes;
    }
  }
  EXPECT_NE(nodes_with, nodes_without);
}

TEST(Pruning, AspirationAndPvsKeepTheValueInOthello) {
  expect_same_value(othello::Othello::create({}).value(), HashEval{}, 5, 6);
}

TEST(Pruning, AspirationAndPvsKeepTheValueInCheckers) {
  expect_same_value(checkers::Checkers::create({}).value(), HashEval{}, 6, 6);
}

TEST(Pruning, AspirationAndPvsKeepTheValueInIsolation) {
  expect_same_value(isolation::Isolation::create({{"size", "5"}}).value(), HashEval{}, 5, 6);
}

TEST(Pruning, AspirationAndPvsKeepTheValueInChessWithQuiescence) {
  expect_same_value(Chess::create({}).value(), test::ChessMaterial{}, 4, 4, true);
}

struct Tactic {
  std::string id;
  std::string fen;
  std::vector<std::string> best;  // SAN, as the suite gives it
};

// The first `count` positions of an EPD suite in tests/data (wac.epd, bratko_kopec.epd).
std::vector<Tactic> read_suite(const std::string& name, int count) {
  std::ifstream in(std::string(ARENA_TEST_DATA_DIR) + "/" + name);
  EXPECT_TRUE(in) << name;
  std::vector<Tactic> out;
  std::string line;
  while (static_cast<int>(out.size()) < count && std::getline(in, line)) {
    const auto bm = line.find(" bm ");
    if (line.empty() || line[0] == '#' || bm == std::string::npos) continue;
    Tactic t;
    t.fen = line.substr(0, bm);
    const auto semi = line.find(';', bm);
    std::istringstream moves(line.substr(bm + 4, semi - bm - 4));
    for (std::string m; moves >> m;) t.best.push_back(m);
    const auto id = line.find("id \"", semi);
    if (id != std::string::npos) t.id = line.substr(id + 4, line.find('"', id + 4) - id - 4);
    out.push_back(t);
  }
  return out;
}

// The SAN of the move a search with `options` plays in `t` at `depth`.
std::string played(const Tactic& t, const AlphaBetaOptions& options, int depth) {
  const Chess g = Chess::deserialize(t.fen).value();
  AlphaBeta<Chess, test::ChessMaterial> ab(test::ChessMaterial{}, options);
  const auto r = ab.search(g, Limits::to_depth(depth));
  return r.move ? g.to_san(*r.move) : "-";
}

bool solves(const Tactic& t, const std::string& san) {
  // The suites' SAN may carry check marks that to_san prints too, or not.
  for (std::string b : t.best) {
    if (b == san) return true;
    if (!b.empty() && (b.back() == '+' || b.back() == '#')) b.pop_back();
    std::string s = san;
    if (!s.empty() && (s.back() == '+' || s.back() == '#')) s.pop_back();
    if (b == s) return true;
  }
  return false;
}

// Mates in two from Win At Chess: WAC.001, 004, 027, 054.
const char* const kMatesInTwo[] = {
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
    "7k/pp4np/2p3p1/3pN1q1/3P4/Q7/1r3rPP/2R2RK1 w - - 0 1",
    "r3kr2/1pp4p/1p1p4/7q/4P1n1/2PP2Q1/PP4P1/R1BB2K1 b q - 0 1",
};

// The full-width engine with null move and LMR as asked, quiescence on.
AlphaBetaOptions selective(bool null_move, bool lmr) {
  AlphaBetaOptions o = AlphaBetaOptions::full_width();
  o.quiescence = true;
  o.null_move = null_move;
  o.lmr = lmr;
  return o;
}

TEST(Pruning, NullMoveAndLmrStillFindTheSuiteTacticsTheFullWidthSearchFinds) {
  std::vector<Tactic> suite = read_suite("wac.epd", 16);
  for (const Tactic& t : read_suite("bratko_kopec.epd", 4)) suite.push_back(t);
  constexpr int kDepth = 4;
  int found = 0;
  for (const Tactic& t : suite) {
    if (!solves(t, played(t, selective(false, false), kDepth))) continue;
    ++found;
    for (auto [null_move, lmr] : {std::pair{true, false}, {false, true}, {true, true}}) {
      const std::string san = played(t, selective(null_move, lmr), kDepth);
      EXPECT_TRUE(solves(t, san)) << t.id << " " << t.fen << ": played " << san
                                  << " with null move " << null_move << " lmr " << lmr;
    }
  }
  EXPECT_GE(found, 8) << "the full-width search should find at least half of these";
}

TEST(Pruning, NullMoveAndLmrStillFindTheMatesInTwo) {
  for (auto [null_move, lmr] : {std::pair{true, false}, {false, true}, {true, true}}) {
    for (const char* fen : kMatesInTwo) {
      const Chess g = Chess::deserialize(fen).value();
      AlphaBeta<Chess, test::ChessMaterial> ab(test::ChessMaterial{}, selective(null_move, lmr));
      const auto r = ab.search(g, Limits::to_depth(6));
      EXPECT_EQ(r.info.score, win_in(3)) << fen << " null move " << null_move << " lmr " << lmr;
    }
  }
}

// Node counts of the default engine at a fixed depth with one option changed.
// (No quiescence: without ordering it explodes.)
template <class G, class Eval>
std::uint64_t nodes_with(const G& g, Eval eval, int depth, void (*change)(AlphaBetaOptions&)) {
  AlphaBetaOptions o;
  change(o);
  AlphaBeta<G, Eval> ab(eval, o);
  return ab.search(g, Limits::to_depth(depth)).info.nodes;
}

using Change = void (*)(AlphaBetaOptions&);
const std::pair<const char*, Change> kSwitches[] = {
    {"ordering", [](AlphaBetaOptions& o) { o.ordering = false; }},
    {"transposition", [](AlphaBetaOptions& o) { o.transposition = false; }},
    {"killers", [](AlphaBetaOptions& o) { o.killers = false; }},
    {"history", [](AlphaBetaOptions& o) { o.history = false; }},
    {"aspiration", [](AlphaBetaOptions& o) { o.aspiration = false; }},
    {"pvs", [](AlphaBetaOptions& o) { o.pvs = false; }},
    {"null move", [](AlphaBetaOptions& o) { o.null_move = false; }},
    {"lmr", [](AlphaBetaOptions& o) { o.lmr = false; }},
};

TEST(Pruning, EachOptionSwitchedOffChangesTheNodeCountInChess) {
  // Kiwipete: captures, checks, castling; deep enough for every part to act (with a material
  // count, quiet moves rarely cut, so history first matters at depth 6).
  const Chess g =
      Chess::deserialize("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -")
          .value();
  const std::uint64_t all = nodes_with(g, test::ChessMaterial{}, 6, [](AlphaBetaOptions&) {});
  for (const auto& [name, change] : kSwitches)
    EXPECT_NE(nodes_with(g, test::ChessMaterial{}, 6, change), all) << name << " off";
}

TEST(Pruning, NullMoveIsNeverUsedWhereTheGameDoesNotAllowIt) {
  const Change null_off = [](AlphaBetaOptions& o) { o.null_move = false; };
  const Change same = [](AlphaBetaOptions&) {};
  const auto othello = othello::Othello::create({}).value();
  const auto checkers = checkers::Checkers::create({}).value();
  const auto isolation = isolation::Isolation::create({}).value();
  EXPECT_EQ(nodes_with(othello, HashEval{}, 7, null_off), nodes_with(othello, HashEval{}, 7, same));
  EXPECT_EQ(nodes_with(checkers, HashEval{}, 8, null_off),
            nodes_with(checkers, HashEval{}, 8, same));
  EXPECT_EQ(nodes_with(isolation, HashEval{}, 6, null_off),
            nodes_with(isolation, HashEval{}, 6, same));
  // And LMR, PVS and aspiration act in them.
  for (const auto& [name, change] : kSwitches) {
    if (std::string(name) == "null move") continue;
    EXPECT_NE(nodes_with(othello, HashEval{}, 7, change), nodes_with(othello, HashEval{}, 7, same))
        << name << " off in Othello";
  }
}

TEST(Pruning, ChessNullMoveIsNotTriedWithOnlyPawns) {
  // King and pawns only: zugzwang is common, so null move must change nothing.
  const Chess pawns = Chess::deserialize("8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1").value();
  const Change null_off = [](AlphaBetaOptions& o) { o.null_move = false; };
  const Change same = [](AlphaBetaOptions&) {};
  EXPECT_EQ(nodes_with(pawns, test::ChessMaterial{}, 8, null_off),
            nodes_with(pawns, test::ChessMaterial{}, 8, same));
}

TEST(Pruning, TheFixedDepthSearchIgnoresTheIterativeParts) {
  // The lab's search: {iterative off, table off, ordering on}; its values must stay exact.
  const AlphaBetaOptions lab{false, false, true, true, 10};
  for (const Chess& g : random_positions(Chess::create({}).value(), 4, 20, 5)) {
    AlphaBetaOptions without = lab;
    without.aspiration = without.pvs = without.null_move = without.lmr = false;
    AlphaBeta<Chess, test::ChessMaterial> a(test::ChessMaterial{}, lab);
    AlphaBeta<Chess, test::ChessMaterial> b(test::ChessMaterial{}, without);
    const auto ra = a.search(g, Limits::to_depth(3));
    const auto rb = b.search(g, Limits::to_depth(3));
    EXPECT_EQ(ra.info.score, rb.info.score) << g.serialize();
    EXPECT_EQ(ra.info.nodes, rb.info.nodes) << g.serialize();
  }
}

}  // namespace
}  // namespace arena::search
