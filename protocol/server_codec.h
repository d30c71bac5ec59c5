#pragma once
// The server-to-client half of the codec: every ServerMessage encodes to the frame the
// protocol documents (protocol/README.md, protocol/schema/TYPE.json) and decodes back, so
// the server builds no message by hand and a client (bots/client) reads typed messages.
// Decoding checks every field a message needs and names the one that is missing or of the
// wrong type. Thread-safe: pure functions.

#include <optional>
#include <string>
#include <string_view>

#include "games/core/expected.h"
#include "protocol/codec.h"
#include "protocol/messages.h"

namespace arena::protocol {

Json to_json(const WelcomeMessage& m);
Json to_json(const GameSummary& g);
Json to_json(const LobbyMessage& m);
Json to_json(const SeekCreatedMessage& m);
Json to_json(const ChallengeCreatedMessage& m);
Json to_json(const ChallengeOfferMessage& m);
Json to_json(const CancelledMessage& m);
Json to_json(const DeclinedMessage& m);
Json to_json(const DrawOfferMessage& m);
Json to_json(const DrawDeclinedMessage& m);
Json to_json(const MoveAckMessage& m);
Json to_json(const PuzzleStateMessage& m);
Json to_json(const PuzzleEndMessage& m);
Json to_json(const PongMessage& m);
Json to_json(const NameSetMessage& m);
Json to_json(const ErrorMessage& m);

// The "type" a ServerMessage is sent with.
std::string type_of(const ServerMessage& message);
Json to_json(const ServerMessage& message);
// The frame's text (invalid UTF-8 in a string replaced, never an exception).
std::string encode(const ServerMessage& message);

// A server frame back into its message; the error names the type and the bad field.
Expected<ServerMessage> decode_server_message(std::string_view text);
Expected<ServerMessage> decode_server_json(const Json& j);
// Whether `type` names one of the ServerMessage types.
bool is_server_message_type(std::string_view type);
// A frame as a client reads it: a frame of a type this version does not know (a later
// version's) is nothing to act on (nullopt), as protocol/README.md asks; an unreadable frame or
// a known type with a missing or bad field is an error naming it.
Expected<std::optional<ServerMessage>> decode_server_frame(std::string_view text);

}  // namespace arena::protocol
