#pragma once
// `arena serve` as a child process for tests that kill and restart it (tests/db/crash_test.cpp).

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace arena::test {

// `arena serve` as a child process on a port of its own choosing (--port 0, read back from
// its first line). The destructor kills and reaps it, and PR_SET_PDEATHSIG kills it if the
// test process dies first: a failed test never leaves a server behind.
class ServerProcess {
 public:
  explicit ServerProcess(const std::string& db) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return;
    std::vector<std::string> args = {ARENA_BINARY, "serve", "--host", "127.0.0.1", "--port",
                                     "0",          "--db",  db,       "--threads", "2"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const pid_t parent = getpid();
    const long max_fd = std::min(sysconf(_SC_OPEN_MAX), 4096L);
    pid_ = fork();
    if (pid_ == 0) {  // only async-signal-safe calls until exec
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(127);
      dup2(fds[1], STDOUT_FILENO);
      for (int fd = 3; fd < max_fd; ++fd) close(fd);  // no test socket leaks into the server
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(fds[1]);
    out_ = fds[0];
    if (pid_ > 0) port_ = read_port();
  }
  ~ServerProcess() {
    kill_now();
    if (out_ >= 0) close(out_);
  }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  unsigned short port() const { return port_; }
  bool running() const { return pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0; }
  // SIGKILL; true if the process was alive until then (it died of this very signal).
  bool kill_now() {
    if (pid_ <= 0) return false;
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  }
  // SIGTERM, the orderly shutdown; the exit status, or -1 if it had to be killed after 30 s.
  int stop() {
    kill(pid_, SIGTERM);
    for (int i = 0; i < 3000; ++i) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill_now();
    return -1;
  }

 private:
  unsigned short read_port() {
    std::string line;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(30);  // ASan starts slowly
    while (line.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd p{out_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char buf[256];
      const ssize_t n = read(out_, buf, sizeof buf);
      if (n <= 0) break;
      line.append(buf, static_cast<std::size_t>(n));
    }
    const std::string marker = "http://127.0.0.1:";
    const auto at = line.find(marker);
    if (at == std::string::npos) return 0;
    return static_cast<unsigned short>(std::atoi(line.c_str() + at + marker.size()));
  }

  pid_t pid_ = -1;
  int out_ = -1;
  unsigned short port_ = 0;
};

}  // namespace arena::test
