#include "games/catalog/notation.h"

#include <memory>

#include "games/chess/chess.h"

namespace arena {
namespace {

using ChessGame = GameAdapter<chess::Chess>;

// SAN of `move` (the game's own text) in `before`'s position; empty if it is not legal there.
std::string san_of(const ChessGame& before, const std::string& move) {
  const auto parsed = before.game().parse_move(move);
  return parsed ? before.game().to_san(*parsed) : std::string();
}

}  // namespace

std::vector<std::string> display_history(const AnyGame& game) {
  if (dynamic_cast<const ChessGame*>(&game) == nullptr || game.history().empty()) return {};
  const std::vector<std::string>& played = game.history();
  std::unique_ptr<AnyGame> replay = game.clone();
  while (replay->undo()) {
  }
  const auto& board = dynamic_cast<const ChessGame&>(*replay);
  std::vector<std::string> out;
  out.reserve(played.size());
  for (const auto& move : played) {
    std::string san = san_of(board, move);
    if (san.empty() || !replay->play(move)) return {};
    out.push_back(std::move(san));
  }
  return out;
}

std::string last_move_display(const AnyGame& game) {
  if (dynamic_cast<const ChessGame*>(&game) == nullptr || game.history().empty()) return {};
  std::unique_ptr<AnyGame> before = game.clone();
  before->undo();
  return san_of(dynamic_cast<const ChessGame&>(*before), game.history().back());
}

}  // namespace arena
