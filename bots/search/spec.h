#pragma once
// A search spec: one line of text naming a search, its heuristic and its limits, shared by
// `arena match` and `arena bot`.
//
//   spec    := algorithm [ ':' item { ',' item } ]
//   item    := key '=' value | flag
//   algorithm: random | greedy | minimax (mm) | alphabeta (ab) | id (iterative) |
//              mcts (uct) | bestfirst (bf)
//   keys    : eval=NAME  depth=N  movetime=MS  nodes=N  playouts=N  seed=N  c=UCT-constant
//             tt=0|1  qsearch | quiescence=0|1  params=k:v;k:v
//             killers=0|1 history=0|1 aspiration=0|1 pvs=0|1 nullmove=0|1 lmr=0|1
//             checkext=0|1 see=0|1 repetition=0|1 (the iterative engine's parts, all on by default; e.g.
//             "id:...,pvs=0,lmr=0,nullmove=0,aspiration=0,checkext=0" is the iterative
//             deepening of the AI course)  futility=MARGIN (evaluation units per ply; 0, the
//             default, is off)  hash=N (2^N transposition table entries, 10 to 26)
//             countermove=0|1 malus=0|1 nullr=0|1 qtt=0|1 lmrpv=0|1 seeprune=0|1
//             improving=0|1 lmrhist=0|1 iir=0|1 (later parts, off by default: countermove
//             ordering, history malus, adaptive null-move reduction, table cut-offs in
//             quiescence, less LMR at PV nodes, exchange pruning of losing captures, the
//             improving flag, LMR by history, internal iterative reduction; AlphaBetaOptions)
//   any other key=value is a parameter of the heuristic (passed to make_heuristic, which
//   rejects the ones it does not know, naming them).
// Examples: "alphabeta:eval=custom_score_2,depth=5", "id:eval=improved_score,movetime=150",
// "mcts:playouts=2000", "bestfirst:eval=material,movetime=500", "id:eval=material,qsearch".
// Errors name the bad part of the text.

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "games/core/expected.h"
#include "games/core/types.h"

namespace arena::search {

enum class Algorithm {
  kRandom,
  kGreedy,
  kMinimax,
  kAlphaBeta,
  kIterativeDeepening,
  kMcts,
  kBestFirst
};

struct SearchSpec {
  Algorithm algorithm = Algorithm::kRandom;
  std::string eval;    // heuristic name; empty = the game's first heuristic
  GameOptions params;  // heuristic parameters
  int depth = 0;       // 0 = unset
  std::int64_t movetime_ms = 0;
  std::uint64_t nodes = 0;
  std::uint64_t playouts = 0;
  std::uint64_t seed = 1;
  bool seed_given = false;  // the text set seed= (else a caller may vary the seed per game)
  double exploration = 1.41421356;
  bool transposition = true;
  bool quiescence = false;
  bool killers = true;  // AlphaBetaOptions' switches of the same names
  bool history = true;
  bool aspiration = true;
  bool pvs = true;
  bool null_move = true;
  bool lmr = true;
  bool check_extension = true;
  bool exchange = true;
  bool repetition_draws = true;
  bool countermoves = false;  // AlphaBetaOptions' later parts, off by default
  bool history_malus = false;
  bool adaptive_null_move = false;
  bool quiescence_tt = false;
  bool lmr_pv = false;
  bool exchange_pruning = false;
  bool improving = false;
  bool lmr_history = false;
  bool iir = false;
  int futility = 0;   // AlphaBetaOptions::futility_margin
  int hash_log2 = 0;  // AlphaBetaOptions::tt_log2_entries; 0 = its default
  std::string text;  // as given, for result lines

  bool needs_heuristic() const {
    return algorithm != Algorithm::kRandom && algorithm != Algorithm::kMcts;
  }
};

namespace detail {

inline Expected<Algorithm> parse_algorithm(std::string_view name) {
  if (name == "random") return Algorithm::kRandom;
  if (name == "greedy") return Algorithm::kGreedy;
  if (name == "minimax" || name == "mm") return Algorithm::kMinimax;
  if (name == "alphabeta" || name == "ab") return Algorithm::kAlphaBeta;
  if (name == "id" || name == "iterative") return Algorithm::kIterativeDeepening;
  if (name == "mcts" || name == "uct") return Algorithm::kMcts;
  if (name == "bestfirst" || name == "bf") return Algorithm::kBestFirst;
  return make_error("unknown search '" + std::string(name) +
                    "' (known: random, greedy, minimax, alphabeta, id, mcts, bestfirst)");
}

template <class T>
Expected<T> parse_number(std::string_view key, std::string_view value, T min) {
  T out{};
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (ec != std::errc{} || end != value.data() + value.size() || out < min)
    return make_error("bad value '" + std::string(value) + "' for '" + std::string(key) + "'");
  return out;
}

inline Expected<bool> parse_bool(std::string_view key, std::string_view value) {
  if (value == "1" || value == "true" || value == "on") return true;
  if (value == "0" || value == "false" || value == "off") return false;
  return make_error("bad value '" + std::string(value) + "' for '" + std::string(key) +
                    "' (use 0 or 1)");
}

// "k:v;k:v" into params.
inline Expected<void> parse_params(std::string_view text, GameOptions& params) {
  while (!text.empty()) {
    const auto semi = text.find(';');
    const std::string_view item = text.substr(0, semi);
    const auto colon = item.find_first_of(":=");
    if (colon == std::string_view::npos || colon == 0)
      return make_error("bad heuristic parameter '" + std::string(item) + "' (use key:value)");
    params[std::string(item.substr(0, colon))] = std::string(item.substr(colon + 1));
    if (semi == std::string_view::npos) break;
    text.remove_prefix(semi + 1);
  }
  return {};
}

inline Expected<void> apply_item(SearchSpec& spec, std::string_view key, std::string_view value,
                                 bool has_value) {
  auto set_int = [&](auto& field, auto min) -> Expected<void> {
    auto v = parse_number(key, value, min);
    if (!v) return make_error(v.error());
    field = *v;
    return {};
  };
  if (!has_value) {
    if (key == "qsearch" || key == "quiescence") {
      spec.quiescence = true;
      return {};
    }
    return make_error("'" + std::string(key) + "' needs a value (key=value)");
  }
  if (key == "eval") {
    if (value.empty()) return make_error("empty value for 'eval'");
    spec.eval = std::string(value);
    return {};
  }
  if (key == "depth") return set_int(spec.depth, 1);
  if (key == "movetime") return set_int(spec.movetime_ms, std::int64_t{1});
  if (key == "nodes") return set_int(spec.nodes, std::uint64_t{1});
  if (key == "playouts") return set_int(spec.playouts, std::uint64_t{1});
  if (key == "futility") return set_int(spec.futility, 0);
  if (key == "hash") {
    if (auto r = set_int(spec.hash_log2, 10); !r) return r;
    if (spec.hash_log2 <= 26) return {};
    return make_error("bad value '" + std::string(value) + "' for 'hash' (10 to 26)");
  }
  if (key == "seed") {
    spec.seed_given = true;
    return set_int(spec.seed, std::uint64_t{0});
  }
  if (key == "c") {
    try {
      std::size_t used = 0;
      spec.exploration = std::stod(std::string(value), &used);
      if (used == value.size() && spec.exploration >= 0) return {};
    } catch (...) {
    }
    return make_error("bad value '" + std::string(value) + "' for 'c'");
  }
  if (key == "tt" || key == "quiescence" || key == "qsearch") {
    auto b = parse_bool(key, value);
    if (!b) return make_error(b.error());
    (key == "tt" ? spec.transposition : spec.quiescence) = *b;
    return {};
  }
  for (auto [name, field] : {std::pair{"killers", &SearchSpec::killers},
                             {"history", &SearchSpec::history},
                             {"aspiration", &SearchSpec::aspiration},
                             {"pvs", &SearchSpec::pvs},
                             {"nullmove", &SearchSpec::null_move},
                             {"lmr", &SearchSpec::lmr},
                             {"checkext", &SearchSpec::check_extension},
                             {"see", &SearchSpec::exchange},
                             {"repetition", &SearchSpec::repetition_draws},
                             {"countermove", &SearchSpec::countermoves},
                             {"malus", &SearchSpec::history_malus},
                             {"nullr", &SearchSpec::adaptive_null_move},
                             {"qtt", &SearchSpec::quiescence_tt},
                             {"lmrpv", &SearchSpec::lmr_pv},
                             {"seeprune", &SearchSpec::exchange_pruning},
                             {"improving", &SearchSpec::improving},
                             {"lmrhist", &SearchSpec::lmr_history},
                             {"iir", &SearchSpec::iir}}) {
    if (key != name) continue;
    auto b = parse_bool(key, value);
    if (!b) return make_error(b.error());
    spec.*field = *b;
    return {};
  }
  if (key == "params") return parse_params(value, spec.params);
  spec.params[std::string(key)] = std::string(value);  // the heuristic's own parameter
  return {};
}

}  // namespace detail

inline Expected<SearchSpec> parse_search_spec(std::string_view text) {
  SearchSpec spec;
  spec.text = std::string(text);
  const auto colon = text.find(':');
  auto algorithm = detail::parse_algorithm(text.substr(0, colon));
  if (!algorithm) return make_error("search spec '" + spec.text + "': " + algorithm.error());
  spec.algorithm = *algorithm;
  std::string_view rest = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    const std::string_view key = item.substr(0, eq);
    if (key.empty())
      return make_error("search spec '" + spec.text + "': empty item in '" + std::string(rest) +
                        "'");
    auto applied =
        detail::apply_item(spec, key, eq == std::string_view::npos ? "" : item.substr(eq + 1),
                           eq != std::string_view::npos);
    if (!applied) return make_error("search spec '" + spec.text + "': " + applied.error());
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (!spec.needs_heuristic() && (!spec.eval.empty() || !spec.params.empty())) {
    const std::string name = spec.algorithm == Algorithm::kMcts ? "mcts" : "random";
    // A key no search knows would be a heuristic's parameter: with no heuristic, name it.
    if (spec.eval.empty() && !spec.params.empty())
      return make_error("search spec '" + spec.text + "': unknown key '" +
                        spec.params.begin()->first + "' (" + name +
                        " takes no heuristic; the search keys are depth, movetime, nodes, "
                        "playouts, seed, c, tt, qsearch, killers, history, aspiration, pvs, "
                        "nullmove, lmr, checkext, see, repetition, countermove, malus, nullr, qtt, futility, "
                        "hash)");
    return make_error("search spec '" + spec.text + "': " + name + " takes no heuristic");
  }
  return spec;
}

}  // namespace arena::search
