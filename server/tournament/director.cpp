#include "server/tournament/director.h"

#include <algorithm>
#include <cstdio>

#include <boost/asio/post.hpp>

#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"
#include "games/core/random_opening.h"
#include "tournament/pairing/fair_start.h"
#include "tournament/pairing/league_schedule.h"

namespace arena::server {

using tournament::Format;

namespace {

bool decided(const db::Pairing& p) {
  return !p.result.empty() && p.result != "*";
}

// The server's clock: the per-move time, else forfeit_after_ms as one (a slower move loses, as
// in the in-process runner), else none (a bot that goes silent then loses by abandonment: its
// opponent claims the win after the reconnect grace period).
std::string time_control(const tournament::LeagueConfig& c) {
  const std::int64_t ms = c.movetime_ms > 0 ? c.movetime_ms : c.forfeit_after_ms;
  return ms > 0 ? "movetime:" + std::to_string(ms) : "none";
}

// GDL sheets (gdl:NAME) are AnyGames with no compile-time type: a league plays those of two
// roles, taking turns or moving at once, which the server hosts like the hand-written games.
Expected<void> check_gdl_game(const std::string& kind, const GameOptions& options) {
  auto g = make_game(kind, options);
  if (!g) return make_error(g.error());
  return tournament::check_two_roles(kind, static_cast<std::size_t>((*g)->num_seats()), "a league");
}

// random_opening through the AnyGame interface (games/core/random_opening.h).
Expected<std::string> gdl_start_position(const std::string& kind, const GameOptions& options,
                                         int plies, std::uint64_t seed) {
  auto g = make_game(kind, options);
  if (!g) return make_error(g.error());
  random_opening(**g, plies, seed);
  return (*g)->serialize();
}

}  // namespace

TournamentDirector::TournamentDirector(boost::asio::any_io_executor executor, db::Store& store)
    : strand_(boost::asio::make_strand(executor)), store_(store) {}

Expected<TournamentDirector::Running> TournamentDirector::prepare(
    std::int64_t id, const tournament::LeagueConfig& config) {
  if (auto v = tournament::validate(config); !v) return make_error(v.error());
  Running t;
  t.id = id;
  t.config = config;
  t.kind = resolve_game_name(config.game, t.options);
  if (!config.options.empty()) {
    auto parsed = parse_game_options(config.options);
    if (!parsed) return make_error("\"options\": " + parsed.error());
    for (const auto& [k, v] : *parsed) t.options[k] = v;
  }
  Expected<void> ok;
  const bool gdl = is_gdl_game(t.kind);
  if (gdl) ok = check_gdl_game(t.kind, t.options);
  const bool known = gdl || visit_game_type(t.kind, [&]<class G>(std::type_identity<G>) {
    if constexpr (G::kNumPlayers != 2) {
      ok = make_error(t.kind + " is not a two-player game");
    } else if (auto g = G::create(t.options); !g) {
      ok = make_error("\"options\": " + g.error());
    }
  });
  if (!known) return make_error("unknown game '" + config.game + "'");
  if (!ok) return make_error(ok.error());
  if (!config.opening_book.empty()) {
    auto book = tournament::read_opening_book(config.opening_book);
    if (!book) return make_error(book.error());
    t.book = std::move(*book);
  }
  for (const auto& e : config.players) {
    auto rec = store_.find_or_create_player(e.name, true);
    if (!rec) return make_error("player '" + e.name + "': " + rec.error());
    t.index_of[rec->id] = static_cast<int>(t.players.size());
    t.players.push_back(rec->id);
  }
  return t;
}

Expected<int> TournamentDirector::load() {
  auto stored = store_.unfinished_tournaments();
  if (!stored) return make_error(stored.error());
  int loaded = 0;
  for (const auto& rec : *stored) {
    if (rec.config.empty()) continue;  // not the server's (the in-process league runner's)
    auto config = tournament::parse_league_config(rec.config);
    auto t = config ? prepare(rec.id, *config) : Expected<Running>(make_error(config.error()));
    if (!t) {
      std::fprintf(stderr, "arena serve: tournament %lld is not continued: %s\n",
                   static_cast<long long>(rec.id), t.error().c_str());
      continue;
    }
    std::lock_guard lock(mutex_);
    running_[rec.id] = std::move(*t);
    ++loaded;
  }
  return loaded;
}

void TournamentDirector::attach(const std::shared_ptr<TournamentHost>& hub) {
  hub_ = hub;
  std::weak_ptr<TournamentDirector> weak = weak_from_this();
  TournamentHooks hooks;
  hooks.replays_game = [weak](db::GameId game) {
    auto self = weak.lock();
    if (!self) return false;
    std::lock_guard lock(self->mutex_);
    for (const auto& [id, t] : self->running_)
      if (auto rows = self->store_.pairings(id))
        for (const auto& r : *rows)
          if (r.game == game) return true;
    return false;
  };
  hooks.game_finished = [weak](db::GameId) {
    if (auto self = weak.lock()) self->poke();
  };
  hooks.player_arrived = [weak] {
    if (auto self = weak.lock()) self->poke();
  };
  hooks.create = [weak](const std::string& json) -> Expected<std::pair<std::int64_t, bool>> {
    auto self = weak.lock();
    if (!self) return make_error("the server is stopping");
    auto config = tournament::parse_league_config(json);
    if (!config) return make_error(config.error());
    return self->create(*config);
  };
  hooks.status = [weak](std::int64_t id) -> std::optional<protocol::ApiDirectorStatus> {
    if (auto self = weak.lock()) return self->status(id);
    return std::nullopt;
  };
  hub->set_tournament_hooks(std::move(hooks));
  poke();
}

Expected<std::pair<std::int64_t, bool>> TournamentDirector::create(
    const tournament::LeagueConfig& config) {
  std::lock_guard lock(mutex_);
  for (const auto& [id, t] : running_)
    if (t.config.name == config.name) return std::pair{id, true};
  auto t = prepare(0, config);
  if (!t) return make_error(t.error());
  auto id = store_.create_tournament({config.name, t->kind, tournament::to_string(config.format),
                                      config.options, time_control(config),
                                      tournament::to_json_text(config)});
  if (!id) return make_error(id.error());
  t->id = *id;
  if (auto r = schedule_start(*t); !r) return make_error(r.error());
  running_[*id] = std::move(*t);
  poke();
  return std::pair{*id, false};
}

Expected<void> TournamentDirector::schedule_start(Running& t) {
  auto games = tournament::first_schedule(t.config);
  if (!games) return make_error(games.error());
  return tournament::add_pairings(store_, t.id, *games, t.players);
}

// Never takes mutex_: it is called with it held (create, a Swiss round scheduled in a tick).
void TournamentDirector::poke() {
  if (tick_pending_.exchange(true)) return;
  boost::asio::post(strand_, [self = shared_from_this()] { self->tick(); });
}

void TournamentDirector::tick() {
  auto hub = hub_.lock();
  std::lock_guard lock(mutex_);
  tick_pending_ = false;
  // Every login and every game's end pokes: with no tournament running, that is all it costs
  // (a hub serving a thousand casual games must not count its connections each time).
  if (!hub || running_.empty()) return;
  const auto online = hub->online_counts();
  // Each tournament's pairings, read once a tick; the games in play across every tournament
  // (a name plays at most as many games at once as it has connections).
  std::map<std::int64_t, std::vector<db::Pairing>> rows;
  std::map<db::PlayerId, int> busy;
  for (auto& [id, t] : running_) {
    auto read = store_.pairings(id);
    if (!read) continue;  // try again at the next tick
    std::erase_if(t.live, [&](db::GameId g) { return !hub->is_live(g); });
    for (const auto& r : *read)
      if (std::find(t.live.begin(), t.live.end(), r.game) != t.live.end())
        ++busy[r.first], ++busy[r.second];
    rows[id] = std::move(*read);
  }
  for (auto it = running_.begin(); it != running_.end();) {
    auto found = rows.find(it->first);
    const bool go_on = found == rows.end() || advance(it->second, found->second, hub, online, busy);
    it = go_on ? std::next(it) : running_.erase(it);
  }
}

bool TournamentDirector::advance(Running& t, std::vector<db::Pairing>& rows,
                                 const std::shared_ptr<TournamentHost>& hub,
                                 const std::map<db::PlayerId, int>& online,
                                 std::map<db::PlayerId, int>& busy) {
  std::vector<std::size_t> pending;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    auto& r = rows[k];
    if (decided(r)) continue;
    if (r.game != 0 && r.result.empty()) {
      if (hub->is_live(r.game)) continue;
      // Cut off by a restart (not resumed, see replays_game): closed as aborted, and the
      // pairing is played again from the same seed.
      store_.finish_game({r.game, "*", "interrupted", ""}, [](Expected<void>) {});
      r.game = 0;
    }
    pending.push_back(k);
  }
  if (pending.empty() && t.live.empty()) return next_round(t, rows);
  start_games(t, rows, pending, hub, online, busy);
  return true;
}

bool TournamentDirector::next_round(Running& t, const std::vector<db::Pairing>& rows) {
  const auto& c = t.config;
  if (c.format == Format::kSwiss) {
    auto next = tournament::next_swiss_round(c, rows, t.index_of);
    if (next && *next) {
      if (auto r = tournament::add_pairings(store_, t.id, **next, t.players); !r)
        std::fprintf(stderr, "arena serve: tournament %lld: %s\n", static_cast<long long>(t.id),
                     r.error().c_str());
      poke();
      return true;
    }
    if (!next)
      std::fprintf(stderr, "arena serve: tournament %lld ends early: %s\n",
                   static_cast<long long>(t.id), next.error().c_str());
  }
  store_.flush();
  (void)store_.finish_tournament(t.id);
  return false;
}

void TournamentDirector::start_games(Running& t, const std::vector<db::Pairing>& rows,
                                     const std::vector<std::size_t>& pending,
                                     const std::shared_ptr<TournamentHost>& hub,
                                     const std::map<db::PlayerId, int>& online,
                                     std::map<db::PlayerId, int>& busy) {
  const auto& c = t.config;
  auto free = [&](db::PlayerId p) {
    auto it = online.find(p);
    return it != online.end() && busy[p] < it->second;
  };
  for (std::size_t k : pending) {
    if (static_cast<int>(t.live.size()) >= c.concurrency) break;
    const auto& r = rows[k];
    if (!free(r.first) || !free(r.second)) continue;
    const auto seed = tournament::row_seed(t.id, c.seed, k, c.games_per_pairing);
    auto position = start_position(t, seed);
    if (!position) {
      std::fprintf(stderr, "arena serve: tournament %lld: %s\n", static_cast<long long>(t.id),
                   position.error().c_str());
      return;
    }
    TournamentGame g{t.id,      r.first,         r.second, t.kind,        c.options,
                     *position, time_control(c), seed,     rules(t, seed)};
    auto game = hub->start_tournament_game(g);
    if (!game) continue;  // a player left since the count; the next tick tries again
    if (auto set = store_.set_pairing_game(r.id, *game); !set)
      std::fprintf(stderr, "arena serve: tournament %lld: %s\n", static_cast<long long>(t.id),
                   set.error().c_str());
    t.live.push_back(*game);
    ++busy[r.first], ++busy[r.second];
  }
}

Expected<std::string> TournamentDirector::start_position(const Running& t,
                                                         std::uint64_t seed) const {
  if (is_gdl_game(t.kind))
    return gdl_start_position(t.kind, t.options, t.config.opening_plies, seed);
  Expected<std::string> out = make_error("unknown game '" + t.kind + "'");
  visit_game_type(t.kind, [&]<class G>(std::type_identity<G>) {
    if constexpr (G::kNumPlayers == 2) {
      auto start = G::create(t.options);
      if (!start) return void(out = make_error(start.error()));
      auto position = tournament::fair_start(*start, t.config.opening_plies, seed, t.book);
      if (!position) return void(out = make_error(position.error()));
      out = position->serialize();
    }
  });
  return out;
}

TournamentRules TournamentDirector::rules(const Running& t, std::uint64_t seed) const {
  TournamentRules r;
  r.max_plies = t.config.max_plies;
  r.illegal_move_loses = t.config.on_error == tournament::ErrorPolicy::kLose;
  r.substitute_on_error = t.config.on_error == tournament::ErrorPolicy::kRandomMove;
  r.seed = seed;
  return r;
}

std::optional<protocol::ApiDirectorStatus> TournamentDirector::status(std::int64_t id) {
  auto hub = hub_.lock();
  std::lock_guard lock(mutex_);
  auto it = running_.find(id);
  if (it == running_.end() || !hub) return std::nullopt;
  const auto online = hub->online_counts();
  protocol::ApiDirectorStatus s;
  for (std::size_t i = 0; i < it->second.players.size(); ++i)
    if (!online.contains(it->second.players[i]))
      s.waiting_for.push_back(it->second.config.players[i].name);
  for (auto g : it->second.live) s.running.push_back(g);
  return s;
}

}  // namespace arena::server
