#include "games/core/types.h"

namespace arena {

std::string_view to_string(Result r) {
  switch (r) {
    case Result::kOngoing:
      return "ongoing";
    case Result::kFirstWins:
      return "first-wins";
    case Result::kSecondWins:
      return "second-wins";
    case Result::kDraw:
      return "draw";
  }
  return "unknown";
}

std::string_view result_notation(Result r) {
  switch (r) {
    case Result::kFirstWins:
      return "1-0";
    case Result::kSecondWins:
      return "0-1";
    case Result::kDraw:
      return "1/2-1/2";
    case Result::kOngoing:
      break;
  }
  return "";
}

std::string_view to_string(EndReason r) {
  switch (r) {
    case EndReason::kNone:
      return "none";
    case EndReason::kLine:
      return "line";
    case EndReason::kBoardFull:
      return "board_full";
    case EndReason::kNoMoves:
      return "no_moves";
    case EndReason::kDiscCount:
      return "disc_count";
    case EndReason::kCheckmate:
      return "checkmate";
    case EndReason::kStalemate:
      return "stalemate";
    case EndReason::kThreefoldRepetition:
      return "threefold_repetition";
    case EndReason::kFiftyMoveRule:
      return "fifty_move_rule";
    case EndReason::kInsufficientMaterial:
      return "insufficient_material";
    case EndReason::kNoProgress:
      return "no_progress";
    case EndReason::kSolved:
      return "solved";
    case EndReason::kGoals:
      return "goals";
  }
  return "unknown";
}

}  // namespace arena
