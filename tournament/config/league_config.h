#pragma once
// A league's configuration: the game, the entrants (bot presets or search specs), the format and
// the rules. Read from JSON (leagues/*.json) or built from a named preset.
//
//   {
//     "name": "aind-isolation",          // a tournament with this name that is unfinished in
//                                        // the store is resumed instead of started again
//     "game": "isolation", "options": "",  // catalog name and key=value game options
//     "format": "gauntlet",              // "round-robin" | "gauntlet" | "swiss"
//     "players": ["Random", {"name": "me", "spec": "id:eval=improved_score"},
//                 {"name": "ab2", "preset": "AB_Custom_2"}],
//     "challengers": [...],              // gauntlet: these play every entry of "players"
//     "games_per_pairing": 10,           // played as colour-swapped pairs
//     "rounds": 5,                       // swiss only
//     "concurrency": 2,                  // games played at once
//     "movetime_ms": 150,                // per move, for specs that set no limit of their own
//     "max_plies": 1000,                 // then the game is adjudicated a draw
//     "opening_plies": 2,                // random plies before each pair (the seed is stored)
//     "opening_book": "",                // Othello: XOT file; a line per pair instead of plies
//     "on_error": "lose",                // "lose": the offender loses; "random-move": research
//                                        // mode, a random legal move is played and the error
//                                        // recorded with the move
//     "forfeit_after_ms": 0,             // > 0: a move slower than this loses on time
//     "seed": 1,
//     "sprt": {"challenger": "A", "baseline": "B", "elo0": 0, "elo1": 5, "alpha": 0.05,
//              "beta": 0.05}
//   }
// A player given as a string is a preset of that name (`arena bot --list-presets`). On a server
// a player is only a name: the bot that logs in with that name's token plays its games (several
// connections of one name share its games, as Docker replicas do). Run locally (`arena league`
// starts the bots; `--in-process` plays them in this process) the preset or spec says what plays;
// resolve_entrants (league/league_presets.h) checks presets against the roster.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "games/core/expected.h"
#include "tournament/statistics/sprt.h"

namespace arena::tournament {

enum class Format { kRoundRobin, kGauntlet, kSwiss };
enum class ErrorPolicy { kLose, kRandomMove };

struct Entrant {
  std::string name;
  std::string spec;    // search spec (bots/search/spec.h), or ""
  std::string preset{};  // roster preset, or ""
};

struct LeagueConfig {
  std::string name = "league";
  std::string game;
  std::string options;
  Format format = Format::kRoundRobin;
  std::vector<Entrant> players;  // gauntlet: the challengers first
  int num_challengers = 0;       // gauntlet only
  int games_per_pairing = 2;
  int rounds = 0;  // swiss
  int concurrency = 1;
  std::int64_t movetime_ms = 0;
  int max_plies = 1000;
  int opening_plies = 0;
  std::string opening_book;
  ErrorPolicy on_error = ErrorPolicy::kLose;
  std::int64_t forfeit_after_ms = 0;
  std::uint64_t seed = 1;
  struct Sprt {
    std::string challenger, baseline;
    SprtConfig config;
  };
  std::optional<Sprt> sprt;
};

std::string to_string(Format format);
Expected<Format> parse_format(const std::string& text);

// Errors name the bad field (and the file, for load_league_config).
Expected<LeagueConfig> parse_league_config(const std::string& json_text);
Expected<LeagueConfig> load_league_config(const std::string& path);

// The config as JSON that parse_league_config reads back (stored with a server's tournament).
std::string to_json_text(const LeagueConfig& config);

// Named presets: "aind-isolation" (the AI-course tournament: four test agents against seven CPU
// agents, 10 games a pairing from 2 random opening plies, 150 ms a move, 2 at a time), and any
// other NAME of the project's leagues/NAME.json (gdl-tictactoe, gdl-connectfour).
Expected<LeagueConfig> league_preset(const std::string& name);

// Checks the counts and names (unique, at least two players, challengers in a gauntlet).
Expected<void> validate(const LeagueConfig& config);

// Whether a game of `roles` roles (a GDL sheet's) can be played by `what` ("a league", "a
// ladder"), which plays games of two: the error says how many it has (one: a puzzle, for arena
// solve).
Expected<void> check_two_roles(const std::string& game, std::size_t roles, const std::string& what);

}  // namespace arena::tournament
