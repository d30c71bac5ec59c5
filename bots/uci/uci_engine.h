#pragma once
// UciEngine: a UCI chess engine run as a child process over pipes (plain POSIX fork/exec).
// uci -> uciok, setoption name N value V, isready -> readyok, ucinewgame, position fen ...,
// go movetime MS (or wtime/btime/winc/binc), bestmove. Every wait has a timeout, so an engine
// that hangs is killed instead of hanging the bot. Not thread-safe: one user at a time.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "games/core/expected.h"

namespace arena::uci {

struct UciGo {
  std::int64_t movetime_ms = 0;                                         // > 0: "go movetime"
  std::int64_t wtime_ms = -1, btime_ms = -1, winc_ms = 0, binc_ms = 0;  // used if movetime 0
};

struct UciResult {
  std::string best_move;  // UCI long algebraic ("e2e4", "e7e8q")
  int depth = 0;
  std::int64_t nodes = 0;
  std::optional<int> score;  // centipawns; mates as +/-(100000 - plies)
  std::vector<std::string> pv;
  std::int64_t time_ms = 0;
};

using UciOptions = std::vector<std::pair<std::string, std::string>>;

// "NAME=VALUE" into a pair; the error names the text.
Expected<std::pair<std::string, std::string>> parse_uci_option(const std::string& text);

class UciEngine {
 public:
  // Starts `path`, completes the uci/isready handshake and sets `options`. Errors name the
  // path and what went wrong (not executable, no uciok within the timeout).
  static Expected<std::unique_ptr<UciEngine>> start(const std::string& path,
                                                    const UciOptions& options = {});
  ~UciEngine();  // quit, then kill if it does not exit
  UciEngine(const UciEngine&) = delete;
  UciEngine& operator=(const UciEngine&) = delete;

  const std::string& name() const { return name_; }
  Expected<void> new_game();
  // The engine's move in the position `fen` followed by `moves` (UCI notation).
  Expected<UciResult> best_move(const std::string& fen, const std::vector<std::string>& moves,
                                const UciGo& go);

 private:
  UciEngine() = default;
  Expected<void> send(const std::string& line);
  // The next line, or an error after `timeout_ms`.
  Expected<std::string> read_line(std::int64_t timeout_ms);
  Expected<void> wait_for(const std::string& token, std::int64_t timeout_ms);

  int pid_ = -1, to_engine_ = -1, from_engine_ = -1;
  std::string buffer_, name_, path_;
};

}  // namespace arena::uci
