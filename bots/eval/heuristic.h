#pragma once
// The heuristic interface shared by every game's evaluation file and every search.
//
// A heuristic scores a position as an int from the point of view of the side to move
// (positive = good for the player to move). Wins and losses found by search use
// kScoreWin - ply (see search/score.h), so a heuristic's own values must stay well inside
// +/- kScoreHeuristicMax.
//
// Each game's file bots/eval/<game>.h provides, in namespace arena::eval, two overloads
// found by std::type_identity<G>:
//   std::vector<HeuristicInfo> heuristics_for(std::type_identity<G>);
//   Expected<Heuristic<G>> make_heuristic(std::type_identity<G>, std::string_view name,
//                                          const GameOptions& params);
// `params` are the --params key=value pairs (weights, tau, theta ...); unknown keys are an
// error that names them. bots/eval/registry.h collects every game's heuristics.

#include <charconv>
#include <cmath>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "games/core/expected.h"
#include "games/core/types.h"

namespace arena::eval {

inline constexpr int kScoreWin = 1'000'000;
inline constexpr int kScoreInfinite = 2'000'000;
inline constexpr int kScoreHeuristicMax = 500'000;

struct HeuristicInfo {
  std::string name;         // as in the literature: "improved_score", "available_wins"
  std::string description;  // one line for --help and the roster
};

// A heuristic bound to its parameters. A std::function costs one indirect call per leaf;
// searches that want it inlined take the functor type as a template parameter instead.
template <class G>
using Heuristic = std::function<int(const G&)>;

// The value of parameter `key` given as `text`: a finite number, or an error naming both.
inline Expected<double> parse_param_number(const std::string& key, const std::string& text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return make_error("parameter " + key + "='" + text + "' is not a number");
  return value;
}

// For a heuristic that takes no parameters: an error naming the first of `params`, if any.
inline Expected<void> expect_no_params(std::string_view name, const GameOptions& params) {
  if (params.empty()) return {};
  return make_error("unknown parameter '" + params.begin()->first + "' for " + std::string(name) +
                    " (it takes none)");
}

// The heuristic `fn` (null when `name` is none of `game`'s), which takes no parameters; the
// errors name an unknown heuristic (listing `known`) or a parameter given to it.
template <class G>
Expected<Heuristic<G>> plain_heuristic(int (*fn)(const G&), std::string_view game,
                                       std::string_view name, std::string_view known,
                                       const GameOptions& params) {
  if (!fn)
    return make_error("unknown " + std::string(game) + " heuristic '" + std::string(name) +
                      "' (expected " + std::string(known) + ")");
  if (auto none = expect_no_params(name, params); !none) return make_error(none.error());
  return Heuristic<G>(fn);
}

}  // namespace arena::eval
