#pragma once
// From spec text to an agent for game G, with the heuristic looked up by name in the
// registry. Needs the arena_agents target (bots/search/CMakeLists.txt): the agents of every
// two-player game are compiled once there (bots/search/agents/), not in each unit that makes
// one.

#include <memory>
#include <string_view>

#include "bots/eval/registry.h"
#include "bots/search/agent.h"
#include "bots/search/spec.h"
#include "games/catalog/game_types.h"

namespace arena::eval {

// Alpha-beta's static exchange evaluation for G: a game's eval module that declares
// `int static_exchange(const G&, const G::Move&)` (bots/eval/chess.h) supplies it, found as
// tactical_estimate_for finds best-first's d; an empty function when G has none.
template <class G>
search::ExchangeEval<G> exchange_eval_for() {
  if constexpr (requires(const G& g, const typename G::Move& m) {
                  { static_exchange(g, m) } -> std::convertible_to<int>;
                }) {
    return [](const G& g, const typename G::Move& m) { return static_exchange(g, m); };
  } else {
    return {};
  }
}

}  // namespace arena::eval

namespace arena::search {

template <Game G>
Expected<std::unique_ptr<Agent<G>>> make_agent_from_spec(const SearchSpec& spec) {
  eval::Heuristic<G> heuristic;
  if (spec.needs_heuristic()) {
    auto h = eval::make_named_heuristic<G>(spec.eval, spec.params);
    if (!h) return make_error("search spec '" + spec.text + "': " + h.error());
    heuristic = std::move(*h);
  }
  return make_agent<G>(spec, std::move(heuristic), eval::tactical_estimate_for<G>(),
                       eval::exchange_eval_for<G>());
}

template <Game G>
Expected<std::unique_ptr<Agent<G>>> make_agent_from_spec(std::string_view text) {
  auto spec = parse_search_spec(text);
  if (!spec) return make_error(spec.error());
  return make_agent_from_spec<G>(*spec);
}

// Compiled in bots/search/agents/<game>.cpp.
extern template Expected<std::unique_ptr<Agent<tictactoe::TicTacToe>>>
make_agent_from_spec<tictactoe::TicTacToe>(const SearchSpec&);
extern template Expected<std::unique_ptr<Agent<tictactoe::Qubic>>>
make_agent_from_spec<tictactoe::Qubic>(const SearchSpec&);
extern template Expected<std::unique_ptr<Agent<isolation::Isolation>>>
make_agent_from_spec<isolation::Isolation>(const SearchSpec&);
extern template Expected<std::unique_ptr<Agent<othello::Othello>>>
make_agent_from_spec<othello::Othello>(const SearchSpec&);
extern template Expected<std::unique_ptr<Agent<checkers::Checkers>>>
make_agent_from_spec<checkers::Checkers>(const SearchSpec&);
extern template Expected<std::unique_ptr<Agent<chess::Chess>>>
make_agent_from_spec<chess::Chess>(const SearchSpec&);

}  // namespace arena::search
