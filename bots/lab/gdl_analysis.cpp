#include "bots/lab/gdl_analysis.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>

#include "bots/eval/gdl_fuzzy.h"
#include "bots/gdl/gdl_player.h"
#include "bots/gdl/local_match.h"
#include "games/core/join.h"
#include "games/core/seat_scores.h"
#include "games/core/turn_rows.h"
#include "games/gdl/library/library.h"

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

// The chosen heuristics of one machine, and the trajectories measured with them so far.
class Measurer {
 public:
  static Expected<Measurer> make(std::string_view game, std::vector<std::string> heuristics,
                                 gdl::StateMachine& machine) {
    if (machine.roles().size() < 2)
      return make_error("gdl:" + std::string(game) +
                        " has one role: a puzzle, with no opponent to measure a heuristic against");
    if (heuristics.empty()) heuristics = gdl_heuristic_names();
    Measurer m;
    for (const auto& name : heuristics) {
      auto v = make_values(name, machine);
      if (!v) return make_error(v.error());
      m.values_.push_back(std::move(*v));
      m.out_.push_back({name, {}});
    }
    m.seen_.resize(m.values_.size());
    return m;
  }

  // The next state of the game being measured.
  void see(const gdl::State& s) {
    for (std::size_t k = 0; k < values_.size(); ++k)
      seen_[k].push_back(first_role_view(values_[k](s)));
  }
  // Ends the game whose states were seen, with the true value v (+1, 0, -1).
  void end_game(double v) {
    for (std::size_t k = 0; k < values_.size(); ++k) {
      Trajectory t;
      t.h = std::move(seen_[k]);
      seen_[k].clear();
      const int n = static_cast<int>(t.h.size());
      t.v.assign(t.h.size(), v);
      for (int i = 0; i < n; ++i) t.plies_left.push_back(n - 1 - i);
      out_[k].trajectories.push_back(std::move(t));
    }
  }
  // Forgets the states of a game that could not be read to its end.
  void drop_game() {
    for (auto& h : seen_) h.clear();
  }
  std::vector<GdlHeuristicTrajectories> take() { return std::move(out_); }

 private:
  std::vector<Values> values_;
  std::vector<std::vector<double>> seen_;  // per heuristic, the states of the current game
  std::vector<GdlHeuristicTrajectories> out_;
};

double sign(double x) {
  return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
}

// The first role's view of a stored result: "1-0", "0-1", "1/2-1/2", or the seats' scores
// joined by '-' ("100-0-50"); 0 for anything else (an aborted game's "*").
double stored_value(const std::string& result) {
  if (result == "1-0") return 1.0;
  if (result == "0-1") return -1.0;
  const auto scores = scores_of_result(result);
  return scores ? sign(first_role_view(std::vector<double>(scores->begin(), scores->end()))) : 0.0;
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
  auto measurer = Measurer::make(game, std::move(heuristics), m);
  if (!measurer) return make_error(measurer.error());
  std::vector<std::unique_ptr<gdl::GdlPlayer>> owned;
  std::vector<gdl::GdlPlayer*> players;
  for (std::size_t r = 0; r < m.roles().size(); ++r) {
    auto p = gdl::make_gdl_player(o.player);
    if (!p) return make_error(p.error());
    owned.push_back(std::move(*p));
    players.push_back(owned.back().get());
  }
  for (int game_index = 0; game_index < o.games; ++game_index) {
    gdl::LocalMatchConfig config;
    config.movetime = o.movetime;
    config.max_steps = o.max_steps;
    config.opening_steps = o.opening_steps;
    config.seed = o.seed + static_cast<std::uint64_t>(game_index);
    config.on_state = [&](const gdl::State& s) { measurer->see(s); };
    auto played = gdl::play_local_match(m, players, config);
    if (!played)
      return make_error("game " + std::to_string(game_index + 1) + ": " + played.error());
    std::vector<double> goals(played->goals.begin(), played->goals.end());
    for (double& g : goals) g = std::max(g, 0.0);
    measurer->end_game(played->terminal ? sign(first_role_view(goals)) : 0.0);
  }
  return measurer->take();
}

Expected<GdlStoredTrajectories> gdl_stored_trajectories(std::string_view game,
                                                        std::vector<std::string> heuristics,
                                                        const std::vector<StoredGdlGame>& games) {
  if (game.starts_with("gdl:")) game.remove_prefix(4);
  auto context = gdl::make_gdl_context(game);
  if (!context) return make_error(context.error());
  auto measurer = Measurer::make(game, std::move(heuristics), (*context)->machine());
  if (!measurer) return make_error(measurer.error());
  GdlStoredTrajectories out;
  for (std::size_t i = 0; i < games.size(); ++i) {
    const StoredGdlGame& g = games[i];
    auto unreadable = [&](const std::string& why) {
      measurer->drop_game();
      if (out.unreadable++ == 0)
        out.first_problem = "stored game " + std::to_string(i + 1) + ": " + why;
    };
    auto replay = gdl::GdlGame::load(*context, g.start);
    if (!replay) {
      unreadable("start position: " + replay.error());
      continue;
    }
    measurer->see((*replay)->state());
    // A turn of several movers is several rows (games/core/turn_rows.h).
    gdl::GdlGame& board = **replay;
    const RowReplay played =
        replay_rows(board, g.moves, false, [&] { measurer->see(board.state()); });
    if (!played.error.empty()) {
      unreadable(played.error);
      continue;
    }
    measurer->end_game(stored_value(g.result));
    ++out.games;
  }
  out.heuristics = measurer->take();
  return out;
}

}  // namespace arena::lab
