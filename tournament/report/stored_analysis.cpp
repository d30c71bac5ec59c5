#include "tournament/report/stored_analysis.h"

#include <map>
#include <string>
#include <vector>

#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"
#include "games/core/turn_rows.h"

namespace arena::tournament {
namespace {

double first_score(const std::string& result) {
  return result == "1-0" ? 1.0 : result == "0-1" ? 0.0 : 0.5;
}

bool finished(const db::PairingRow& row) {
  return !row.result.empty() && row.result != "*";
}

}  // namespace

// The seat of each move row. The catalog's two-player games alternate and record a pass as a
// move, so ply parity from the side to move at the start says it without a replay; a GDL
// sheet's turns may have one mover or several, in any order, so its rows are replayed
// (games/core/turn_rows.h), as far as they replay.
std::vector<int> seats_of_rows(const std::string& kind, const std::string& start,
                               const std::vector<std::string>& moves) {
  std::vector<int> seats;
  if (is_gdl_game(kind)) {  // GDL sheets have no compile-time type (games/gdl/game/gdl_game.h)
    auto g = load_game(kind, start);
    if (!g) return seats;
    for (const ReplayedRow& row : replay_rows(**g, moves).rows) seats.push_back(row.seat);
    return seats;
  }
  bool first = true;
  visit_game_type(kind, [&]<class G>(std::type_identity<G>) {
    if (auto g = G::deserialize(start)) first = g->side_to_move() == Player::kFirst;
  });
  for (std::size_t ply = 0; ply < moves.size(); ++ply)
    seats.push_back((ply % 2 == 0) == first ? 0 : 1);
  return seats;
}

Expected<Analysis> load_analysis(db::TournamentReader& reader, std::int64_t tournament,
                                 const std::optional<LeagueConfig::Sprt>& sprt) {
  auto rows = reader.pairings(tournament);
  if (!rows) return make_error(rows.error());
  std::map<db::PlayerId, int> index;
  std::vector<std::string> names;
  auto index_of = [&](db::PlayerId id) -> Expected<int> {
    if (auto it = index.find(id); it != index.end()) return it->second;
    auto name = reader.player_name(id);
    if (!name) return make_error(name.error());
    names.push_back(*name);
    return index[id] = static_cast<int>(names.size()) - 1;
  };
  std::vector<GameOutcome> games;
  int noted = 0;
  std::string first_note;
  for (const auto& r : *rows) {
    auto a = index_of(r.first);
    auto b = index_of(r.second);
    if (!a || !b) return make_error(!a ? a.error() : b.error());
    if (!finished(r)) continue;
    games.push_back({*a, *b, first_score(r.result)});
    if (!r.note.empty() && noted++ == 0) first_note = r.note;
  }
  auto stats = reader.move_stats(tournament, seats_of_rows);
  if (!stats) return make_error(stats.error());
  std::vector<MoveStats> search(names.size());
  for (const auto& s : *stats)
    if (auto it = index.find(s.player); it != index.end())
      search[static_cast<std::size_t>(it->second)] = {s.moves, s.depth_sum, s.nodes_sum,
                                                      s.time_ms_sum};
  std::optional<SprtRequest> request;
  if (sprt) {
    auto find = [&](const std::string& n) {
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == n) return static_cast<int>(i);
      return -1;
    };
    request = SprtRequest{find(sprt->challenger), find(sprt->baseline), sprt->config};
  }
  Analysis analysis = analyse(names, games, search, request);
  analysis.noted_games = noted;
  analysis.first_note = std::move(first_note);
  return analysis;
}

}  // namespace arena::tournament
