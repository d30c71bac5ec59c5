#pragma once
// A stored tournament's analysis: names, results, Bradley-Terry, search statistics and SPRT,
// read back from the store file (the same for every tournament, however it was run).

#include <cstdint>
#include <optional>
#include <string>

#include "games/core/expected.h"
#include "tournament/statistics/analysis.h"
#include "tournament/config/league_config.h"
#include "db/tournament_reader.h"

namespace arena::tournament {

// The tournament's analysis from the store: names, results, BT, search statistics, and the
// SPRT of `sprt` when its names are in the tournament.
Expected<Analysis> load_analysis(db::TournamentReader& reader, std::int64_t tournament,
                                 const std::optional<LeagueConfig::Sprt>& sprt = std::nullopt);

}  // namespace arena::tournament
