#include "bots/gdl/puzzle_search.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <mutex>
#include <queue>
#include <span>
#include <unordered_map>
#include <utility>

#include "bots/eval/gdl_fuzzy_cache.h"
#include "games/core/fnv1a.h"
#include "games/gdl/game/gdl_game.h"
#include "games/gdl/library/library.h"

namespace arena::gdl {

namespace {

struct StateHash {
  std::size_t operator()(const State& s) const {
    return static_cast<std::size_t>(fnv1a(std::span<const std::uint8_t>(
        reinterpret_cast<const std::uint8_t*>(s.data()), s.size() * sizeof(TermId))));
  }
};

// The states reached, each with the move that first reached it, and the frontier's order.
class Search {
 public:
  Search(StateMachine& machine, const PuzzleSearchOptions& options)
      : machine_(machine), options_(options) {}

  Expected<PuzzleSearchResult> run(const State& start) {
    const auto t0 = std::chrono::steady_clock::now();
    start_ = t0;
    next_progress_ = t0 + options_.progress_every;
    if (options_.algo == PuzzleAlgo::kBestFirst) {
      auto made = eval::shared_fuzzy_goal_heuristic(machine_, options_.fuzzy);
      if (!made) return make_error("best_first: the fuzzy goal heuristic: " + made.error());
      heuristic_.emplace(**made);
    }
    const bool terminal = machine_.is_terminal(start);
    if (auto why = machine_.failure(start); !why.empty())
      return make_error("the reasoner cannot answer about the start: " + why);
    add(start, -1, Move{}, 0);
    if (terminal) {
      auto goal = machine_.goal(start, 0);
      result_.best_goal = goal ? *goal : 0;
      result_.solved = goal && *goal == 100;
      if (!result_.solved) result_.stopped = "the start is terminal, short of the goal";
    } else {
      push(0);
      expand_all();
    }
    result_.states = nodes_.size();
    result_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return result_;
  }

 private:
  struct Node {
    std::int64_t parent;
    Move move;
    int depth;
    const State* state;  // the key in seen_ (stable: an unordered_map never moves its nodes)
  };
  struct Ranked {
    double value;
    int depth;
    std::int64_t node;
    bool operator<(const Ranked& o) const {  // the top is the highest value, then fewest moves
      if (value != o.value) return value < o.value;
      if (depth != o.depth) return depth > o.depth;
      return node > o.node;
    }
  };

  std::int64_t add(const State& s, std::int64_t parent, Move move, int depth) {
    const auto index = static_cast<std::int64_t>(nodes_.size());
    const auto [it, added] = seen_.emplace(s, index);
    nodes_.push_back({parent, move, depth, &it->first});
    return index;
  }
  void push(std::int64_t node) {
    if (heuristic_) {
      const std::vector<double> values = heuristic_->values(*nodes_[node].state);
      ranked_.push({values.empty() ? 0.0 : values.front(), nodes_[node].depth, node});
    } else {
      fifo_.push_back(node);
    }
  }
  bool empty() const { return heuristic_ ? ranked_.empty() : fifo_.empty(); }
  std::int64_t pop() {
    std::int64_t node = 0;
    if (heuristic_) {
      node = ranked_.top().node;
      ranked_.pop();
    } else {
      node = fifo_.front();
      fifo_.pop_front();
    }
    return node;
  }
  // True when the search must stop here (the reason in result_.stopped). Reports the progress
  // when it is due; `next` is the node expanded next.
  bool out_of_limits(std::int64_t next) {
    if (nodes_.size() >= options_.max_states) {
      result_.stopped = "the limit of " + std::to_string(options_.max_states) + " states";
      return true;
    }
    if (!options_.deadline && !options_.progress) return false;
    const auto now = std::chrono::steady_clock::now();
    if (options_.deadline && now >= *options_.deadline) {
      result_.stopped = "the time limit";
      return true;
    }
    if (options_.progress && now >= next_progress_) {
      options_.progress({nodes_.size(), result_.expanded, nodes_[next].depth,
                         std::chrono::duration<double>(now - start_).count()});
      next_progress_ = now + options_.progress_every;
    }
    return false;
  }
  void solution(std::int64_t node) {
    for (std::int64_t i = node; nodes_[i].parent >= 0; i = nodes_[i].parent)
      result_.moves.push_back(nodes_[i].move);
    std::reverse(result_.moves.begin(), result_.moves.end());
    result_.solved = true;
  }

  void expand_all() {
    while (!empty()) {
      if (out_of_limits(heuristic_ ? ranked_.top().node : fifo_.front())) return;
      const std::int64_t node = pop();
      ++result_.expanded;
      const State& state = *nodes_[node].state;
      for (Move m : machine_.legal_moves(state, 0)) {
        State next = machine_.next_state(state, JointMove{m});
        if (seen_.contains(next)) continue;
        const bool terminal = machine_.is_terminal(next);
        if (auto why = machine_.failure(next); !why.empty()) {
          result_.stopped = "the reasoner could not answer about a state: " + why;
          return;
        }
        const std::int64_t child = add(next, node, m, nodes_[node].depth + 1);
        if (!terminal) {
          push(child);
          continue;
        }
        auto goal = machine_.goal(*nodes_[child].state, 0);
        const int value = goal ? *goal : 0;
        result_.best_goal = std::max(result_.best_goal, value);
        if (value == 100) return solution(child);
      }
    }
    result_.stopped = "no state reachable from the start solves it";
  }

  StateMachine& machine_;
  const PuzzleSearchOptions& options_;
  std::optional<eval::FuzzyGoalHeuristic> heuristic_;
  std::vector<Node> nodes_;
  std::unordered_map<State, std::int64_t, StateHash> seen_;
  std::deque<std::int64_t> fifo_;
  std::priority_queue<Ranked> ranked_;
  PuzzleSearchResult result_;
  std::chrono::steady_clock::time_point start_, next_progress_;
};

}  // namespace

std::string_view to_string(PuzzleAlgo a) {
  return a == PuzzleAlgo::kBestFirst ? "best_first" : "breadth_first";
}

Expected<PuzzleAlgo> parse_puzzle_algo(std::string_view text) {
  if (text == "breadth_first" || text == "bfs") return PuzzleAlgo::kBreadthFirst;
  if (text == "best_first") return PuzzleAlgo::kBestFirst;
  return make_error("unknown GDL puzzle search '" + std::string(text) +
                    "' (known: breadth_first (bfs), best_first)");
}

Expected<PuzzleSearchResult> search_puzzle(StateMachine& machine, const State& start,
                                           const PuzzleSearchOptions& options) {
  if (machine.roles().size() != 1)
    return make_error("a puzzle has one role; this game has " +
                      std::to_string(machine.roles().size()));
  return Search(machine, options).run(start);
}

Expected<SheetPuzzleSolution> solve_sheet_puzzle(std::string_view name, std::string_view position,
                                                 const PuzzleSearchOptions& options) {
  if (name.starts_with("gdl:")) name.remove_prefix(4);
  auto context = make_gdl_context(name);
  if (!context) return make_error(context.error());
  GdlContext& c = **context;
  std::lock_guard lock(c.mutex());
  StateMachine& machine = c.machine();
  State start = machine.initial_state();
  if (!position.empty()) {
    auto parsed = c.parse_state(position);
    if (!parsed) return make_error(parsed.error());
    start = std::move(*parsed);
  }
  auto searched = search_puzzle(machine, start, options);
  if (!searched) return make_error(c.game_name() + ": " + searched.error());
  SheetPuzzleSolution out{
      std::move(*searched), c.state_text(start), {}, std::string(machine.kind())};
  for (Move m : out.search.moves)
    out.moves.push_back(machine.pool().to_kif(m, machine.description().symbols));
  return out;
}

std::string format_sheet_puzzle_solution(const SheetPuzzleSolution& s, PuzzleAlgo algo) {
  const PuzzleSearchResult& r = s.search;
  std::string out = "start " + (s.start.empty() ? std::string("(no fluents)") : s.start) + "\n";
  out += "algorithm " + std::string(to_string(algo)) + ", reasoner " + s.reasoner + "\n";
  if (r.solved) {
    std::string moves;
    for (const auto& m : s.moves) moves += (moves.empty() ? "" : " ") + m;
    out += "solution " + (moves.empty() ? std::string("(none: already solved)") : moves) + "\n";
    out += "length " + std::to_string(s.moves.size()) +
           (algo == PuzzleAlgo::kBreadthFirst ? " (the shortest)" : "") + "\n";
  } else {
    out += "no solution: " + r.stopped + "\n";
    out +=
        "best goal reached " +
        (r.best_goal < 0 ? std::string("none (no terminal state)") : std::to_string(r.best_goal)) +
        "\n";
  }
  char line[96];
  std::snprintf(line, sizeof line, "states %llu, expanded %llu\ntime %.3f s\n",
                static_cast<unsigned long long>(r.states),
                static_cast<unsigned long long>(r.expanded), r.seconds);
  return out + line;
}

}  // namespace arena::gdl
