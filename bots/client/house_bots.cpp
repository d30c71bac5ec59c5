#include "bots/client/house_bots.h"

#include <algorithm>

#include "bots/client/search_player.h"

namespace arena::client {

std::vector<HouseBot> house_bot_accounts(int gdl_seats) {
  std::vector<HouseBot> out;
  int gdl_bots = 0;
  for (const auto& c : house_bot_roster()) {
    out.push_back({c.bot_name, c.preset, "", c.min_seek_seats, c.take_seeks_after_ms});
    if (const Preset* p = find_preset(c.preset); p && p->game == "gdl") ++gdl_bots;
  }
  // An offer of N seats needs N - 1 house bots that take it; the roster's take up to
  // gdl_bots + 1 seats, and each one added here takes offers of one more.
  for (int seats = gdl_bots + 2; seats <= std::min(gdl_seats, kMaxGdlHouseSeats); ++seats)
    out.push_back({"house_gdl_random_" + std::to_string(seats), "GDL_Random", "", seats});
  return out;
}

Expected<std::unique_ptr<HouseBots>> start_house_bots(const std::string& server_url,
                                                      const std::vector<HouseBot>& bots) {
  std::vector<std::unique_ptr<BotRunner>> runners;
  for (const HouseBot& b : bots) {
    const Preset* preset = find_preset(b.preset);
    if (!preset) return make_error("house bot " + b.name + ": unknown preset '" + b.preset + "'");
    if (auto check = make_search_player(preset->game, preset->spec); !check)
      return make_error("house bot " + b.name + ": " + check.error());
    BotRunOptions o;
    o.url = server_url;
    o.token = b.token;
    o.config.name = b.name;
    o.config.games = {preset->game};
    // A GDL player's game, "gdl", is every sheet: it takes other players' offers (gdl:NAME
    // seeks from the lobby) rather than keeping one of its own open.
    const bool any_sheet = preset->game == "gdl";
    o.config.keep_seek_open = !any_sheet;
    // The others take a person's seek of their game (never a bot's: house bots would play
    // each other) once it waited take_seeks_after_ms for another person.
    o.config.accept_seeks = any_sheet || b.take_seeks_after_ms > 0;
    o.config.accept_bot_seeks = any_sheet;
    o.config.accept_seek_after_ms = any_sheet ? 0 : b.take_seeks_after_ms;
    o.config.min_seek_seats = b.min_seek_seats;
    o.config.accept_challenges = true;
    o.config.max_parallel = 4;
    o.config.engine = engine_of(preset->game, preset->spec);
    o.players = search_player_factory(preset->spec);
    o.search_threads = 1;
    auto runner = BotRunner::start(std::move(o));
    if (!runner) return make_error("house bot " + b.name + ": " + runner.error());
    runners.push_back(std::move(*runner));
  }
  return std::make_unique<HouseBots>(std::move(runners));
}

}  // namespace arena::client
