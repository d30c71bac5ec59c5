// Server messages as the codec builds them (protocol/codec.h) against their JSON Schemas
// (protocol/schema/*.json): a small validator of the keywords the schemas use (type, const,
// enum, required, properties, items, minimum, maximum, minItems, maxItems, pattern), so that
// the documented schema and the code cannot drift apart. Also result_from_scores.

#include <fstream>
#include <set>
#include <random>
#include <regex>
#include <string>

#include <gtest/gtest.h>

#include "protocol/codec.h"
#include "protocol/server_codec.h"

namespace arena::protocol {
namespace {

Json schema(const std::string& name) {
  std::ifstream in(std::string(ARENA_SOURCE_DIR) + "/protocol/schema/" + name + ".json");
  EXPECT_TRUE(in.good()) << name;
  return Json::parse(in);
}

bool has_type(const Json& v, const std::string& type) {
  if (type == "integer") return v.is_number_integer();
  if (type == "number") return v.is_number();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "array") return v.is_array();
  if (type == "object") return v.is_object();
  if (type == "null") return v.is_null();
  return false;
}

// Every violation of `s` by `v`, with its path.
void validate(const Json& s, const Json& v, const std::string& path,
              std::vector<std::string>& errors) {
  auto fail = [&](const std::string& why) { errors.push_back(path + ": " + why); };
  if (s.contains("type")) {
    bool ok = false;
    if (s["type"].is_array()) {
      for (const auto& t : s["type"]) ok |= has_type(v, t);
    } else {
      ok = has_type(v, s["type"]);
    }
    if (!ok) return fail("is not " + s["type"].dump() + ": " + v.dump());
  }
  if (s.contains("const") && v != s["const"]) fail("is not " + s["const"].dump());
  if (s.contains("enum") &&
      std::find(s["enum"].begin(), s["enum"].end(), v) == s["enum"].end())
    fail(v.dump() + " is not one of " + s["enum"].dump());
  if (v.is_number() && s.contains("minimum") && v < s["minimum"]) fail("below the minimum");
  if (v.is_number() && s.contains("maximum") && v > s["maximum"]) fail("above the maximum");
  if (v.is_string() && s.contains("minLength") &&
      v.get<std::string>().size() < s["minLength"].get<std::size_t>())
    fail("is shorter than " + s["minLength"].dump());
  if (v.is_string() && s.contains("pattern") &&
      !std::regex_search(v.get<std::string>(), std::regex(s["pattern"].get<std::string>())))
    fail(v.dump() + " does not match " + s["pattern"].get<std::string>());
  if (v.is_object()) {
    for (const auto& key : s.value("required", Json::array()))
      if (!v.contains(key)) fail("misses required '" + key.get<std::string>() + "'");
    const Json properties = s.value("properties", Json::object());  // items() needs it alive
    for (const auto& [key, sub] : properties.items())
      if (v.contains(key)) validate(sub, v[key], path + "." + key, errors);
  }
  if (v.is_array()) {
    if (s.contains("minItems") && v.size() < s["minItems"]) fail("has too few items");
    if (s.contains("maxItems") && v.size() > s["maxItems"]) fail("has too many items");
    if (s.contains("items"))
      for (std::size_t i = 0; i < v.size(); ++i)
        validate(s["items"], v[i], path + "[" + std::to_string(i) + "]", errors);
  }
}

std::vector<std::string> violations(const std::string& name, const Json& message) {
  std::vector<std::string> errors;
  validate(schema(name), message, name, errors);
  return errors;
}

using Errors = std::vector<std::string>;

// The client's hello, with and without its engine, as the bot client encodes it, matches
// hello.json; an engine without a search does not.
TEST(ServerMessages, AHelloWithItsEngineMatchesItsSchema) {
  const Json with =
      Json::parse(encode(Hello{3, "bot", "", Engine{"id:eval=material", "material", ""}}));
  EXPECT_EQ(violations("hello", with), Errors{});
  EXPECT_EQ(violations("hello", Json::parse(encode(Hello{3, "bot", ""}))), Errors{});
  Json without_search = with;
  without_search["engine"].erase("search");
  EXPECT_EQ(violations("hello", without_search).size(), 1u);
}

TEST(ServerMessages, TheValidatorFindsViolations) {
  StateMessage s;
  Json j = to_json(s);
  j.erase("movers");
  j["to_move"] = "first";
  const auto errors = violations("state", j);
  EXPECT_EQ(errors.size(), 1u) << "to_move is no integer";
  j["to_move"] = 9;
  EXPECT_EQ(violations("state", j).size(), 1u) << "seat 9 is above the maximum";
  GameEndMessage e{1, 5, "2-1", "goals", {}, ""};
  EXPECT_EQ(violations("game_end", to_json(e)).size(), 1u) << "two scores are no result";
}

TEST(ServerMessages, StatesOfTwoAndOfSixSeatsMatchTheirSchema) {
  StateMessage two{3, 1, "0:0", 0, {"1", "2"}, std::vector<std::int64_t>{1000, 1000}, "", "",
                   {0}, std::nullopt, "", ""};
  EXPECT_EQ(violations("state", to_json(two)), Errors{});
  StateMessage six{3, 7, "(cell 1 1 b)", 2, {"noop"}, std::nullopt, "(mark 1 1) noop", "",
                   {2, 5}, std::vector<std::vector<std::string>>(6), "", ""};
  (*six.legal_moves_by_seat)[2] = {"noop"};
  (*six.legal_moves_by_seat)[5] = {"(mark 1 1)", "(mark 1 2)"};
  const Json j = to_json(six);
  EXPECT_EQ(violations("state", j), Errors{});
  EXPECT_EQ(j["movers"], Json::array({2, 5}));
  EXPECT_EQ(j["legal_moves_by_seat"][5][1], "(mark 1 2)");
  EXPECT_TRUE(j["clocks"].is_null());
  EXPECT_FALSE(to_json(two).contains("legal_moves_by_seat")) << "turn-taking games omit it";
}

TEST(ServerMessages, GameStartMovedEndAndSeekJoinedMatchTheirSchema) {
  GameStartMessage g{9, "gdl:ticTacToe", "", "none",
                     {{1, "ann", false}, {2, "bob", true}, {3, "cid", false}},
                     {}, {"red", "green", "blue"}, true,
                     BoardLayout{"cell", {"1", "2", "3"}, {"a", "b"}}, 0, {}};
  const Json start = to_json(g);
  EXPECT_EQ(violations("game_start", start), Errors{});
  EXPECT_EQ(start["board"]["cols"], Json::array({"a", "b"}));
  g.board.reset();
  EXPECT_EQ(violations("game_start", to_json(g)), Errors{});
  EXPECT_EQ(violations("moved", to_json(MovedMessage{9, 4, 2})), Errors{});
  EXPECT_EQ(violations("game_end",
                       to_json(GameEndMessage{9, 5, "0-100-50", "goals", {0, 100, 50}, ""})),
            Errors{});
  EXPECT_EQ(violations("game_end", to_json(GameEndMessage{9, 5, "*", "aborted", {}, ""})),
            Errors{});
  EXPECT_TRUE(to_json(GameEndMessage{9, 5, "*", "aborted", {}, ""})["scores"].is_null());
  EXPECT_FALSE(to_json(GameEndMessage{9, 5, "*", "aborted", {}, ""}).contains("note"))
      << "no note: no field";
  Json noted = to_json(GameEndMessage{9, 5, "1/2-1/2", "goals", {0, 0}, "no goal value"});
  EXPECT_EQ(noted["note"], "no goal value");
  EXPECT_EQ(violations("game_end", noted), Errors{});
  noted["note"] = "";
  EXPECT_EQ(violations("game_end", noted).size(), 1u) << "a note is never empty";
  EXPECT_EQ(violations("seek_joined",
                       to_json(SeekJoinedMessage{4, "tally", 3, {{1, "ann", false}, {2, "b", true}}})),
            Errors{});
}

TEST(ServerMessages, TheMoversStateCarriesItsClientIdAndMoveAckMatchesItsSchema) {
  StateMessage s{3, 2, "2:1", 1, {"1", "2"}, std::nullopt, "2", "", {1}, std::nullopt, "", ""};
  const std::string plain = to_json(s).dump();
  const std::string text = state_with_client_id(plain, "a\"1");
  const Json j = Json::parse(text);
  EXPECT_EQ(violations("state", j), Errors{});
  EXPECT_EQ(j["client_id"], "a\"1") << "escaped as JSON";
  Json without = j;
  without.erase("client_id");
  EXPECT_EQ(without, Json::parse(plain)) << "the rest is the event as everyone gets it";
  EXPECT_EQ(Json::parse(state_with_client_id("{}", "x")), Json({{"client_id", "x"}}));
  const Json ack = Json::parse(encode_move_ack(3, "a1", 2));
  EXPECT_EQ(violations("move_ack", ack), Errors{});
  EXPECT_EQ(ack["version"], 2);
}

// Every server-to-client message: one of each type, as the server sends it, matches its schema
// (protocol/schema/TYPE.json) and decodes back to the same message.
std::vector<ServerMessage> one_of_each() {
  const PlayerInfo ann{1, "ann", false}, bob{2, "bob", true};
  return {
      WelcomeMessage{ann, "arena 0.1.0", 3, "s3cr3t", {4, 9}, {65536, 32, 200, 400, 30000}},
      LobbyMessage{{LobbySeek{5, ann, "tictactoe", "", "none", 2, {}},
                    LobbySeek{6, bob, "gdl:3pttc", "", "movetime:100", 3, {ann}}},
                   {ann, bob},
                   7,
                   {GameSummary{4, "chess", "", "fischer:60000+1000", {ann, bob}, 12, 13, true, "", ""}},
                   1},
      SeekCreatedMessage{5},
      SeekJoinedMessage{6, "gdl:3pttc", 3, {bob, ann}},
      ChallengeCreatedMessage{8},
      ChallengeOfferMessage{8, ann, "othello", "", "none"},
      CancelledMessage{5, false},
      CancelledMessage{8, true},
      DeclinedMessage{8, bob},
      GameStartMessage{4, "chess", "", "none", {ann, bob}, {"e4"}, {"white", "black"}, false,
                       std::nullopt, 0, {"e4"}},
      StateMessage{4, 2, "fen", 1, {"e5"}, std::vector<std::int64_t>{1000, 900}, "e4", "", {1},
                   std::nullopt, "e4", ""},
      StateMessage{4, 3, "fen", 0, {"Nf3"}, std::nullopt, "e5", "", {0}, std::nullopt, "", "g4v2"},
      MovedMessage{4, 3, 1},
      DrawOfferMessage{4, 3, 0},
      DrawDeclinedMessage{4, 4, 1},
      MoveAckMessage{4, "a1", 2},
      GameEndMessage{4, 9, "1-0", "checkmate", {100, 0}, ""},
      GameEndMessage{5, 3, "1/2-1/2", "goals", {0, 0}, "goal of white: no goal value"},
      PuzzleStateMessage{11, "sliding", 2, "1 2 3", {"up", "left"}, {"down", "right"}, {}},
      PuzzleStateMessage{13,
                         "gdl:lights",
                         0,
                         "((cell 1 1 off))",
                         {"(press 1 1)"},
                         {},
                         BoardLayout{"cell", {"1", "2"}, {"1", "2"}}},
      PuzzleEndMessage{11, true, 14, 12, 2500, 100, ""},
      PuzzleEndMessage{12, true, 30, std::nullopt, 900, 100, ""},
      PuzzleEndMessage{13, false, 5, std::nullopt, 700, 25, "no goal value holds for p"},
      PongMessage{"p1"},
      ErrorMessage{ErrorCode::kIllegalMove, "e9 is not legal", "move"},
      NameSetMessage{PlayerInfo{7, "Ann Lovelace", false}},
  };
}

TEST(ServerMessages, EveryTypeMatchesItsSchemaAndDecodesToTheSameMessage) {
  std::set<std::string> types;
  for (const ServerMessage& m : one_of_each()) {
    const std::string type = type_of(m);
    types.insert(type);
    const Json j = Json::parse(encode(m));
    EXPECT_EQ(violations(type, j), Errors{}) << j.dump();
    auto back = decode_server_message(encode(m));
    ASSERT_TRUE(back) << type << ": " << back.error();
    EXPECT_EQ(back->index(), m.index()) << type;
    EXPECT_EQ(to_json(*back), to_json(m)) << type;
  }
  EXPECT_EQ(types.size(), std::variant_size_v<ServerMessage>) << "one of each type";
}

// The mover's state, encoded from its message, is the frame the server writes by splicing the
// client_id into the state every connection gets.
TEST(ServerMessages, AStateWithItsClientIdIsTheSplicedFrame) {
  StateMessage s{3, 2, "2:1", 1, {"1", "2"}, std::nullopt, "2", "", {1}, std::nullopt, "", ""};
  const std::string everyone = encode(ServerMessage{s});
  s.client_id = "g3v1";
  EXPECT_EQ(encode(ServerMessage{s}), state_with_client_id(everyone, "g3v1"));
  auto back = decode_server_message(state_with_client_id(everyone, "g3v1"));
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(std::get<StateMessage>(*back).client_id, "g3v1");
}

// A client reads a later version's message type as nothing to act on, and a known type with a
// bad field as an error.
TEST(ServerMessages, AFrameOfAnUnknownTypeIsNothingAndABadOneAnError) {
  auto later = decode_server_frame(R"({"type":"tournament_news","id":3})");
  ASSERT_TRUE(later) << later.error();
  EXPECT_FALSE(later->has_value());
  auto pong = decode_server_frame(R"({"type":"pong","id":"p"})");
  ASSERT_TRUE(pong && pong->has_value());
  EXPECT_EQ(std::get<PongMessage>(**pong).id, "p");
  auto bad = decode_server_frame(R"({"type":"state","game_id":1,"version":2})");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("state: missing field 'position'"), std::string::npos) << bad.error();
  auto unreadable = decode_server_frame("{");
  ASSERT_FALSE(unreadable);
  EXPECT_NE(unreadable.error().find("not a server message"), std::string::npos);
  EXPECT_TRUE(is_server_message_type("draw_declined"));
  EXPECT_FALSE(is_server_message_type("hello"));
}

TEST(ServerMessages, APuzzleEndWithoutAScoreIsASolvedOne) {
  // Servers before `score` sent puzzle_end only for a solved puzzle.
  auto old = decode_server_message(
      R"({"type":"puzzle_end","puzzle_id":3,"solved":true,"length":4,"optimal_length":null,)"
      R"("time_ms":10})");
  ASSERT_TRUE(old) << old.error();
  const auto& end = std::get<PuzzleEndMessage>(*old);
  EXPECT_EQ(end.score, 100);
  EXPECT_EQ(end.note, "");
  Json j = to_json(PuzzleEndMessage{3, false, 4, std::nullopt, 10, 101, ""});
  EXPECT_EQ(violations("puzzle_end", j).size(), 1u) << "a score above 100";
  j = to_json(PuzzleStateMessage{3, "gdl:x", 0, "", {}, {}, BoardLayout{"cell", {"1"}, {}}});
  j["board"].erase("rows");
  EXPECT_EQ(violations("puzzle_state", j).size(), 1u) << "a board without rows";
  EXPECT_FALSE(decode_server_message(j.dump()));
}

TEST(ServerMessages, DecodingNamesTheMissingOrWrongField) {
  auto missing = decode_server_message(R"({"type":"state","game_id":1,"version":2})");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("state: missing field 'position'"), std::string::npos)
      << missing.error();
  auto wrong = decode_server_message(R"({"type":"move_ack","game_id":"x","client_id":"a","version":1})");
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error().find("field 'game_id' has the wrong type"), std::string::npos)
      << wrong.error();
  auto code = decode_server_message(R"({"type":"error","code":"nonsense","message":"m"})");
  ASSERT_FALSE(code);
  EXPECT_NE(code.error().find("nonsense"), std::string::npos) << code.error();
  EXPECT_FALSE(decode_server_message(R"({"type":"hello"})")) << "a client message";
  EXPECT_FALSE(decode_server_message("[1]"));
  EXPECT_FALSE(decode_server_message("not json"));
}

TEST(ServerMessages, ResultFromScores) {
  EXPECT_EQ(result_from_scores({100, 0}), "1-0");
  EXPECT_EQ(result_from_scores({30, 70}), "0-1");
  EXPECT_EQ(result_from_scores({50, 50}), "1/2-1/2");
  EXPECT_EQ(result_from_scores({100, 0, 50}), "100-0-50");
}


// encode_state writes a state's frame directly (it goes out with every move); it must be the
// same bytes nlohmann's dump writes, for every field combination and for strings that need
// escaping or carry invalid UTF-8 (those take nlohmann's path).
TEST(ServerMessages, TheDirectStateWriterWritesWhatNlohmannDumps) {
  std::mt19937_64 rng(20261126);
  const std::vector<std::string> words = {"e2e4", "", "a1-b2", "x", "noop", "(mark 1 1)",
                                          "q\"uote", "back\\slash", "tab\there", "\xc3\xa9t\xc3\xa9",
                                          "bad\xff utf8", "ctl\x01"};
  auto word = [&] { return words[rng() % words.size()]; };
  auto plain_word = [&] { return words[rng() % 6]; };
  for (int i = 0; i < 2000; ++i) {
    const bool odd = i % 4 == 3;  // a quarter of the states carry strings nlohmann must escape
    auto pick = [&] { return odd ? word() : plain_word(); };
    StateMessage s;
    s.game_id = static_cast<std::int64_t>(rng() % 1000000) - (i % 7 == 0 ? 5 : 0);
    s.version = static_cast<std::int64_t>(rng() % 100000);
    s.position = pick();
    s.to_move = static_cast<int>(rng() % 4);
    for (std::size_t k = rng() % 5; k > 0; --k) s.legal_moves.push_back(pick());
    if (rng() % 2) s.clocks = std::vector<std::int64_t>{static_cast<std::int64_t>(rng() % 90000), -1};
    s.last_move = pick();
    if (rng() % 2) s.last_move_san = pick();
    if (rng() % 3 == 0) s.result = rng() % 2 ? "1-0" : pick();
    for (std::size_t k = rng() % 3; k > 0; --k) s.movers.push_back(static_cast<int>(rng() % 6));
    if (rng() % 3 == 0) {
      s.legal_moves_by_seat.emplace(rng() % 4);
      for (auto& seat : *s.legal_moves_by_seat)
        for (std::size_t k = rng() % 3; k > 0; --k) seat.push_back(pick());
    }
    const std::string expected =
        to_json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
    ASSERT_EQ(encode_state(s), expected) << "state " << i;
    ASSERT_EQ(encode(ServerMessage{s}), expected) << "state " << i;
  }
}

}  // namespace
}  // namespace arena::protocol
