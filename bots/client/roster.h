#pragma once
// The roster: named bot presets as in the literature, each a game and a search spec
// (bots/search/spec.h), or for puzzles a solver spec ("idastar:h=manhattan"). `arena bot
// --preset NAME` plays one; `arena bot --list-presets` prints them; the house bots are
// picked from them.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace arena::client {

struct Preset {
  std::string name;         // e.g. "AB_Improved", "chess_ab_quiescence"
  std::string game;         // catalog name; "gdl": every gdl:NAME game
  std::string spec;         // search spec, or the puzzle solver's spec for one-player games
  std::string description;  // what it is, for --list-presets
};

// Every preset, grouped by game in catalog order.
const std::vector<Preset>& presets();

// The preset called `name` (exact, case-sensitive as the literature spells them), or null.
const Preset* find_preset(std::string_view name);

// The house bots: per two-player game a weaker and a stronger preset. Their names are
// "house_GAME_LEVEL" (GAME the catalog name, or "gdl" for the players of every sheet; LEVEL one
// word): the page's "Play the computer" offers each LEVEL of a game by this name.
struct HouseBotChoice {
  std::string bot_name;  // the account name, e.g. "house_chess_strong"
  std::string preset;
  int min_seek_seats = 0;  // a GDL house bot: takes only offers of games of this many seats
  // A house bot of a hand-written game takes a person's open seek of its game once the seek
  // has waited this long for another person (the weaker bot first); 0: it takes none.
  std::int64_t take_seeks_after_ms = 0;
};
std::vector<HouseBotChoice> house_bot_roster();

}  // namespace arena::client
