#pragma once
// Entrants resolved against the bot roster (bots/client/roster.h), for leagues whose bots run
// on this machine: `arena league` starts `arena bot --preset P` (or `--search SPEC`) for each
// entrant, and the in-process runner plays the spec itself.

#include "games/core/expected.h"
#include "tournament/config/league_config.h"

namespace arena::league {

// Fills every entrant's spec from its preset (the entrant's name when neither a preset nor a
// spec is given). Errors name an unknown preset or one that plays another game.
Expected<void> resolve_entrants(tournament::LeagueConfig& config);

}  // namespace arena::league
