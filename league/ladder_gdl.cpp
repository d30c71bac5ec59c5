#include "league/ladder_gdl.h"

#include <algorithm>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "bots/client/roster.h"
#include "bots/client/time_budget.h"
#include "bots/gdl/gdl_player.h"
#include "games/core/random_opening.h"
#include "games/gdl/library/library.h"
#include "league/ladder_tasks.h"
#include "league/play_gdl_game.h"
#include "tournament/config/league_config.h"
#include "tournament/pairing/fair_start.h"

namespace arena::league {
namespace {

using Clock = std::chrono::steady_clock;

// One game from `game`'s position: seats[0] plays the first role, seats[1] the second.
Expected<LadderGame> play_gdl(gdl::GdlGame& game, const LadderSeat* seats[2], const LadderConfig& c,
                              std::uint64_t seed) {
  LadderGame out;
  const client::TimeControl tc{client::TimeControl::Kind::kFischer, c.base_ms, c.increment_ms};
  std::int64_t clock_ms[2] = {c.base_ms, c.base_ms};
  auto think = [&](int role) {
    return std::chrono::milliseconds(c.base_ms > 0 ? client::move_budget_ms(tc, clock_ms[role])
                                                   : c.movetime_ms);
  };
  std::unique_ptr<gdl::GdlPlayer> players[2];
  for (int role = 0; role < 2; ++role) {
    auto p = gdl::make_gdl_player(seats[role]->spec, seed * 2 + static_cast<std::uint64_t>(role));
    if (!p) return make_error("seat '" + seats[role]->text + "': " + p.error());
    players[role] = std::move(*p);
    players[role]->start(game.context()->machine(), role, Clock::now() + think(role));
    gdl::report_fallback(*players[role], "arena ladder: " + seats[role]->text);
  }
  auto lose = [&](int role, const std::string& why) {
    out.first_score = role == 0 ? 0 : 1;
    out.reason = why;
    return out;
  };
  while (!game.outcome().is_terminal() && out.plies < c.max_plies) {
    std::vector<std::string> turn;
    for (int role : game.movers()) {
      if (role < 0 || role > 1) return make_error("a mover that is no role of two");
      const auto legal = game.legal_moves_of(role);
      GdlSeatMove move = ask_gdl_seat(game, *players[role], legal, think(role), 0);
      if (!move.error.empty()) return lose(role, move.error + " '" + move.text + "'");
      if (c.base_ms > 0 && legal.size() > 1) {
        clock_ms[role] -= move.used_ms;
        if (clock_ms[role] < 0) return lose(role, "time forfeit");
        clock_ms[role] += c.increment_ms;
      }
      turn.push_back(std::move(move.text));
    }
    if (auto played = game.play_turn(turn); !played)
      return make_error("turn " + std::to_string(out.plies + 1) + ": " + played.error());
    ++out.plies;
  }
  score_ladder_game(out, game.outcome(), std::to_string(c.max_plies) + " turns");
  return out;
}

// One worker: a reasoner of its own, playing tasks until none is left.
void work(const LadderConfig& c, const std::vector<LadderSeat>& seats, GdlReasonerPool& pool,
          TaskQueue& queue) {
  auto context = pool.take();
  if (!context) return queue.fail(context.error());
  while (auto t = queue.next()) {
    auto game = gdl::GdlGame::start(*context);
    if (!game) return queue.fail(game.error());
    const std::uint64_t seed = tournament::pair_seed(static_cast<std::int64_t>(c.seed), t->pair);
    random_opening(static_cast<AnyGame&>(**game), c.opening_plies, seed);
    const LadderSeat* pair[2] = {&seats[static_cast<std::size_t>(t->first)],
                                 &seats[static_cast<std::size_t>(t->second)]};
    auto played = play_gdl(**game, pair, c, seed + t->index);
    if (!played) return queue.fail(played.error());
    queue.done(*t, std::move(*played));
  }
  pool.put(std::move(*context));
}

}  // namespace

Expected<void> parse_gdl_ladder_seat(LadderSeat& seat, const std::string& body,
                                     const std::string& game) {
  if (body.starts_with("uci:"))
    return make_error("seat '" + seat.text + "': UCI engines play chess, not " + game);
  seat.kind = LadderSeat::Kind::kGdl;
  seat.name = body;
  if (const client::Preset* preset = client::find_preset(body)) {
    if (preset->game != "gdl")
      return make_error("seat '" + seat.text + "': preset '" + body + "' plays " + preset->game +
                        ", not " + game);
    seat.spec = preset->spec;
    return {};
  }
  if (auto player = gdl::make_gdl_player(body); !player)
    return make_error("seat '" + seat.text + "': unknown preset '" + body +
                      "' (arena bot --list-presets) and not a GDL player spec (" + player.error() +
                      ")");
  seat.spec = body;
  return {};
}

Expected<void> check_gdl_ladder_game(const LadderConfig& c) {
  if (!c.options.empty())
    return make_error("options: " + c.game + " is a GDL sheet, which takes no options");
  if (!c.opening_book.empty())
    return make_error(
        "opening book: a book holds moves of the catalog's games; a GDL ladder opens with "
        "random turns (--opening-plies)");
  auto description = gdl::load_gdl_description(std::string_view(c.game).substr(4));
  if (!description) return make_error(description.error());
  return tournament::check_two_roles(c.game, (*description)->roles().size(), "a ladder");
}

Expected<void> run_gdl_ladder_games(const LadderConfig& c, LadderResult& result,
                                    const LadderProgress& progress, const std::atomic<bool>* stop,
                                    std::chrono::steady_clock::time_point started) {
  if (auto ok = check_gdl_ladder_game(c); !ok) return ok;
  GdlReasonerPool pool(c.game.substr(4));
  {
    auto first = pool.take();  // the sheet is read and compiled once before the first game
    if (!first) return make_error(first.error());
    pool.put(std::move(*first));
  }
  const int n = static_cast<int>(result.seats.size());
  TaskQueue queue(c, result, progress, stop, started,
                  game_tasks(c.pairs, ladder_pairings(n, c.all_pairs)));
  std::vector<std::thread> workers;
  for (int w = 1; w < std::max(1, c.jobs); ++w)
    workers.emplace_back([&] { work(c, result.seats, pool, queue); });
  work(c, result.seats, pool, queue);
  for (auto& t : workers) t.join();
  queue.sort_games();
  return queue.status();
}

}  // namespace arena::league
