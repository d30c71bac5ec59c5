#include "bots/eval/gdl_fuzzy_cache.h"

#include <future>
#include <mutex>
#include <vector>

namespace arena::eval {
namespace {

using Built = Expected<std::shared_ptr<const FuzzyGoalHeuristic>>;

struct Entry {
  std::weak_ptr<const gdl::Description> description;
  std::weak_ptr<gdl::TermPool> pool;
  FuzzyGoalParams params;
  std::shared_future<Built> built;
};

bool same_params(const FuzzyGoalParams& a, const FuzzyGoalParams& b) {
  return a.tau == b.tau && a.theta == b.theta && a.q == b.q &&
         a.read_under_terminal == b.read_under_terminal;
}

}  // namespace

Expected<std::shared_ptr<const FuzzyGoalHeuristic>> shared_fuzzy_goal_heuristic(
    const gdl::StateMachine& machine, const FuzzyGoalParams& params) {
  static std::mutex mutex;
  static std::vector<Entry> entries;
  const auto& description = machine.shared_description();
  const auto& pool = machine.shared_pool();
  std::promise<Built> promise;
  std::shared_future<Built> found;  // a finished build, or one under way to wait for
  {
    std::lock_guard lock(mutex);
    std::erase_if(entries,
                  [](const Entry& e) { return e.description.expired() || e.pool.expired(); });
    for (const Entry& e : entries)
      if (e.description.lock() == description && e.pool.lock() == pool &&
          same_params(e.params, params))
        found = e.built;
    if (!found.valid())
      entries.push_back({description, pool, params, promise.get_future().share()});
  }
  if (found.valid()) return found.get();
  // Built outside the lock, so that other sheets' builds go on meanwhile. The pool is the
  // machine's, whose owner serializes its use (GdlContext's mutex, one player's thread).
  auto made = FuzzyGoalHeuristic::from_description(*description, *pool, params);
  Built result = made ? Built{std::make_shared<const FuzzyGoalHeuristic>(std::move(*made))}
                      : Built{Error{made.error()}};
  promise.set_value(result);
  return result;
}

}  // namespace arena::eval
