#pragma once
// Agent<G>: a player for game G built from a SearchSpec, behind one virtual call per move
// (the searches inside are still instantiated per game: nothing virtual per node).
//
//   auto agent = make_agent<G>(spec, heuristic, tactics);   // Expected<unique_ptr<Agent<G>>>
//   auto [move, info] = agent->choose_move(position, limits);
//
// Limits: what the spec sets (depth, movetime, nodes, playouts) wins over `limits`, which
// supplies the rest (the match's --movetime, a stop flag). Iterative deepening and best-first
// with no limit at all get one second; fixed-depth searches with no depth get depth 3.
// An agent keeps its tables between moves; one agent per player and per thread.

#include <memory>
#include <string>
#include <utility>

#include "bots/eval/heuristic.h"
#include "bots/search/alphabeta.h"
#include "bots/search/best_first.h"
#include "bots/search/limits.h"
#include "bots/search/mcts.h"
#include "bots/search/minimax.h"
#include "bots/search/search_info.h"
#include "bots/search/simple.h"
#include "bots/search/spec.h"
#include "games/core/game.h"

namespace arena::search {

template <Game G>
class Agent {
 public:
  virtual ~Agent() = default;
  virtual SearchResult<typename G::Move> choose_move(const G& position, const Limits& limits) = 0;
  const SearchSpec& spec() const { return spec_; }

 protected:
  explicit Agent(SearchSpec spec) : spec_(std::move(spec)) {}

  // The spec's limits over the caller's; `fallback` applies when neither sets any.
  Limits merged(const Limits& given, const Limits& fallback) const {
    Limits l = given;
    if (spec_.depth > 0) l.depth = spec_.depth;
    if (spec_.movetime_ms > 0) l.movetime_ms = spec_.movetime_ms;
    if (spec_.nodes > 0) l.nodes = spec_.nodes;
    if (l.depth == 0 && l.movetime_ms == 0 && l.nodes == 0) {
      l.depth = fallback.depth;
      l.movetime_ms = fallback.movetime_ms;
    }
    return l;
  }

  SearchSpec spec_;
};

template <Game G, class Searcher>
class SearchAgent final : public Agent<G> {
 public:
  SearchAgent(SearchSpec spec, Searcher searcher, Limits fallback)
      : Agent<G>(std::move(spec)), searcher_(std::move(searcher)), fallback_(fallback) {}

  SearchResult<typename G::Move> choose_move(const G& position, const Limits& limits) override {
    return searcher_.search(position, this->merged(limits, fallback_));
  }

 private:
  Searcher searcher_;
  Limits fallback_;
};

namespace detail {
template <Game G, class Searcher>
std::unique_ptr<Agent<G>> wrap(SearchSpec spec, Searcher searcher, Limits fallback = {}) {
  return std::make_unique<SearchAgent<G, Searcher>>(std::move(spec), std::move(searcher), fallback);
}
}  // namespace detail

// `heuristic` is required unless spec.needs_heuristic() is false; `tactics` (best-first's d)
// may be empty, meaning no pending tactics anywhere; `exchange` (alpha-beta's static exchange
// evaluation of captures) may be empty, meaning none.
template <Game G>
Expected<std::unique_ptr<Agent<G>>> make_agent(const SearchSpec& spec, eval::Heuristic<G> heuristic,
                                               eval::Heuristic<G> tactics = {},
                                               ExchangeEval<G> exchange = {}) {
  using H = eval::Heuristic<G>;
  if (spec.needs_heuristic() && !heuristic)
    return make_error("search spec '" + spec.text + "' needs a heuristic (eval=...)");
  const Limits one_second = Limits::for_time(1000);
  const Limits depth_3 = Limits::to_depth(3);
  switch (spec.algorithm) {
    case Algorithm::kRandom:
      return detail::wrap<G>(spec, RandomMover<G>(spec.seed));
    case Algorithm::kGreedy:
      return detail::wrap<G>(spec, Greedy<G, H>(std::move(heuristic)));
    case Algorithm::kMinimax:
      return detail::wrap<G>(spec, Minimax<G, H>(std::move(heuristic)), depth_3);
    case Algorithm::kAlphaBeta:
    case Algorithm::kIterativeDeepening: {
      AlphaBetaOptions options;
      if (spec.algorithm == Algorithm::kAlphaBeta) options = AlphaBetaOptions::plain();
      options.transposition = options.transposition && spec.transposition;
      options.quiescence = spec.quiescence;
      options.killers = options.killers && spec.killers;
      options.history = options.history && spec.history;
      options.aspiration = options.aspiration && spec.aspiration;
      options.pvs = options.pvs && spec.pvs;
      options.null_move = options.null_move && spec.null_move;
      options.lmr = options.lmr && spec.lmr;
      options.check_extension = options.check_extension && spec.check_extension;
      options.exchange = spec.exchange;
      options.repetition_draws = options.repetition_draws && spec.repetition_draws;
      options.futility_margin = spec.futility;
      options.countermoves = spec.countermoves;
      options.history_malus = spec.history_malus;
      options.adaptive_null_move = spec.adaptive_null_move;
      options.quiescence_tt = spec.quiescence_tt;
      options.lmr_pv = spec.lmr_pv;
      options.exchange_pruning = spec.exchange_pruning;
      options.improving = spec.improving;
      options.lmr_history = spec.lmr_history;
      options.iir = spec.iir;
      if (spec.hash_log2 > 0) options.tt_log2_entries = spec.hash_log2;
      return detail::wrap<G>(spec,
                             AlphaBeta<G, H>(std::move(heuristic), options, std::move(exchange)),
                             spec.algorithm == Algorithm::kAlphaBeta ? depth_3 : one_second);
    }
    case Algorithm::kMcts: {
      MctsOptions options;
      options.playouts = spec.playouts;
      options.seed = spec.seed;
      options.exploration = spec.exploration;
      return detail::wrap<G>(spec, Mcts<G>(options));
    }
    case Algorithm::kBestFirst: {
      if (!tactics) tactics = [](const G&) { return 0; };
      return detail::wrap<G>(spec, BestFirst<G, H, H>(std::move(heuristic), std::move(tactics)),
                             one_second);
    }
  }
  return make_error("search spec '" + spec.text + "': unsupported search");
}

}  // namespace arena::search
