#pragma once
// House bots: a set of bots run in the server's own process, connected over loopback, so a
// person who opens the page can play at once. Each keeps an open seek for its game (another
// when the server expires one), accepts challenges from anyone, and takes a person's open seek
// of its game that waited a moment for another person; the GDL house bots (every gdl:NAME sheet) instead accept
// open offers of a sheet in the lobby (all but one only of games of three seats or more), and
// challenges. `arena serve --house-bots` calls start_house_bots after its listener is up, with
// tokens it created through the Store.

#include <memory>
#include <string>
#include <vector>

#include "bots/client/bot_runner.h"
#include "bots/client/roster.h"

namespace arena::client {

struct HouseBot {
  std::string name;    // account name (house_bot_roster().bot_name)
  std::string preset;  // a roster preset
  std::string token;   // from Store::create_bot_token(name)
  int min_seek_seats = 0;  // house_bot_roster().min_seek_seats
  std::int64_t take_seeks_after_ms = 0;  // house_bot_roster().take_seeks_after_ms
};

class HouseBots {
 public:
  explicit HouseBots(std::vector<std::unique_ptr<BotRunner>> bots) : bots_(std::move(bots)) {}
  ~HouseBots() { stop(); }
  void stop() {
    for (auto& b : bots_) b->stop();
  }
  std::size_t size() const { return bots_.size(); }
  BotRunner& bot(std::size_t i) { return *bots_[i]; }

 private:
  std::vector<std::unique_ptr<BotRunner>> bots_;
};

// The most seats house bots fill in a GDL game: a sheet of more roles has its extra house bots
// only up to this many (each is a thread and a connection of the server's process).
inline constexpr int kMaxGdlHouseSeats = 8;

// house_bot_roster() as HouseBots without tokens, for the caller to fill in, and enough more
// GDL house bots ("house_gdl_random_N", which join only offers of N seats or more) that an
// offer of a sheet of up to `gdl_seats` roles (at most kMaxGdlHouseSeats) fills: the roster's
// three GDL bots fill four seats with the offerer.
std::vector<HouseBot> house_bot_accounts(int gdl_seats = 4);

// Starts every bot (a bad preset is an error naming it); they reconnect on their own, so the
// server may still be starting.
Expected<std::unique_ptr<HouseBots>> start_house_bots(const std::string& server_url,
                                                      const std::vector<HouseBot>& bots);

}  // namespace arena::client
