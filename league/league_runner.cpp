#include "league/league_runner.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "bots/eval/weights_file.h"
#include "bots/gdl/gdl_player.h"
#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"
#include "games/core/random_opening.h"
#include "games/gdl/library/library.h"
#include "league/league_presets.h"
#include "league/play_game.h"
#include "league/play_gdl_game.h"
#include "league/resume_check.h"
#include "protocol/messages.h"
#include "tournament/pairing/fair_start.h"
#include "tournament/pairing/league_schedule.h"
#include "tournament/pairing/schedule.h"

namespace arena::league {
namespace {

using Clock = std::chrono::steady_clock;

struct Context {
  const tournament::LeagueConfig& config;
  db::Store& store;
  std::int64_t tournament = 0;
  std::vector<db::PlayerId> ids;       // by player index
  std::vector<std::int64_t> versions;  // by player index
  std::vector<PlayerBot> bots;         // by player index: what each version is
  std::map<db::PlayerId, int> index_of;
  std::vector<std::string> book;
  std::unique_ptr<GdlReasonerPool> gdl;  // a GDL sheet's league only
};

bool finished(const db::PairingRow& row) {
  return !row.result.empty() && row.result != "*";
}

std::string time_control(const tournament::LeagueConfig& c) {
  return c.movetime_ms > 0 ? "movetime:" + std::to_string(c.movetime_ms) : "none";
}

db::NewGame new_game(const Context& ctx, const db::PairingRow& row, std::string kind,
                     std::string start, std::uint64_t seed) {
  const tournament::LeagueConfig& c = ctx.config;
  const auto fi = static_cast<std::size_t>(ctx.index_of.at(row.first));
  const auto si = static_cast<std::size_t>(ctx.index_of.at(row.second));
  return {std::move(kind),
          c.options,
          std::move(start),
          row.first,
          row.second,
          time_control(c),
          seed,
          ctx.tournament,
          ctx.versions[fi],
          ctx.versions[si],
          {}};
}

// A GDL sheet's row: a reasoner no other game in play uses (from the pool), the start
// position as the server's leagues draw it (random_opening through AnyGame), GDL players.
Expected<void> play_gdl_row(Context& ctx, const db::PairingRow& row, std::uint64_t seed) {
  const tournament::LeagueConfig& c = ctx.config;
  auto context = ctx.gdl->take();
  if (!context) return make_error(context.error());
  struct GiveBack {
    GdlReasonerPool& pool;
    std::shared_ptr<gdl::GdlContext> context;
    ~GiveBack() { pool.put(std::move(context)); }
  } give_back{*ctx.gdl, *context};
  auto game = gdl::GdlGame::start(*context);
  if (!game) return make_error(game.error());
  random_opening(static_cast<AnyGame&>(**game), c.opening_plies, seed);
  auto id = ctx.store.create_game(
      new_game(ctx, row, std::string((*game)->name()), (*game)->serialize(), seed));
  if (!id) return make_error(id.error());
  if (auto r = ctx.store.set_pairing_game(row.id, *id); !r) return r;
  const GdlGameSeats seats{*id,
                           c.players[static_cast<std::size_t>(ctx.index_of.at(row.first))].spec,
                           c.players[static_cast<std::size_t>(ctx.index_of.at(row.second))].spec};
  auto played = play_recorded_gdl_game(**game, seats, c, ctx.store, seed);
  if (!played) return make_error(played.error());
  ctx.store.finish_game(
      {*id, played->result, played->reason, played->final_position, played->scores, played->note},
      [](Expected<void>) {});
  return {};
}

// Plays one pairing row's game start to end; errors are a bad config (spec, options, book).
Expected<void> play_row(Context& ctx, const db::PairingRow& row, std::uint64_t seed) {
  const tournament::LeagueConfig& c = ctx.config;
  if (is_gdl_game(c.game)) return play_gdl_row(ctx, row, seed);
  Expected<void> status;
  GameOptions options;
  auto resolved = resolve_game(c.game, c.options, options);
  if (!resolved) return make_error("options: " + resolved.error());
  const std::string kind = *resolved;
  const int fi = ctx.index_of.at(row.first), si = ctx.index_of.at(row.second);
  const bool known = visit_game_type(kind, [&]<class G>(std::type_identity<G>) {
    if constexpr (G::kNumPlayers != 2) {
      status = make_error(std::string(G::kName) + " is not a two-player game");
    } else {
      auto start = G::create(options);
      if (!start) return void(status = make_error(start.error()));
      auto position = tournament::fair_start(*start, c.opening_plies, seed, ctx.book);
      if (!position) return void(status = make_error(position.error()));
      auto game = ctx.store.create_game(new_game(ctx, row, kind, position->serialize(), seed));
      if (!game) return void(status = make_error(game.error()));
      if (auto r = ctx.store.set_pairing_game(row.id, *game); !r) return void(status = r);
      GameSetup setup{*game, c.players[static_cast<std::size_t>(fi)].spec,
                      c.players[static_cast<std::size_t>(si)].spec};
      auto played = play_recorded_game(*position, setup, c, ctx.store, seed);
      if (!played) return void(status = make_error(played.error()));
      ctx.store.finish_game({*game, played->result, played->reason, ""}, [](Expected<void>) {});
    }
  });
  if (!known) return make_error("unknown game '" + c.game + "'");
  return status;
}

Expected<void> setup_players(Context& ctx) {
  const bool gdl = is_gdl_game(ctx.config.game);  // specs checked by check_gdl_league
  for (const auto& p : ctx.config.players) {
    auto rec = ctx.store.find_or_create_player(p.name, true);
    if (!rec) return make_error(rec.error());
    std::string heuristic;   // what guides the search: the eval, or a GDL goal heuristic
    std::string parameters;  // its weights file's text, as a bot's hello names them
    if (gdl) {
      heuristic = gdl::gdl_player_heuristic(p.spec).value_or("");
    } else {
      auto spec = search::parse_search_spec(p.spec);
      if (!spec) return make_error("player '" + p.name + "': " + spec.error());
      heuristic = spec->eval;
      parameters = eval::weights_parameters(spec->params, protocol::kMaxEngineParametersBytes);
    }
    auto version = ctx.store.register_bot_version({rec->id, p.spec, heuristic, parameters});
    if (!version) return make_error(version.error());
    ctx.index_of[rec->id] = static_cast<int>(ctx.ids.size());
    ctx.ids.push_back(rec->id);
    ctx.versions.push_back(*version);
    ctx.bots.push_back({p.name, p.spec, parameters});
  }
  return {};
}

// The first schedule of a new tournament (Swiss: round 1 only).
Expected<void> schedule_start(Context& ctx) {
  auto games = tournament::first_schedule(ctx.config);
  if (!games) return make_error(games.error());
  return tournament::add_pairings(ctx.store, ctx.tournament, *games, ctx.ids);
}

// Swiss: pairs the next round from the stored results; false when every round is scheduled.
Expected<bool> schedule_next_swiss_round(Context& ctx, const std::vector<db::PairingRow>& rows) {
  auto next = tournament::next_swiss_round(ctx.config, rows, ctx.index_of);
  if (!next) return make_error(next.error());
  if (!*next) return false;
  if (auto r = tournament::add_pairings(ctx.store, ctx.tournament, **next, ctx.ids); !r)
    return make_error(r.error());
  return true;
}

}  // namespace

namespace {

// Closes games cut off by an earlier run so they count as aborted, not live.
void close_interrupted(db::Store& store, const std::vector<db::PairingRow>& rows) {
  for (const auto& r : rows)
    if (r.game != 0 && r.result.empty())
      store.finish_game({r.game, "*", "interrupted", ""}, [](Expected<void>) {});
  store.flush();
}

struct Pool {
  std::mutex mutex;
  LeagueProgress progress;
  std::string error;
};

// Plays every unfinished row, config.concurrency at a time.
Expected<int> play_pending(Context& ctx, const std::vector<db::PairingRow>& rows,
                           const ProgressFn& report, const std::atomic<bool>* stop, Pool& pool,
                           Clock::time_point started) {
  std::vector<std::pair<db::PairingRow, std::uint64_t>> pending;
  int done = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    if (finished(rows[k])) {
      ++done;
      continue;
    }
    pending.emplace_back(rows[k], tournament::row_seed(ctx.tournament, ctx.config.seed, k,
                                                       ctx.config.games_per_pairing));
  }
  {
    std::lock_guard lock(pool.mutex);
    pool.progress.done = done;
    pool.progress.total = static_cast<int>(rows.size());
  }
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (;;) {
      if (stop != nullptr && stop->load()) return;
      const std::size_t i = next.fetch_add(1);
      if (i >= pending.size()) return;
      {
        std::lock_guard lock(pool.mutex);
        if (!pool.error.empty()) return;
        ++pool.progress.running;
      }
      auto r = play_row(ctx, pending[i].first, pending[i].second);
      std::lock_guard lock(pool.mutex);
      --pool.progress.running;
      if (!r) {
        pool.error = r.error();
        return;
      }
      ++pool.progress.done;
      ++pool.progress.done_now;
      pool.progress.elapsed_s = std::chrono::duration<double>(Clock::now() - started).count();
      if (report) report(pool.progress);
    }
  };
  std::vector<std::thread> threads;
  const auto n = std::min<std::size_t>(static_cast<std::size_t>(ctx.config.concurrency),
                                       std::max<std::size_t>(pending.size(), 1));
  for (std::size_t t = 0; t < n; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  ctx.store.flush();
  if (!pool.error.empty()) return make_error(pool.error);
  return static_cast<int>(pending.size());
}

}  // namespace

Expected<LeagueRun> run_league(const tournament::LeagueConfig& given, db::Store& store,
                               const std::string& db_path, const ProgressFn& progress,
                               const std::atomic<bool>* stop) {
  if (auto v = tournament::validate(given); !v) return make_error(v.error());
  tournament::LeagueConfig config = given;
  if (auto r = resolve_entrants(config); !r) return make_error(r.error());
  const auto started = Clock::now();
  Context ctx{config, store, 0, {}, {}, {}, {}, {}, nullptr};
  if (is_gdl_game(config.game)) {
    ctx.gdl = std::make_unique<GdlReasonerPool>(config.game.substr(4));
    if (auto r = check_gdl_league(config, *ctx.gdl); !r) return make_error(r.error());
  }
  if (!config.opening_book.empty()) {
    auto book = tournament::read_opening_book(config.opening_book);
    if (!book) return make_error(book.error());
    ctx.book = std::move(*book);
  }
  if (auto r = setup_players(ctx); !r) return make_error(r.error());
  store.flush();
  auto reader = db::TournamentReader::open(db_path);
  if (!reader) return make_error(reader.error());
  LeagueRun run;
  auto existing = reader->unfinished_named(config.name);
  if (!existing) return make_error(existing.error());
  if (*existing) {
    ctx.tournament = **existing;
    run.resumed = true;
    if (auto same = check_resumed_players(*reader, ctx.tournament, config.name, ctx.bots); !same)
      return make_error(same.error());
  } else {
    auto id = store.create_tournament(
        {config.name, config.game, to_string(config.format), config.options, time_control(config)});
    if (!id) return make_error(id.error());
    ctx.tournament = *id;
    if (auto r = schedule_start(ctx); !r) return make_error(r.error());
  }
  run.tournament = ctx.tournament;
  Pool pool;
  for (;;) {
    store.flush();
    auto rows = reader->pairings(ctx.tournament);
    if (!rows) return make_error(rows.error());
    for (const auto& r : *rows)
      if (!ctx.index_of.count(r.first) || !ctx.index_of.count(r.second))
        return make_error("tournament " + std::to_string(ctx.tournament) +
                          " has a player that is not in this config; resume it with the same one");
    close_interrupted(store, *rows);
    auto played = play_pending(ctx, *rows, progress, stop, pool, started);
    if (!played) return make_error(played.error());
    run.games_played += *played;
    if (stop != nullptr && stop->load()) break;
    if (config.format != tournament::Format::kSwiss) break;
    auto after = reader->pairings(ctx.tournament);
    if (!after) return make_error(after.error());
    auto more = schedule_next_swiss_round(ctx, *after);
    if (!more) return make_error(more.error());
    if (!*more) break;
  }
  if (stop == nullptr || !stop->load()) {
    store.flush();
    if (auto r = store.finish_tournament(ctx.tournament); !r) return make_error(r.error());
  }
  run.games_played = pool.progress.done_now;
  run.wall_s = std::chrono::duration<double>(Clock::now() - started).count();
  return run;
}

}  // namespace arena::league
