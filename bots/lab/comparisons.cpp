#include "bots/lab/comparisons.h"

#include "bots/eval/checkers.h"
#include "bots/eval/othello.h"
#include "bots/eval/rubiks_cube.h"
#include "bots/eval/sliding_puzzle.h"
#include "bots/lab/game_lines.h"
#include "bots/search/agent_factory.h"
#include "bots/search/search_rng.h"
#include "bots/search/sliding_puzzle_ida.h"
#include "games/puzzles/rubiks_cube.h"
#include "games/puzzles/sliding_puzzle.h"

namespace arena::lab {
namespace {

void finish(Comparison& c) {
  c.invariance = move_invariance(c.trajectories);
  c.outcome = outcome_determination(c.trajectories);
}

// A puzzle path as a trajectory: h = -cost estimate, v = -moves left.
Trajectory puzzle_trajectory(const std::vector<int>& costs) {
  Trajectory t;
  const int n = static_cast<int>(costs.size()) - 1;
  for (int i = 0; i <= n; ++i) {
    t.h.push_back(-costs[static_cast<std::size_t>(i)]);
    t.v.push_back(-(n - i));
    t.plies_left.push_back(n - i);
  }
  return t;
}

puzzles::SlidingPuzzle random_walk(int steps, search::SearchRng& rng) {
  puzzles::SlidingPuzzle p = puzzles::SlidingPuzzle::solved(4);
  int last = -1;
  for (int i = 0; i < steps;) {
    const auto d = static_cast<puzzles::Direction>(rng.below(4));
    if (!p.can_move(d) || static_cast<int>(puzzles::opposite(d)) == last) continue;
    p.make_move(puzzles::SlidingMove{d});
    last = static_cast<int>(d);
    ++i;
  }
  return p;
}

template <Game G>
Comparison self_play_comparison(std::string name, const char* spec, const ComparisonOptions& o,
                                double (*h)(const G&)) {
  Comparison c;
  c.name = std::move(name);
  c.positions = std::to_string(o.games) + " self-play games, " + spec + ", 4 random plies";
  auto agent = search::make_agent_from_spec<G>(spec);
  auto start = G::create({});
  if (!agent || !start) return c;  // the specs are fixed: only a broken build gets here
  SelfPlayOptions so;
  so.games = o.games;
  so.seed = o.seed;
  const eval::Heuristic<G> heuristic = [h](const G& g) {
    return static_cast<int>(std::lround(100 * h(g)));
  };
  for (const auto& line : self_play(*start, **agent, so)) {
    Trajectory t = trajectory(line, heuristic);
    for (double& x : t.h) x /= 100;  // back to pieces / discs
    c.trajectories.push_back(std::move(t));
  }
  finish(c);
  return c;
}

double checkers_men(const checkers::Checkers& g) {
  return eval::checkers_material(g, eval::CheckersWeights{}) / 100.0;
}
double othello_discs(const othello::Othello& g) {
  return eval::othello_material(g);
}

}  // namespace

Comparison fifteen_puzzle_manhattan(const ComparisonOptions& o) {
  Comparison c;
  c.name = "15-puzzle manhattan";
  c.positions = std::to_string(o.puzzle_paths) + " optimal IDA* paths from " +
                std::to_string(o.puzzle_walk) + "-move random walks";
  search::SearchRng rng(o.seed);
  for (int i = 0; i < o.puzzle_paths; ++i) {
    puzzles::SlidingPuzzle p = random_walk(o.puzzle_walk, rng);
    const search::SlidingSolveResult r = search::solve_sliding_manhattan(p, 50'000'000);
    if (!r.solved) continue;
    std::vector<int> costs = {eval::manhattan_distance(p)};
    for (puzzles::Direction d : r.moves) {
      p.make_move(puzzles::SlidingMove{d});
      costs.push_back(eval::manhattan_distance(p));
    }
    c.trajectories.push_back(puzzle_trajectory(costs));
  }
  finish(c);
  return c;
}

Comparison rubik_manhattan_3d(const ComparisonOptions& o) {
  Comparison c;
  c.name = "rubik manhattan_3d";
  c.positions = std::to_string(o.cube_paths) + " random " + std::to_string(o.cube_scramble) +
                "-turn scrambles played backwards";
  search::SearchRng rng(o.seed + 17);
  for (int i = 0; i < o.cube_paths; ++i) {
    auto cube = puzzles::RubiksCube::create({{"scramble", "0"}});
    if (!cube) return c;
    std::vector<puzzles::CubeMove> moves;
    puzzles::RubiksCube::MoveList list;
    while (static_cast<int>(moves.size()) < o.cube_scramble) {
      cube->generate_moves(list);
      const puzzles::CubeMove m = list[rng.below(list.size())];
      if (!moves.empty() && moves.back().face == m.face) continue;  // no wasted turns
      cube->make_move(m);
      moves.push_back(m);
    }
    std::vector<int> costs = {eval::manhattan_3d(*cube)};
    for (auto it = moves.rbegin(); it != moves.rend(); ++it) {
      cube->unmake_move(*it);
      costs.push_back(eval::manhattan_3d(*cube));
    }
    c.trajectories.push_back(puzzle_trajectory(costs));
  }
  finish(c);
  return c;
}

Comparison checkers_material_comparison(const ComparisonOptions& o) {
  const std::string spec = "alphabeta:eval=material,depth=" + std::to_string(o.depth);
  return self_play_comparison<checkers::Checkers>("checkers material", spec.c_str(), o,
                                                  &checkers_men);
}

Comparison othello_discs_comparison(const ComparisonOptions& o) {
  const std::string spec = "alphabeta:eval=material,depth=" + std::to_string(o.depth);
  return self_play_comparison<othello::Othello>("othello discs", spec.c_str(), o, &othello_discs);
}

std::vector<Comparison> four_comparisons(const ComparisonOptions& o) {
  return {fifteen_puzzle_manhattan(o), rubik_manhattan_3d(o), checkers_material_comparison(o),
          othello_discs_comparison(o)};
}

}  // namespace arena::lab
