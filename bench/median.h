#pragma once
// The median of benchmark figures over rounds; of an even count, the mean of the middle two.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace arena::bench {

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace arena::bench
