#include "league/ladder_games_file.h"

#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>

namespace arena::league {
namespace {

std::string time_control_text(const LadderConfig& c) {
  return c.base_ms > 0 ? std::to_string(c.base_ms) + "+" + std::to_string(c.increment_ms)
                       : "movetime:" + std::to_string(c.movetime_ms);
}

}  // namespace

std::string game_line(const LadderConfig& c, const std::vector<LadderSeat>& seats,
                      const LadderGame& g) {
  const nlohmann::json j = {{"game", c.game},
                            {"options", c.options},
                            {"time_control", time_control_text(c)},
                            {"first", seats[static_cast<std::size_t>(g.first)].text},
                            {"second", seats[static_cast<std::size_t>(g.second)].text},
                            {"score", g.first_score},
                            {"reason", g.reason},
                            {"plies", g.plies}};
  return j.dump();
}

// The games file's earlier games of this ladder's seats and settings into result.earlier.
Expected<void> read_games_file(const LadderConfig& c, LadderResult& result) {
  std::ifstream in(c.games_file);
  if (!in) return {};  // none yet: this run starts it
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    const std::string where = "games file '" + c.games_file + "' line " + std::to_string(number);
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    const auto text = [&](const char* key) -> std::optional<std::string> {
      if (!j.is_object() || !j.contains(key) || !j[key].is_string()) return std::nullopt;
      return j[key].get<std::string>();
    };
    const auto first_text = text("first"), second_text = text("second");
    if (!first_text || !second_text || !text("game") || !j.contains("score") ||
        !j["score"].is_number())
      return make_error(where + ": not a game line of arena ladder");
    const double score = j["score"].get<double>();
    if (score != 0 && score != 0.5 && score != 1)
      return make_error(where + ": score " + j["score"].dump() + " is not 0, 0.5 or 1");
    int first = -1, second = -1;
    for (std::size_t i = 0; i < result.seats.size(); ++i) {
      if (result.seats[i].text == *first_text) first = static_cast<int>(i);
      if (result.seats[i].text == *second_text) second = static_cast<int>(i);
    }
    const bool pairing_played = first == 0 || second == 0 || c.all_pairs;
    if (text("game") != c.game || text("options").value_or("") != c.options ||
        text("time_control") != time_control_text(c) || first < 0 || second < 0 ||
        first == second || !pairing_played) {
      ++result.earlier_left_out;
      continue;
    }
    LadderGame g;
    g.first = first;
    g.second = second;
    g.first_score = score;
    g.pair = -1;
    g.reason = text("reason").value_or("");
    g.plies = j.contains("plies") && j["plies"].is_number_integer() ? j["plies"].get<int>() : 0;
    result.earlier.push_back(std::move(g));
  }
  return {};
}

}  // namespace arena::league
