// The codec decodes every client message, names the bad field, and enforces the depth limit.

#include "protocol/codec.h"

#include <string>

#include <gtest/gtest.h>

namespace arena::protocol {
namespace {

ErrorCode error_of(std::string_view text) {
  Decoded d = decode_client_message(text);
  EXPECT_FALSE(d.message.has_value()) << text;
  return d.error.code;
}

TEST(Codec, DecodesAMoveWithSearchInfo) {
  Decoded d = decode_client_message(
      R"({"type":"move","game_id":7,"move":"e2e4","client_id":"m1",)"
      R"("info":{"depth":5,"nodes":1234,"score":-20,"pv":["e2e4","e7e5"],"time_ms":12}})");
  ASSERT_TRUE(d.message.has_value()) << d.error.message;
  const auto& m = std::get<MoveRequest>(*d.message);
  EXPECT_EQ(m.game_id, 7);
  EXPECT_EQ(m.move, "e2e4");
  EXPECT_EQ(m.client_id, "m1");
  ASSERT_TRUE(m.info.has_value());
  EXPECT_EQ(m.info->depth, 5);
  EXPECT_EQ(m.info->nodes, 1234);
  EXPECT_EQ(m.info->score, -20);
  EXPECT_EQ(m.info->pv.size(), 2u);
}

TEST(Codec, EncodeThenDecodeGivesTheSameType) {
  const ClientMessage messages[] = {Hello{1, "ann", ""},
                                    Seek{"tictactoe", "", "none"},
                                    CancelSeek{3, false},
                                    Challenge{"bob", "chess", "", "fischer:60000+1000"},
                                    Accept{4, true},
                                    Decline{5},
                                    MoveRequest{1, "a1", "c1", {}},
                                    GameAction{GameActionKind::kClaimWin, 2},
                                    Watch{9, 3},
                                    Unwatch{9},
                                    Resume{9, 4},
                                    PuzzleStart{"sliding", "size=3", "", 5, 4},
                                    PuzzleMove{2, "up"},
                                    PuzzleSolution{2, {"up", "left"}},
                                    Ping{"x"},
                                    SetName{"Ann Lovelace"}};
  for (const auto& m : messages) {
    Decoded d = decode_client_message(encode(m));
    ASSERT_TRUE(d.message.has_value()) << encode(m) << ": " << d.error.message;
    EXPECT_EQ(type_of(*d.message), type_of(m));
    EXPECT_EQ(d.message->index(), m.index());
  }
}

// hello.engine (what a bot plays with) goes there and back; a bad one is refused naming the
// field inside it.
TEST(Codec, HelloCarriesItsEngine) {
  const Hello with{3, "bot", "", Engine{"alphabeta:depth=3", "material", "w=1,2"}};
  Decoded d = decode_client_message(encode(with));
  ASSERT_TRUE(d.message.has_value()) << d.error.message;
  EXPECT_EQ(std::get<Hello>(*d.message).engine, with.engine);
  d = decode_client_message(encode(Hello{3, "bot", ""}));
  ASSERT_TRUE(d.message.has_value()) << d.error.message;
  EXPECT_FALSE(std::get<Hello>(*d.message).engine.has_value());

  auto refused = [](const std::string& engine) {
    return decode_client_message(R"({"type":"hello","version":3,"engine":)" + engine + "}").error;
  };
  EXPECT_EQ(refused("\"ab\"").message, "field 'engine' must be an object");
  EXPECT_EQ(refused("{}").message, "in 'engine': missing field 'search'");
  EXPECT_EQ(refused(R"({"search":""})").message, "in 'engine': field 'search' must not be empty");
  const ProtocolError long_heuristic =
      refused(R"({"search":"id","heuristic":")" + std::string(65, 'h') + "\"}");
  EXPECT_EQ(long_heuristic.code, ErrorCode::kBadField);
  EXPECT_EQ(long_heuristic.message, "in 'engine': field 'heuristic' is longer than 64 bytes");
}

TEST(Codec, MalformedJsonIsBadJson) {
  EXPECT_EQ(error_of("{\"type\":"), ErrorCode::kBadJson);
  EXPECT_EQ(error_of("[1,2]"), ErrorCode::kBadJson);
}

TEST(Codec, UnknownTypeIsNamed) {
  Decoded d = decode_client_message(R"({"type":"teleport"})");
  EXPECT_EQ(d.error.code, ErrorCode::kUnknownType);
  EXPECT_NE(d.error.message.find("teleport"), std::string::npos);
}

TEST(Codec, MissingFieldIsNamed) {
  Decoded d = decode_client_message(R"({"type":"move","game_id":1,"client_id":"a"})");
  EXPECT_EQ(d.error.code, ErrorCode::kMissingField);
  EXPECT_NE(d.error.message.find("'move'"), std::string::npos);
}

TEST(Codec, WrongFieldTypeIsNamed) {
  Decoded d = decode_client_message(R"({"type":"move","game_id":"1","move":"a","client_id":"a"})");
  EXPECT_EQ(d.error.code, ErrorCode::kBadField);
  EXPECT_NE(d.error.message.find("'game_id'"), std::string::npos);
  EXPECT_EQ(error_of(R"({"type":"hello","version":1.5})"), ErrorCode::kBadField);
  EXPECT_EQ(error_of(R"({"type":"puzzle_solution","puzzle_id":1,"moves":[1]})"),
            ErrorCode::kBadField);
  EXPECT_EQ(error_of(R"({"type":"watch","game_id":0})"), ErrorCode::kBadField);
}

TEST(Codec, NestingDeeperThanTheLimitIsRefusedBeforeParsing) {
  std::string deep = R"({"type":"ping","x":)" + std::string(kMaxJsonDepth, '[') +
                     std::string(kMaxJsonDepth, ']') + "}";
  EXPECT_EQ(error_of(deep), ErrorCode::kTooDeep);
  std::string ok = R"({"type":"ping","x":)" + std::string(kMaxJsonDepth - 1, '[') +
                   std::string(kMaxJsonDepth - 1, ']') + "}";
  EXPECT_TRUE(decode_client_message(ok).message.has_value());
}

TEST(Codec, BracketsInsideStringsDoNotCountAsNesting) {
  EXPECT_EQ(json_depth(R"({"a":"[[[[[\"[[["})", 100), 1);
}

TEST(Codec, ErrorsEncodeCodeMessageAndRef) {
  auto j = Json::parse(encode_error(ErrorCode::kIllegalMove, "illegal move 'z9'", "move"));
  EXPECT_EQ(j["type"], "error");
  EXPECT_EQ(j["code"], "illegal_move");
  EXPECT_EQ(j["ref"], "move");
}

}  // namespace
}  // namespace arena::protocol
