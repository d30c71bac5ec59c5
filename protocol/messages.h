#pragma once
// The messages of the Arena WebSocket protocol (protocol/README.md is the spec). Client
// messages are decoded into these structs by codec.h, which validates every field; server
// messages are built from these structs and encoded by codec.h. No networking here.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace arena::protocol {

// Version 2 adds seats (3 to 6 players), simultaneous turns and per-seat scores as new fields
// and messages; a version 1 client is still accepted and gets the same messages (README).
// Version 3 acknowledges a move in the state its connection gets (`state.client_id`) instead
// of a separate move_ack; versions 1 and 2 still get move_ack.
inline constexpr int kProtocolVersion = 3;
inline constexpr int kAckInStateVersion = 3;
inline constexpr int kMinProtocolVersion = 1;
inline constexpr int kMaxSeats = 6;
inline constexpr std::size_t kMaxMessageBytes = 64 * 1024;  // larger frames close the socket
inline constexpr int kMaxJsonDepth = 32;                    // nesting of arrays and objects
inline constexpr int kMaxMessagesPerSecond = 200;            // sustained, per connection
inline constexpr int kMaxMessageBurst = 400;                // short bursts above the rate
inline constexpr int kMaxOpenSeeks = 64;       // per player (every seek is in every lobby)
inline constexpr int kMaxOpenChallenges = 16;  // per player
// hello.engine's fields, at most.
inline constexpr std::size_t kMaxEngineSearchBytes = 256;
inline constexpr std::size_t kMaxEngineHeuristicBytes = 64;
inline constexpr std::size_t kMaxEngineParametersBytes = 8192;
// A connection that has had this many messages dropped for the rate, with no pause of
// kFloodQuietMs between two drops, is a flood: it is closed with 1008.
inline constexpr int kMaxDroppedMessages = 1000;
inline constexpr int kFloodQuietMs = 10'000;

// Every error the server sends; the text form (to_string) is the wire "code".
enum class ErrorCode {
  kBadJson,          // not JSON, or not an object
  kTooDeep,          // nesting deeper than kMaxJsonDepth
  kUnknownType,      // "type" names no client message
  kMissingField,     // a required field is absent
  kBadField,         // a field has the wrong type or an impossible value
  kRateLimited,      // more messages than the per-connection rate allows
  kHelloRequired,    // the first message must be hello
  kBadVersion,       // hello.version is not supported
  kUnknownGame,      // seek/challenge/puzzle names no game kind
  kBadOptions,       // the game rejected its options
  kBadTimeControl,   // time_control is not "none", "fischer:B+I" or "movetime:T"
  kNoSuchSeek,       // seek id unknown or expired
  kNoSuchChallenge,  // challenge id unknown, expired, or not addressed to you
  kNoSuchPlayer,     // challenge.to is not online
  kNoSuchGame,       // game id unknown (or not live)
  kNotYourGame,      // you are not a player of that game
  kNotYourTurn,      // a move by a seat that is not to move
  kAlreadyMoved,     // a second move by a seat in the same simultaneous turn
  kIllegalMove,      // the move is not legal in the position
  kGameOver,         // the game has ended
  kNoDrawOffer,      // accept_draw without an offer from the opponent
  kDrawNotPossible,  // the game has no draws
  kCannotAbort,      // abort after the first move
  kCannotClaim,      // claim_win while the opponent is connected or within the grace period
  kNoSuchPuzzle,     // puzzle id unknown or not yours
  kNotSolved,        // a puzzle_solution that does not reach the goal
  kBusy,             // the previous move is still being recorded; resend later
  kInternal,         // the server failed (e.g. the store); nothing changed
};
std::string_view to_string(ErrorCode code);

struct ProtocolError {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
};

// --- client -> server -------------------------------------------------------------------

// What a bot plays with (hello.engine). The server records it as the player's bot version,
// so games and ratings can be told apart by search and heuristic (arena analyze).
struct Engine {
  std::string search;      // the search spec, e.g. "alphabeta:eval=custom_score_2,depth=5"
  std::string heuristic;   // the evaluation that guides it; "" for none
  std::string parameters;  // what else tells versions apart (learned weights); "" for none
  bool operator==(const Engine&) const = default;
};
struct Hello {
  int version = 0;
  // A guest is shown as "NAME#ID" ("guest#ID" without one); the name follows the rules of
  // protocol/player_name.h. Ignored for a bot with a token.
  std::string name;
  std::string resume;  // a session token from an earlier welcome: the same guest again
  std::optional<Engine> engine{};
};
struct Seek {
  std::string game, options, time_control;  // options "k=v,..."; time_control as in README
};
struct CancelSeek {
  std::int64_t seek_id = 0;  // or a challenge id you sent
  bool is_challenge = false;
};
struct Challenge {
  std::string to, game, options, time_control;
};
struct Accept {
  std::int64_t id = 0;
  bool is_challenge = false;  // true: challenge_id was given; false: seek_id
};
struct Decline {
  std::int64_t challenge_id = 0;
};
struct SearchInfo {
  int depth = 0;
  std::int64_t nodes = 0;
  std::optional<int> score;
  std::vector<std::string> pv;
  std::int64_t time_ms = 0;
};
struct MoveRequest {
  std::int64_t game_id = 0;
  std::string move;
  std::string client_id;  // unique per move of this player: a resend is acknowledged, not replayed
  std::optional<SearchInfo> info;
};
// kDeclineDraw (v3): the opponent's standing offer is refused (draw_declined to everyone).
enum class GameActionKind { kResign, kOfferDraw, kAcceptDraw, kAbort, kClaimWin, kDeclineDraw };
struct GameAction {
  GameActionKind kind = GameActionKind::kResign;
  std::int64_t game_id = 0;
};
struct Watch {
  std::int64_t game_id = 0;
  std::int64_t since_version = -1;  // -1: from the start
};
struct Unwatch {
  std::int64_t game_id = 0;
};
struct Resume {
  std::int64_t game_id = 0;
  std::int64_t since_version = -1;
};
struct PuzzleStart {
  std::string puzzle, options, state;  // state: a position to solve instead of a new one
  std::uint64_t seed = 0;
  int scramble = 0;  // random moves from the game's start position (0: the start as is)
};
struct PuzzleMove {
  std::int64_t puzzle_id = 0;
  std::string move;
};
struct PuzzleSolution {
  std::int64_t puzzle_id = 0;
  std::vector<std::string> moves;
};
struct Ping {
  std::string id;  // echoed in the pong
};
// A guest chooses the name it is shown by (protocol/player_name.h: 1 to 32 printable
// characters, no '#', unique among players); answered by name_set or an error.
struct SetName {
  std::string name;
};

using ClientMessage =
    std::variant<Hello, Seek, CancelSeek, Challenge, Accept, Decline, MoveRequest, GameAction,
                 Watch, Unwatch, Resume, PuzzleStart, PuzzleMove, PuzzleSolution, Ping, SetName>;

// --- server -> client -------------------------------------------------------------------

struct PlayerInfo {
  std::int64_t id = 0;
  std::string name;
  bool bot = false;
};

// A board drawn from a GDL state's cell-like facts: (relation ROW COL CONTENT...) with ROW in
// `rows` and COL in `cols` (in display order); the other arguments are the cell's content.
struct BoardLayout {
  std::string relation;
  std::vector<std::string> rows, cols;
};

struct GameStartMessage {
  std::int64_t game_id = 0;
  std::string game, options, time_control;
  std::vector<PlayerInfo> players;  // one per seat, seat order
  std::vector<std::string> moves;   // the turns played so far (a resumed game)
  std::vector<std::string> seats;   // v2: a name per seat ("white", "xplayer")
  bool simultaneous = false;        // v2: a turn may have several movers
  std::optional<BoardLayout> board;  // v2: GDL games whose state is a board
  std::int64_t version = 0;          // 0, or above every version clients saw before a restart
  // v2: `moves` as people read them (chess: SAN); empty (and absent from the JSON) when the
  // moves' own text is that (every game but chess; games/catalog/notation.h).
  std::vector<std::string> moves_san;
};

struct StateMessage {
  std::int64_t game_id = 0;
  std::int64_t version = 0;
  std::string position;
  int to_move = 0;  // the seat to move (the first mover of a simultaneous turn)
  std::vector<std::string> legal_moves;  // of `to_move`
  std::optional<std::vector<std::int64_t>> clocks;  // time left per seat; movetime: per move
  std::string last_move;  // the last turn's record; empty before the first move
  std::string result;     // empty while the game goes on
  std::vector<int> movers;  // v2: every seat that must move now (empty once over)
  // v2, simultaneous games only: the legal moves of every seat (empty for a non-mover).
  std::optional<std::vector<std::vector<std::string>>> legal_moves_by_seat;
  // v2: `last_move` as people read it (chess: SAN, "Nf3"); empty (and absent from the JSON)
  // when the move's own text is that (games/catalog/notation.h).
  std::string last_move_san;
  // v3, on the mover's connection only: the client_id of the move this state records, its
  // acknowledgement (protocol::state_with_client_id); empty (and absent from the JSON) otherwise.
  std::string client_id;
};

// v2: a seat has chosen its move in a simultaneous turn (the move stays secret until the
// turn is played).
struct MovedMessage {
  std::int64_t game_id = 0;
  std::int64_t version = 0;
  int seat = 0;
};

struct GameEndMessage {
  std::int64_t game_id = 0;
  std::int64_t version = 0;
  // "1-0", "0-1", "1/2-1/2", "*" (aborted); with more than two seats the scores joined by
  // '-' ("100-0-50").
  std::string result;
  std::string reason;
  std::vector<int> scores;  // v2: per seat, 0..100 (GDL goals); empty when aborted
  // v3: why the rules ended the game there when `reason` alone does not say (a GDL sheet's
  // bug, a reasoner's limit: AnyGame::end_note); empty (and absent from the JSON) otherwise.
  std::string note;
};

// v2: someone joined an open seek of a game with more than two seats.
struct SeekJoinedMessage {
  std::int64_t seek_id = 0;
  std::string game;
  int seats = 0;
  std::vector<PlayerInfo> players;  // the owner, then who joined, in order
};

// The first frame of a connection: who the player is and the server's limits.
struct ServerLimits {
  std::int64_t max_message_bytes = 0;
  std::int64_t max_json_depth = 0;
  std::int64_t messages_per_second = 0;
  std::int64_t burst = 0;
  std::int64_t reconnect_grace_ms = 0;
  bool operator==(const ServerLimits&) const = default;
};
struct WelcomeMessage {
  PlayerInfo player;
  std::string server;
  int protocol = 0;                     // the version this connection speaks
  std::string session;                  // a guest's token for hello.resume ("" for bots)
  std::vector<std::int64_t> your_games;  // live games with a seat of this player
  ServerLimits limits;
};

// A live game as the lobby and GET /api/games list it.
struct GameSummary {
  std::int64_t id = 0;
  std::string game, options, time_control;
  std::vector<PlayerInfo> players;
  std::int64_t plies = 0;
  std::int64_t version = 0;
  bool live = true;
  std::string result, reason;
};

struct LobbySeek {
  std::int64_t seek_id = 0;
  PlayerInfo by;
  std::string game, options, time_control;
  int seats = 2;
  std::vector<PlayerInfo> joined;  // games of more than two seats: who joined so far
};
struct LobbyMessage {
  std::vector<LobbySeek> seeks;     // every open seek
  std::vector<PlayerInfo> players;  // online, up to a cap
  std::int64_t players_online = 0;  // all of them
  std::vector<GameSummary> games;   // live, up to a cap
  std::int64_t games_live = 0;
};

struct SeekCreatedMessage {
  std::int64_t seek_id = 0;
};
struct ChallengeCreatedMessage {
  std::int64_t challenge_id = 0;
};
struct ChallengeOfferMessage {
  std::int64_t challenge_id = 0;
  PlayerInfo from;
  std::string game, options, time_control;
};
// A seek or challenge withdrawn by its owner (sent as seek_id or challenge_id).
struct CancelledMessage {
  std::int64_t id = 0;
  bool challenge = false;
};
struct DeclinedMessage {
  std::int64_t challenge_id = 0;
  PlayerInfo by;
};
struct DrawOfferMessage {
  std::int64_t game_id = 0;
  std::int64_t version = 0;
  int by = 0;  // the seat that offers
};
// The seat offered a draw refused it (decline_draw); the offer is gone.
struct DrawDeclinedMessage {
  std::int64_t game_id = 0;
  std::int64_t version = 0;
  int by = 0;  // the seat that declines
};
// The mover's move is durable (protocol 1 and 2, and a resend in every version).
struct MoveAckMessage {
  std::int64_t game_id = 0;
  std::string client_id;
  std::int64_t version = 0;  // of the state the move led to
};
struct PuzzleStateMessage {
  std::int64_t puzzle_id = 0;
  std::string puzzle;
  std::int64_t version = 0;  // moves made
  std::string position;
  std::vector<std::string> legal_moves, moves;
  std::optional<BoardLayout> board;  // a GDL puzzle whose state is a board (as game_start's)
};
// A puzzle's end: solved (the goal reached), or a GDL puzzle's terminal state short of it.
struct PuzzleEndMessage {
  std::int64_t puzzle_id = 0;
  bool solved = false;
  std::int64_t length = 0;
  std::optional<std::int64_t> optimal_length;  // when the server could prove it
  std::int64_t time_ms = 0;
  int score = 100;   // 0..100: the goal value reached (a GDL sheet's goal; 100 when solved)
  std::string note;  // as game_end.note: why the rules ended it where the score alone does not say
};
struct PongMessage {
  std::string id;
};
// The answer to set_name: the player as it is shown from now on.
struct NameSetMessage {
  PlayerInfo player;
};
struct ErrorMessage {
  ErrorCode code = ErrorCode::kBadJson;
  std::string message;
  std::string ref;  // the type of the message refused ("" when unknown)
};

using ServerMessage =
    std::variant<WelcomeMessage, LobbyMessage, SeekCreatedMessage, SeekJoinedMessage,
                 ChallengeCreatedMessage, ChallengeOfferMessage, CancelledMessage,
                 DeclinedMessage, GameStartMessage, StateMessage, MovedMessage, DrawOfferMessage,
                 MoveAckMessage, GameEndMessage, PuzzleStateMessage, PuzzleEndMessage,
                 PongMessage, ErrorMessage, NameSetMessage, DrawDeclinedMessage>;

}  // namespace arena::protocol
