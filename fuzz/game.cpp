// A game's position and move parsers: the text a client sends as a position (puzzle_start's
// state, a league's or the CLI's start position), as game options (seek, challenge) and as
// moves. Built once per game (ARENA_FUZZ_CHESS, ...): chess FEN with UCI and SAN moves,
// checkers PDN FEN with PDN moves, Othello, Isolation, tic-tac-toe and qubic, the sliding
// puzzles and the cube.
//
// Input: for the targets of two games (tictactoe: tictactoe or qubic; puzzles: sliding or
// rubik) a first line naming the game; then a line with the position as serialize() prints it,
// or "options:" and key=value options for create(); then one move per line.
//
// Promises: no crash, leak, hang or undefined behaviour for any text; and for what is
// accepted: a position's text reads back to the same text, hash and legal moves; a parsed move
// is one of the legal moves, its canonical text parses back to it (SAN too for chess); moves
// made and unmade give back the position and its hash; the catalog's load_game and play agree
// with the rules class.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_check.h"
#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"

namespace {

using namespace arena;

constexpr std::size_t kMaxMoves = 256;

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (true) {
    auto nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

template <Game G>
std::vector<std::string> legal_texts(const G& g) {
  typename G::MoveList list;
  g.generate_moves(list);
  std::vector<std::string> out;
  for (const auto& m : list) out.push_back(g.move_to_string(m));
  return out;
}

template <Game G>
void check_reads_back(const G& g) {
  const std::string text = g.serialize();
  auto again = G::deserialize(text);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(again->serialize() == text);
  FUZZ_CHECK(again->hash() == g.hash());
  FUZZ_CHECK(legal_texts(*again) == legal_texts(g));
}

template <Game G>
void fuzz_game(std::string_view position, const std::vector<std::string_view>& moves) {
  Expected<G> start = make_error("");
  if (position.starts_with("options:")) {
    auto options = parse_game_options(position.substr(8));
    if (!options) return;
    start = G::create(*options);
  } else {
    start = G::deserialize(position);
  }
  if (!start) {
    FUZZ_CHECK(!start.error().empty());
    return;
  }
  G g = *start;
  check_reads_back(g);
  const std::string start_text = g.serialize();
  const std::uint64_t start_hash = g.hash();

  // The catalog's type-erased game, as the server holds it.
  auto any = load_game(G::kName, start_text);
  FUZZ_CHECK(any.has_value());

  std::vector<typename G::Move> made;
  for (std::string_view text : moves) {
    if (made.size() >= kMaxMoves) break;
    if (G::kNumPlayers > 1 && g.outcome().is_terminal()) break;
    auto m = g.parse_move(text);
    auto played = (*any)->play(text);
    FUZZ_CHECK(played.has_value() == m.has_value());
    if (!m) continue;
    typename G::MoveList list;
    g.generate_moves(list);
    FUZZ_CHECK(std::find(list.begin(), list.end(), *m) != list.end());
    const std::string canonical = g.move_to_string(*m);
    FUZZ_CHECK(*played == canonical);
    auto reparsed = g.parse_move(canonical);
    FUZZ_CHECK(reparsed.has_value() && *reparsed == *m);
    if constexpr (std::is_same_v<G, chess::Chess>) {
      const std::string san = g.to_san(*m);
      auto from_san = g.parse_san(san);
      FUZZ_CHECK(from_san.has_value() && *from_san == *m);
    }
    g.make_move(*m);
    made.push_back(*m);
    FUZZ_CHECK((*any)->serialize() == g.serialize());
  }
  if (!made.empty()) check_reads_back(g);
  for (auto it = made.rbegin(); it != made.rend(); ++it) g.unmake_move(*it);
  FUZZ_CHECK(g.serialize() == start_text);
  FUZZ_CHECK(g.hash() == start_hash);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return -1;
  auto lines = split_lines(std::string_view(reinterpret_cast<const char*>(data), size));
#if defined(ARENA_FUZZ_TICTACTOE) || defined(ARENA_FUZZ_PUZZLES)
  const std::string_view name = lines.front();
  lines.erase(lines.begin());
  if (lines.empty()) return 0;
#endif
  const std::string_view position = lines.front();
  const std::vector<std::string_view> moves(lines.begin() + 1, lines.end());
#if defined(ARENA_FUZZ_CHESS)
  fuzz_game<chess::Chess>(position, moves);
#elif defined(ARENA_FUZZ_CHECKERS)
  fuzz_game<checkers::Checkers>(position, moves);
#elif defined(ARENA_FUZZ_OTHELLO)
  fuzz_game<othello::Othello>(position, moves);
#elif defined(ARENA_FUZZ_ISOLATION)
  fuzz_game<isolation::Isolation>(position, moves);
#elif defined(ARENA_FUZZ_TICTACTOE)
  if (name == tictactoe::TicTacToe::kName) fuzz_game<tictactoe::TicTacToe>(position, moves);
  if (name == tictactoe::Qubic::kName) fuzz_game<tictactoe::Qubic>(position, moves);
#elif defined(ARENA_FUZZ_PUZZLES)
  if (name == puzzles::SlidingPuzzle::kName) fuzz_game<puzzles::SlidingPuzzle>(position, moves);
  if (name == puzzles::RubiksCube::kName) fuzz_game<puzzles::RubiksCube>(position, moves);
#else
#error "define the game: ARENA_FUZZ_CHESS, ARENA_FUZZ_CHECKERS, ..."
#endif
  return 0;
}
