#include "league/resume_check.h"

#include "db/sha256.h"

namespace arena::league {

Expected<void> check_resumed_players(db::TournamentReader& reader, std::int64_t tournament,
                                     const std::string& league, const std::vector<PlayerBot>& now) {
  auto played = reader.versions_played(tournament);
  if (!played) return make_error(played.error());
  for (const PlayerBot& bot : now) {
    const std::string hash = db::sha256_hex(bot.parameters);
    const db::PlayedVersion* was = nullptr;  // the last version it played as
    bool same = false;
    for (const auto& v : *played) {
      if (v.player != bot.name) continue;
      was = &v;
      same = same || (v.search == bot.search && v.parameters_hash == hash);
    }
    if (was == nullptr || same) continue;
    const std::string what =
        was->search != bot.search
            ? "its spec changed ('" + was->search + "' then, '" + bot.search + "' now)"
            : "its weights changed (their SHA-256 " + was->parameters_hash.substr(0, 12) +
                  "... then, " + hash.substr(0, 12) + "... now)";
    return make_error("tournament " + std::to_string(tournament) + " ('" + league +
                      "'): player '" + bot.name + "' played its finished games as another bot: " +
                      what + "; restore it to finish this tournament, or run the league under a "
                      "new name (--name)");
  }
  return {};
}

}  // namespace arena::league
