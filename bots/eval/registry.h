#pragma once
// Every game's heuristics in one place: list and make them by name for any game type G.
//
//   list_heuristics<G>()                    the HeuristicInfo list of G (empty if none yet)
//   make_named_heuristic<G>(name, params)   the heuristic, or an error naming `name` and
//                                           listing the known ones ("" = G's first one)
//   tactical_estimate_for<G>()              best-first's search heuristic d for G, or an
//                                           empty function when G has none
//
// Each game's bots/eval/<game>.h provides heuristics_for / make_heuristic overloads on
// std::type_identity<G> (heuristic.h). The headers are included when their library exists:
// bots/eval/CMakeLists.txt defines ARENA_EVAL_HAVE_<GAME> for each arena_eval_<game> target,
// so a game whose heuristics have not landed simply has none.

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bots/eval/heuristic.h"
#include "games/core/expected.h"
#include "games/core/types.h"

#if defined(ARENA_EVAL_HAVE_TICTACTOE)
#include "bots/eval/tictactoe.h"
#endif
#if (defined(ARENA_EVAL_HAVE_QUBIC) || defined(ARENA_EVAL_HAVE_TICTACTOE)) && \
    __has_include("bots/eval/qubic.h")
#include "bots/eval/qubic.h"
#endif
#if defined(ARENA_EVAL_HAVE_ISOLATION)
#include "bots/eval/isolation.h"
#endif
#if defined(ARENA_EVAL_HAVE_OTHELLO)
#include "bots/eval/othello.h"
#endif
#if defined(ARENA_EVAL_HAVE_CHECKERS)
#include "bots/eval/checkers.h"
#endif
#if defined(ARENA_EVAL_HAVE_CHESS)
#include "bots/eval/chess.h"
#endif
#if defined(ARENA_EVAL_HAVE_PUZZLES)
#include "bots/eval/sliding_puzzle.h"
#if __has_include("bots/eval/rubiks_cube.h")
#include "bots/eval/rubiks_cube.h"
#endif
#endif

namespace arena::eval {

// Found by ordinary lookup among the overloads declared above (std::type_identity<G> does
// not bring arena::eval into argument-dependent lookup).
template <class G>
concept HasHeuristics = requires(std::string_view name, const GameOptions& params) {
  { heuristics_for(std::type_identity<G>{}) } -> std::same_as<std::vector<HeuristicInfo>>;
  { make_heuristic(std::type_identity<G>{}, name, params) } -> std::same_as<Expected<Heuristic<G>>>;
};

template <class G>
std::vector<HeuristicInfo> list_heuristics() {
  if constexpr (HasHeuristics<G>) {
    return heuristics_for(std::type_identity<G>{});
  } else {
    return {};
  }
}

// "a, b, c" for error messages.
template <class G>
std::string known_heuristic_names() {
  std::string out;
  for (const HeuristicInfo& h : list_heuristics<G>()) out += (out.empty() ? "" : ", ") + h.name;
  return out.empty() ? "none yet" : out;
}

template <class G>
Expected<Heuristic<G>> make_named_heuristic(std::string_view name, const GameOptions& params) {
  const std::vector<HeuristicInfo> known = list_heuristics<G>();
  if (known.empty()) return make_error("no heuristics for " + std::string(G::kName) + " yet");
  if (name.empty()) name = known.front().name;
  bool listed = false;
  for (const HeuristicInfo& h : known) listed = listed || h.name == name;
  if (!listed)
    return make_error("unknown heuristic '" + std::string(name) + "' for " + std::string(G::kName) +
                      " (known: " + known_heuristic_names<G>() + ")");
  if constexpr (HasHeuristics<G>) {
    auto h = make_heuristic(std::type_identity<G>{}, name, params);
    if (!h) return make_error("heuristic '" + std::string(name) + "': " + h.error());
    return h;
  } else {
    return make_error("no heuristics for " + std::string(G::kName) + " yet");
  }
}

template <class G>
Heuristic<G> tactical_estimate_for() {
  if constexpr (requires(const G& g) {
                  { tactical_estimate(g) } -> std::convertible_to<int>;
                }) {
    return [](const G& g) { return static_cast<int>(tactical_estimate(g)); };
  } else {
    return {};
  }
}

}  // namespace arena::eval
