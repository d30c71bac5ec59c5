#include "bots/eval/gdl_fuzzy_cache.h"

#include <algorithm>
#include <future>
#include <mutex>
#include <vector>

namespace arena::eval {
namespace {

using Built = Expected<std::shared_ptr<const FuzzyGoalHeuristic>>;
using SteadyClock = std::chrono::steady_clock;

struct Entry {
  std::weak_ptr<const gdl::Description> description;
  std::weak_ptr<gdl::TermPool> pool;
  FuzzyGoalParams params;
  std::shared_future<Built> built;
  std::uint64_t id = 0;  // which build: one cut short by its deadline is removed by it
};

bool same_params(const FuzzyGoalParams& a, const FuzzyGoalParams& b) {
  return a.tau == b.tau && a.theta == b.theta && a.q == b.q &&
         a.read_under_terminal == b.read_under_terminal;
}

std::mutex& cache_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::vector<Entry>& cache_entries() {
  static std::vector<Entry> entries;
  return entries;
}

// The time a build may take: ground.h's own limit, or what is left before the deadline.
std::optional<double> seconds_left(std::optional<SteadyClock::time_point> deadline) {
  if (!deadline) return std::nullopt;
  const double left = std::chrono::duration<double>(*deadline - SteadyClock::now()).count();
  return std::max(left, 0.001);
}

}  // namespace

Expected<std::shared_ptr<const FuzzyGoalHeuristic>> shared_fuzzy_goal_heuristic(
    const gdl::StateMachine& machine, const FuzzyGoalParams& params,
    std::optional<SteadyClock::time_point> deadline) {
  static std::uint64_t next_id = 0;
  const auto& description = machine.shared_description();
  const auto& pool = machine.shared_pool();
  std::promise<Built> promise;
  std::shared_future<Built> found;  // a finished build, or one under way to wait for
  std::uint64_t id = 0;
  {
    std::lock_guard lock(cache_mutex());
    auto& entries = cache_entries();
    std::erase_if(entries,
                  [](const Entry& e) { return e.description.expired() || e.pool.expired(); });
    for (const Entry& e : entries)
      if (e.description.lock() == description && e.pool.lock() == pool &&
          same_params(e.params, params))
        found = e.built;
    if (!found.valid()) {
      id = ++next_id;
      entries.push_back({description, pool, params, promise.get_future().share(), id});
    }
  }
  if (found.valid()) {
    if (deadline && found.wait_until(*deadline) != std::future_status::ready)
      return make_error("the fuzzy goal heuristic was not built by the start clock (another "
                        "player's build of it is under way)");
    return found.get();
  }
  // Built outside the lock, so that other sheets' builds go on meanwhile. The pool is the
  // machine's, whose owner serializes its use (GdlContext's mutex, one player's thread).
  const auto limit = seconds_left(deadline);
  auto made = FuzzyGoalHeuristic::from_description(*description, *pool, params, limit);
  const bool cut_short = !made && limit && SteadyClock::now() >= *deadline;
  Built result = made ? Built{std::make_shared<const FuzzyGoalHeuristic>(std::move(*made))}
                : cut_short
                    ? Built{Error{"the fuzzy goal heuristic was not built by the start clock: " +
                                  made.error()}}
                    : Built{Error{made.error()}};
  promise.set_value(result);
  if (cut_short) {
    std::lock_guard lock(cache_mutex());
    std::erase_if(cache_entries(), [id](const Entry& e) { return e.id == id; });
  }
  return result;
}

}  // namespace arena::eval
