#pragma once
// Store: the narrow interface through which the server records games, moves, players and
// ratings. SqliteStore (db/sqlite_store.h) is the embedded default; the interface is small
// enough that a PostgreSQL implementation could replace it.
//
// Threading: every method may be called from any thread. Writes are queued to the store's
// own writer thread; the ones that take a callback call it on the writer thread once the
// write is durable (the server posts back to its own strand), except a journaled move's (see
// Durability). Reads are synchronous and use their own connection: call them off the I/O
// threads. In the server, what calls the synchronous methods runs on threads of its own:
// HTTP answers and bot-token checks on "arena-blocking" (server/net/http_session.h), the
// tournament director on "arena-director"; moves, game ends, game starts (seeks, puzzles), a
// guest's first hello and a hello's engine use the asynchronous methods. At start-up the restore
// runs before the I/O threads start.
//
// Durability: a write is durable when its callback runs (SqliteStore: committed to the WAL,
// which survives a kill of the process; with synchronous=FULL also synced to disk, see
// db/sqlite_store.h). A move may be made durable another way: SqliteStore with NORMAL appends
// it to its move journal (db/move_journal.h) and calls `done` at once on the caller's thread,
// before append_move returns; the writer stores it in SQLite later, and the store's reads
// wait for that, so what a callback acknowledged is always read back. Synchronous writes
// (find_or_create_player, create_game, tokens, tournaments) go through the same writer thread and
// wait for it; they may also be called from inside a Done callback (they then run inline on the
// writer thread). Callbacks must be quick and must not throw: they hold up every write queued
// behind them.
//
// Times are unix milliseconds. A live game has an empty result in summaries.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "games/core/expected.h"

namespace arena::db {

using GameId = std::int64_t;
using PlayerId = std::int64_t;

struct PlayerRecord {
  PlayerId id = 0;
  std::string name;
  bool is_bot = false;
};

struct NewGame {
  std::string kind;            // catalog name
  std::string options;         // key=value,...
  std::string start_position;  // serialized
  PlayerId first = 0;          // 0 for none (puzzles have one player)
  PlayerId second = 0;
  std::string time_control;  // e.g. "fischer:60000+1000", "movetime:150", "none"
  std::uint64_t seed = 0;
  std::optional<std::int64_t> tournament_id;
  // Bot versions (register_bot_version) of the two sides; 0 for none or a human.
  std::int64_t first_version = 0;
  std::int64_t second_version = 0;
  // Games of more than two seats: every seat's player, in seat order (first and second are
  // seats 0 and 1 and must be the same); recorded in game_seats. Empty for two seats.
  std::vector<PlayerId> seats{};
};

struct MoveRecord {
  GameId game = 0;
  int ply = 0;  // 0-based
  // The seat that made the move (0-based). A turn where several seats move (a GDL sheet's
  // simultaneous turn) is one row per mover. -1: not recorded (rows stored before schema 4).
  int seat = -1;
  std::string move;
  std::int64_t time_used_ms = 0;
  std::int64_t clock_left_ms = -1;  // -1 = no clock
  // Search info a bot sent with the move (empty/0 if none).
  int depth = 0;
  std::int64_t nodes = 0;
  std::optional<int> score;
  std::string pv;
};

struct GameEnd {
  GameId game = 0;
  // "1-0", "0-1", "1/2-1/2", "*" (aborted), "solved" or "unsolved" (a puzzle that ended short
  // of its goal: a GDL sheet's); for more than two seats, the seats' scores joined by '-'
  // ("100-0-50", protocol::result_from_scores).
  std::string result;
  std::string reason;  // "checkmate", "timeout", "resignation", "goals", ...
  std::string final_position;
  // Per seat, 0..100 (GDL goals; 100/0 or 50/50 for the others); recorded in game_seats.
  // Empty: none (an aborted game).
  std::vector<int> scores{};
  // game_end's note: why the rules ended the game when that is not the usual way (a GDL
  // sheet's bug, a reasoner's limit); empty otherwise (stored as NULL). A game with a note is
  // kept with its result but not rated: the rules ended it, not the players.
  std::string note{};
};

using Done = std::function<void(Expected<void>)>;
using Created = std::function<void(Expected<GameId>)>;
using Found = std::function<void(Expected<PlayerRecord>)>;
using Registered = std::function<void(Expected<std::int64_t>)>;

struct GameFilter {
  std::string kind;     // empty = any
  PlayerId player = 0;  // 0 = any
  bool finished_only = true;
  int limit = 50;  // <= 0: no limit
  int offset = 0;
  bool oldest_first = false;  // default newest first (the REST API); export wants oldest first
};

struct GameSummary {
  GameId id = 0;
  std::string kind;
  std::string options;
  std::string first_name, second_name;
  std::string result, reason;
  std::string time_control;
  std::int64_t started_at_ms = 0, ended_at_ms = 0;  // unix ms; 0 = not yet
  int plies = 0;
  // From game_seats: the seats' player names where it has them (every seat of a game of more
  // than two seats; a two-seat game's once it ended with scores), and the seats' scores once
  // the game ended with scores; else empty.
  std::vector<std::string> seat_names{};
  std::vector<int> scores{};
  std::string note{};  // GameEnd::note; empty: none
  PlayerId first_id = 0, second_id = 0;  // the first two seats' players; 0 for none
};

struct GameDetail {
  GameSummary summary;
  std::string start_position;
  std::string final_position;
  std::uint64_t seed = 0;
  std::vector<MoveRecord> moves;
};

struct RatingRow {
  PlayerId player = 0;
  std::string name;
  bool is_bot = false;
  double rating = 1500, deviation = 350;  // deviation: Glicko-2 RD (0 for plain Elo)
  int games = 0, wins = 0, losses = 0, draws = 0;
};

enum class RatingMethod { kElo, kGlicko2 };

// A bot as it played: search, heuristic and parameters (weights); the store hashes parameters.
struct BotVersion {
  PlayerId player = 0;
  std::string search;      // e.g. "alphabeta:depth=6"
  std::string heuristic;   // e.g. "improved_score"
  std::string parameters;  // weights or settings, any text (JSON suggested)
};

struct NewTournament {
  std::string name;
  std::string kind;     // catalog name
  std::string format;   // "round-robin", "swiss", "gauntlet", ...
  std::string options;  // game options, key=value,...
  std::string time_control;
  std::string config{};  // the full configuration (JSON) a server needs to continue it; may be ""
};

// A tournament as stored (for a server that continues unfinished ones after a restart).
struct TournamentRecord {
  std::int64_t id = 0;
  std::string name, kind, format, config;
  bool finished = false;
};

struct Pairing {
  std::int64_t tournament = 0;
  int round = 0;
  PlayerId first = 0;
  PlayerId second = 0;  // 0 = a bye
  GameId game = 0;      // 0 = not played yet (set_pairing_game fills it)
  // Filled by pairings(): the row's id, and its game's result ("" while none or live).
  std::int64_t id = 0;
  std::string result{};
};

struct PuzzleAttempt {
  PlayerId player = 0;
  std::string kind;  // catalog name, e.g. "sliding"
  std::string options;
  std::string instance;  // start position, serialized
  bool solved = false;
  int length = 0;                     // moves in the submitted solution
  std::optional<int> optimal_length;  // where known
  std::int64_t time_ms = 0;
  std::string solution;  // the moves, space-separated
  GameId game = 0;       // 0 = none
};

// One decisive or drawn two-player game, for Bradley-Terry.
struct GameResultRow {
  GameId game = 0;
  PlayerId first = 0, second = 0;
  std::string first_name, second_name;
  double first_score = 0.5;  // 1, 0.5 or 0
};

// One point of a player's rating history: its Glicko-2 rating after a rated game.
struct RatingPoint {
  PlayerId player = 0;
  std::string name;
  bool is_bot = false;
  GameId game = 0;
  double rating = 1500, deviation = 350;
  std::int64_t at_ms = 0;
};

// A bot version as stored (register_bot_version), with the games it played.
struct BotVersionRow {
  std::int64_t id = 0;
  std::string search, heuristic, parameters;
  std::int64_t created_at_ms = 0;
  int games = 0;
};

// The heuristic lab's measures (arena analyze --db; bots/lab/measures.h says what they mean).
// One bucket of plies still to play before the end: the outcome determination there.
struct LabOutcomeBucket {
  int min_plies = 0;                     // plies to the end, from
  std::optional<int> max_plies;          // to, inclusive; none: no bound
  std::int64_t positions = 0;
  std::optional<double> sign_agreement;  // share of positions where sign(h) = sign(result)
  std::optional<double> correlation;     // Pearson correlation of h with the result
};

// One heuristic's measures from one lab run. Undefined measures (no position where h and the
// result are nonzero, h constant) are none.
struct LabMeasures {
  std::string heuristic;
  int games = 0;                // games (or puzzle paths) measured
  std::int64_t positions = 0;   // positions along them
  std::int64_t moves = 0;       // moves along them (move invariance's samples)
  // Move invariance: |h(after) - h(before)| along the moves played; raw, then divided by the
  // spread (the standard deviation of h over all positions); the share of moves leaving h as is.
  std::optional<double> spread, mean_change, median_change, p90_change, max_change;
  std::optional<double> mean_norm, median_norm, p90_norm, max_norm, unchanged;
  // Outcome determination over all positions, then per bucket (nearest the end first).
  std::optional<double> sign_agreement, correlation;
  std::vector<LabOutcomeBucket> outcome{};
};

// One run of the lab over the heuristics of one game kind.
struct LabRun {
  std::string kind;                 // catalog name or gdl:NAME
  std::int64_t measured_at_ms = 0;  // 0: when it is recorded
  std::string source;               // where the positions came from, in words
  std::string parameters;           // the run's settings (JSON suggested)
  std::vector<LabMeasures> heuristics{};
};

// A heuristic's stored measures with the run that measured them.
struct LabMeasuresRow {
  std::int64_t run = 0;
  std::string kind;
  std::int64_t measured_at_ms = 0;
  std::string source, parameters;
  LabMeasures measures;
};

class Store {
 public:
  virtual ~Store() = default;

  virtual Expected<PlayerRecord> find_or_create_player(const std::string& name, bool is_bot) = 0;
  virtual Expected<GameId> create_game(const NewGame& game) = 0;
  // Durable when `done` is called; the server announces the move only then.
  virtual void append_move(const MoveRecord& move, Done done) = 0;
  // The result and the rating updates commit in one transaction.
  virtual void finish_game(const GameEnd& end, Done done) = 0;
  // Bots' tokens: the store keeps only a hash. Returns the new token, to be shown once.
  virtual Expected<std::string> create_bot_token(const std::string& bot_name) = 0;
  // The bot a token belongs to, or an error (unknown token).
  virtual Expected<PlayerRecord> authenticate_token(const std::string& token) = 0;

  // Reads (for the REST API, the web page, restarts); they use their own connection.
  virtual Expected<std::vector<GameSummary>> list_games(const GameFilter& filter) = 0;
  virtual Expected<GameDetail> game_detail(GameId id) = 0;
  // Glicko-2 ratings of `kind`, best first (the same as ratings(kind, kGlicko2)); games with a
  // note (GameEnd::note) are not rated.
  virtual Expected<std::vector<RatingRow>> leaderboard(const std::string& kind) = 0;
  // Games with no result yet (after a crash or a shutdown), to resume or end by policy.
  virtual Expected<std::vector<GameDetail>> unfinished_games() = 0;

  // Number of writes queued for the writer (for /metrics): writes not yet durable, and
  // journaled moves not yet stored in SQLite.
  virtual std::size_t queue_length() const = 0;
  // Blocks until every queued write is durable.
  virtual void flush() = 0;

  // --- Added by the store (append only below this line).

  // The id of this bot version, created the first time (same player, search, heuristic and
  // parameters hash give the same id).
  virtual Expected<std::int64_t> register_bot_version(const BotVersion& version) = 0;
  virtual Expected<std::int64_t> create_tournament(const NewTournament& tournament) = 0;
  virtual Expected<std::int64_t> add_pairing(const Pairing& pairing) = 0;
  virtual Expected<void> set_pairing_game(std::int64_t pairing_id, GameId game) = 0;
  virtual Expected<void> finish_tournament(std::int64_t tournament) = 0;
  // In the order they were added.
  virtual Expected<std::vector<Pairing>> pairings(std::int64_t tournament) = 0;
  // Durable when `done` is called.
  virtual void record_puzzle_attempt(const PuzzleAttempt& attempt, Done done) = 0;

  // The live ratings of one game kind by one method, best first (leaderboard = kGlicko2;
  // Elo rows have deviation 0).
  virtual Expected<std::vector<RatingRow>> ratings(const std::string& kind,
                                                   RatingMethod method) = 0;
  // Every finished two-player game of `kind` with a result (not aborted) and no note (the
  // rated ones), oldest first.
  virtual Expected<std::vector<GameResultRow>> game_results(const std::string& kind) = 0;
  // The game kinds that have at least one stored game, sorted.
  virtual Expected<std::vector<std::string>> stored_kinds() = 0;
  // Puzzle attempts of one kind (empty = all), oldest first.
  virtual Expected<std::vector<PuzzleAttempt>> puzzle_attempts(const std::string& kind) = 0;
  // The tournaments not finished yet, oldest first.
  virtual Expected<std::vector<TournamentRecord>> unfinished_tournaments() = 0;
  // create_game through the write queue: `done` gets the id once the row is durable, on the
  // writer's thread, and the caller does not wait (the server's I/O threads never do).
  virtual void create_game_async(const NewGame& game, Created done) = 0;
  // find_or_create_player through the write queue, the same way: `found` gets the player once
  // the row is durable, on the writer's thread (a guest's first hello).
  virtual void find_or_create_player_async(const std::string& name, bool is_bot, Found found) = 0;
  // register_bot_version through the write queue: `done` gets the version's id once the row is
  // durable, on the writer's thread (a bot's hello that names its engine).
  virtual void register_bot_version_async(const BotVersion& version, Registered done) = 0;
  // Guest purge (db/guest_purge.cpp): deletes, through the write queue, at most `max_rows`
  // guests (players named "guest:..." with no token) created before `created_before_ms` that
  // never played (no game, seat, rating, puzzle attempt refers to them), except `keep` (the
  // players online). `done` gets the ids deleted, on the writer's thread. A store that does not
  // purge answers with an error (the default).
  struct GuestPurge {
    std::int64_t created_before_ms = 0;
    std::vector<PlayerId> keep;
    int max_rows = 1000;
  };
  using Purged = std::function<void(Expected<std::vector<PlayerId>>)>;
  virtual void purge_guests_async(const GuestPurge& purge, Purged done);
  // The Glicko-2 rating after each rated game of `kind`, oldest first; of one player, or of
  // every player when `player` is 0.
  virtual Expected<std::vector<RatingPoint>> rating_history(const std::string& kind,
                                                            PlayerId player) = 0;
  // One player by id (an error naming the id when there is none).
  virtual Expected<PlayerRecord> player_by_id(PlayerId id) = 0;
  // The bot versions of one player, oldest first, each with the games it played.
  virtual Expected<std::vector<BotVersionRow>> bot_versions(PlayerId player) = 0;
  // The stored player whose name is `name` with ASCII letters' case folded ("Alice" finds
  // "alice"), or nullopt when there is none (a guest's row, "guest:...", holds no chosen name).
  virtual Expected<std::optional<PlayerRecord>> player_by_name(const std::string& name) = 0;
  // Records one lab run (check_lab_run first) in one transaction; returns the run's id.
  virtual Expected<std::int64_t> record_lab_run(const LabRun& run) = 0;
  // The newest stored measures of each heuristic of `kind` (a later run of a heuristic replaces
  // an earlier one; heuristics a later run left out keep theirs), by heuristic name.
  virtual Expected<std::vector<LabMeasuresRow>> lab_measures(const std::string& kind) = 0;
};

// A player's name as the stores take it: 1 to 64 characters, none a control character. The
// error quotes the name and says which rule it breaks.
Expected<void> check_player_name(const std::string& name);

// A lab run as the stores take it: a kind, at least one heuristic, each named once, no count
// below zero, shares within 0..1, buckets with min_plies <= max_plies. The error names the
// heuristic and the field.
Expected<void> check_lab_run(const LabRun& run);

}  // namespace arena::db
