#include "bots/uci/uci_engine.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <sstream>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace arena::uci {
namespace {

constexpr std::int64_t kHandshakeMs = 10000;
constexpr std::int64_t kMoveGraceMs = 5000;  // beyond movetime before we send "stop"

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void parse_info(const std::string& line, UciResult& r) {
  std::istringstream in(line);
  std::string word;
  in >> word;  // "info"
  while (in >> word) {
    if (word == "depth") {
      in >> r.depth;
    } else if (word == "nodes") {
      in >> r.nodes;
    } else if (word == "time") {
      in >> r.time_ms;
    } else if (word == "score") {
      std::string kind;
      int value = 0;
      in >> kind >> value;
      if (kind == "cp") r.score = value;
      if (kind == "mate") r.score = value > 0 ? 100000 - (2 * value - 1) : -100000 - 2 * value;
    } else if (word == "pv") {
      r.pv.clear();
      while (in >> word) r.pv.push_back(word);
    }
  }
}

}  // namespace

Expected<std::pair<std::string, std::string>> parse_uci_option(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return make_error("UCI option '" + text + "' must be NAME=VALUE");
  return std::pair{text.substr(0, eq), text.substr(eq + 1)};
}

Expected<std::unique_ptr<UciEngine>> UciEngine::start(const std::string& path,
                                                      const UciOptions& options) {
  if (::access(path.c_str(), X_OK) != 0)
    return make_error("UCI engine '" + path + "' is not an executable file");
  int in_pipe[2], out_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0)
    return make_error("pipe: " + std::string(std::strerror(errno)));
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    ::close(in_pipe[0]);
    ::close(in_pipe[1]);
    return make_error("pipe: " + std::string(std::strerror(errno)));
  }
  const pid_t pid = ::fork();
  if (pid < 0) return make_error("fork: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    ::dup2(in_pipe[0], STDIN_FILENO);
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  std::unique_ptr<UciEngine> e(new UciEngine());
  e->pid_ = pid;
  e->to_engine_ = in_pipe[1];
  e->from_engine_ = out_pipe[0];
  e->path_ = path;
  e->name_ = path;
  if (auto s = e->send("uci"); !s) return make_error(s.error());
  const std::int64_t deadline = now_ms() + kHandshakeMs;
  for (;;) {
    auto line = e->read_line(deadline - now_ms());
    if (!line) return make_error("UCI engine '" + path + "': no uciok (" + line.error() + ")");
    if (line->starts_with("id name ")) e->name_ = line->substr(8);
    if (*line == "uciok") break;
  }
  for (const auto& [name, value] : options)
    if (auto s = e->send("setoption name " + name + " value " + value); !s)
      return make_error(s.error());
  if (auto s = e->send("isready"); !s) return make_error(s.error());
  if (auto r = e->wait_for("readyok", kHandshakeMs); !r)
    return make_error("UCI engine '" + path + "': " + r.error());
  return e;
}

UciEngine::~UciEngine() {
  if (to_engine_ >= 0) {
    (void)send("quit");
    ::close(to_engine_);
  }
  if (pid_ > 0) {
    int status = 0;
    for (int i = 0; i < 100 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i) ::usleep(10000);
    if (::waitpid(pid_, &status, WNOHANG) == 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
    }
  }
  if (from_engine_ >= 0) ::close(from_engine_);
}

Expected<void> UciEngine::send(const std::string& line) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(to_engine_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return make_error("UCI engine '" + path_ + "' closed its input");
    done += static_cast<std::size_t>(n);
  }
  return {};
}

Expected<std::string> UciEngine::read_line(std::int64_t timeout_ms) {
  const std::int64_t deadline = now_ms() + std::max<std::int64_t>(timeout_ms, 0);
  for (;;) {
    if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    const std::int64_t left = deadline - now_ms();
    if (left <= 0) return make_error("timed out");
    pollfd p{from_engine_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char chunk[4096];
    const ssize_t n = ::read(from_engine_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return make_error("the engine exited");
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

Expected<void> UciEngine::wait_for(const std::string& token, std::int64_t timeout_ms) {
  const std::int64_t deadline = now_ms() + timeout_ms;
  for (;;) {
    auto line = read_line(deadline - now_ms());
    if (!line) return make_error("no " + token + " (" + line.error() + ")");
    if (*line == token) return {};
  }
}

Expected<void> UciEngine::new_game() {
  if (auto s = send("ucinewgame"); !s) return s;
  if (auto s = send("isready"); !s) return s;
  return wait_for("readyok", kHandshakeMs);
}

Expected<UciResult> UciEngine::best_move(const std::string& fen,
                                         const std::vector<std::string>& moves, const UciGo& go) {
  std::string position = "position fen " + fen;
  if (!moves.empty()) {
    position += " moves";
    for (const auto& m : moves) position += " " + m;
  }
  if (auto s = send(position); !s) return make_error(s.error());
  std::string command = "go";
  std::int64_t expected_ms = go.movetime_ms;
  if (go.movetime_ms > 0) {
    command += " movetime " + std::to_string(go.movetime_ms);
  } else {
    command += " wtime " + std::to_string(std::max<std::int64_t>(go.wtime_ms, 1)) + " btime " +
               std::to_string(std::max<std::int64_t>(go.btime_ms, 1)) + " winc " +
               std::to_string(go.winc_ms) + " binc " + std::to_string(go.binc_ms);
    expected_ms = std::max(go.wtime_ms, go.btime_ms);
  }
  if (auto s = send(command); !s) return make_error(s.error());
  UciResult result;
  std::int64_t deadline = now_ms() + expected_ms + kMoveGraceMs;
  bool stopped = false;
  for (;;) {
    auto line = read_line(deadline - now_ms());
    if (!line) {
      if (stopped) return make_error("UCI engine '" + name_ + "' gave no bestmove");
      (void)send("stop");  // past its time: ask for the move now
      stopped = true;
      deadline = now_ms() + 1000;
      continue;
    }
    if (line->starts_with("info ")) parse_info(*line, result);
    if (line->starts_with("bestmove")) {
      std::istringstream in(*line);
      std::string word;
      in >> word >> result.best_move;
      if (result.best_move.empty() || result.best_move == "(none)")
        return make_error("UCI engine '" + name_ + "' has no move in '" + fen + "'");
      return result;
    }
  }
}

}  // namespace arena::uci
