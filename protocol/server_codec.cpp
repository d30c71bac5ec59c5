#include "protocol/server_codec.h"

#include <array>
#include <functional>
#include <map>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace arena::protocol {

namespace {

Json players_json(const std::vector<PlayerInfo>& players) {
  Json out = Json::array();
  for (const auto& p : players) out.push_back(to_json(p));
  return out;
}

// --- decoding: a field missing or of the wrong type throws BadField naming it.
struct BadField : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const Json& at(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) throw BadField(std::string("missing field '") + key + "'");
  return *it;
}

template <class T>
T as(const Json& v, const char* key) {
  try {
    return v.get<T>();
  } catch (const Json::exception&) {
    throw BadField(std::string("field '") + key + "' has the wrong type");
  }
}

template <class T>
T get(const Json& j, const char* key) {
  return as<T>(at(j, key), key);
}

// An optional field: `fallback` when absent or null.
template <class T>
T get_or(const Json& j, const char* key, T fallback) {
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? fallback : as<T>(*it, key);
}

// `p` is the value of field `key` (named in the error).
PlayerInfo player_of(const Json& p, const char* key) {
  if (!p.is_object()) throw BadField(std::string("field '") + key + "' is not an object");
  return {get<std::int64_t>(p, "id"), get<std::string>(p, "name"), get<bool>(p, "bot")};
}

PlayerInfo player_from(const Json& j, const char* key) {
  return player_of(at(j, key), key);
}

// game_start's and puzzle_state's optional `board` (absent or null: none).
std::optional<BoardLayout> board_from(const Json& j) {
  auto b = j.find("board");
  if (b == j.end() || b->is_null()) return std::nullopt;
  if (!b->is_object()) throw BadField("field 'board' is not an object");
  return BoardLayout{get<std::string>(*b, "relation"), get<std::vector<std::string>>(*b, "rows"),
                     get<std::vector<std::string>>(*b, "cols")};
}

std::vector<PlayerInfo> players_from(const Json& j, const char* key) {
  const Json& a = at(j, key);
  if (!a.is_array()) throw BadField(std::string("field '") + key + "' is not an array");
  std::vector<PlayerInfo> out;
  for (const Json& p : a) out.push_back(player_of(p, key));
  return out;
}

GameSummary summary_from(const Json& j) {
  GameSummary g;
  g.id = get<std::int64_t>(j, "id");
  g.game = get<std::string>(j, "game");
  g.options = get_or<std::string>(j, "options", "");
  g.time_control = get_or<std::string>(j, "time_control", "none");
  g.players = players_from(j, "players");
  g.plies = get_or<std::int64_t>(j, "plies", 0);
  g.version = get_or<std::int64_t>(j, "version", 0);
  g.live = get_or<bool>(j, "live", true);
  g.result = get_or<std::string>(j, "result", "");
  g.reason = get_or<std::string>(j, "reason", "");
  return g;
}

ErrorCode error_code_from(const std::string& text) {
  for (int c = 0; c <= static_cast<int>(ErrorCode::kInternal); ++c)
    if (to_string(static_cast<ErrorCode>(c)) == text) return static_cast<ErrorCode>(c);
  throw BadField("field 'code' names no error code ('" + text + "')");
}

// --- one decoder per type: the fields of `j` (the frame) into its message.
WelcomeMessage welcome_from(const Json& j) {
  WelcomeMessage m;
  m.player = player_from(j, "player");
  m.server = get<std::string>(j, "server");
  m.protocol = get<int>(j, "protocol");
  m.session = get<std::string>(j, "session");
  m.your_games = get<std::vector<std::int64_t>>(j, "your_games");
  const Json& l = at(j, "limits");
  m.limits = {get<std::int64_t>(l, "max_message_bytes"), get<std::int64_t>(l, "max_json_depth"),
              get<std::int64_t>(l, "messages_per_second"), get<std::int64_t>(l, "burst"),
              get<std::int64_t>(l, "reconnect_grace_ms")};
  return m;
}

LobbySeek lobby_seek_from(const Json& s) {
  LobbySeek seek;
  seek.seek_id = get<std::int64_t>(s, "seek_id");
  seek.by = player_from(s, "by");
  seek.game = get<std::string>(s, "game");
  seek.options = get<std::string>(s, "options");
  seek.time_control = get<std::string>(s, "time_control");
  seek.seats = get_or<int>(s, "seats", 2);
  if (s.contains("joined")) seek.joined = players_from(s, "joined");
  return seek;
}

LobbyMessage lobby_from(const Json& j) {
  LobbyMessage m;
  for (const Json& s : at(j, "seeks")) m.seeks.push_back(lobby_seek_from(s));
  m.players = players_from(j, "players");
  for (const Json& g : at(j, "games")) m.games.push_back(summary_from(g));
  m.players_online = get_or<std::int64_t>(j, "players_online", std::ssize(m.players));
  m.games_live = get_or<std::int64_t>(j, "games_live", std::ssize(m.games));
  return m;
}

CancelledMessage cancelled_from(const Json& j) {
  if (j.contains("challenge_id"))
    return CancelledMessage{get<std::int64_t>(j, "challenge_id"), true};
  return CancelledMessage{get<std::int64_t>(j, "seek_id"), false};
}

GameStartMessage game_start_from(const Json& j) {
  GameStartMessage m;
  m.game_id = get<std::int64_t>(j, "game_id");
  m.game = get<std::string>(j, "game");
  m.options = get_or<std::string>(j, "options", "");
  m.time_control = get_or<std::string>(j, "time_control", "none");
  m.players = players_from(j, "players");
  m.moves = get_or<std::vector<std::string>>(j, "moves", {});
  m.moves_san = get_or<std::vector<std::string>>(j, "moves_san", {});
  m.seats = get_or<std::vector<std::string>>(j, "seats", {});
  m.simultaneous = get_or<bool>(j, "simultaneous", false);
  m.board = board_from(j);
  return m;
}

StateMessage state_from(const Json& j) {
  StateMessage m;
  m.game_id = get<std::int64_t>(j, "game_id");
  m.version = get<std::int64_t>(j, "version");
  m.position = get<std::string>(j, "position");
  m.to_move = get<int>(j, "to_move");
  m.legal_moves = get<std::vector<std::string>>(j, "legal_moves");
  if (auto c = j.find("clocks"); c != j.end() && !c->is_null())
    m.clocks = as<std::vector<std::int64_t>>(*c, "clocks");
  m.last_move = get_or<std::string>(j, "last_move", "");
  m.last_move_san = get_or<std::string>(j, "last_move_san", "");
  m.result = get_or<std::string>(j, "result", "");
  m.movers = get_or<std::vector<int>>(j, "movers", {});
  if (auto l = j.find("legal_moves_by_seat"); l != j.end() && !l->is_null())
    m.legal_moves_by_seat = as<std::vector<std::vector<std::string>>>(*l, "legal_moves_by_seat");
  m.client_id = get_or<std::string>(j, "client_id", "");
  return m;
}

GameEndMessage game_end_from(const Json& j) {
  return GameEndMessage{get<std::int64_t>(j, "game_id"),
                        get<std::int64_t>(j, "version"),
                        get<std::string>(j, "result"),
                        get_or<std::string>(j, "reason", ""),
                        get_or<std::vector<int>>(j, "scores", {}),
                        get_or<std::string>(j, "note", "")};
}

PuzzleStateMessage puzzle_state_from(const Json& j) {
  return PuzzleStateMessage{get<std::int64_t>(j, "puzzle_id"),
                            get<std::string>(j, "puzzle"),
                            get<std::int64_t>(j, "version"),
                            get<std::string>(j, "position"),
                            get<std::vector<std::string>>(j, "legal_moves"),
                            get<std::vector<std::string>>(j, "moves"),
                            board_from(j)};
}

PuzzleEndMessage puzzle_end_from(const Json& j) {
  // A server before `score` ended puzzles only when solved: 100.
  PuzzleEndMessage m{get<std::int64_t>(j, "puzzle_id"), get<bool>(j, "solved"),
                     get<std::int64_t>(j, "length"),    std::nullopt,
                     get<std::int64_t>(j, "time_ms"),   get_or<int>(j, "score", 100),
                     get_or<std::string>(j, "note", "")};
  if (auto o = j.find("optimal_length"); o != j.end() && !o->is_null())
    m.optimal_length = as<std::int64_t>(*o, "optimal_length");
  return m;
}

SeekJoinedMessage seek_joined_from(const Json& j) {
  return SeekJoinedMessage{get<std::int64_t>(j, "seek_id"), get<std::string>(j, "game"),
                           get<int>(j, "seats"), players_from(j, "players")};
}

ChallengeOfferMessage challenge_offer_from(const Json& j) {
  return ChallengeOfferMessage{get<std::int64_t>(j, "challenge_id"), player_from(j, "from"),
                               get<std::string>(j, "game"), get<std::string>(j, "options"),
                               get<std::string>(j, "time_control")};
}

// draw_offer and draw_declined: the same three fields.
template <class Message>
Message draw_from(const Json& j) {
  return Message{get<std::int64_t>(j, "game_id"), get<std::int64_t>(j, "version"),
                 get<int>(j, "by")};
}

MovedMessage moved_from(const Json& j) {
  return MovedMessage{get<std::int64_t>(j, "game_id"), get<std::int64_t>(j, "version"),
                      get<int>(j, "seat")};
}

MoveAckMessage move_ack_from(const Json& j) {
  return MoveAckMessage{get<std::int64_t>(j, "game_id"), get<std::string>(j, "client_id"),
                        get<std::int64_t>(j, "version")};
}

ErrorMessage error_from(const Json& j) {
  return ErrorMessage{error_code_from(get<std::string>(j, "code")), get<std::string>(j, "message"),
                      get_or<std::string>(j, "ref", "")};
}

SeekCreatedMessage seek_created_from(const Json& j) {
  return {get<std::int64_t>(j, "seek_id")};
}
ChallengeCreatedMessage challenge_created_from(const Json& j) {
  return {get<std::int64_t>(j, "challenge_id")};
}
DeclinedMessage declined_from(const Json& j) {
  return {get<std::int64_t>(j, "challenge_id"), player_from(j, "by")};
}
PongMessage pong_from(const Json& j) {
  return {get_or<std::string>(j, "id", "")};
}
NameSetMessage name_set_from(const Json& j) {
  return {player_from(j, "player")};
}

// One type's decoder as a decoder of the variant, for the table below.
template <auto decode>
ServerMessage as_variant(const Json& j) {
  return decode(j);
}

using Decoder = ServerMessage (*)(const Json&);

// Every server message type with its decoder.
const std::map<std::string, Decoder, std::less<>>& decoders() {
  static const std::map<std::string, Decoder, std::less<>> table = {
      {"welcome", as_variant<welcome_from>},
      {"lobby", as_variant<lobby_from>},
      {"seek_created", as_variant<seek_created_from>},
      {"seek_joined", as_variant<seek_joined_from>},
      {"challenge_created", as_variant<challenge_created_from>},
      {"challenge_offer", as_variant<challenge_offer_from>},
      {"cancelled", as_variant<cancelled_from>},
      {"declined", as_variant<declined_from>},
      {"game_start", as_variant<game_start_from>},
      {"state", as_variant<state_from>},
      {"moved", as_variant<moved_from>},
      {"draw_offer", as_variant<draw_from<DrawOfferMessage>>},
      {"draw_declined", as_variant<draw_from<DrawDeclinedMessage>>},
      {"move_ack", as_variant<move_ack_from>},
      {"game_end", as_variant<game_end_from>},
      {"puzzle_state", as_variant<puzzle_state_from>},
      {"puzzle_end", as_variant<puzzle_end_from>},
      {"pong", as_variant<pong_from>},
      {"name_set", as_variant<name_set_from>},
      {"error", as_variant<error_from>},
  };
  return table;
}

}  // namespace

Json to_json(const WelcomeMessage& m) {
  return Json{{"type", "welcome"},
              {"player", to_json(m.player)},
              {"server", m.server},
              {"protocol", m.protocol},
              {"session", m.session},
              {"your_games", m.your_games},
              {"limits",
               {{"max_message_bytes", m.limits.max_message_bytes},
                {"max_json_depth", m.limits.max_json_depth},
                {"messages_per_second", m.limits.messages_per_second},
                {"burst", m.limits.burst},
                {"reconnect_grace_ms", m.limits.reconnect_grace_ms}}}};
}

Json to_json(const GameSummary& g) {
  return Json{{"id", g.id},
              {"game", g.game},
              {"options", g.options},
              {"time_control", g.time_control},
              {"players", players_json(g.players)},
              {"plies", g.plies},
              {"version", g.version},
              {"live", g.live},
              {"result", g.result},
              {"reason", g.reason}};
}

Json to_json(const LobbyMessage& m) {
  Json seeks = Json::array();
  for (const auto& s : m.seeks)
    seeks.push_back(Json{{"seek_id", s.seek_id},
                         {"by", to_json(s.by)},
                         {"game", s.game},
                         {"options", s.options},
                         {"time_control", s.time_control},
                         {"seats", s.seats},
                         {"joined", players_json(s.joined)}});
  Json games = Json::array();
  for (const auto& g : m.games) games.push_back(to_json(g));
  return Json{{"type", "lobby"},
              {"seeks", seeks},
              {"players", players_json(m.players)},
              {"players_online", m.players_online},
              {"games", games},
              {"games_live", m.games_live}};
}

Json to_json(const SeekCreatedMessage& m) {
  return Json{{"type", "seek_created"}, {"seek_id", m.seek_id}};
}

Json to_json(const ChallengeCreatedMessage& m) {
  return Json{{"type", "challenge_created"}, {"challenge_id", m.challenge_id}};
}

Json to_json(const ChallengeOfferMessage& m) {
  return Json{{"type", "challenge_offer"}, {"challenge_id", m.challenge_id},
              {"from", to_json(m.from)},   {"game", m.game},
              {"options", m.options},      {"time_control", m.time_control}};
}

Json to_json(const CancelledMessage& m) {
  return Json{{"type", "cancelled"}, {m.challenge ? "challenge_id" : "seek_id", m.id}};
}

Json to_json(const DeclinedMessage& m) {
  return Json{{"type", "declined"}, {"challenge_id", m.challenge_id}, {"by", to_json(m.by)}};
}

Json to_json(const DrawOfferMessage& m) {
  return Json{{"type", "draw_offer"}, {"game_id", m.game_id}, {"version", m.version}, {"by", m.by}};
}

Json to_json(const DrawDeclinedMessage& m) {
  return Json{
      {"type", "draw_declined"}, {"game_id", m.game_id}, {"version", m.version}, {"by", m.by}};
}

Json to_json(const MoveAckMessage& m) {
  return Json{{"type", "move_ack"},
              {"game_id", m.game_id},
              {"client_id", m.client_id},
              {"version", m.version}};
}

Json to_json(const PuzzleStateMessage& m) {
  Json j{{"type", "puzzle_state"}, {"puzzle_id", m.puzzle_id}, {"puzzle", m.puzzle},
         {"version", m.version},   {"position", m.position},   {"legal_moves", m.legal_moves},
         {"moves", m.moves}};
  if (m.board) j["board"] = to_json(*m.board);
  return j;
}

Json to_json(const PuzzleEndMessage& m) {
  Json j{{"type", "puzzle_end"},
         {"puzzle_id", m.puzzle_id},
         {"solved", m.solved},
         {"length", m.length},
         {"optimal_length", m.optimal_length ? Json(*m.optimal_length) : Json()},
         {"time_ms", m.time_ms},
         {"score", m.score}};
  if (!m.note.empty()) j["note"] = m.note;
  return j;
}

Json to_json(const PongMessage& m) {
  return Json{{"type", "pong"}, {"id", m.id}};
}

Json to_json(const NameSetMessage& m) {
  return Json{{"type", "name_set"}, {"player", to_json(m.player)}};
}

Json to_json(const ErrorMessage& m) {
  Json j{{"type", "error"}, {"code", to_string(m.code)}, {"message", m.message}};
  if (!m.ref.empty()) j["ref"] = m.ref;
  return j;
}

Json to_json(const ServerMessage& message) {
  return std::visit([](const auto& m) { return to_json(m); }, message);
}

std::string type_of(const ServerMessage& message) {
  return to_json(message)["type"].get<std::string>();
}

std::string encode(const ServerMessage& message) {
  if (const auto* state = std::get_if<StateMessage>(&message)) return encode_state(*state);
  return to_json(message).dump(-1, ' ', false, Json::error_handler_t::replace);
}

Expected<ServerMessage> decode_server_json(const Json& j) {
  if (!j.is_object()) return make_error("a server message is a JSON object");
  auto t = j.find("type");
  if (t == j.end() || !t->is_string()) return make_error("a server message needs a string 'type'");
  const std::string type = t->get<std::string>();
  auto decoder = decoders().find(type);
  if (decoder == decoders().end())
    return make_error(type + ": '" + type + "' is no server message");
  try {
    return decoder->second(j);
  } catch (const BadField& e) {
    return make_error(type + ": " + e.what());
  } catch (const Json::exception& e) {
    return make_error(type + ": " + e.what());
  }
}

bool is_server_message_type(std::string_view type) {
  return decoders().contains(type);
}

Expected<std::optional<ServerMessage>> decode_server_frame(std::string_view text) {
  ParsedJson parsed = parse_json_object(text);
  if (parsed.error) return make_error("not a server message: " + parsed.error->message);
  auto t = parsed.json.find("type");
  if (t != parsed.json.end() && t->is_string() && !is_server_message_type(t->get<std::string>()))
    return std::optional<ServerMessage>();
  auto message = decode_server_json(parsed.json);
  if (!message) return Error{message.error()};
  return std::optional<ServerMessage>(std::move(*message));
}

Expected<ServerMessage> decode_server_message(std::string_view text) {
  ParsedJson parsed = parse_json_object(text);
  if (parsed.error) return make_error("not a server message: " + parsed.error->message);
  return decode_server_json(parsed.json);
}

}  // namespace arena::protocol
