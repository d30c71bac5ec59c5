#include "db/rating_update.h"

#include "rating/elo.h"
#include "rating/glicko2.h"

namespace arena::db {
namespace {

struct Current {
  double rating = 0, deviation = 0, volatility = 0;
  int games = 0, wins = 0, losses = 0, draws = 0;
};

Expected<Current> load(Connection& c, PlayerId player, const std::string& kind,
                       RatingMethod method) {
  auto stmt = c.prepare(
      "SELECT rating, deviation, volatility, games, wins, losses, draws FROM ratings "
      "WHERE player_id = ?1 AND kind = ?2 AND method = ?3");
  if (!stmt) return Error{stmt.error()};
  stmt->bind(1, player).bind(2, kind).bind(3, std::string_view(method_name(method)));
  auto row = stmt->step();
  if (!row) return Error{row.error()};
  if (!*row) {
    if (method == RatingMethod::kElo) return Current{rating::kEloInitial, 0, 0, 0, 0, 0, 0};
    return Current{rating::kGlickoInitialRating,
                   rating::kGlickoInitialDeviation,
                   rating::kGlickoInitialVolatility,
                   0,
                   0,
                   0,
                   0};
  }
  return Current{stmt->real(0),  stmt->real(1),  stmt->real(2), stmt->int32(3),
                 stmt->int32(4), stmt->int32(5), stmt->int32(6)};
}

Current updated(const Current& me, const Current& other, double score, RatingMethod method) {
  Current next = me;
  if (method == RatingMethod::kElo) {
    next.rating =
        rating::elo_update(me.rating, other.rating, score, rating::elo_k_factor(me.games));
  } else {
    const auto r = rating::glicko2_update_live({me.rating, me.deviation, me.volatility},
                                               {other.rating, other.deviation, score});
    next.rating = r.rating;
    next.deviation = r.deviation;
    next.volatility = r.volatility;
  }
  ++next.games;
  if (score == 1.0) ++next.wins;
  if (score == 0.0) ++next.losses;
  if (score == 0.5) ++next.draws;
  return next;
}

Expected<void> save(Connection& c, PlayerId player, const std::string& kind, RatingMethod method,
                    GameId game, const Current& before, const Current& after) {
  const std::int64_t now = now_unix_ms();
  const std::string_view m = method_name(method);
  auto upsert = c.prepare(
      "INSERT INTO ratings (player_id, kind, method, rating, deviation, volatility, games, wins, "
      "losses, draws, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) "
      "ON CONFLICT (player_id, kind, method) DO UPDATE SET rating = excluded.rating, "
      "deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, "
      "wins = excluded.wins, losses = excluded.losses, draws = excluded.draws, "
      "updated_at = excluded.updated_at");
  if (!upsert) return Error{upsert.error()};
  upsert->bind(1, player).bind(2, kind).bind(3, m).bind(4, after.rating).bind(5, after.deviation);
  upsert->bind(6, after.volatility).bind(7, after.games).bind(8, after.wins);
  upsert->bind(9, after.losses).bind(10, after.draws).bind(11, now);
  if (auto ok = upsert->run(); !ok) return ok;
  auto history = c.prepare(
      "INSERT INTO rating_history (player_id, kind, method, game_id, rating_before, rating_after, "
      "deviation_after, volatility_after, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
  if (!history) return Error{history.error()};
  history->bind(1, player).bind(2, kind).bind(3, m).bind(4, game).bind(5, before.rating);
  history->bind(6, after.rating).bind(7, after.deviation).bind(8, after.volatility).bind(9, now);
  return history->run();
}

}  // namespace

const char* method_name(RatingMethod method) {
  return method == RatingMethod::kElo ? "elo" : "glicko2";
}

Expected<void> apply_rating_updates(Connection& connection, GameId game, const std::string& kind,
                                    PlayerId first, PlayerId second, double first_score) {
  for (RatingMethod method : {RatingMethod::kElo, RatingMethod::kGlicko2}) {
    auto a = load(connection, first, kind, method);
    if (!a) return Error{a.error()};
    auto b = load(connection, second, kind, method);
    if (!b) return Error{b.error()};
    const Current a_next = updated(*a, *b, first_score, method);
    const Current b_next = updated(*b, *a, 1.0 - first_score, method);
    if (auto ok = save(connection, first, kind, method, game, *a, a_next); !ok) return ok;
    if (auto ok = save(connection, second, kind, method, game, *b, b_next); !ok) return ok;
  }
  return {};
}

}  // namespace arena::db
