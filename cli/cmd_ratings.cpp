// arena ratings: the leaderboard of one game kind from a database, by the live Elo, the live
// Glicko-2, or Bradley-Terry (maximum likelihood over all the games at once).

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "db/sqlite_store.h"
#include "tournament/report/ratings_board.h"

namespace arena::cli {
namespace {

struct RatingsOptions {
  std::string db;
  std::string game;
  std::string method = "glicko2";
};

void print_header(const char* interval) {
  std::printf("%4s  %-24s %8s %9s %6s %8s\n", "rank", "player", "rating", interval, "games",
              "score");
}

double score_percent(double points, int games) {
  return games > 0 ? 100.0 * points / games : 0.0;
}

int print_live(db::Store& store, const RatingsOptions& o) {
  const bool elo = o.method == "elo";
  auto rows = store.ratings(o.game, elo ? db::RatingMethod::kElo : db::RatingMethod::kGlicko2);
  if (!rows) {
    std::cerr << "arena ratings: " << rows.error() << "\n";
    return kExitFailure;
  }
  std::printf("%s ratings of %s (%s)\n", elo ? "Elo" : "Glicko-2", o.game.c_str(),
              elo ? "K 40 for 30 games, then 20" : "interval: +-1.96 RD");
  print_header(elo ? "" : "95%");
  int rank = 0;
  for (const auto& r : *rows) {
    const std::string interval =
        elo ? "" : "+-" + std::to_string(static_cast<int>(1.96 * r.deviation + 0.5));
    std::printf("%4d  %-24s %8.1f %9s %6d %7.1f%%\n", ++rank, r.name.c_str(), r.rating,
                interval.c_str(), r.games, score_percent(r.wins + 0.5 * r.draws, r.games));
  }
  return kExitOk;
}

int print_bradley_terry(db::Store& store, const RatingsOptions& o) {
  auto results = store.game_results(o.game);
  auto board = results ? tournament::bradley_terry_board(*results, o.game)
                       : Expected<tournament::RatingsBoard>(make_error(results.error()));
  if (!board) {
    std::cerr << "arena ratings: " << board.error() << "\n";
    return kExitFailure;
  }
  std::printf("Bradley-Terry ratings of %s (%zu games; average 1500; draws = half a win%s)\n",
              o.game.c_str(), board->games,
              board->prior ? "; prior of 1 virtual draw per player" : "");
  print_header("95%");
  int rank = 0;
  for (const auto& r : board->rows) {
    std::printf("%4d  %-24s %8.1f %9s %6d %7.1f%%\n", ++rank, r.name.c_str(), r.rating,
                ("+-" + std::to_string(static_cast<int>(r.half_width + 0.5))).c_str(), r.games,
                score_percent(r.points, r.games));
  }
  return kExitOk;
}

int run_ratings(RatingsOptions o) {
  if (!std::filesystem::exists(o.db)) {
    std::cerr << "arena ratings: no database file " << o.db << "\n";
    return kExitFailure;
  }
  auto store = db::open_sqlite_store(o.db);
  if (!store) {
    std::cerr << "arena ratings: " << store.error() << "\n";
    return kExitFailure;
  }
  auto kinds = (*store)->stored_kinds();
  if (!kinds) {
    std::cerr << "arena ratings: " << kinds.error() << "\n";
    return kExitFailure;
  }
  if (std::find(kinds->begin(), kinds->end(), o.game) == kinds->end()) {
    std::cerr << "arena ratings: no games of '" << o.game << "' in " << o.db
              << " (stored: " << list_or_none(*kinds) << ")\n";
    return kExitFailure;
  }
  return o.method == "bt" ? print_bradley_terry(**store, o) : print_live(**store, o);
}

}  // namespace

void add_ratings(CLI::App& app, Action& action) {
  auto o = std::make_shared<RatingsOptions>();
  CLI::App* sub = app.add_subcommand("ratings", "print the leaderboard of a game from a database");
  sub->add_option("--db", o->db, "SQLite database file")->required();
  sub->add_option("--game,-g", o->game, "game kind (catalog name)")->required();
  sub->add_option("--method", o->method, "elo, glicko2 (live) or bt (Bradley-Terry, all games)")
      ->check(CLI::IsMember({"elo", "glicko2", "bt"}))
      ->capture_default_str();
  sub->callback([o, &action] { action = [o] { return run_ratings(*o); }; });
}

}  // namespace arena::cli
