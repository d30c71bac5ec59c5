#include "bots/lab/gdl_analysis.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>

#include "bots/eval/gdl_fuzzy.h"
#include "bots/gdl/gdl_player.h"
#include "bots/gdl/local_match.h"
#include "games/core/join.h"
#include "games/gdl/library.h"

namespace arena::lab {
namespace {

using Values = std::function<std::vector<double>(const gdl::State&)>;

// The first role's value minus the mean of the others'.
double first_role_view(const std::vector<double>& v) {
  if (v.size() < 2) return v.empty() ? 0.0 : v.front();
  const double others = std::accumulate(v.begin() + 1, v.end(), 0.0) / double(v.size() - 1);
  return v.front() - others;
}

Expected<Values> make_values(const std::string& name, gdl::StateMachine& machine) {
  if (name == "goal") {
    return Values([&machine](const gdl::State& s) {
      std::vector<double> out;
      for (std::size_t r = 0; r < machine.roles().size(); ++r) {
        auto g = machine.goal(s, static_cast<int>(r));
        out.push_back(g ? *g : 0.0);
      }
      return out;
    });
  }
  if (name != "fuzzy_goal" && name != "fuzzy_goal_written") {
    return make_error("unknown GDL heuristic '" + name +
                      "' (known: " + join(gdl_heuristic_names(), ", ") + ")");
  }
  eval::FuzzyGoalParams params;
  params.read_under_terminal = name == "fuzzy_goal";
  auto made =
      eval::FuzzyGoalHeuristic::from_description(machine.description(), machine.pool(), params);
  if (!made) return make_error(name + ": " + made.error());
  auto h = std::make_shared<eval::FuzzyGoalHeuristic>(std::move(*made));
  return Values([h](const gdl::State& s) { return h->values(s); });
}

}  // namespace

std::vector<std::string> gdl_heuristic_names() {
  return {"fuzzy_goal", "fuzzy_goal_written", "goal"};
}

Expected<std::vector<GdlHeuristicTrajectories>> gdl_self_play_trajectories(
    std::string_view game, std::vector<std::string> heuristics, const GdlAnalysisOptions& o) {
  if (game.starts_with("gdl:")) game.remove_prefix(4);
  auto machine = gdl::make_gdl_machine(game);
  if (!machine) return make_error(machine.error());
  gdl::StateMachine& m = **machine;
  const std::size_t roles = m.roles().size();
  if (roles < 2)
    return make_error("gdl:" + std::string(game) +
                      " has one role: a puzzle, with no opponent to measure a heuristic against");
  if (heuristics.empty()) heuristics = gdl_heuristic_names();
  std::vector<Values> values;
  std::vector<GdlHeuristicTrajectories> out;
  for (const auto& name : heuristics) {
    auto v = make_values(name, m);
    if (!v) return make_error(v.error());
    values.push_back(std::move(*v));
    out.push_back({name, {}});
  }
  std::vector<std::unique_ptr<gdl::GdlPlayer>> owned;
  std::vector<gdl::GdlPlayer*> players;
  for (std::size_t r = 0; r < roles; ++r) {
    auto p = gdl::make_gdl_player(o.player);
    if (!p) return make_error(p.error());
    owned.push_back(std::move(*p));
    players.push_back(owned.back().get());
  }
  for (int game_index = 0; game_index < o.games; ++game_index) {
    std::vector<std::vector<double>> h(values.size());  // per heuristic, per state
    gdl::LocalMatchConfig config;
    config.movetime = o.movetime;
    config.max_steps = o.max_steps;
    config.opening_steps = o.opening_steps;
    config.seed = o.seed + static_cast<std::uint64_t>(game_index);
    config.on_state = [&](const gdl::State& s) {
      for (std::size_t k = 0; k < values.size(); ++k) h[k].push_back(first_role_view(values[k](s)));
    };
    auto played = gdl::play_local_match(m, players, config);
    if (!played)
      return make_error("game " + std::to_string(game_index + 1) + ": " + played.error());
    std::vector<double> goals(played->goals.begin(), played->goals.end());
    for (double& g : goals) g = std::max(g, 0.0);
    const double final_view = first_role_view(goals);
    const double v = !played->terminal ? 0.0 : final_view > 0 ? 1.0 : final_view < 0 ? -1.0 : 0.0;
    for (std::size_t k = 0; k < values.size(); ++k) {
      Trajectory t;
      t.h = std::move(h[k]);
      const int n = static_cast<int>(t.h.size());
      t.v.assign(t.h.size(), v);
      for (int i = 0; i < n; ++i) t.plies_left.push_back(n - 1 - i);
      out[k].trajectories.push_back(std::move(t));
    }
  }
  return out;
}

}  // namespace arena::lab
