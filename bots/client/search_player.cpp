#include "bots/client/search_player.h"

#include <algorithm>
#include <memory>
#include <type_traits>
#include <utility>

#include "bots/client/gdl_client_player.h"
#include "bots/eval/weights_file.h"
#include "bots/gdl/gdl_player.h"
#include "bots/gdl/puzzle_search.h"
#include "bots/search/agent_factory.h"
#include "bots/solver/puzzle_solver.h"
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

// A GDL sheet of one role solved by gdl::solve_sheet_puzzle (a reasoner of its own per puzzle).
PuzzleSolver gdl_sheet_solver(std::string spec) {
  return [spec = std::move(spec)](std::string_view puzzle,
                                  std::string_view position) -> Expected<std::vector<std::string>> {
    if (!is_gdl_game(puzzle))
      return make_error("solver '" + spec + "' is for GDL sheets (gdl:NAME); '" +
                        std::string(puzzle) + "' takes idastar");
    solver::SolveRequest request;
    request.puzzle = std::string(puzzle);
    request.position = std::string(position);
    request.algo = spec;
    auto solved = solver::solve_puzzle(request);
    if (!solved) return make_error(solved.error());
    if (!solved->solved) return make_error("no solution: " + solved->sheet->search.stopped);
    return solved->moves;
  };
}

}  // namespace

Expected<PuzzleSolver> make_puzzle_solver(std::string_view spec) {
  if (gdl::parse_puzzle_algo(spec)) return gdl_sheet_solver(std::string(spec));
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
    if (is_gdl_game(puzzle))
      return make_error("no idastar for '" + std::string(puzzle) +
                        "': a GDL sheet is solved by breadth_first (bfs) or best_first");
    solver::SolveRequest request;
    request.puzzle = std::string(puzzle);
    request.position = std::string(position);
    request.heuristic = h;
    request.pdb_or_manhattan = true;  // a bot's "pdb": the best heuristic the puzzle has
    auto solved = solver::solve_puzzle(request);
    if (!solved) return make_error(solved.error());
    if (!solved->solved) return make_error("IDA* found no solution");
    return solved->moves;
  });
}

}  // namespace arena::client
