#pragma once
// Tournaments as JSON for the REST API (/api/tournaments) and the web page: each tournament
// with its progress, standings (Bradley-Terry Elo with 95% intervals), crosstable and search
// statistics, read from a store file through db::TournamentReader.

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "games/core/expected.h"

namespace arena::tournament {

// Every tournament in `db_path` (newest first) or, with `id`, that one alone (an error names
// an unknown id).
Expected<nlohmann::json> tournaments_json(const std::string& db_path,
                                          std::optional<std::int64_t> id = std::nullopt);

}  // namespace arena::tournament
