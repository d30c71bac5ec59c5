#pragma once
// Shared by the GGP tests: the tic-tac-toe sheet, a deterministic player, child processes with
// their first output line read (a server's port), and a small GGP player in Python.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bots/gdl/gdl_player.h"

namespace arena::ggp::test {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string tictactoe_rules() {
  return read_text(std::string(ARENA_SOURCE_DIR) + "/games/gdl/sheets/tictactoe.kif");
}

// Plays its first legal move; optionally thinks until the deadline first.
class FirstLegalPlayer final : public gdl::GdlPlayer {
 public:
  explicit FirstLegalPlayer(bool use_all_time = false) : use_all_time_(use_all_time) {}
  void start(gdl::StateMachine& machine, int role, gdl::Clock::time_point) override {
    machine_ = &machine;
    role_ = role;
  }
  gdl::Move choose(const gdl::State& state, gdl::Clock::time_point deadline) override {
    if (use_all_time_) std::this_thread::sleep_until(deadline);
    return machine_->legal_moves(state, role_).front();
  }
  std::string_view name() const override { return "first"; }

 private:
  bool use_all_time_;
  gdl::StateMachine* machine_ = nullptr;
  int role_ = 0;
};

// A child process whose stdout's first line is read (servers print their port there); killed
// (by its pid) when destroyed.
class Child {
 public:
  explicit Child(const std::vector<std::string>& argv) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], 1);
      close(fds[0]);
      close(fds[1]);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(fds[1]);
    out_ = fds[0];
  }
  ~Child() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      for (int i = 0; i < 50 && waitpid(pid_, &status, WNOHANG) == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (waitpid(pid_, &status, WNOHANG) == 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
      }
    }
    if (out_ >= 0) close(out_);
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // The first line of stdout, or "" when none comes within `timeout`.
  std::string first_line(std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
    std::string line;
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
      pollfd p{out_, POLLIN, 0};
      if (poll(&p, 1, 100) <= 0) continue;
      char c;
      if (read(out_, &c, 1) != 1) break;
      if (c == '\n') return line;
      line += c;
    }
    return "";
  }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
};

// The port from "listening on http://127.0.0.1:PORT ..." or a bare "PORT".
inline std::string url_from_line(const std::string& line) {
  const auto at = line.find("http://");
  if (at != std::string::npos) {
    const auto end = line.find(' ', at);
    return line.substr(at, end == std::string::npos ? std::string::npos : end - at);
  }
  return "http://127.0.0.1:" + line;
}

// A GGP player in Python: `python3 SCRIPT MODE LOG MOVE...` prints its port, then answers
// INFO available, START ready, PLAY with its next MOVE (then noop), STOP/ABORT done; it appends
// every message it gets to LOG, one per line. Modes: "list" as said; "slow-first" sleeps 3 s
// before its first PLAY answer; "garbage" answers START with "whatever" and PLAY with ")((".
inline const char* kPythonPlayer = R"PY(
import sys, time, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

mode, log_path, moves = sys.argv[1], sys.argv[2], sys.argv[3:]
lock = threading.Lock()
count = [0]

class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        size = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(size).decode("utf-8", "replace")
        text = " ".join(body.split())
        with lock:
            with open(log_path, "a") as f:
                f.write(text + "\n")
        low = text.lower()
        reply = "done"
        if low.startswith("(info"):
            reply = "available"
        elif low.startswith("(start"):
            reply = "whatever" if mode == "garbage" else "ready"
        elif low.startswith("(play"):
            with lock:
                k = count[0]
                count[0] += 1
            if mode == "slow-first" and k == 0:
                time.sleep(3.0)
            reply = ")((" if mode == "garbage" else (moves[k] if k < len(moves) else "noop")
        data = reply.encode()
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/acl")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
)PY";

// Writes the Python player into `dir` and returns its path.
inline std::string write_python_player(const std::string& dir) {
  const std::string path = dir + "/player.py";
  std::ofstream(path) << kPythonPlayer;
  return path;
}

inline std::vector<std::string> lines_of(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace arena::ggp::test
