#include "bots/ggp/match_record.h"

#include <nlohmann/json.hpp>

namespace arena::ggp {

std::string match_record_json(const MatchResult& result, const std::vector<std::string>& players) {
  using Json = nlohmann::json;
  Json states = Json::array();
  for (const std::string& s : result.states) states.push_back("( " + s + " )");
  Json goals = Json::array();
  for (int g : result.goals) goals.push_back(g);
  const Json record = {
      {"matchId", result.match_id},
      {"startTime", result.start_ms},
      {"startClock", result.startclock},
      {"playClock", result.playclock},
      {"gameRoleNames", result.roles},
      {"playerNamesFromHost", players},
      {"moves", result.moves},
      {"states", states},
      {"stateTimes", result.state_ms},
      {"errors", result.errors},
      {"moveSeconds", result.seconds},
      {"goalValues", result.terminal ? goals : Json::array()},
      {"isCompleted", result.terminal},
      {"isAborted", !result.terminal},
      {"reasoner", result.reasoner},
  };
  return record.dump(2) + "\n";
}

}  // namespace arena::ggp
