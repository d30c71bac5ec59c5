// make_gdl_player: the players of any GDL game by spec (bots/gdl/gdl_player.h).
//
//   random[:seed=N]                 a uniformly random legal move
//   uct[:c=X,iterations=N,seed=N]   decoupled UCT (bots/gdl/uct.h), random playouts to the end
//   fuzzy[:tau=,theta=,q=,depth=,c=,iterations=,seed=]
//                                   UCT whose new leaves are scored by the fuzzy goal heuristic
//                                   of the game's goal rules (bots/eval/gdl_fuzzy.h) after
//                                   `depth` random turns (default 0: the leaf itself); terminal
//                                   states score their goals.
//   mcts-pb[:bias=,depth=,...]      UCT with progressive bias by the fuzzy goal heuristic
//                                   (uct.h), random playouts to the end unless depth= is given
//   mcts-cutoff[:depth=,bias=,...]  fuzzy with a deeper cut-off by default (depth=4)
//   fuzzy-ab[:depth=,tau=,...]      iterative deepening alpha-beta (bots/gdl/alphabeta.h) with
//                                   the fuzzy goal heuristic at the leaves, two roles in turn
// A game whose goal rules the heuristic cannot compile is played by plain UCT, which
// fallback() says; so is a game fuzzy-ab cannot search (not two roles taking turns).

#include <algorithm>
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
#include "bots/gdl/alphabeta.h"
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

// The fuzzy goal heuristic of `machine`, shared (bots/eval/gdl_fuzzy_cache.h) and copied (its
// scratch is then this player's own), by `deadline` unless kNoStartClock; or why not.
struct FuzzyBuild {
  std::shared_ptr<eval::FuzzyGoalHeuristic> heuristic;
  std::string error;
};

FuzzyBuild build_fuzzy(StateMachine& machine, const eval::FuzzyGoalParams& params,
                       Clock::time_point deadline) {
  // Grounded into the machine's pool, so the heuristic reads the machine's states; once per
  // machine, however many games start on it. Not waited for past the start clock.
  auto made = eval::shared_fuzzy_goal_heuristic(
      machine, params,
      deadline == kNoStartClock ? std::nullopt : std::optional<Clock::time_point>(deadline));
  if (!made) return {nullptr, made.error()};
  return {std::make_shared<eval::FuzzyGoalHeuristic>(**made), {}};
}

GdlMoveInfo uct_info(const UctSearch* search) {
  if (!search) return {};
  const UctStats& s = search->stats();
  GdlMoveInfo info;
  info.iterations = s.iterations;
  if (s.iterations > 0) info.value = static_cast<int>(std::lround(s.root_value * 100.0));
  return info;
}

class UctPlayer final : public GdlPlayer {
 public:
  UctPlayer(std::string name, UctOptions options, std::optional<eval::FuzzyGoalParams> fuzzy)
      : name_(std::move(name)), options_(options), fuzzy_params_(fuzzy) {}

  void start(StateMachine& machine, int role, Clock::time_point deadline) override {
    role_ = role;
    Evaluator evaluator;
    fuzzy_error_.clear();
    if (fuzzy_params_) {
      FuzzyBuild built = build_fuzzy(machine, *fuzzy_params_, deadline);
      fuzzy_error_ = built.error;
      if (built.heuristic)
        evaluator = [h = built.heuristic](StateMachine&, const State& s) {
          std::vector<double> v = h->values(s);
          for (double& x : v) x /= 100.0;
          return v;
        };
    }
    search_ = std::make_unique<UctSearch>(machine, options_, std::move(evaluator));
  }

  Move choose(const State& state, Clock::time_point deadline) override {
    return search_->choose(state, role_, deadline);
  }
  std::string_view name() const override { return name_; }
  std::string fallback() const override {
    if (fuzzy_error_.empty()) return {};
    return name_ + " plays as uct (random playouts): the fuzzy goal heuristic cannot be built: " +
           fuzzy_error_;
  }
  GdlMoveInfo last_info() const override { return uct_info(search_.get()); }

 private:
  std::string name_;
  UctOptions options_;
  std::optional<eval::FuzzyGoalParams> fuzzy_params_;
  std::string fuzzy_error_;
  int role_ = 0;
  std::unique_ptr<UctSearch> search_;
};

// fuzzy-ab: alpha-beta (bots/gdl/alphabeta.h) with the fuzzy goal heuristic at the leaves, on
// games of two roles taking turns; elsewhere (other role counts, simultaneous moves, a heuristic
// that cannot be built) it plays as uct and says so in fallback().
class AlphaBetaPlayer final : public GdlPlayer {
 public:
  AlphaBetaPlayer(AlphaBetaOptions options, eval::FuzzyGoalParams fuzzy, UctOptions uct)
      : options_(options), fuzzy_params_(fuzzy), uct_options_(uct) {}

  void start(StateMachine& machine, int role, Clock::time_point deadline) override {
    role_ = role;
    why_.clear();
    search_.reset();
    uct_ = std::make_unique<UctSearch>(machine, uct_options_);
    if (machine.roles().size() != 2) {
      why_ =
          "fuzzy-ab plays as uct (random playouts): alpha-beta searches games of two roles "
          "taking turns, and this sheet has " +
          std::to_string(machine.roles().size()) + " role" +
          (machine.roles().size() == 1 ? "" : "s");
      return;
    }
    FuzzyBuild built = build_fuzzy(machine, fuzzy_params_, deadline);
    if (!built.heuristic) {
      why_ =
          "fuzzy-ab plays as uct (random playouts): the fuzzy goal heuristic cannot be "
          "built: " +
          built.error;
      return;
    }
    search_ = std::make_unique<GdlAlphaBeta>(
        machine, [h = built.heuristic](const State& s) { return h->values(s); }, options_);
  }

  Move choose(const State& state, Clock::time_point deadline) override {
    used_uct_ = true;
    if (search_) {
      if (auto move = search_->choose(state, role_, deadline)) {
        used_uct_ = false;
        return *move;
      }
      why_ =
          "fuzzy-ab plays as uct (random playouts) where both roles choose at once: "
          "alpha-beta searches games of two roles taking turns";
    }
    return uct_->choose(state, role_, deadline);
  }
  std::string_view name() const override { return "fuzzy-ab"; }
  std::string fallback() const override { return why_; }
  GdlMoveInfo last_info() const override {
    if (used_uct_) return uct_info(uct_.get());
    if (!search_) return {};
    GdlMoveInfo info;
    info.iterations = search_->stats().nodes;
    info.value =
        static_cast<int>(std::lround(std::clamp(50 + search_->stats().score / 4, 0.0, 100.0)));
    return info;
  }

 private:
  AlphaBetaOptions options_;
  eval::FuzzyGoalParams fuzzy_params_;
  UctOptions uct_options_;
  int role_ = 0;
  std::string why_;
  bool used_uct_ = false;
  std::unique_ptr<GdlAlphaBeta> search_;
  std::unique_ptr<UctSearch> uct_;
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

namespace {

// A player kind of make_gdl_player: the keys its spec takes and its defaults. `depth` is the
// cut-off of the mcts kinds (-1: playouts to the end) and the deepest iteration of fuzzy-ab.
struct Kind {
  std::string_view name;
  std::vector<std::string_view> keys;
  int depth = -1;
  double bias = 0;
  bool fuzzy = false;
  std::string_view help;
};

const std::vector<Kind>& kinds() {
  static const std::vector<Kind> all = {
      {"random", {"seed"}, -1, 0, false, "a uniformly random legal move (seed=)"},
      {"uct",
       {"c", "iterations", "seed"},
       -1,
       0,
       false,
       "decoupled UCT with random playouts to the end, any roles and simultaneous moves "
       "(c=0.7, iterations=, seed=); alias mcts"},
      {"fuzzy",
       {"tau", "theta", "q", "depth", "c", "iterations", "seed"},
       0,
       0,
       true,
       "UCT whose new leaves are scored by the fuzzy goal heuristic after depth= random "
       "turns (tau=0.9, theta=0, q=0, depth=0, c=, iterations=, seed=)"},
      {"mcts-pb",
       {"bias", "tau", "theta", "q", "depth", "c", "iterations", "seed"},
       -1,
       1.0,
       true,
       "UCT with progressive bias: a move's UCB1 value gains bias * h / (visits+1), h the fuzzy "
       "goal value after the move, untried moves best h first; random playouts to the end, or "
       "depth= turns then the heuristic (bias=1, depth unset, tau=, theta=, q=, c=, iterations=, "
       "seed=)"},
      {"mcts-cutoff",
       {"depth", "bias", "tau", "theta", "q", "c", "iterations", "seed"},
       4,
       0,
       true,
       "UCT whose playouts stop after depth= random turns and score the fuzzy goal heuristic "
       "there, terminal states their goals (depth=4, bias=0, tau=, theta=, q=, c=, "
       "iterations=, seed=)"},
      {"fuzzy-ab",
       {"depth", "tau", "theta", "q", "seed"},
       64,
       0,
       true,
       "iterative deepening alpha-beta with the fuzzy goal heuristic at the leaves, two roles "
       "taking turns (elsewhere it plays as uct and says so); depth= is the deepest iteration "
       "(depth=64, tau=, theta=, q=, seed= shuffles the root's moves)"},
  };
  return all;
}

const Kind* find_kind(std::string_view name) {
  if (name == "mcts") name = "uct";
  for (const Kind& k : kinds())
    if (k.name == name) return &k;
  return nullptr;
}

// The values of a spec's keys, checked against its kind.
struct Settings {
  std::uint64_t seed = 1;
  UctOptions uct;
  GameOptions fuzzy_keys;
  int depth = -1;
};

Expected<void> apply_key(std::string_view spec, const Kind& kind, const std::string& key,
                         const std::string& value, Settings& out) {
  if (std::find(kind.keys.begin(), kind.keys.end(), key) == kind.keys.end()) {
    std::string known;
    for (std::string_view k : kind.keys) known += (known.empty() ? "" : ", ") + std::string(k);
    return make_error("GDL player spec '" + std::string(spec) + "': unknown key '" + key +
                      "' for " + std::string(kind.name) + " (keys: " + known + ")");
  }
  auto set = [](auto v, auto& field) -> Expected<void> {
    if (!v) return make_error(v.error());
    field = *v;
    return {};
  };
  if (key == "seed")
    return set(number<std::uint64_t>(spec, key, value, 0, ~std::uint64_t{0}), out.seed);
  if (key == "c") return set(number<double>(spec, key, value, 0.0, 100.0), out.uct.c);
  if (key == "bias") return set(number<double>(spec, key, value, 0.0, 1000.0), out.uct.bias);
  if (key == "iterations")
    return set(number<std::uint64_t>(spec, key, value, 1, 1'000'000'000), out.uct.iterations);
  if (key == "depth")
    return set(number<int>(spec, key, value, kind.name == "fuzzy-ab" ? 1 : 0, 1000), out.depth);
  out.fuzzy_keys[key] = value;  // tau, theta, q: parse_fuzzy_goal_params checks them
  return {};
}

}  // namespace

Expected<std::unique_ptr<GdlPlayer>> make_gdl_player(std::string_view spec,
                                                     std::uint64_t default_seed) {
  const auto colon = spec.find(':');
  const std::string name(spec.substr(0, colon));
  const Kind* kind = find_kind(name);
  if (kind == nullptr) {
    std::string known;
    for (const Kind& k : kinds()) known += (known.empty() ? "" : ", ") + std::string(k.name);
    return make_error("unknown GDL player '" + name + "' (known: " + known + ")");
  }
  auto keys = parse_keys(spec, colon == std::string_view::npos ? "" : spec.substr(colon + 1));
  if (!keys) return make_error(keys.error());
  Settings set;
  set.seed = default_seed;
  set.depth = kind->depth;
  set.uct.bias = kind->bias;
  for (const auto& [key, value] : *keys)
    if (auto ok = apply_key(spec, *kind, key, value, set); !ok) return make_error(ok.error());
  set.uct.seed = set.seed;
  using Made = std::unique_ptr<GdlPlayer>;
  if (kind->name == "random") return Made(std::make_unique<RandomPlayer>(set.seed));
  if (!kind->fuzzy) return Made(std::make_unique<UctPlayer>("uct", set.uct, std::nullopt));
  auto params = eval::parse_fuzzy_goal_params(set.fuzzy_keys);
  if (!params) return make_error("GDL player spec '" + std::string(spec) + "': " + params.error());
  if (kind->name == "fuzzy-ab") {
    UctOptions plain;
    plain.seed = set.seed;
    return Made(
        std::make_unique<AlphaBetaPlayer>(AlphaBetaOptions{set.depth, set.seed}, *params, plain));
  }
  set.uct.cutoff = set.depth;
  return Made(std::make_unique<UctPlayer>(std::string(kind->name), set.uct, *params));
}

std::optional<std::string> gdl_player_heuristic(std::string_view spec) {
  if (!make_gdl_player(spec)) return std::nullopt;
  const Kind* kind = find_kind(spec.substr(0, spec.find(':')));
  if (kind != nullptr && kind->fuzzy) return "fuzzy_goal";
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> gdl_player_specs() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Kind& k : kinds()) out.emplace_back(std::string(k.name), std::string(k.help));
  return out;
}

}  // namespace arena::gdl
