#pragma once
// Games as sequences of positions, from self-play or from recorded move lists, and their
// trajectories under a heuristic (measures.h).
//
//   self_play(start, agent, o)          games played by one agent against itself, each after
//                                       a seeded random opening; a game past max_plies is an
//                                       adjudicated draw
//   replay(start_text, moves, result)   a recorded game (serialized start, move texts in the
//                                       game's notation, "1-0" / "0-1" / "1/2-1/2"); errors
//                                       name the bad move and its ply
//   trajectory(line, h)                 h at every position from the first player's view;
//                                       it stops at the first terminal position or at a
//                                       value outside the heuristic range (a win score)

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "bots/eval/heuristic.h"
#include "bots/lab/learn.h"
#include "bots/lab/measures.h"
#include "bots/search/agent.h"
#include "games/core/game.h"

namespace arena::lab {

template <class G>
struct GameLine {
  std::vector<G> positions;  // start .. end, one more than the moves
  double result = 0;         // first player's view: +1, 0, -1
};

struct SelfPlayOptions {
  int games = 20;
  int opening_plies = 4;
  int max_plies = 200;
  std::uint64_t seed = 1;
};

inline double result_for_first(Outcome o) {
  if (o.result == Result::kFirstWins) return 1;
  if (o.result == Result::kSecondWins) return -1;
  return 0;
}

template <Game G>
std::vector<GameLine<G>> self_play(const G& start, search::Agent<G>& agent,
                                   const SelfPlayOptions& o) {
  std::vector<GameLine<G>> lines;
  for (int i = 0; i < o.games; ++i) {
    GameLine<G> line;
    G g = random_opening<G, search::SearchRng>(start, o.opening_plies,
                                 o.seed * 104'729ULL + static_cast<std::uint64_t>(i));
    line.positions.push_back(g);
    for (int ply = 0; ply < o.max_plies && !g.outcome().is_terminal(); ++ply) {
      const auto r = agent.choose_move(g, search::Limits{});
      if (!r.move) break;
      g.make_move(*r.move);
      line.positions.push_back(g);
    }
    line.result = result_for_first(g.outcome());
    lines.push_back(std::move(line));
  }
  return lines;
}

template <Game G>
Expected<GameLine<G>> replay(const std::string& start_text, const std::vector<std::string>& moves,
                             const std::string& result) {
  auto start = G::deserialize(start_text);
  if (!start) return make_error("start position: " + start.error());
  GameLine<G> line;
  G g = *start;
  line.positions.push_back(g);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const auto m = g.parse_move(moves[i]);
    if (!m) return make_error("illegal move '" + moves[i] + "' at ply " + std::to_string(i + 1));
    g.make_move(*m);
    line.positions.push_back(g);
  }
  line.result = result == "1-0" ? 1.0 : result == "0-1" ? -1.0 : 0.0;
  return line;
}

template <Game G>
Trajectory trajectory(const GameLine<G>& line, const eval::Heuristic<G>& h) {
  Trajectory t;
  const int n = static_cast<int>(line.positions.size()) - 1;
  for (int i = 0; i <= n; ++i) {
    const G& g = line.positions[static_cast<std::size_t>(i)];
    if (g.outcome().is_terminal()) break;
    const int value = h(g);
    if (std::abs(value) >= eval::kScoreHeuristicMax) break;
    const double first_view = g.side_to_move() == Player::kFirst ? value : -value;
    t.h.push_back(first_view);
    t.v.push_back(line.result);
    t.plies_left.push_back(n - i);
  }
  return t;
}

}  // namespace arena::lab
