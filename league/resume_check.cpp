#include "league/resume_check.h"

#include <algorithm>

#include "db/sha256.h"

namespace arena::tournament {

Expected<void> check_resumed_players(db::TournamentReader& reader, std::int64_t tournament,
                                     const std::string& league, const std::vector<PlayerBot>& now) {
  auto played = reader.versions_played(tournament);
  if (!played) return make_error(played.error());
  for (const PlayerBot& bot : now) {
    const std::string hash = db::sha256_hex(bot.parameters);
    std::vector<const db::PlayedVersion*> before;
    for (const auto& v : *played)
      if (v.player == bot.name) before.push_back(&v);
    const bool same = std::any_of(before.begin(), before.end(), [&](const db::PlayedVersion* v) {
      return v->search == bot.search && v->parameters_hash == hash;
    });
    if (before.empty() || same) continue;
    const db::PlayedVersion& was = *before.back();
    const std::string what =
        was.search != bot.search
            ? "its spec changed ('" + was.search + "' then, '" + bot.search + "' now)"
            : "its weights changed (their SHA-256 " + was.parameters_hash.substr(0, 12) +
                  "... then, " + hash.substr(0, 12) + "... now)";
    return make_error("tournament " + std::to_string(tournament) + " ('" + league +
                      "'): player '" + bot.name + "' played its finished games as another bot: " +
                      what + "; restore it to finish this tournament, or run the league under a "
                      "new name (--name)");
  }
  return {};
}

}  // namespace arena::tournament
