#pragma once
// Runs a shell command in tests and captures its output and exit status.

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <string>

namespace arena::test {

struct CommandResult {
  int status = -1;     // exit status, or -1 if it did not exit normally
  std::string output;  // stdout and stderr together
};

inline CommandResult run_command(const std::string& command) {
  CommandResult r;
  // Grouped, so that a redirection inside `command` (say 2>/dev/null) still wins.
  FILE* pipe = popen(("{ " + command + "\n} 2>&1").c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  int raw = pclose(pipe);
  if (WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
  return r;
}

}  // namespace arena::test
