#pragma once
// A hub with the memory store and a few stored games (chess, checkers, tic-tac-toe, a sliding
// puzzle, a three-seat GDL game), a tournament source and a tournament creator, made once per
// fuzz process: what the REST API and the HTTP session answer from. No network, no threads.

#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "db/memory_store.h"
#include "games/catalog/catalog.h"
#include "server/hub.h"
#include "server/match/clock.h"
#include "tournament/config/league_config.h"

namespace arena::fuzz {

struct FuzzHub {
  boost::asio::io_context ioc;
  db::MemoryStore store;
  std::shared_ptr<server::Hub> hub;
  std::string token;  // a bot's token (Authorization: Bearer TOKEN)

  FuzzHub() {
    server::HubConfig config;
    // The catalog, as arena serve's Server gives the hub.
    config.make_game = [](std::string_view name, const GameOptions& o) {
      return arena::make_game(name, o);
    };
    config.load_game = [](std::string_view name, std::string_view p) {
      return arena::load_game(name, p);
    };
    config.tournaments = [](std::optional<std::int64_t> id) -> Expected<protocol::Json> {
      if (!id) return protocol::Json::array({protocol::Json{{"id", 1}, {"name", "league"}}});
      if (*id != 1) return make_error("no tournament " + std::to_string(*id));
      return protocol::Json{{"id", 1}, {"name", "league"}, {"standings", protocol::Json::array()}};
    };
    hub = std::make_shared<server::Hub>(ioc.get_executor(), std::move(config), store,
                                        std::make_shared<server::SteadyTimeSource>());
    server::TournamentHooks hooks;
    hooks.create = [](const std::string& json) -> Expected<std::pair<std::int64_t, bool>> {
      auto c = tournament::parse_league_config(json);
      if (!c) return make_error(c.error());
      return std::pair<std::int64_t, bool>{2, false};
    };
    hub->set_tournament_hooks(std::move(hooks));
    auto ann = store.find_or_create_player("ann", false);
    auto bot = store.find_or_create_player("bot", true);
    auto cat = store.find_or_create_player("cat \"<b>\"", false);
    token = *store.create_bot_token("bot");
    add("chess", "", "", {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}, "*", ann->id, bot->id);
    add("chess", "", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {"e1g1", "e8c8"}, "1/2-1/2", bot->id,
        cat->id);
    add("checkers", "", "", {"11-15", "23-19", "8-11"}, "0-1", ann->id, cat->id);
    add("tictactoe", "", "", {"b2", "a1", "c3"}, "", ann->id, bot->id);
    add("sliding", "size=3", "1 2 3 4 5 6 7 0 8", {"R"}, "solved", ann->id, 0);
    add("gdl:3pttc", "", "", {}, "*", ann->id, bot->id, {ann->id, bot->id, cat->id});
  }
  ~FuzzHub() { hub->release(); }

  void add(const std::string& kind, const std::string& options, const std::string& start,
           const std::vector<std::string>& moves, const std::string& result, db::PlayerId first,
           db::PlayerId second, std::vector<db::PlayerId> seats = {}) {
    db::NewGame g;
    g.kind = kind;
    g.options = options;
    g.start_position = start;
    g.first = first;
    g.second = second;
    g.time_control = "fischer:60000+1000";
    g.seats = std::move(seats);
    auto id = store.create_game(g);
    for (std::size_t i = 0; i < moves.size(); ++i) {
      db::MoveRecord m;
      m.game = *id;
      m.ply = static_cast<int>(i);
      m.move = moves[i];
      m.depth = 3;
      m.nodes = 100;
      m.score = 12;
      m.pv = moves[i];
      store.append_move(m, [](Expected<void>) {});
    }
    if (!result.empty()) {
      db::GameEnd end;
      end.game = *id;
      end.result = result;
      end.reason = "fuzz";
      store.finish_game(end, [](Expected<void>) {});
    }
  }
};

inline FuzzHub& fuzz_hub() {
  static FuzzHub* hub = new FuzzHub;  // never destroyed: the fuzzer exits without unwinding
  return *hub;
}

}  // namespace arena::fuzz
