#pragma once
// Child processes for `arena league` through a local server (server_league.h): the server
// and the bots it starts, each with its output
// in a log file. POSIX only (fork/exec), like the rest of the machine setup.

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "games/core/expected.h"

namespace arena::league {

class ChildProcess {
 public:
  ChildProcess() = default;
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();  // stops it (terminate) if still running

  // Runs argv[0] with argv, stdout and stderr appended to `log_path`, `env` added to this
  // process's environment.
  static Expected<ChildProcess> spawn(const std::vector<std::string>& argv,
                                      const std::string& log_path,
                                      const std::map<std::string, std::string>& env = {});

  // nullopt while it runs; then its exit code, or 128 + the signal that killed it.
  std::optional<int> poll();
  // SIGTERM, then SIGKILL after `grace`; returns the exit status.
  int terminate(std::chrono::milliseconds grace = std::chrono::seconds(10));
  int pid() const { return pid_; }

 private:
  int pid_ = -1;
  std::optional<int> status_;
};

// The path of the running `arena` binary (to start more of itself).
std::string self_executable();
// A TCP port on 127.0.0.1 that is free now.
Expected<unsigned short> free_loopback_port();

}  // namespace arena::league
