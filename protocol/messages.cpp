#include "protocol/messages.h"

namespace arena::protocol {

std::string_view to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::kBadJson:
      return "bad_json";
    case ErrorCode::kTooDeep:
      return "too_deep";
    case ErrorCode::kUnknownType:
      return "unknown_type";
    case ErrorCode::kMissingField:
      return "missing_field";
    case ErrorCode::kBadField:
      return "bad_field";
    case ErrorCode::kRateLimited:
      return "rate_limited";
    case ErrorCode::kHelloRequired:
      return "hello_required";
    case ErrorCode::kBadVersion:
      return "bad_version";
    case ErrorCode::kUnknownGame:
      return "unknown_game";
    case ErrorCode::kBadOptions:
      return "bad_options";
    case ErrorCode::kBadTimeControl:
      return "bad_time_control";
    case ErrorCode::kNoSuchSeek:
      return "no_such_seek";
    case ErrorCode::kNoSuchChallenge:
      return "no_such_challenge";
    case ErrorCode::kNoSuchPlayer:
      return "no_such_player";
    case ErrorCode::kNoSuchGame:
      return "no_such_game";
    case ErrorCode::kNotYourGame:
      return "not_your_game";
    case ErrorCode::kNotYourTurn:
      return "not_your_turn";
    case ErrorCode::kAlreadyMoved:
      return "already_moved";
    case ErrorCode::kIllegalMove:
      return "illegal_move";
    case ErrorCode::kGameOver:
      return "game_over";
    case ErrorCode::kNoDrawOffer:
      return "no_draw_offer";
    case ErrorCode::kDrawNotPossible:
      return "draw_not_possible";
    case ErrorCode::kCannotAbort:
      return "cannot_abort";
    case ErrorCode::kCannotClaim:
      return "cannot_claim";
    case ErrorCode::kNoSuchPuzzle:
      return "no_such_puzzle";
    case ErrorCode::kNotSolved:
      return "not_solved";
    case ErrorCode::kBusy:
      return "busy";
    case ErrorCode::kInternal:
      return "internal";
  }
  return "internal";
}

}  // namespace arena::protocol
