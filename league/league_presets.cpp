#include "league/league_presets.h"

#include "bots/client/roster.h"

namespace arena::league {

Expected<void> resolve_entrants(tournament::LeagueConfig& config) {
  for (tournament::Entrant& e : config.players) {
    if (!e.spec.empty() && e.preset.empty()) continue;
    const std::string name = e.preset.empty() ? e.name : e.preset;
    const client::Preset* preset = client::find_preset(name);
    if (preset == nullptr)
      return make_error("player '" + e.name + "': unknown preset '" + name +
                        "' (arena bot --list-presets)");
    // A GDL preset (game "gdl") plays every gdl:NAME game.
    const bool gdl = preset->game == "gdl" && config.game.starts_with("gdl:");
    if (preset->game != config.game && !gdl)
      return make_error("player '" + e.name + "': preset '" + name + "' plays " + preset->game +
                        ", not " + config.game);
    e.preset = name;
    if (e.spec.empty()) e.spec = preset->spec;
  }
  return {};
}

}  // namespace arena::league
