#pragma once
// The JSON codec of the protocol: decoding a client frame into a ClientMessage with every
// field checked (errors name the field), and encoding server messages. Limits that can be
// checked on the text (nesting depth) are checked here; the frame size limit is the
// transport's (read_message_max). Thread-safe: pure functions.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "protocol/messages.h"

namespace arena::protocol {

using Json = nlohmann::json;

// The deepest nesting of arrays/objects in `text`, scanning at most until `limit` is
// exceeded (so a hostile frame costs one pass and no parse). Strings are skipped.
int json_depth(std::string_view text, int limit);

// Parses `text` as a JSON object with the depth limit; the error is kBadJson or kTooDeep.
struct ParsedJson {
  Json json;
  std::optional<ProtocolError> error;
};
ParsedJson parse_json_object(std::string_view text);

struct Decoded {
  std::optional<ClientMessage> message;
  ProtocolError error;   // meaningful when !message
  std::string ref_type;  // the "type" of the bad message, if it had one
};
Decoded decode_client_message(std::string_view text);

// The "type" a ClientMessage is sent with (for clients and tests).
std::string type_of(const ClientMessage& message);
std::string encode(const ClientMessage& message);

// Server messages.
Json to_json(const PlayerInfo& p);
Json to_json(const BoardLayout& b);
Json to_json(const GameStartMessage& g);  // version 0
Json to_json(const StateMessage& s);
// The state as its frame text, written directly (a state goes out with every move): the same
// bytes as to_json(s).dump(); strings that need escaping or UTF-8 checks go through nlohmann.
std::string encode_state(const StateMessage& s);
Json to_json(const MovedMessage& m);
Json to_json(const GameEndMessage& e);
Json to_json(const SeekJoinedMessage& m);
// "1-0", "0-1" or "1/2-1/2" from two seats' scores, or the scores joined by '-' for more.
std::string result_from_scores(const std::vector<int>& scores);
std::string encode_error(ErrorCode code, std::string_view message, std::string_view ref = {});
// Versions 1 and 2: a move is durable and became `version` (v3: only a resend's answer).
std::string encode_move_ack(std::int64_t game_id, std::string_view client_id, std::int64_t version);
// v3: the state event `state` (an encoded JSON object) as the mover's connection gets it,
// with the move's `client_id` added: that state is the move's acknowledgement.
std::string state_with_client_id(std::string_view state, std::string_view client_id);

}  // namespace arena::protocol
