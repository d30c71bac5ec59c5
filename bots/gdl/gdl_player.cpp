// make_gdl_player: the players of any GDL game by spec (bots/gdl/gdl_player.h).
//
//   random[:seed=N]                 a uniformly random legal move
//   uct[:c=X,iterations=N,seed=N]   decoupled UCT (bots/gdl/uct.h), random playouts to the end
//   fuzzy[:tau=,theta=,q=,depth=,c=,iterations=,seed=]
//                                   UCT whose new leaves are scored by the fuzzy goal heuristic
//                                   of the game's goal rules (bots/eval/gdl_fuzzy.h) after
//                                   `depth` random turns (default 0: the leaf itself); terminal
//                                   states score their goals. A game whose goal rules the
//                                   heuristic cannot compile is played by plain UCT, which
//                                   fallback() says.

#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <utility>

#include "bots/eval/gdl_fuzzy.h"
#include "bots/eval/gdl_fuzzy_cache.h"
#include "bots/gdl/gdl_player.h"
#include "bots/gdl/uct.h"

namespace arena::gdl {
namespace {

class RandomPlayer final : public GdlPlayer {
 public:
  explicit RandomPlayer(std::uint64_t seed) : rng_(seed) {}
  void start(StateMachine& machine, int role, Clock::time_point) override {
    machine_ = &machine;
    role_ = role;
  }
  Move choose(const State& state, Clock::time_point) override {
    auto legal = machine_->legal_moves(state, role_);
    return legal.empty() ? Move{0} : legal[rng_() % legal.size()];
  }
  std::string_view name() const override { return "random"; }

 private:
  std::mt19937_64 rng_;
  StateMachine* machine_ = nullptr;
  int role_ = 0;
};

class UctPlayer final : public GdlPlayer {
 public:
  UctPlayer(UctOptions options, std::optional<eval::FuzzyGoalParams> fuzzy)
      : options_(options), fuzzy_params_(fuzzy) {}

  void start(StateMachine& machine, int role, Clock::time_point deadline) override {
    machine_ = &machine;
    role_ = role;
    Evaluator evaluator;
    if (fuzzy_params_) {
      // Grounded into the machine's pool, so the heuristic reads the machine's states; once
      // per machine, however many games start on it (a copy each: its scratch is its own).
      // Not waited for past the start clock: without it the player plays as uct.
      auto made = eval::shared_fuzzy_goal_heuristic(
          machine, *fuzzy_params_,
          deadline == kNoStartClock ? std::nullopt : std::optional<Clock::time_point>(deadline));
      fuzzy_error_.clear();
      if (made) {
        heuristic_ = std::make_shared<eval::FuzzyGoalHeuristic>(**made);
        evaluator = [h = heuristic_](StateMachine&, const State& s) {
          std::vector<double> v = h->values(s);
          for (double& x : v) x /= 100.0;
          return v;
        };
      } else {
        heuristic_.reset();
        fuzzy_error_ = made.error();
      }
    }
    search_ = std::make_unique<UctSearch>(machine, options_, std::move(evaluator));
  }

  Move choose(const State& state, Clock::time_point deadline) override {
    return search_->choose(state, role_, deadline);
  }
  std::string_view name() const override { return fuzzy_params_ ? "fuzzy" : "uct"; }
  std::string fallback() const override {
    if (fuzzy_error_.empty()) return {};
    return "fuzzy plays as uct (random playouts): the fuzzy goal heuristic cannot be built: " +
           fuzzy_error_;
  }
  GdlMoveInfo last_info() const override {
    if (!search_) return {};
    const UctStats& s = search_->stats();
    GdlMoveInfo info;
    info.iterations = s.iterations;
    if (s.iterations > 0) info.value = static_cast<int>(std::lround(s.root_value * 100.0));
    return info;
  }

 private:
  UctOptions options_;
  std::optional<eval::FuzzyGoalParams> fuzzy_params_;
  std::shared_ptr<eval::FuzzyGoalHeuristic> heuristic_;
  std::string fuzzy_error_;
  StateMachine* machine_ = nullptr;
  int role_ = 0;
  std::unique_ptr<UctSearch> search_;
};

Expected<GameOptions> parse_keys(std::string_view spec, std::string_view rest) {
  GameOptions out;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view part = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (part.empty()) continue;
    const auto eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == part.size())
      return make_error("GDL player spec '" + std::string(spec) + "': '" + std::string(part) +
                        "' is not key=value");
    out[std::string(part.substr(0, eq))] = std::string(part.substr(eq + 1));
  }
  return out;
}

template <class T>
Expected<T> number(std::string_view spec, const std::string& key, const std::string& text, T lo,
                   T hi) {
  try {
    std::size_t used = 0;
    T v{};
    if constexpr (std::is_floating_point_v<T>)
      v = static_cast<T>(std::stod(text, &used));
    else
      v = static_cast<T>(std::stoull(text, &used));
    if (used == text.size() && v >= lo && v <= hi && text.front() != '-') return v;
  } catch (const std::exception&) {
  }
  return make_error("GDL player spec '" + std::string(spec) + "': " + key + "=" + text +
                    " is not a number in " + std::to_string(lo) + ".." + std::to_string(hi));
}

}  // namespace

void report_fallback(const GdlPlayer& player, std::string_view who) {
  const std::string why = player.fallback();
  if (why.empty()) return;
  std::string line = std::string(who) + ": " + why;
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard lock(mutex);
  if (said.insert(line).second) std::fprintf(stderr, "%s\n", line.c_str());
}

Expected<std::unique_ptr<GdlPlayer>> make_gdl_player(std::string_view spec,
                                                     std::uint64_t default_seed) {
  const auto colon = spec.find(':');
  const std::string kind(spec.substr(0, colon));
  if (kind != "random" && kind != "uct" && kind != "mcts" && kind != "fuzzy")
    return make_error("unknown GDL player '" + kind + "' (known: random, uct, fuzzy)");
  auto keys = parse_keys(spec, colon == std::string_view::npos ? "" : spec.substr(colon + 1));
  if (!keys) return make_error(keys.error());
  std::uint64_t seed = default_seed;
  UctOptions uct;
  GameOptions fuzzy_keys;
  int depth = 0;
  for (const auto& [key, value] : *keys) {
    const bool tree = kind == "uct" || kind == "mcts" || kind == "fuzzy";
    if (key == "seed") {
      auto v = number<std::uint64_t>(spec, key, value, 0, ~std::uint64_t{0});
      if (!v) return make_error(v.error());
      seed = *v;
    } else if (tree && key == "c") {
      auto v = number<double>(spec, key, value, 0.0, 100.0);
      if (!v) return make_error(v.error());
      uct.c = *v;
    } else if (tree && key == "iterations") {
      auto v = number<std::uint64_t>(spec, key, value, 1, 1'000'000'000);
      if (!v) return make_error(v.error());
      uct.iterations = *v;
    } else if (kind == "fuzzy" && key == "depth") {
      auto v = number<int>(spec, key, value, 0, 1000);
      if (!v) return make_error(v.error());
      depth = *v;
    } else if (kind == "fuzzy" && (key == "tau" || key == "theta" || key == "q")) {
      fuzzy_keys[key] = value;
    } else {
      return make_error("GDL player spec '" + std::string(spec) + "': unknown key '" + key +
                        "' for " + kind);
    }
  }
  uct.seed = seed;
  if (kind == "random") return std::unique_ptr<GdlPlayer>(std::make_unique<RandomPlayer>(seed));
  if (kind == "uct" || kind == "mcts")
    return std::unique_ptr<GdlPlayer>(std::make_unique<UctPlayer>(uct, std::nullopt));
  auto params = eval::parse_fuzzy_goal_params(fuzzy_keys);  // "fuzzy"
  if (!params) return make_error("GDL player spec '" + std::string(spec) + "': " + params.error());
  uct.cutoff = depth;
  return std::unique_ptr<GdlPlayer>(std::make_unique<UctPlayer>(uct, *params));
}

std::optional<std::string> gdl_player_heuristic(std::string_view spec) {
  if (!make_gdl_player(spec)) return std::nullopt;
  if (spec.substr(0, spec.find(':')) == "fuzzy") return "fuzzy_goal";
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> gdl_player_specs() {
  return {
      {"random", "a uniformly random legal move (seed=)"},
      {"uct", "decoupled UCT with random playouts to the end, any roles and simultaneous moves "
              "(c=0.7, iterations=, seed=)"},
      {"fuzzy", "UCT whose new leaves are scored by the fuzzy goal heuristic after depth= random "
                "turns (tau=0.9, theta=0, q=0, depth=0, c=, iterations=, seed=)"},
  };
}

}  // namespace arena::gdl
