#pragma once
// A stored tournament's analysis: names, results, Bradley-Terry, search statistics and SPRT,
// read back from the store file (the same for every tournament, however it was run).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "games/core/expected.h"
#include "tournament/statistics/analysis.h"
#include "tournament/config/league_config.h"
#include "db/tournament_reader.h"

namespace arena::tournament {

// The tournament's analysis from the store: names, results, BT, search statistics, and the
// SPRT of `sprt` when its names are in the tournament.
Expected<Analysis> load_analysis(db::TournamentReader& reader, std::int64_t tournament,
                                 const std::optional<LeagueConfig::Sprt>& sprt = std::nullopt);

// The seat (0 first, 1 second) of each of a game's move rows, for the search statistics
// (db::TournamentReader::RowSeats): ply parity for the catalog's games, a replay for GDL sheets;
// as many as replay.
std::vector<int> seats_of_rows(const std::string& kind, const std::string& start,
                               const std::vector<std::string>& moves);

}  // namespace arena::tournament
