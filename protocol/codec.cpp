#include "protocol/codec.h"

#include "games/core/overload.h"
#include "protocol/player_name.h"
#include "protocol/server_codec.h"

#include <algorithm>
#include <limits>
#include <type_traits>

namespace arena::protocol {
namespace {

// A failed field check: carries the ProtocolError up to decode_client_message.
struct FieldError {
  ProtocolError error;
};

class Fields {
 public:
  explicit Fields(const Json& j) : j_(j) {}

  const Json* find(const char* key) const {
    auto it = j_.find(key);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }
  std::string str(const char* key, bool required, std::size_t max_len = 1024) const {
    const Json* v = find(key);
    if (!v) return required ? missing(key) : std::string{};
    if (!v->is_string()) bad(key, "must be a string");
    const auto& s = v->get_ref<const std::string&>();
    if (s.size() > max_len) bad(key, "is longer than " + std::to_string(max_len) + " bytes");
    return s;
  }
  std::int64_t integer(const char* key, bool required, std::int64_t fallback, std::int64_t lo,
                       std::int64_t hi) const {
    const Json* v = find(key);
    if (!v) return required ? (missing(key), 0) : fallback;
    if (!v->is_number_integer()) bad(key, "must be an integer");
    std::int64_t x = v->is_number_unsigned() && v->get<std::uint64_t>() > kMaxI64
                         ? hi + 1
                         : v->get<std::int64_t>();
    if (x < lo || x > hi)
      bad(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
    return x;
  }
  std::vector<std::string> strings(const char* key, bool required, std::size_t max_n) const {
    const Json* v = find(key);
    if (!v)
      return required ? (missing(key), std::vector<std::string>{}) : std::vector<std::string>{};
    if (!v->is_array()) bad(key, "must be an array of strings");
    if (v->size() > max_n) bad(key, "has more than " + std::to_string(max_n) + " entries");
    std::vector<std::string> out;
    for (const auto& e : *v) {
      if (!e.is_string()) bad(key, "must be an array of strings");
      out.push_back(e.get<std::string>());
    }
    return out;
  }
  [[noreturn]] static std::string missing(const char* key) {
    throw FieldError{{ErrorCode::kMissingField, std::string("missing field '") + key + "'"}};
  }
  [[noreturn]] static void bad(const char* key, const std::string& why) {
    throw FieldError{{ErrorCode::kBadField, std::string("field '") + key + "' " + why}};
  }

 private:
  static constexpr std::int64_t kMaxI64 = std::numeric_limits<std::int64_t>::max();
  const Json& j_;
};

constexpr std::int64_t kMaxId = std::numeric_limits<std::int64_t>::max();

SearchInfo search_info(const Json& j) {
  if (!j.is_object()) Fields::bad("info", "must be an object");
  Fields f(j);
  SearchInfo info;
  info.depth = static_cast<int>(f.integer("depth", false, 0, 0, 10000));
  info.nodes = f.integer("nodes", false, 0, 0, kMaxId);
  if (f.find("score"))
    info.score = static_cast<int>(f.integer("score", false, 0, -1000000000, 1000000000));
  info.pv = f.strings("pv", false, 256);
  info.time_ms = f.integer("time_ms", false, 0, 0, kMaxId);
  return info;
}

// hello.engine; an error names the field inside it.
Engine engine(const Json& j) {
  if (!j.is_object()) Fields::bad("engine", "must be an object");
  Fields f(j);
  try {
    Engine e{f.str("search", true, kMaxEngineSearchBytes),
             f.str("heuristic", false, kMaxEngineHeuristicBytes),
             f.str("parameters", false, kMaxEngineParametersBytes)};
    if (e.search.empty()) Fields::bad("search", "must not be empty");
    return e;
  } catch (FieldError& e) {
    e.error.message = "in 'engine': " + e.error.message;
    throw;
  }
}

ClientMessage decode_fields(const std::string& type, const Json& j) {
  Fields f(j);
  auto id = [&](const char* key) { return f.integer(key, true, 0, 1, kMaxId); };
  if (type == "hello") {
    Hello h{static_cast<int>(f.integer("version", true, 0, 0, 1000000)),
            f.str("name", false, 128),
            f.str("resume", false, 128)};
    if (const Json* e = f.find("engine")) h.engine = engine(*e);
    return h;
  }
  if (type == "set_name") {
    SetName m{f.str("name", true, 4 * kMaxNameChars)};
    if (auto problem = chosen_name_problem(m.name)) Fields::bad("name", *problem);
    return m;
  }
  if (type == "seek")
    return Seek{f.str("game", true, 64), f.str("options", false), f.str("time_control", false, 64)};
  if (type == "cancel_seek") {
    if (f.find("challenge_id")) return CancelSeek{id("challenge_id"), true};
    return CancelSeek{id("seek_id"), false};
  }
  if (type == "challenge")
    return Challenge{f.str("to", true, 64), f.str("game", true, 64), f.str("options", false),
                     f.str("time_control", false, 64)};
  if (type == "accept") {
    if (f.find("challenge_id")) return Accept{id("challenge_id"), true};
    return Accept{id("seek_id"), false};
  }
  if (type == "decline") return Decline{id("challenge_id")};
  if (type == "move") {
    MoveRequest m{id("game_id"), f.str("move", true, 256), f.str("client_id", true, 128), {}};
    if (const Json* info = f.find("info")) m.info = search_info(*info);
    return m;
  }
  static constexpr std::pair<const char*, GameActionKind> kActions[] = {
      {"resign", GameActionKind::kResign},
      {"offer_draw", GameActionKind::kOfferDraw},
      {"accept_draw", GameActionKind::kAcceptDraw},
      {"abort", GameActionKind::kAbort},
      {"claim_win", GameActionKind::kClaimWin},
      {"decline_draw", GameActionKind::kDeclineDraw}};
  for (const auto& [name, kind] : kActions)
    if (type == name) return GameAction{kind, id("game_id")};
  if (type == "watch")
    return Watch{id("game_id"), f.integer("since_version", false, -1, -1, kMaxId)};
  if (type == "unwatch") return Unwatch{id("game_id")};
  if (type == "resume")
    return Resume{id("game_id"), f.integer("since_version", false, -1, -1, kMaxId)};
  if (type == "puzzle_start") {
    PuzzleStart p{f.str("puzzle", true, 64), f.str("options", false), f.str("state", false, 4096),
                  0, 0};
    p.seed = static_cast<std::uint64_t>(f.integer("seed", false, 0, 0, kMaxId));
    p.scramble = static_cast<int>(f.integer("scramble", false, 0, 0, 1000));
    return p;
  }
  if (type == "puzzle_move") return PuzzleMove{id("puzzle_id"), f.str("move", true, 256)};
  if (type == "puzzle_solution")
    return PuzzleSolution{id("puzzle_id"), f.strings("moves", true, 10000)};
  if (type == "ping") return Ping{f.str("id", false, 128)};
  throw FieldError{{ErrorCode::kUnknownType, "unknown message type '" + type + "'"}};
}

}  // namespace

int json_depth(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}')
      --depth;
  }
  return deepest;
}

ParsedJson parse_json_object(std::string_view text) {
  ParsedJson out;
  if (json_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    out.error = ProtocolError{ErrorCode::kTooDeep, "JSON nesting deeper than " +
                                                       std::to_string(kMaxJsonDepth) + " levels"};
    return out;
  }
  out.json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (out.json.is_discarded())
    out.error = ProtocolError{ErrorCode::kBadJson, "the message is not valid JSON"};
  else if (!out.json.is_object())
    out.error = ProtocolError{ErrorCode::kBadJson, "the message is not a JSON object"};
  return out;
}

Decoded decode_client_message(std::string_view text) {
  Decoded out;
  ParsedJson parsed = parse_json_object(text);
  if (parsed.error) {
    out.error = *parsed.error;
    return out;
  }
  auto type = parsed.json.find("type");
  if (type == parsed.json.end()) {
    out.error = {ErrorCode::kMissingField, "missing field 'type'"};
    return out;
  }
  if (!type->is_string()) {
    out.error = {ErrorCode::kBadField, "field 'type' must be a string"};
    return out;
  }
  out.ref_type = type->get<std::string>();
  try {
    out.message = decode_fields(out.ref_type, parsed.json);
  } catch (const FieldError& e) {
    out.error = e.error;
  }
  return out;
}

std::string type_of(const ClientMessage& message) {
  return std::visit(Overload{[](const Hello&) { return std::string("hello"); },
                             [](const Seek&) { return std::string("seek"); },
                             [](const CancelSeek&) { return std::string("cancel_seek"); },
                             [](const Challenge&) { return std::string("challenge"); },
                             [](const Accept&) { return std::string("accept"); },
                             [](const Decline&) { return std::string("decline"); },
                             [](const MoveRequest&) { return std::string("move"); },
                             [](const GameAction& a) {
                               static constexpr const char* kNames[] = {
                                   "resign",    "offer_draw", "accept_draw",
                                   "abort",     "claim_win",  "decline_draw"};
                               return std::string(kNames[static_cast<int>(a.kind)]);
                             },
                             [](const Watch&) { return std::string("watch"); },
                             [](const Unwatch&) { return std::string("unwatch"); },
                             [](const Resume&) { return std::string("resume"); },
                             [](const PuzzleStart&) { return std::string("puzzle_start"); },
                             [](const PuzzleMove&) { return std::string("puzzle_move"); },
                             [](const PuzzleSolution&) { return std::string("puzzle_solution"); },
                             [](const Ping&) { return std::string("ping"); },
                             [](const SetName&) { return std::string("set_name"); }},
                    message);
}

std::string encode(const ClientMessage& message) {
  Json j = std::visit(
      Overload{
          [](const Hello& m) {
            Json hello{{"version", m.version}, {"name", m.name}, {"resume", m.resume}};
            if (m.engine)
              hello["engine"] = Json{{"search", m.engine->search},
                                     {"heuristic", m.engine->heuristic},
                                     {"parameters", m.engine->parameters}};
            return hello;
          },
          [](const Seek& m) {
            return Json{{"game", m.game}, {"options", m.options}, {"time_control", m.time_control}};
          },
          [](const CancelSeek& m) {
            return Json{{m.is_challenge ? "challenge_id" : "seek_id", m.seek_id}};
          },
          [](const Challenge& m) {
            return Json{{"to", m.to},
                        {"game", m.game},
                        {"options", m.options},
                        {"time_control", m.time_control}};
          },
          [](const Accept& m) {
            return Json{{m.is_challenge ? "challenge_id" : "seek_id", m.id}};
          },
          [](const Decline& m) {
            return Json{{"challenge_id", m.challenge_id}};
          },
          [](const MoveRequest& m) {
            Json out{{"game_id", m.game_id}, {"move", m.move}, {"client_id", m.client_id}};
            if (m.info) {
              out["info"] = {{"depth", m.info->depth},
                             {"nodes", m.info->nodes},
                             {"pv", m.info->pv},
                             {"time_ms", m.info->time_ms}};
              if (m.info->score) out["info"]["score"] = *m.info->score;
            }
            return out;
          },
          [](const GameAction& m) {
            return Json{{"game_id", m.game_id}};
          },
          [](const Watch& m) {
            return Json{{"game_id", m.game_id}, {"since_version", m.since_version}};
          },
          [](const Unwatch& m) {
            return Json{{"game_id", m.game_id}};
          },
          [](const Resume& m) {
            return Json{{"game_id", m.game_id}, {"since_version", m.since_version}};
          },
          [](const PuzzleStart& m) {
            return Json{{"puzzle", m.puzzle},
                        {"options", m.options},
                        {"state", m.state},
                        {"seed", m.seed},
                        {"scramble", m.scramble}};
          },
          [](const PuzzleMove& m) {
            return Json{{"puzzle_id", m.puzzle_id}, {"move", m.move}};
          },
          [](const PuzzleSolution& m) {
            return Json{{"puzzle_id", m.puzzle_id}, {"moves", m.moves}};
          },
          [](const Ping& m) {
            return Json{{"id", m.id}};
          },
          [](const SetName& m) {
            return Json{{"name", m.name}};
          }},
      message);
  j["type"] = type_of(message);
  return j.dump();
}

Json to_json(const PlayerInfo& p) {
  return Json{{"id", p.id}, {"name", p.name}, {"bot", p.bot}};
}

Json to_json(const BoardLayout& b) {
  return Json{{"relation", b.relation}, {"rows", b.rows}, {"cols", b.cols}};
}

Json to_json(const GameStartMessage& g) {
  Json players = Json::array();
  for (const auto& p : g.players) players.push_back(to_json(p));
  Json j{{"type", "game_start"},
         {"version", g.version},
         {"game_id", g.game_id},
         {"game", g.game},
         {"options", g.options},
         {"time_control", g.time_control},
         {"players", players},
         {"moves", g.moves},
         {"seats", g.seats},
         {"simultaneous", g.simultaneous},
         {"board", g.board ? to_json(*g.board) : Json(nullptr)}};
  if (!g.moves_san.empty()) j["moves_san"] = g.moves_san;
  return j;
}

Json to_json(const StateMessage& s) {
  Json j{{"type", "state"},          {"game_id", s.game_id}, {"version", s.version},
         {"position", s.position},   {"to_move", s.to_move}, {"legal_moves", s.legal_moves},
         {"last_move", s.last_move}, {"clocks", nullptr},    {"result", nullptr},
         {"movers", s.movers}};
  if (s.clocks) j["clocks"] = *s.clocks;
  if (!s.result.empty()) j["result"] = s.result;
  if (s.legal_moves_by_seat) j["legal_moves_by_seat"] = *s.legal_moves_by_seat;
  if (!s.last_move_san.empty()) j["last_move_san"] = s.last_move_san;
  if (!s.client_id.empty()) j["client_id"] = s.client_id;
  return j;
}

namespace {

// A string the direct writer may copy as it is: printable ASCII without '"' or '\\', which
// nlohmann's dump also writes unchanged. Anything else goes through nlohmann (escapes,
// UTF-8 checks and replacement).
bool plain(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') return false;
  return true;
}

// The direct writer writes the state as every connection gets it: one with the mover's
// client_id goes through nlohmann.
bool plain_state(const StateMessage& s) {
  if (!s.client_id.empty()) return false;
  if (!plain(s.position) || !plain(s.last_move) || !plain(s.last_move_san) || !plain(s.result))
    return false;
  for (const auto& m : s.legal_moves)
    if (!plain(m)) return false;
  if (s.legal_moves_by_seat)
    for (const auto& seat : *s.legal_moves_by_seat)
      for (const auto& m : seat)
        if (!plain(m)) return false;
  return true;
}

void put_string(std::string& out, std::string_view s) {
  out += '"';
  out += s;
  out += '"';
}

void put_strings(std::string& out, const std::vector<std::string>& v) {
  out += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    put_string(out, v[i]);
  }
  out += ']';
}

template <class Int>
void put_ints(std::string& out, const std::vector<Int>& v) {
  out += '[';
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(v[i]);
  }
  out += ']';
}

}  // namespace

std::string encode_state(const StateMessage& s) {
  if (!plain_state(s)) return to_json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
  // The keys in nlohmann's order (sorted), so the frame is byte for byte what dump() writes.
  std::string out;
  std::size_t size = 180 + s.position.size() + 2 * s.last_move.size();
  for (const auto& m : s.legal_moves) size += m.size() + 3;
  out.reserve(size);
  out += "{\"clocks\":";
  if (s.clocks) put_ints(out, *s.clocks);
  else out += "null";
  out += ",\"game_id\":";
  out += std::to_string(s.game_id);
  out += ",\"last_move\":";
  put_string(out, s.last_move);
  if (!s.last_move_san.empty()) {
    out += ",\"last_move_san\":";
    put_string(out, s.last_move_san);
  }
  out += ",\"legal_moves\":";
  put_strings(out, s.legal_moves);
  if (s.legal_moves_by_seat) {
    out += ",\"legal_moves_by_seat\":[";
    for (std::size_t i = 0; i < s.legal_moves_by_seat->size(); ++i) {
      if (i) out += ',';
      put_strings(out, (*s.legal_moves_by_seat)[i]);
    }
    out += ']';
  }
  out += ",\"movers\":";
  put_ints(out, s.movers);
  out += ",\"position\":";
  put_string(out, s.position);
  out += ",\"result\":";
  if (s.result.empty()) out += "null";
  else put_string(out, s.result);
  out += ",\"to_move\":";
  out += std::to_string(s.to_move);
  out += ",\"type\":\"state\",\"version\":";
  out += std::to_string(s.version);
  out += '}';
  return out;
}

Json to_json(const MovedMessage& m) {
  return Json{{"type", "moved"}, {"game_id", m.game_id}, {"version", m.version}, {"seat", m.seat}};
}

Json to_json(const GameEndMessage& e) {
  Json j{{"type", "game_end"},
         {"game_id", e.game_id},
         {"version", e.version},
         {"result", e.result},
         {"reason", e.reason},
         {"scores", e.scores.empty() ? Json(nullptr) : Json(e.scores)}};
  if (!e.note.empty()) j["note"] = e.note;
  return j;
}

Json to_json(const SeekJoinedMessage& m) {
  Json players = Json::array();
  for (const auto& p : m.players) players.push_back(to_json(p));
  return Json{{"type", "seek_joined"},
              {"seek_id", m.seek_id},
              {"game", m.game},
              {"seats", m.seats},
              {"players", players}};
}

std::string result_from_scores(const std::vector<int>& scores) {
  if (scores.size() == 2)
    return scores[0] > scores[1] ? "1-0" : scores[0] < scores[1] ? "0-1" : "1/2-1/2";
  std::string out;
  for (int s : scores) out += (out.empty() ? "" : "-") + std::to_string(s);
  return out;
}

std::string encode_error(ErrorCode code, std::string_view message, std::string_view ref) {
  return encode(ServerMessage{ErrorMessage{code, std::string(message), std::string(ref)}});
}

std::string encode_move_ack(std::int64_t game_id, std::string_view client_id,
                            std::int64_t version) {
  return encode(ServerMessage{MoveAckMessage{game_id, std::string(client_id), version}});
}

std::string state_with_client_id(std::string_view state, std::string_view client_id) {
  // The field goes first: the event's own members follow unchanged (no second encoding of
  // the position and the legal moves for every move).
  const std::string id =
      Json(std::string(client_id)).dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string out;
  out.reserve(state.size() + id.size() + 16);
  out += "{\"client_id\":";
  out += id;
  if (state.size() > 2) out += ',';
  out.append(state.substr(std::min<std::size_t>(1, state.size())));
  return out;
}

}  // namespace arena::protocol
