#include "tournament/config/league_config.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <type_traits>

#include <nlohmann/json.hpp>

#ifndef ARENA_LEAGUES_DIR
#define ARENA_LEAGUES_DIR "leagues"
#endif

namespace arena::tournament {
namespace {

using nlohmann::json;

// A name alone is a preset of that name; an object names the player and says what plays it.
Expected<Entrant> parse_entrant(const json& j) {
  if (j.is_string()) {
    const std::string name = j.get<std::string>();
    if (name.empty()) return make_error("a player's name is empty");
    return Entrant{name, "", name};
  }
  if (j.is_object() && j.contains("name") && j["name"].is_string()) {
    Entrant e{j["name"].get<std::string>(), "", ""};
    if (e.name.empty()) return make_error("a player's name is empty");
    for (auto [key, field] : {std::pair{"spec", &e.spec}, std::pair{"preset", &e.preset}}) {
      if (!j.contains(key)) continue;
      if (!j[key].is_string())
        return make_error("player '" + e.name + "': \"" + key + "\" must be a string");
      *field = j[key].get<std::string>();
    }
    return e;
  }
  return make_error("a player must be a preset name or {\"name\", \"spec\"|\"preset\"}");
}

Expected<std::vector<Entrant>> parse_entrants(const json& root, const char* key) {
  std::vector<Entrant> out;
  if (!root.contains(key)) return out;
  if (!root[key].is_array()) return make_error(std::string("\"") + key + "\" must be an array");
  for (const auto& item : root[key]) {
    auto e = parse_entrant(item);
    if (!e) return make_error(std::string("\"") + key + "\": " + e.error());
    out.push_back(*e);
  }
  return out;
}

template <class T>
Expected<void> read_number(const json& root, const char* key, T& out) {
  if (!root.contains(key)) return {};
  const json& v = root[key];
  if (!v.is_number()) return make_error(std::string("\"") + key + "\" must be a number");
  if constexpr (std::is_integral_v<T>) {
    // A number the field cannot hold is an error: converting it would wrap, or be undefined
    // for a float out of range (1e30 as an int). A float in range is truncated, as before.
    using Limits = std::numeric_limits<T>;
    bool fits = false;
    if (v.is_number_unsigned()) {
      fits = v.get<std::uint64_t>() <= static_cast<std::uint64_t>(Limits::max());
    } else if (v.is_number_integer()) {
      const std::int64_t x = v.get<std::int64_t>();
      fits = x >= 0 ? static_cast<std::uint64_t>(x) <= static_cast<std::uint64_t>(Limits::max())
                    : std::is_signed_v<T> && x >= static_cast<std::int64_t>(Limits::min());
    } else {
      const double x = v.get<double>();
      const double bound = std::ldexp(1.0, Limits::digits);  // max + 1, exact in a double
      fits = x < bound && (std::is_signed_v<T> ? x >= -bound : x > -1.0);
    }
    if (!fits)
      return make_error(std::string("\"") + key + "\" must be a number from " +
                        std::to_string(Limits::min()) + " to " + std::to_string(Limits::max()));
  }
  out = v.get<T>();
  return {};
}

Expected<void> read_numbers(const json& root, LeagueConfig& c) {
  for (auto r :
       {read_number(root, "games_per_pairing", c.games_per_pairing),
        read_number(root, "rounds", c.rounds), read_number(root, "concurrency", c.concurrency),
        read_number(root, "movetime_ms", c.movetime_ms),
        read_number(root, "max_plies", c.max_plies),
        read_number(root, "opening_plies", c.opening_plies),
        read_number(root, "forfeit_after_ms", c.forfeit_after_ms),
        read_number(root, "seed", c.seed)}) {
    if (!r) return r;
  }
  return {};
}

Expected<void> read_sprt(const json& root, LeagueConfig& c) {
  if (!root.contains("sprt")) return {};
  const json& s = root["sprt"];
  if (!s.is_object() || !s.contains("challenger") || !s.contains("baseline") ||
      !s["challenger"].is_string() || !s["baseline"].is_string())
    return make_error("\"sprt\" needs \"challenger\" and \"baseline\" names");
  LeagueConfig::Sprt sprt;
  sprt.challenger = s["challenger"].get<std::string>();
  sprt.baseline = s["baseline"].get<std::string>();
  for (auto r :
       {read_number(s, "elo0", sprt.config.elo0), read_number(s, "elo1", sprt.config.elo1),
        read_number(s, "alpha", sprt.config.alpha), read_number(s, "beta", sprt.config.beta)}) {
    if (!r) return make_error("\"sprt\": " + r.error());
  }
  c.sprt = sprt;
  return {};
}

Expected<std::string> read_string(const json& root, const char* key, const std::string& fallback) {
  if (!root.contains(key)) return fallback;
  if (!root[key].is_string()) return make_error(std::string("\"") + key + "\" must be a string");
  return root[key].get<std::string>();
}

}  // namespace

std::string to_string(Format format) {
  switch (format) {
    case Format::kGauntlet:
      return "gauntlet";
    case Format::kSwiss:
      return "swiss";
    case Format::kRoundRobin:
      break;
  }
  return "round-robin";
}

Expected<Format> parse_format(const std::string& text) {
  if (text == "round-robin" || text == "roundrobin") return Format::kRoundRobin;
  if (text == "gauntlet") return Format::kGauntlet;
  if (text == "swiss") return Format::kSwiss;
  return make_error("unknown format '" + text + "' (known: round-robin, gauntlet, swiss)");
}

Expected<LeagueConfig> parse_league_config(const std::string& json_text) {
  json root;
  try {
    root = json::parse(json_text);
  } catch (const json::exception& e) {
    // e.what() names the byte and what the parser expected there; a number too large for a
    // double ("1e999") is an out_of_range error, not a parse_error, and is caught here too.
    return make_error(std::string("not valid JSON: ") + e.what());
  }
  if (!root.is_object()) return make_error("not a JSON object");
  LeagueConfig c;
  for (auto [key, field] :
       {std::pair{"name", &c.name}, std::pair{"game", &c.game}, std::pair{"options", &c.options},
        std::pair{"opening_book", &c.opening_book}}) {
    auto v = read_string(root, key, *field);
    if (!v) return make_error(v.error());
    *field = *v;
  }
  auto format_text = read_string(root, "format", "round-robin");
  if (!format_text) return make_error(format_text.error());
  auto format = parse_format(*format_text);
  if (!format) return make_error("\"format\": " + format.error());
  c.format = *format;
  auto policy = read_string(root, "on_error", "lose");
  if (!policy || (*policy != "lose" && *policy != "random-move"))
    return make_error("\"on_error\" must be \"lose\" or \"random-move\"");
  c.on_error = *policy == "lose" ? ErrorPolicy::kLose : ErrorPolicy::kRandomMove;
  auto challengers = parse_entrants(root, "challengers");
  if (!challengers) return make_error(challengers.error());
  auto players = parse_entrants(root, "players");
  if (!players) return make_error(players.error());
  c.players = *challengers;
  c.players.insert(c.players.end(), players->begin(), players->end());
  c.num_challengers = static_cast<int>(challengers->size());
  if (auto r = read_numbers(root, c); !r) return make_error(r.error());
  if (auto r = read_sprt(root, c); !r) return make_error(r.error());
  if (auto r = validate(c); !r) return make_error(r.error());
  return c;
}

Expected<LeagueConfig> load_league_config(const std::string& path) {
  std::ifstream in(path);
  if (!in) return make_error("cannot read league config '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  auto c = parse_league_config(text.str());
  if (!c) return make_error(path + ": " + c.error());
  return c;
}

Expected<void> validate(const LeagueConfig& c) {
  if (c.game.empty()) return make_error("\"game\" is missing");
  if (c.players.size() < 2) return make_error("a league needs at least two players");
  std::set<std::string> names;
  for (const auto& p : c.players)
    if (!names.insert(p.name).second) return make_error("player '" + p.name + "' appears twice");
  if (c.format == Format::kGauntlet &&
      (c.num_challengers < 1 || c.num_challengers >= static_cast<int>(c.players.size())))
    return make_error("a gauntlet needs \"challengers\" and at least one other player");
  if (c.format == Format::kSwiss && c.rounds < 1) return make_error("swiss needs \"rounds\" >= 1");
  if (c.games_per_pairing < 1) return make_error("\"games_per_pairing\" must be >= 1");
  if (c.concurrency < 1) return make_error("\"concurrency\" must be >= 1");
  if (c.max_plies < 1) return make_error("\"max_plies\" must be >= 1");
  if (c.opening_plies < 0) return make_error("\"opening_plies\" must be >= 0");
  if (c.sprt && (!names.count(c.sprt->challenger) || !names.count(c.sprt->baseline)))
    return make_error("\"sprt\" names a player that is not in the league");
  return {};
}

std::string to_json_text(const LeagueConfig& c) {
  auto entrant = [](const Entrant& e) {
    json j{{"name", e.name}};
    if (!e.spec.empty()) j["spec"] = e.spec;
    if (!e.preset.empty()) j["preset"] = e.preset;
    return j;
  };
  json challengers = json::array(), players = json::array();
  for (std::size_t i = 0; i < c.players.size(); ++i)
    (static_cast<int>(i) < c.num_challengers ? challengers : players)
        .push_back(entrant(c.players[i]));
  json j{{"name", c.name},
         {"game", c.game},
         {"options", c.options},
         {"format", to_string(c.format)},
         {"players", players},
         {"games_per_pairing", c.games_per_pairing},
         {"concurrency", c.concurrency},
         {"movetime_ms", c.movetime_ms},
         {"max_plies", c.max_plies},
         {"opening_plies", c.opening_plies},
         {"opening_book", c.opening_book},
         {"on_error", c.on_error == ErrorPolicy::kLose ? "lose" : "random-move"},
         {"forfeit_after_ms", c.forfeit_after_ms},
         {"seed", c.seed}};
  // Challengers in any format (a round robin may name some): they are players too.
  if (c.num_challengers > 0) j["challengers"] = challengers;
  if (c.format == Format::kSwiss) j["rounds"] = c.rounds;
  if (c.sprt)
    j["sprt"] = {{"challenger", c.sprt->challenger}, {"baseline", c.sprt->baseline},
                 {"elo0", c.sprt->config.elo0},      {"elo1", c.sprt->config.elo1},
                 {"alpha", c.sprt->config.alpha},    {"beta", c.sprt->config.beta}};
  return j.dump();
}

Expected<LeagueConfig> league_preset(const std::string& name) {
  if (name != "aind-isolation") {
    // The project's leagues/NAME.json (gdl-tictactoe, ...), by a name of plain characters.
    const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_';
    });
    const std::string path = std::string(ARENA_LEAGUES_DIR) + "/" + name + ".json";
    if (plain && std::ifstream(path).good()) return load_league_config(path);
    return make_error("unknown league preset '" + name + "' (known: aind-isolation, or NAME of " +
                      std::string(ARENA_LEAGUES_DIR) + "/NAME.json)");
  }
  return parse_league_config(R"({
    "name": "aind-isolation", "game": "isolation", "format": "gauntlet",
    "challengers": ["AB_Improved_ID", "AB_Custom", "AB_Custom_2", "AB_Custom_3"],
    "players": ["Random", "MM_Open", "MM_Center", "MM_Improved", "AB_Open", "AB_Center",
                "AB_Improved"],
    "games_per_pairing": 10, "concurrency": 2, "movetime_ms": 150, "opening_plies": 2,
    "max_plies": 200, "seed": 1
  })");
}

Expected<void> check_two_roles(const std::string& game, std::size_t roles,
                               const std::string& what) {
  if (roles == 2) return {};
  return make_error(game + " has " +
                    (roles == 1 ? std::string("one role (a puzzle: arena solve)")
                                : std::to_string(roles) + " roles") +
                    "; " + what + " plays games of two");
}

}  // namespace arena::tournament
