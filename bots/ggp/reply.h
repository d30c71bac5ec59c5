#pragma once
// What the GGP module's two sides share besides messages: a reply (an HTTP status and a KIF
// body), the clock the protocol's deadlines are measured on, and the log callback.

#include <chrono>
#include <functional>
#include <string>

namespace arena::ggp {

using Clock = std::chrono::steady_clock;
using LogFn = std::function<void(const std::string&)>;

struct Reply {
  int status = 200;   // 200, or 400 with the reason as the body, 413, 500, 503
  std::string body;
};

}  // namespace arena::ggp
