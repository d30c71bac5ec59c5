#pragma once
// Internal to league/: the games of a ladder run (league/ladder.h) handed out to its workers,
// whatever the game: the schedule, the time bound and stop signal checked before each pair, the
// games collected (and appended to the games file) in the order they end and sorted back into
// the schedule's order, the first error kept. Thread-safe: every member locks.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "games/core/expected.h"
#include "games/core/types.h"
#include "league/ladder.h"
#include "league/ladder_games_file.h"

namespace arena::league {

// The games of a run in the order they are handed out: pair by pair, each pairing's two games
// (the first seat of the pairing moving first, then second) one after the other.
struct GameTask {
  std::size_t index;  // in the schedule
  int pair, first, second;
  bool opens_pair;  // the first game of its pair: only these wait for max_minutes
};

inline std::vector<GameTask> game_tasks(int pairs,
                                        const std::vector<std::pair<int, int>>& pairings) {
  std::vector<GameTask> tasks;
  for (int p = 0; p < pairs; ++p)
    for (const auto& [i, j] : pairings) {
      tasks.push_back({tasks.size(), p, i, j, true});
      tasks.push_back({tasks.size(), p, j, i, false});
    }
  return tasks;
}

// The pairings of a ladder of n seats: the player (seat 0) against each opponent, or with
// all_pairs every seat against every later one.
inline std::vector<std::pair<int, int>> ladder_pairings(int n, bool all_pairs) {
  std::vector<std::pair<int, int>> pairings;
  for (int i = 0; i < (all_pairs ? n : 1); ++i)
    for (int j = i + 1; j < n; ++j) pairings.emplace_back(i, j);
  return pairings;
}

// Scores a game that stopped at `outcome`: the result's, or an adjudicated draw after `limit`
// (e.g. "400 plies") when the game is not over.
inline void score_ladder_game(LadderGame& game, const Outcome& outcome, const std::string& limit) {
  if (!outcome.is_terminal()) {
    game.first_score = 0.5;
    game.reason = "adjudicated draw at " + limit;
    return;
  }
  game.reason = std::string(to_string(outcome.reason));
  game.first_score = outcome.result == Result::kDraw        ? 0.5
                     : outcome.result == Result::kFirstWins ? 1.0
                                                            : 0.0;
}

// Hands out the tasks to the workers, collects the games and the first error.
class TaskQueue {
 public:
  TaskQueue(const LadderConfig& c, LadderResult& result, const LadderProgress& progress,
            const std::atomic<bool>* stop, std::chrono::steady_clock::time_point started,
            std::vector<GameTask> tasks)
      : c_(c),
        result_(result),
        progress_(progress),
        stop_(stop),
        started_(started),
        tasks_(std::move(tasks)) {}

  // The next task, or nullopt when the run is over: every task handed out, an error, or the
  // time or a stop signal before a new pair (a pair once begun is always played out).
  std::optional<GameTask> next() {
    std::lock_guard lock(mutex_);
    if (failed_ || next_ >= tasks_.size()) return std::nullopt;
    const GameTask& t = tasks_[next_];
    if (t.opens_pair) {
      const double minutes =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count() / 60;
      if ((c_.max_minutes > 0 && minutes >= c_.max_minutes) || (stop_ && stop_->load())) {
        result_.stopped_early = true;
        next_ = tasks_.size();
        return std::nullopt;
      }
    }
    ++next_;
    return t;
  }

  void done(const GameTask& t, LadderGame g) {
    std::lock_guard lock(mutex_);
    g.first = t.first;
    g.second = t.second;
    g.pair = t.pair;
    if (!c_.games_file.empty()) {
      std::ofstream out(c_.games_file, std::ios::app);
      out << game_line(c_, result_.seats, g) << '\n';
      if (!out) {
        if (!failed_) error_ = "cannot append to the games file '" + c_.games_file + "'";
        failed_ = true;
      }
    }
    result_.games.push_back(std::move(g));
    order_.push_back(t.index);
    if (progress_)
      progress_(result_, static_cast<int>(result_.games.size()), static_cast<int>(tasks_.size()));
  }

  void fail(std::string error) {
    std::lock_guard lock(mutex_);
    if (!failed_) error_ = std::move(error);
    failed_ = true;
  }

  // The games in the order they were scheduled, whatever order they ended in.
  void sort_games() {
    std::vector<std::size_t> by(order_.size());
    for (std::size_t k = 0; k < by.size(); ++k) by[k] = k;
    std::sort(by.begin(), by.end(), [&](auto a, auto b) { return order_[a] < order_[b]; });
    std::vector<LadderGame> sorted;
    for (std::size_t k : by) sorted.push_back(std::move(result_.games[k]));
    result_.games = std::move(sorted);
  }

  Expected<void> status() const {
    if (failed_) return make_error(error_);
    return {};
  }

 private:
  const LadderConfig& c_;
  LadderResult& result_;
  const LadderProgress& progress_;
  const std::atomic<bool>* stop_;
  std::chrono::steady_clock::time_point started_;
  std::vector<GameTask> tasks_;
  std::mutex mutex_;
  std::size_t next_ = 0;
  std::vector<std::size_t> order_;  // each game's task index, as result_.games
  bool failed_ = false;
  std::string error_;
};

}  // namespace arena::league
