#pragma once
// What bounds a search. Any combination may be set; the search stops at the first limit it
// reaches. With none set, the fixed-depth searches use `depth` and iterative deepening runs
// until kMaxPly or a proven result.
//
// Thread: `stop` may be set from another thread at any time; the search polls it every few
// thousand nodes and returns the best move of the last completed iteration (or, if none
// completed, the first legal move searched), so a legal move is always ready.

#include <atomic>
#include <cstdint>

namespace arena::search {

struct Limits {
  int depth = 0;                            // plies; 0 = no depth limit (iterative deepening)
  std::uint64_t nodes = 0;                  // 0 = no node limit
  std::int64_t movetime_ms = 0;             // 0 = no time limit
  const std::atomic<bool>* stop = nullptr;  // not owned; may be null

  static Limits to_depth(int d) {
    Limits l;
    l.depth = d;
    return l;
  }
  static Limits for_time(std::int64_t ms) {
    Limits l;
    l.movetime_ms = ms;
    return l;
  }
};

}  // namespace arena::search
