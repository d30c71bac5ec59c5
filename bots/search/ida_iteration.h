#pragma once
// What an IDA* search reports as each iteration begins, for a progress line: the sliding-tile
// loops (sliding_puzzle_ida.h) and the generic IDA* (idastar.h) report the same, once per
// iteration, so nothing is paid per node.

#include <cstdint>
#include <functional>

namespace arena::search {

struct IdaIteration {
  int iteration = 0;        // 1 for the first
  int bound = 0;            // the f bound of this iteration
  std::uint64_t nodes = 0;  // generated before it (Korf's convention: the root counts 1)
  double seconds = 0.0;     // since the search began
};

using IdaProgress = std::function<void(const IdaIteration&)>;

}  // namespace arena::search
