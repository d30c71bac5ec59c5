#pragma once
// The player side of the GGP HTTP protocol, without the HTTP: a message body in, a reply out.
// One match at a time, played by a GdlPlayer (bots/gdl/gdl_player.h) made fresh for each match.
//
//   (INFO)   -> "((name NAME) (status available))", or status busy while a match runs, as
//               ggp-base's players answer (at once, even while the player thinks)
//   (PREVIEW RULES CLOCK) -> "done" once the rules are read (a sheet they cannot be read from
//               gets status 400 with the reason)
//   (START)  -> "ready" once the rules are read, a reasoner built and the player started,
//               within the start clock less a margin; "busy" while another match runs (a match
//               with no message for a long time is taken as abandoned and replaced)
//   (PLAY)   -> the player's move in KIF, within the play clock less a margin, after the
//               previous turn's joint move is applied (NIL on the first turn)
//   (STOP) -> "done", (ABORT) -> "aborted"; the match ends (an id of no current match gets the
//               same answer: there is nothing to end)
// Malformed messages, unknown ids in PLAY and illegal moves in a PLAY get status 400 with the
// reason as the body; nothing a manager sends can crash the service.
//
// Thread-safe: handle() may be called from several threads; messages other than INFO are
// handled one at a time.

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "bots/ggp/ggp_game.h"
#include "bots/ggp/kif_message.h"
#include "bots/ggp/reply.h"
#include "bots/gdl/gdl_player.h"
#include "games/core/expected.h"

namespace arena::ggp {

using PlayerFactory = std::function<Expected<std::unique_ptr<gdl::GdlPlayer>>()>;

struct PlayerServiceOptions {
  // Time kept back from each clock for the network and the reply; 0: a fifth of the clock,
  // between 100 ms and 2 s.
  std::chrono::milliseconds margin{0};
  // A match with no message for this long (and at least 4 play clocks) may be replaced by a
  // new START.
  std::chrono::seconds abandon_after{120};
  LogFn log;  // one line per event; may be empty
  std::string name = "arena";  // the player's name in the INFO reply (made one KIF atom)
};

class PlayerService {
 public:
  explicit PlayerService(PlayerFactory factory, PlayerServiceOptions options = {});
  ~PlayerService();

  // `received`: when the request was read (the clocks count from there).
  Reply handle(std::string_view body, Clock::time_point received);
  bool in_match() const { return in_match_.load(); }

 private:
  struct Match;
  Reply start(const StartMessage& m, Clock::time_point received);
  Reply play(const PlayMessage& m, Clock::time_point received);
  Reply stop(const std::string& id, const std::optional<std::vector<SExpr>>* moves);
  Reply preview(const PreviewMessage& m, Clock::time_point received);
  Reply info() const;
  Clock::time_point deadline(Clock::time_point received, int clock_seconds) const;
  void log(const std::string& line) const;

  PlayerFactory factory_;
  PlayerServiceOptions options_;
  std::timed_mutex mutex_;
  std::unique_ptr<Match> match_;  // guarded by mutex_
  std::atomic<bool> in_match_{false};
};

}  // namespace arena::ggp
