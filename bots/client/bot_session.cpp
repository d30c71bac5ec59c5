#include "bots/client/bot_session.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <thread>
#include <utility>

#include "games/catalog/catalog.h"
#include "games/core/overload.h"
#include "games/core/seat_scores.h"
#include "protocol/codec.h"
#include "protocol/server_codec.h"

namespace arena::client {

struct BotSession::Game {
  std::int64_t id = 0;
  std::string kind, options;
  int seat = -1;
  TimeControl tc;
  std::unique_ptr<Player> player;  // null: the factory could not make one (random moves)
  std::int64_t version = -1;       // last event seen, for resume
  std::int64_t turn_version = -1;  // the state being answered (searching or pending)
  bool searching = false;
  std::vector<std::string> legal;                  // of the turn being answered, for a fallback
  std::optional<protocol::MoveRequest> pending;    // sent or to send, not yet acknowledged
  std::optional<protocol::StateMessage> deferred;  // a newer turn that came while searching
  std::int64_t waiting_since_ms = -1;  // the opponent's turn began (-1: ours, or unknown)
  std::int64_t last_claim_ms = -1;
  std::optional<int> last_score;  // of our latest search in this game (our point of view)
};

namespace {

// An own seek no lobby snapshot listed this long after it was created is taken for gone (taken
// or expired before a snapshot showed it): a snapshot reaches every connection within a few
// lobby intervals.
constexpr std::int64_t kUnlistedSeekMs = 5000;

// Whether `seat` has a move to make in this state: one of `movers` (protocol 2: several in a
// simultaneous turn), else the one seat `to_move`.
bool moves_now(const protocol::StateMessage& state, int seat) {
  if (!state.movers.empty())
    return std::find(state.movers.begin(), state.movers.end(), seat) != state.movers.end();
  return state.to_move == seat;
}

enum class Outcome { kWon, kLost, kDrawn, kAborted };

// How a game_end went for `seat`. Two seats: its result (1-0, 0-1, 1/2-1/2). More seats: the
// scores (`scores`, else the result's "100-0-50"): won above every other seat, drawn tied for
// the top, lost below it.
Outcome outcome_for(const protocol::GameEndMessage& end, int seat) {
  const std::string& result = end.result;
  if (result == "*") return Outcome::kAborted;
  if (result == "1/2-1/2") return Outcome::kDrawn;
  if (result == "1-0" || result == "0-1")
    return (result == "1-0") == (seat == 0) ? Outcome::kWon : Outcome::kLost;
  std::vector<std::int64_t> scores(end.scores.begin(), end.scores.end());
  if (auto parsed = scores_of_result(result); scores.empty() && parsed)
    scores.assign(parsed->begin(), parsed->end());
  if (seat < 0 || static_cast<std::size_t>(seat) >= scores.size()) return Outcome::kLost;
  const std::int64_t mine = scores[static_cast<std::size_t>(seat)];
  std::int64_t best_other = std::numeric_limits<std::int64_t>::min();
  for (std::size_t i = 0; i < scores.size(); ++i)
    if (i != static_cast<std::size_t>(seat)) best_other = std::max(best_other, scores[i]);
  return mine > best_other ? Outcome::kWon : mine == best_other ? Outcome::kDrawn : Outcome::kLost;
}

}  // namespace

BotSession::BotSession(BotConfig config, PlayerFactory players, PuzzleSolver solver, Send send,
                       Spawn spawn)
    : config_(std::move(config)),
      players_(std::move(players)),
      solver_(std::move(solver)),
      send_(std::move(send)),
      spawn_(std::move(spawn)) {
  if (config_.max_games == 0 && config_.seek_games > 0) config_.max_games = config_.seek_games;
  if (config_.max_parallel < 1) config_.max_parallel = 1;
  if (!config_.ack_log.empty()) ack_log_ = std::fopen(config_.ack_log.c_str(), "a");
}

BotSession::~BotSession() {
  stop();
  if (ack_log_ != nullptr) std::fclose(ack_log_);
}

void BotSession::log_ack(const Game& g, const std::string& move) {
  if (ack_log_ == nullptr || !g.pending) return;
  std::fprintf(ack_log_, "%lld\t%s\t%s\n", static_cast<long long>(g.id),
               g.pending->client_id.c_str(), move.c_str());
  std::fflush(ack_log_);
}

void BotSession::stop() {
  stop_ = true;
  changed_.notify_all();
}

void BotSession::on_open() {
  std::lock_guard lock(mutex_);
  ready_ = false;
  protocol::Hello hello{protocol::kProtocolVersion, config_.name, session_, config_.engine};
  send_(protocol::encode(hello));
}

void BotSession::on_closed() {
  std::lock_guard lock(mutex_);
  ready_ = false;
  // The server drops a player's seeks with its last connection; puzzles are not resumed.
  seeks_started_ -= open_seeks_;
  open_seeks_ = 0;
  seek_requests_ = 0;
  own_seeks_.clear();
  if (puzzle_open_) --puzzles_started_;
  puzzle_open_ = false;
}

void BotSession::on_message(std::string_view text) {
  auto message = protocol::decode_server_frame(text);
  std::lock_guard lock(mutex_);
  if (!message) {
    ++stats_.errors;
    stats_.last_error = "unreadable frame from the server: " + message.error();
    return;
  }
  if (*message) handle(**message);  // nullopt: a later version's type, nothing to act on
  changed_.notify_all();
}

// The server messages a bot acts on (protocol/README.md); every other type (pong, cancelled,
// declined, moved, seek_joined, ...) needs no answer.
void BotSession::handle(const protocol::ServerMessage& message) {
  std::visit(
      Overload{[&](const protocol::WelcomeMessage& m) { on_welcome(m); },
               [&](const protocol::LobbyMessage& m) { on_lobby(m); },
               [&](const protocol::SeekCreatedMessage& m) { on_seek_created(m); },
               [&](const protocol::GameStartMessage& m) { on_game_start(m); },
               [&](const protocol::StateMessage& m) { on_state(m); },
               [&](const protocol::MoveAckMessage& m) { on_move_ack(m); },
               [&](const protocol::GameEndMessage& m) { on_game_end(m); },
               [&](const protocol::ErrorMessage& m) { on_error(m); },
               [&](const protocol::ChallengeOfferMessage& m) { on_challenge(m); },
               [&](const protocol::DrawOfferMessage& m) { on_draw_offer(m); },
               [&](const protocol::PuzzleStateMessage& m) { on_puzzle_state(m); },
               [&](const protocol::PuzzleEndMessage& m) { on_puzzle_end(m); }, [](const auto&) {}},
      message);
}

// Every offer of the opponent is answered at once by the last search's score of the game (our
// point of view): accepted at most a small margin above a draw, declined above it or before any
// search. The version is remembered, so a resume starts after it (and does not answer twice).
void BotSession::on_draw_offer(const protocol::DrawOfferMessage& m) {
  auto it = games_.find(m.game_id);
  if (it == games_.end()) return;
  Game& g = *it->second;
  if (m.version <= g.version) return;  // already seen (a resume overlaps)
  g.version = m.version;
  if (m.by == g.seat || finished_.contains(g.id)) return;  // our own offer
  const bool gdl = is_gdl_game(g.kind);
  const int draw = gdl ? 50 : 0;  // a GDL player's value is the expected goal, 0..100
  const int margin = gdl ? config_.gdl_draw_margin : config_.draw_margin;
  const bool accept = g.last_score && *g.last_score <= draw + margin;
  ++(accept ? stats_.draws_accepted : stats_.draws_declined);
  send_(protocol::encode(protocol::GameAction{
      accept ? protocol::GameActionKind::kAcceptDraw : protocol::GameActionKind::kDeclineDraw,
      g.id}));
}

void BotSession::on_welcome(const protocol::WelcomeMessage& m) {
  ready_ = true;
  ++stats_.connections;
  my_id_ = m.player.id;
  if (!m.session.empty()) session_ = m.session;
  grace_ms_ = m.limits.reconnect_grace_ms;
  std::set<std::int64_t> listed(m.your_games.begin(), m.your_games.end());
  // Follow every game again from the last version seen; games we never saw from the start.
  for (auto& [id, g] : games_) {
    send_(protocol::encode(protocol::Resume{id, g->version}));
    listed.erase(id);
  }
  for (std::int64_t id : listed)
    if (!finished_.contains(id)) send_(protocol::encode(protocol::Resume{id, -1}));
  for (auto& [id, g] : games_) send_pending(*g);
  warm_up();
  top_up();
}

void BotSession::warm_up() {
  for (const auto& kind : config_.games) ready_players(kind, 1);
}

void BotSession::ready_players(const std::string& kind, int needed) {
  if (!players_) return;  // a puzzle solver only
  auto& pool = spare_[kind];
  while (static_cast<int>(pool.size()) < needed) {
    auto made = players_(kind);
    // A kind the factory cannot make (a puzzle for a solver) is made, or fails, at its start.
    if (!made) return;
    pool.push_back(std::move(*made));
  }
}

int BotSession::players_to_commit(const std::string& kind) const {
  // Every open seek of this kind may start a game, and so may the seek or challenge about to
  // be accepted: each needs its own Player.
  return 1 + (!config_.games.empty() && kind == config_.games.front() ? open_seeks() : 0);
}

int BotSession::open_seeks() const {
  return config_.keep_seek_open ? seek_requests_ + static_cast<int>(own_seeks_.size())
                                : open_seeks_;
}

void BotSession::on_seek_created(const protocol::SeekCreatedMessage& m) {
  if (!config_.keep_seek_open) return;
  if (seek_requests_ > 0) --seek_requests_;
  own_seeks_.emplace(m.seek_id, OwnSeek{false, now_ms_});
}

void BotSession::track_own_seeks(const std::vector<protocol::LobbySeek>& seeks) {
  std::set<std::int64_t> listed;
  for (const auto& s : seeks)
    if (s.by.id == my_id_) listed.insert(s.seek_id);
  bool gone = false;
  for (auto it = own_seeks_.begin(); it != own_seeks_.end();) {
    if (listed.erase(it->first) > 0) {
      it->second.listed = true;
    } else if (it->second.listed) {  // snapshots come in order: it left the lobby
      it = own_seeks_.erase(it);
      ++stats_.seeks_gone;
      gone = true;
      continue;
    }
    ++it;
  }
  // A seek of ours we have not heard of (its seek_created comes first on this connection, so
  // one from before a reconnection the server kept): counted, so no other is opened beside it.
  for (std::int64_t id : listed)
    if (seek_requests_ == 0) own_seeks_.emplace(id, OwnSeek{true, now_ms_});
  if (gone) top_up();
}

void BotSession::on_lobby(const protocol::LobbyMessage& m) {
  last_lobby_ = m;  // for a retry of an accept the server dropped
  if (!ready_) return;
  if (config_.keep_seek_open) track_own_seeks(m.seeks);
  if (!config_.accept_seeks) return;
  // When each listed seek was first seen (-1: before the first tick, set by it).
  std::map<std::int64_t, std::int64_t> seen;
  for (const auto& s : m.seeks) {
    auto it = seek_first_seen_.find(s.seek_id);
    seen[s.seek_id] = it != seek_first_seen_.end() ? it->second : now_ms_ > 0 ? now_ms_ : -1;
  }
  seek_first_seen_ = std::move(seen);
  take_seek();
}

void BotSession::take_seek() {
  if (!config_.accept_seeks || !ready_ || !last_lobby_) return;
  if (live_games() >= config_.max_parallel) return;
  if (config_.max_games > 0 && stats_.games_started >= config_.max_games) return;
  for (const auto& s : last_lobby_->seeks) {
    const std::int64_t id = s.seek_id;
    if (s.by.id == my_id_ || tried_seeks_.contains(id) || (s.by.bot && !config_.accept_bot_seeks) ||
        s.seats < config_.min_seek_seats)
      continue;
    // The game it starts: "tictactoe" with variant=4x4x4 is qubic, gdl:TicTacToe a sheet.
    auto options = parse_game_options(s.options);
    if (!options) continue;
    const std::string kind = resolve_game_name(s.game, *options);
    if (!plays(kind)) continue;
    if (config_.accept_seek_after_ms > 0) {
      auto seen = seek_first_seen_.find(id);
      if (seen == seek_first_seen_.end() || seen->second < 0 ||
          now_ms_ - seen->second < config_.accept_seek_after_ms)
        continue;
    }
    tried_seeks_.insert(id);
    last_accepted_seek_ = id;
    ready_players(kind, players_to_commit(kind));
    send_(protocol::encode(protocol::Accept{id, false}));
    return;  // one at a time: the next lobby update shows what is left
  }
}

void BotSession::on_challenge(const protocol::ChallengeOfferMessage& m) {
  if (config_.accept_challenges && plays(m.game) && live_games() < config_.max_parallel) {
    ready_players(m.game, players_to_commit(m.game));
    send_(protocol::encode(protocol::Accept{m.challenge_id, true}));
  } else
    send_(protocol::encode(protocol::Decline{m.challenge_id}));
}

void BotSession::on_game_start(const protocol::GameStartMessage& m) {
  const std::int64_t id = m.game_id;
  if (finished_.contains(id)) return;
  int seat = -1;
  for (std::size_t i = 0; i < m.players.size(); ++i)
    if (m.players[i].id == my_id_) seat = static_cast<int>(i);
  if (seat < 0) return;  // a game we only watch
  auto& g = games_[id];
  if (g) {
    g->version = 0;  // a resume from the start (after a server restart versions restart)
    return;
  }
  g = std::make_shared<Game>();
  g->id = id;
  g->kind = m.game;
  g->options = m.options;
  g->seat = seat;
  g->version = 0;
  g->tc = parse_time_control(m.time_control).value_or(TimeControl{});
  if (auto spare = spare_.find(g->kind); spare != spare_.end() && !spare->second.empty()) {
    g->player = std::move(spare->second.back());
    spare->second.pop_back();
    g->player->new_game();
  } else if (auto made = players_(g->kind); made) {
    g->player = std::move(*made);
  } else {
    ++stats_.errors;
    stats_.last_error = "game " + std::to_string(id) + ": " + made.error() + " (moving at random)";
  }
  ++stats_.games_started;
  // The seeker plays first: our seek was taken (keep_seek_open: the lobby shows which).
  if (seat == 0 && open_seeks_ > 0) --open_seeks_;
  top_up();
}

void BotSession::on_state(const protocol::StateMessage& m) {
  auto it = games_.find(m.game_id);
  if (it == games_.end()) return;
  Game& g = *it->second;
  // Protocol 3: the state that carries our pending move's client_id is its acknowledgement
  // (the move is durable), as move_ack was.
  if (!m.client_id.empty() && g.pending && g.pending->client_id == m.client_id) {
    log_ack(g, m.last_move);
    g.pending.reset();
  }
  const std::int64_t v = m.version;
  if (v <= g.version) return;  // already seen (a resume overlaps)
  g.version = v;
  if (!m.result.empty()) return;  // game_end follows
  if (!moves_now(m, g.seat)) {
    g.waiting_since_ms = -2;  // set to the time by the next tick
    return;
  }
  g.waiting_since_ms = -1;
  if ((g.searching || g.pending) && g.turn_version == v) return;
  if (g.searching) {
    g.deferred = m;  // one search per Player at a time; answer this one next
    return;
  }
  start_search(it->second, m);
}

void BotSession::start_search(const std::shared_ptr<Game>& g, const protocol::StateMessage& state) {
  const auto seat = static_cast<std::size_t>(g->seat);
  TurnRequest request;
  request.game = g->kind;
  request.options = g->options;
  request.position = state.position;
  request.seat = g->seat;
  // A simultaneous turn lists each mover's moves (legal_moves_by_seat); legal_moves are the
  // first mover's.
  const auto& by_seat = state.legal_moves_by_seat;
  request.legal_moves = by_seat && seat < by_seat->size() ? (*by_seat)[seat] : state.legal_moves;
  if (request.legal_moves.empty()) return;
  std::optional<std::int64_t> left;
  if (state.clocks && seat < state.clocks->size()) left = (*state.clocks)[seat];
  request.budget_ms = move_budget_ms(g->tc, left);
  request.stop = &stop_;
  const std::int64_t version = state.version;
  g->turn_version = version;
  g->searching = true;
  g->legal = request.legal_moves;
  g->pending.reset();
  const auto queued = std::chrono::steady_clock::now();
  spawn_([this, g, version, queued, request = std::move(request)]() mutable {
    // The clock has run since the state came: a search that waited for a worker (more games
    // at once than search threads) gets only what is left of its budget.
    if (request.budget_ms > 0) {
      const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - queued)
                              .count();
      request.budget_ms = std::max<std::int64_t>(1, request.budget_ms - waited);
    }
    // Only this job touches g->player while g->searching is set.
    Expected<TurnReply> reply =
        g->player ? g->player->choose_move(request) : Expected<TurnReply>(make_error("no player"));
    TurnReply out;
    bool fallback = !reply;
    if (reply) {
      out = std::move(*reply);
    } else {
      out.move =
          request.legal_moves[static_cast<std::size_t>(version) % request.legal_moves.size()];
    }
    std::lock_guard lock(mutex_);
    if (fallback) {
      ++stats_.fallbacks;
      stats_.last_error = "game " + std::to_string(g->id) + ": " + reply.error();
    }
    search_done(g, version, std::move(out));
    changed_.notify_all();
  });
}

void BotSession::search_done(const std::shared_ptr<Game>& g, std::int64_t version,
                             TurnReply reply) {
  g->searching = false;
  if (reply.info.score) g->last_score = reply.info.score;
  if (g->deferred && !finished_.contains(g->id)) {
    protocol::StateMessage next = std::move(*g->deferred);
    g->deferred.reset();
    start_search(g, next);
    return;
  }
  if (finished_.contains(g->id) || g->turn_version != version) return;  // overtaken
  protocol::MoveRequest move;
  move.game_id = g->id;
  move.move = std::move(reply.move);
  move.client_id = "g" + std::to_string(g->id) + "v" + std::to_string(version);
  move.info = std::move(reply.info);
  g->pending = std::move(move);
  send_pending(*g);
}

void BotSession::send_pending(Game& g) {
  if (!ready_ || !g.pending) return;
  send_(protocol::encode(*g.pending));
  ++stats_.moves_sent;
}

// A resend of a move already recorded is still answered with move_ack (every version).
void BotSession::on_move_ack(const protocol::MoveAckMessage& m) {
  auto it = games_.find(m.game_id);
  if (it == games_.end()) return;
  auto& pending = it->second->pending;
  if (pending && pending->client_id == m.client_id) {
    log_ack(*it->second, pending->move);
    pending.reset();
  }
}

void BotSession::on_game_end(const protocol::GameEndMessage& m) {
  const std::int64_t id = m.game_id;
  auto it = games_.find(id);
  if (it == games_.end() || finished_.contains(id)) return;
  const int seat = it->second->seat;
  // Its Player goes back to the pool unless a search still runs on it.
  if (Game& g = *it->second; g.player && !g.searching) {
    auto& pool = spare_[g.kind];
    if (static_cast<int>(pool.size()) < config_.max_parallel) pool.push_back(std::move(g.player));
  }
  games_.erase(it);
  finished_.insert(id);
  const std::string& reason = m.reason;
  ++stats_.games_finished;
  stats_.reasons.push_back(reason);
  switch (outcome_for(m, seat)) {
    case Outcome::kWon:
      ++stats_.wins;
      break;
    case Outcome::kDrawn:
      ++stats_.draws;
      break;
    case Outcome::kAborted:
      ++stats_.aborted;
      break;
    case Outcome::kLost:
      ++stats_.losses;
      if (reason == "timeout") ++stats_.lost_on_time;
      break;
  }
  top_up();
}

void BotSession::on_error(const protocol::ErrorMessage& m) {
  const std::string code(protocol::to_string(m.code));
  const std::string& ref = m.ref;
  // An answer to a draw offer that a move of ours withdrew meanwhile (or the game ended): no
  // fault.
  if ((ref == "accept_draw" || ref == "decline_draw") &&
      (code == "no_draw_offer" || code == "game_over"))
    return;
  ++stats_.errors;
  stats_.last_error = code + ": " + m.message;
  // Dropped unread, or a puzzle_start the server cannot prepare yet (it prepares a few at a
  // time): asked again a little later.
  if ((code == "rate_limited" && ref != "move") || (code == "busy" && ref == "puzzle_start"))
    return retry_dropped(ref);
  if (ref == "seek") {
    if (seek_requests_ > 0) --seek_requests_;
    if (open_seeks_ > 0) --open_seeks_;
    return;
  }
  if (ref == "puzzle_start" || ref == "puzzle_solution") {
    puzzle_open_ = false;
    ++stats_.puzzles_failed;
    top_up();
    return;
  }
  if (ref != "move") return;
  // Which game: the error does not say, so look at every unacknowledged move.
  for (auto& [id, g] : games_) {
    if (!g->pending) continue;
    if (code == "busy" || code == "rate_limited") {
      // Sent again a little later: the previous move is still being recorded, or the
      // connection sent more than the server's rate (a token comes back every 5 ms).
      ++stats_.resends;
      // A copy of g: clang 14 (the fuzzing build's compiler) cannot capture a structured
      // binding.
      spawn_([this, game = g] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        std::lock_guard lock(mutex_);
        if (!finished_.contains(game->id)) send_pending(*game);
      });
    } else if (code == "illegal_move" && !g->legal.empty()) {
      // Should not happen (we choose among the server's moves); play a listed move instead.
      ++stats_.fallbacks;
      g->pending->move = g->legal.front();
      g->pending->client_id += "f";
      g->pending->info.reset();
      send_pending(*g);
    } else if (code == "not_your_turn" || code == "game_over" || code == "no_such_game") {
      g->pending.reset();
    }
  }
}

void BotSession::retry_dropped(const std::string& ref) {
  // The server dropped it unread: undo its bookkeeping and try again a little later (a
  // token comes back every 5 ms); a move is resent by on_error itself.
  if (ref == "seek") {
    if (seek_requests_ > 0) --seek_requests_;
    if (open_seeks_ > 0) --open_seeks_;
    if (seeks_started_ > 0) --seeks_started_;
  } else if (ref == "accept") {
    tried_seeks_.erase(last_accepted_seek_);
  } else if (ref == "puzzle_start") {
    puzzle_open_ = false;
    if (puzzles_started_ > 0) --puzzles_started_;
  } else {
    return;  // nothing this bot needs again
  }
  spawn_([this] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard lock(mutex_);
    take_seek();
    top_up();
    changed_.notify_all();
  });
}

void BotSession::on_puzzle_state(const protocol::PuzzleStateMessage& m) {
  if (m.version != 0 || !solver_) return;  // solve once, from the start
  const std::int64_t id = m.puzzle_id;
  const std::string& puzzle = m.puzzle;
  const std::string& position = m.position;
  spawn_([this, id, puzzle, position] {
    auto moves = solver_(puzzle, position);
    std::lock_guard lock(mutex_);
    if (!moves) {
      ++stats_.puzzles_failed;
      stats_.last_error = "puzzle " + std::to_string(id) + ": " + moves.error();
      puzzle_open_ = false;
      top_up();
      changed_.notify_all();
      return;
    }
    if (ready_) send_(protocol::encode(protocol::PuzzleSolution{id, std::move(*moves)}));
  });
}

void BotSession::on_puzzle_end(const protocol::PuzzleEndMessage& m) {
  if (m.solved)
    ++stats_.puzzles_solved;
  else
    ++stats_.puzzles_failed;
  puzzle_open_ = false;
  top_up();
}

void BotSession::top_up() {
  if (!ready_ || stop_ || config_.games.empty()) return;
  const int free_slots = config_.max_parallel - live_games() - open_seeks();
  const auto seek = [&] {
    ready_players(config_.games.front(), players_to_commit(config_.games.front()));
    send_(protocol::encode(
        protocol::Seek{config_.games.front(), config_.seek_options, config_.time_control}));
    ++(config_.keep_seek_open ? seek_requests_ : open_seeks_);
    ++seeks_started_;
  };
  if (config_.keep_seek_open) {
    if (open_seeks() == 0 && free_slots > 0) seek();
  } else {
    for (int i = 0; i < free_slots && seeks_started_ < config_.seek_games; ++i) seek();
  }
  if (config_.puzzles > 0 && !puzzle_open_ && puzzles_started_ < config_.puzzles) {
    protocol::PuzzleStart start;
    start.puzzle = config_.games.front();
    start.options = config_.puzzle_options;
    start.seed = config_.seed + static_cast<std::uint64_t>(puzzles_started_);
    start.scramble = config_.scramble;
    send_(protocol::encode(start));
    puzzle_open_ = true;
    ++puzzles_started_;
  }
}

void BotSession::on_tick(std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  now_ms_ = now_ms;
  if (!ready_) return;
  for (auto& [id, first] : seek_first_seen_)
    if (first < 0) first = now_ms;
  bool gone = false;
  for (auto it = own_seeks_.begin(); it != own_seeks_.end();) {
    if (it->second.created_ms <= 0) it->second.created_ms = now_ms;  // before the first tick
    if (!it->second.listed && now_ms - it->second.created_ms > kUnlistedSeekMs) {
      it = own_seeks_.erase(it);
      ++stats_.seeks_gone;
      gone = true;
    } else {
      ++it;
    }
  }
  if (gone) top_up();
  if (config_.accept_seek_after_ms > 0) take_seek();
  for (auto& [id, g] : games_) {
    if (g->waiting_since_ms == -2) g->waiting_since_ms = now_ms;
    if (g->waiting_since_ms < 0 || now_ms - g->waiting_since_ms <= grace_ms_) continue;
    if (g->last_claim_ms >= 0 && now_ms - g->last_claim_ms <= grace_ms_) continue;
    g->last_claim_ms = now_ms;
    send_(protocol::encode(protocol::GameAction{protocol::GameActionKind::kClaimWin, id}));
  }
}

bool BotSession::plays(std::string_view game) const {
  if (config_.games.empty()) return true;
  for (const auto& g : config_.games)
    if (g == game || (g == "gdl" && game.starts_with("gdl:"))) return true;  // GDL presets
  return false;
}

int BotSession::live_games() const {
  return static_cast<int>(games_.size());
}

bool BotSession::done_locked() const {
  if (config_.puzzles > 0) return stats_.puzzles_solved + stats_.puzzles_failed >= config_.puzzles;
  return config_.max_games > 0 && stats_.games_finished >= config_.max_games && games_.empty();
}

bool BotSession::done() const {
  std::lock_guard lock(mutex_);
  return done_locked();
}

bool BotSession::wait_done(std::int64_t timeout_ms) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] {
    return done_locked() || stop_;
  }) && done_locked();
}

BotStats BotSession::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

std::int64_t BotSession::player_id() const {
  std::lock_guard lock(mutex_);
  return my_id_;
}

}  // namespace arena::client
