#include "games/core/turn_rows.h"

namespace arena {

RowReplay replay_rows(AnyGame& game, const std::vector<std::string>& rows, bool positions,
                      const std::function<void()>& after_turn) {
  RowReplay out;
  std::size_t next = 0;
  for (int turn = 0; next < rows.size(); ++turn) {
    const std::vector<int> movers = game.movers();
    if (movers.empty()) {
      out.error = "the game is over after " + std::to_string(next) + " of " +
                  std::to_string(rows.size()) + " moves";
      return out;
    }
    if (rows.size() - next < movers.size()) {
      out.error = "the last turn is incomplete: " + std::to_string(rows.size() - next) + " of " +
                  std::to_string(movers.size()) + " moves";
      return out;
    }
    const auto first = rows.begin() + static_cast<std::ptrdiff_t>(next);
    const std::vector<std::string> turn_moves(first,
                                              first + static_cast<std::ptrdiff_t>(movers.size()));
    if (auto played = game.play_turn(turn_moves); !played) {
      out.error = "move " + std::to_string(next + 1) + " does not replay: " + played.error();
      return out;
    }
    for (int seat : movers) out.rows.push_back({seat, turn});
    if (positions) out.positions.push_back(game.serialize());
    if (after_turn) after_turn();
    next += movers.size();
  }
  return out;
}

}  // namespace arena
