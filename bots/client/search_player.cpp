#include "bots/client/search_player.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <type_traits>
#include <utility>

#include "bots/client/gdl_client_player.h"
#include "bots/eval/rubiks_cube.h"
#include "bots/eval/sliding_puzzle.h"
#include "bots/eval/weights_file.h"
#include "bots/gdl/gdl_player.h"
#include "bots/gdl/puzzle_search.h"
#include "bots/search/agent_factory.h"
#include "bots/search/idastar.h"
#include "bots/search/sliding_puzzle_ida.h"
#include "games/catalog/catalog.h"
#include "games/catalog/game_types.h"

namespace arena::client {
namespace {

template <Game G>
class SearchPlayer final : public Player {
 public:
  SearchPlayer(std::unique_ptr<search::Agent<G>> agent, std::int64_t cap_ms)
      : agent_(std::move(agent)), cap_ms_(cap_ms) {}

  Expected<TurnReply> choose_move(const TurnRequest& request) override {
    auto position = G::deserialize(request.position);
    if (!position)
      return make_error("cannot read the " + std::string(G::kName) + " position '" +
                        request.position + "': " + position.error());
    search::Limits limits;
    limits.stop = request.stop;
    std::int64_t ms = request.budget_ms;
    if (cap_ms_ > 0) ms = ms > 0 ? std::min(ms, cap_ms_) : cap_ms_;
    limits.movetime_ms = ms;
    auto result = agent_->choose_move(*position, limits);
    if (!result.move) return make_error("the search found no move in '" + request.position + "'");
    TurnReply reply;
    reply.move = position->move_to_string(*result.move);
    if (std::find(request.legal_moves.begin(), request.legal_moves.end(), reply.move) ==
        request.legal_moves.end())
      return make_error("the search chose '" + reply.move + "', which the server did not list");
    reply.info.depth = result.info.depth;
    reply.info.nodes = static_cast<std::int64_t>(result.info.nodes);
    reply.info.score = result.info.score;
    reply.info.pv = result.info.pv;
    reply.info.time_ms = static_cast<std::int64_t>(result.info.time_ms);
    return reply;
  }

 private:
  std::unique_ptr<search::Agent<G>> agent_;
  std::int64_t cap_ms_;
};

// The heuristic of an IDA* solver spec: "idastar" is Manhattan distance, "idastar:h=NAME" is
// NAME; nullopt for any other text.
std::optional<std::string> idastar_heuristic(std::string_view spec) {
  if (!spec.starts_with("idastar")) return std::nullopt;
  const std::string_view rest = spec.substr(7);
  if (rest.empty()) return "manhattan";
  if (!rest.starts_with(":h=") || rest.size() == 3) return std::nullopt;
  return std::string(rest.substr(3));
}

}  // namespace

Expected<std::unique_ptr<Player>> make_search_player(std::string_view game, std::string_view spec) {
  // GDL games are played by GDL players (bots/gdl), whose specs are their own.
  if (is_gdl_kind(game)) return make_gdl_client_player(spec);
  auto parsed = search::parse_search_spec(spec);
  if (!parsed) return make_error(parsed.error());
  // The spec's movetime becomes a cap the clock may lower (agents let a spec's limit win).
  const std::int64_t cap_ms = parsed->movetime_ms;
  parsed->movetime_ms = 0;
  GameOptions ignored;
  const std::string name = resolve_game_name(game, ignored);
  Expected<std::unique_ptr<Player>> out =
      make_error("unknown game '" + name + "' (known: " + known_game_names() + ")");
  visit_game_type(name, [&]<class G>(std::type_identity<G>) {
    if constexpr (G::kNumPlayers != 2) {
      out = make_error(std::string(G::kName) + " is a puzzle: use a solver spec (idastar:h=...)");
    } else {
      auto agent = search::make_agent_from_spec<G>(*parsed);
      if (!agent)
        out = make_error(agent.error());
      else
        out = std::unique_ptr<Player>(std::make_unique<SearchPlayer<G>>(std::move(*agent), cap_ms));
    }
  });
  return out;
}

PlayerFactory search_player_factory(std::string spec) {
  return [spec = std::move(spec)](std::string_view game) { return make_search_player(game, spec); };
}

protocol::Engine engine_of(std::string_view game, std::string_view spec) {
  protocol::Engine e{std::string(spec), "", ""};
  if (auto h = idastar_heuristic(spec)) {
    e.heuristic = std::move(*h);
  } else if (is_gdl_kind(game)) {
    e.heuristic = gdl::gdl_player_heuristic(spec).value_or("");
  } else if (auto parsed = search::parse_search_spec(spec)) {
    e.heuristic = parsed->eval;
    e.parameters = eval::weights_parameters(parsed->params, protocol::kMaxEngineParametersBytes);
  }
  return e;
}

bool is_puzzle_spec(std::string_view spec) {
  return spec.starts_with("idastar") || gdl::parse_puzzle_algo(spec).has_value();
}

namespace {

template <class P>
std::vector<std::string> to_text(const P& start, const std::vector<typename P::Move>& moves) {
  std::vector<std::string> out;
  P p = start;
  for (const auto& m : moves) {
    out.push_back(p.move_to_string(m));
    p.make_move(m);
  }
  return out;
}

Expected<std::vector<std::string>> solve_sliding(std::string_view position, const std::string& h) {
  auto start = puzzles::SlidingPuzzle::deserialize(position);
  if (!start) return make_error("bad sliding-puzzle state '" + std::string(position) + "'");
  if (h == "manhattan" || (h == "pdb" && start->size() != 4)) {
    const auto r = search::solve_sliding_manhattan(*start);
    if (!r.solved) return make_error("IDA* found no solution");
    std::vector<puzzles::SlidingPuzzle::Move> moves;
    for (auto d : r.moves) moves.push_back({d});
    return to_text(*start, moves);
  }
  if (h == "pdb") {
    auto pdb = eval::AdditivePatternDatabase::load_or_build("6-6-3", eval::default_cache_dir());
    if (!pdb) return make_error(pdb.error());
    const auto r = search::solve_sliding_pdb(*start, *pdb);
    if (!r.solved) return make_error("IDA* found no solution");
    std::vector<puzzles::SlidingPuzzle::Move> moves;
    for (auto d : r.moves) moves.push_back({d});
    return to_text(*start, moves);
  }
  auto cost = eval::make_sliding_cost_heuristic(h);
  if (!cost) return make_error(cost.error());
  const auto r = search::idastar(*start, *cost);
  if (!r.solved) return make_error("IDA* found no solution");
  return to_text(*start, r.moves);
}

Expected<std::vector<std::string>> solve_rubik(std::string_view position, const std::string& h) {
  auto start = puzzles::RubiksCube::deserialize(position);
  if (!start) return make_error("bad cube state '" + std::string(position) + "'");
  auto cost = eval::make_rubik_cost_heuristic(h, eval::default_cache_dir());
  if (!cost) return make_error(cost.error());
  const auto r = search::idastar(*start, *cost);
  if (!r.solved) return make_error("IDA* found no solution");
  return to_text(*start, r.moves);
}

// A GDL sheet of one role solved by gdl::solve_sheet_puzzle (a reasoner of its own per puzzle).
PuzzleSolver gdl_sheet_solver(std::string spec, gdl::PuzzleAlgo algo) {
  return [spec = std::move(spec), algo](
             std::string_view puzzle,
             std::string_view position) -> Expected<std::vector<std::string>> {
    if (!is_gdl_game(puzzle))
      return make_error("solver '" + spec + "' is for GDL sheets (gdl:NAME); '" +
                        std::string(puzzle) + "' takes idastar");
    gdl::PuzzleSearchOptions options;
    options.algo = algo;
    auto solved = gdl::solve_sheet_puzzle(puzzle, position, options);
    if (!solved) return make_error(solved.error());
    if (!solved->search.solved) return make_error("no solution: " + solved->search.stopped);
    return solved->moves;
  };
}

}  // namespace

Expected<PuzzleSolver> make_puzzle_solver(std::string_view spec) {
  if (auto algo = gdl::parse_puzzle_algo(spec)) return gdl_sheet_solver(std::string(spec), *algo);
  if (!is_puzzle_spec(spec))
    return make_error("solver spec '" + std::string(spec) + "': use idastar or idastar:h=NAME");
  const auto heuristic = idastar_heuristic(spec);
  if (!heuristic) return make_error("solver spec '" + std::string(spec) + "': use idastar:h=NAME");
  const std::string h = *heuristic;
  if (h != "manhattan" && h != "pdb" && h != "misplaced" && h != "linear_conflict" &&
      h != "corner_pdb")
    return make_error("solver spec '" + std::string(spec) + "': unknown heuristic '" + h +
                      "' (known: manhattan, linear_conflict, misplaced, pdb, corner_pdb)");
  return PuzzleSolver([h](std::string_view puzzle,
                          std::string_view position) -> Expected<std::vector<std::string>> {
    GameOptions ignored;
    const std::string name = resolve_game_name(puzzle, ignored);
    if (name == "sliding") return solve_sliding(position, h);
    if (name == "rubik") return solve_rubik(position, h == "pdb" ? "manhattan" : h);
    if (is_gdl_game(name))
      return make_error("no idastar for '" + std::string(puzzle) +
                        "': a GDL sheet is solved by breadth_first (bfs) or best_first");
    return make_error("no solver for '" + std::string(puzzle) + "'");
  });
}

std::optional<int> optimal_puzzle_length(std::string_view puzzle, std::string_view position,
                                         std::uint64_t max_nodes) {
  GameOptions ignored;
  const std::string name = resolve_game_name(puzzle, ignored);
  if (name == "sliding") {
    auto start = puzzles::SlidingPuzzle::deserialize(position);
    if (!start) return std::nullopt;
    const auto r = search::solve_sliding_manhattan(*start, max_nodes);
    if (!r.solved) return std::nullopt;
    return static_cast<int>(r.moves.size());
  }
  if (name == "rubik") {
    auto start = puzzles::RubiksCube::deserialize(position);
    if (!start) return std::nullopt;
    auto cost = eval::make_rubik_cost_heuristic("manhattan", eval::default_cache_dir());
    if (!cost) return std::nullopt;
    search::PuzzleLimits limits;
    limits.max_nodes = max_nodes;
    const auto r = search::idastar(*start, *cost, limits);
    if (!r.solved) return std::nullopt;
    return r.length;
  }
  if (is_gdl_game(name)) {
    // Breadth-first: the shortest solution. Bounded tighter than the tiles (a sheet's states
    // are lists of fluents, and the puzzle opens only once this answers).
    gdl::PuzzleSearchOptions options;
    options.max_states = std::min<std::uint64_t>(max_nodes, 200'000);
    options.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    auto solved = gdl::solve_sheet_puzzle(name, position, options);
    if (!solved || !solved->search.solved) return std::nullopt;
    return static_cast<int>(solved->moves.size());
  }
  return std::nullopt;
}

}  // namespace arena::client
