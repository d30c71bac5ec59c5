#include "league/play_gdl_game.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include "bots/gdl/gdl_player.h"
#include "games/core/rng.h"
#include "games/gdl/library/library.h"

namespace arena::league {
namespace {

using SteadyClock = std::chrono::steady_clock;

std::chrono::milliseconds movetime(const tournament::LeagueConfig& config) {
  return std::chrono::milliseconds(config.movetime_ms > 0 ? config.movetime_ms : 1000);
}

PlayedGdlGame forfeit(const gdl::GdlGame& game, int offender, const std::string& why) {
  return {offender == 0 ? "0-1" : "1-0", why, game.serialize(),
          offender == 0 ? std::vector<int>{0, 100} : std::vector<int>{100, 0}};
}

PlayedGdlGame result_of(const gdl::GdlGame& game) {
  const Outcome outcome = game.outcome();
  if (!outcome.is_terminal()) return {"1/2-1/2", "adjudicated", game.serialize(), {50, 50}};
  std::string result = outcome.result == Result::kDraw        ? "1/2-1/2"
                       : outcome.result == Result::kFirstWins ? "1-0"
                                                              : "0-1";
  return {std::move(result), std::string(to_string(outcome.reason)), game.serialize(),
          game.scores(), game.end_note()};
}

}  // namespace

GdlSeatMove ask_gdl_seat(gdl::GdlGame& game, gdl::GdlPlayer& player,
                         const std::vector<std::string>& legal, std::chrono::milliseconds think,
                         std::int64_t forfeit_after_ms) {
  GdlSeatMove out;
  if (legal.size() == 1) {  // nothing to choose (GdlGame's movers() when no role has a choice)
    out.text = legal.front();
    return out;
  }
  gdl::StateMachine& machine = game.context()->machine();
  const auto start = SteadyClock::now();
  const gdl::Move m = player.choose(game.state(), start + think);
  out.used_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - start).count();
  out.info = player.last_info();
  out.text = machine.pool().to_kif(m, machine.description().symbols);
  if (std::find(legal.begin(), legal.end(), out.text) == legal.end())
    out.error = "illegal move";
  else if (forfeit_after_ms > 0 && out.used_ms > forfeit_after_ms)
    out.error = "timeout";
  return out;
}

Expected<std::shared_ptr<gdl::GdlContext>> GdlReasonerPool::take() {
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      auto context = std::move(idle_.back());
      idle_.pop_back();
      return context;
    }
  }
  auto made = gdl::make_gdl_context(sheet_);  // without the lock: compiling takes a while
  if (!made) return make_error(made.error());
  std::lock_guard lock(mutex_);
  ++made_;
  return made;
}

void GdlReasonerPool::put(std::shared_ptr<gdl::GdlContext> context) {
  std::lock_guard lock(mutex_);
  idle_.push_back(std::move(context));
}

int GdlReasonerPool::made() const {
  std::lock_guard lock(mutex_);
  return made_;
}

Expected<void> check_gdl_league(const tournament::LeagueConfig& config, GdlReasonerPool& pool) {
  if (!config.options.empty())
    return make_error("options: " + config.game + " is a GDL sheet, which takes no options");
  if (!config.opening_book.empty())
    return make_error(
        "opening_book: an opening book holds moves of the catalog's games; a GDL "
        "league opens with opening_plies random turns");
  auto context = pool.take();
  if (!context) return make_error(context.error());
  const std::size_t roles = (*context)->role_names().size();
  pool.put(std::move(*context));
  if (auto two = tournament::check_two_roles(config.game, roles, "a league"); !two) return two;
  for (const tournament::Entrant& e : config.players) {
    if (e.spec.starts_with("ggp:"))
      return make_error("player '" + e.name +
                        "': a GGP player by URL plays through a local "
                        "server (arena league without --in-process)");
    if (auto p = gdl::make_gdl_player(e.spec); !p)
      return make_error("player '" + e.name + "': " + p.error());
  }
  return {};
}

Expected<PlayedGdlGame> play_recorded_gdl_game(gdl::GdlGame& game, const GdlGameSeats& seats,
                                               const tournament::LeagueConfig& config,
                                               db::Store& store, std::uint64_t seed) {
  std::unique_ptr<gdl::GdlPlayer> players[2];
  const std::string* specs[2] = {&seats.first_spec, &seats.second_spec};
  gdl::StateMachine& machine = game.context()->machine();
  for (int seat = 0; seat < 2; ++seat) {
    auto p = gdl::make_gdl_player(*specs[seat]);
    if (!p) return make_error(p.error());
    players[seat] = std::move(*p);
    players[seat]->start(machine, seat, gdl::kNoStartClock);
    gdl::report_fallback(*players[seat], "arena league: " + *specs[seat]);
  }
  Rng substitute_rng(seed ^ 0x5bd1e995ULL);
  int rows = 0;
  for (int turn = 0; !game.outcome().is_terminal() && turn < config.max_plies; ++turn) {
    // One row per mover, in the order of movers(), written once the turn is played
    // (games/core/turn_rows.h): each keeps its own seat's time and search figures.
    std::vector<std::string> texts;
    std::vector<db::MoveRecord> records;
    for (int seat : game.movers()) {
      const auto legal = game.legal_moves_of(seat);
      GdlSeatMove move =
          ask_gdl_seat(game, *players[seat], legal, movetime(config), config.forfeit_after_ms);
      db::MoveRecord record;
      record.game = seats.game;
      record.ply = rows + static_cast<int>(records.size());
      record.seat = seat;
      if (!move.error.empty()) {
        if (config.on_error == tournament::ErrorPolicy::kLose)
          return forfeit(game, seat, move.error);
        move.text = legal[substitute_rng.below(legal.size())];
        record.pv = "substituted: " + move.error;
      }
      record.move = move.text;
      record.time_used_ms = move.used_ms;
      record.nodes = static_cast<std::int64_t>(move.info.iterations);
      record.score = move.info.value;
      texts.push_back(std::move(move.text));
      records.push_back(std::move(record));
    }
    if (auto turn_played = game.play_turn(texts); !turn_played)
      return make_error("turn " + std::to_string(turn + 1) + ": " + turn_played.error());
    for (const db::MoveRecord& record : records) store.append_move(record, [](Expected<void>) {});
    rows += static_cast<int>(records.size());
  }
  return result_of(game);
}

}  // namespace arena::league
