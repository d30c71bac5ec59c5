#include "bots/client/gdl_client_player.h"

#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "bots/gdl/gdl_player.h"
#include "games/gdl/game/gdl_game.h"
#include "games/gdl/library/library.h"

namespace arena::client {
namespace {

using SteadyClock = std::chrono::steady_clock;

// How many steps below the bot's priority a sheet compiles: the compile is for later moves,
// and must not take the CPU from the server or from the move at hand (a house bot runs in the
// server's process).
constexpr int kCompileNice = 10;

// Lowers the calling thread's priority by `steps` (Linux keeps one per thread); a failure only
// costs that preference.
void lower_thread_priority(int steps) {
  errno = 0;
  const int now = getpriority(PRIO_PROCESS, 0);  // 0: the calling thread, on Linux
  if (now != -1 || errno == 0) (void)setpriority(PRIO_PROCESS, 0, std::min(19, now + steps));
}

// Splits "movetime=N" off a GDL player spec: the client's cap, not the player's key.
Expected<std::pair<std::string, std::int64_t>> split_movetime(std::string_view spec) {
  const auto colon = spec.find(':');
  std::string out(spec.substr(0, colon));
  std::int64_t cap = 0;
  std::string_view rest = colon == std::string_view::npos ? "" : spec.substr(colon + 1);
  std::string kept;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view part = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (part.starts_with("movetime=")) {
      const std::string v(part.substr(9));
      if (v.empty() || v.size() > 9 || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return make_error("GDL player spec '" + std::string(spec) + "': movetime=" + v +
                          " is not a number of milliseconds");
      cap = std::stoll(v);
    } else if (!part.empty()) {
      kept += (kept.empty() ? "" : ",") + std::string(part);
    }
  }
  if (!kept.empty()) out += ":" + kept;
  return std::pair{out, cap};
}

class GdlClientPlayer final : public Player {
 public:
  GdlClientPlayer(std::unique_ptr<gdl::GdlPlayer> player, std::int64_t cap_ms)
      : player_(std::move(player)), cap_ms_(cap_ms) {}

  void new_game() override { started_ = false; }

  Expected<TurnReply> choose_move(const TurnRequest& request) override {
    const auto begin = SteadyClock::now();
    std::int64_t ms = request.budget_ms;
    if (cap_ms_ > 0) ms = ms > 0 ? std::min(ms, cap_ms_) : cap_ms_;
    if (ms <= 0) ms = kDefaultGdlMoveMs;
    if (auto loaded = load(request.game, begin + std::chrono::milliseconds(ms / 4)); !loaded)
      return make_error(loaded.error());
    auto game = gdl::GdlGame::load(context_, request.position);
    if (!game) return make_error("cannot read the " + request.game + " position: " + game.error());
    auto role = my_role(**game, request.seat, request.legal_moves);
    if (!role) return make_error(role.error());
    // A margin for sending the move: a tenth, at most 50 ms.
    const auto deadline = begin + std::chrono::milliseconds(ms - std::min<std::int64_t>(50, ms / 10));
    std::lock_guard lock(context_->mutex());
    gdl::StateMachine& machine = context_->machine();
    if (!started_ || *role != role_) {
      // The server has no start clock: a heuristic is built at the first move, once per sheet.
      player_->start(machine, *role, gdl::kNoStartClock);
      gdl::report_fallback(*player_, "arena bot: " + request.game);
      started_ = true;
      role_ = *role;
    }
    const gdl::Move move = player_->choose((*game)->state(), deadline);
    TurnReply reply;
    reply.move = machine.pool().to_kif(move, machine.description().symbols);
    if (std::find(request.legal_moves.begin(), request.legal_moves.end(), reply.move) ==
        request.legal_moves.end())
      return make_error(std::string(player_->name()) + " chose '" + reply.move +
                        "', which the server did not list");
    const gdl::GdlMoveInfo info = player_->last_info();
    reply.info.nodes = static_cast<std::int64_t>(info.iterations);
    reply.info.score = info.value;
    reply.info.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             SteadyClock::now() - begin)
                             .count();
    return reply;
  }

 private:
  // Makes context_ the reasoner of sheet `name`. A sheet new to this Player is compiled on a
  // thread of its own at a lower priority (over 20 s for the largest sheets); a compile not
  // done by `wait_until` leaves context_ on the sheet's prover (made at once) until a later
  // move finds it done, so that no move waits for a compile. Errors: the sheet does not load.
  Expected<void> load(const std::string& name, SteadyClock::time_point wait_until) {
    if (!context_ || loaded_for_ != name) {
      // A compile of another sheet still running is waited for here (a Player is made for one
      // kind: rare).
      context_.reset();
      compiling_ = std::async(std::launch::async, [name] {
        lower_thread_priority(kCompileNice);  // a thread of its own (launch::async)
        return gdl::make_gdl_context(name);
      });
      if (compiling_.wait_until(wait_until) != std::future_status::ready) {
        auto prover = gdl::make_gdl_context(name, gdl::Reasoner::kProver);
        if (!prover) return make_error(prover.error());
        context_ = *prover;
      }
      loaded_for_ = name;
      started_ = false;
    }
    if (compiling_.valid() && compiling_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      auto compiled = compiling_.get();
      if (compiled) {
        context_ = *compiled;
        started_ = false;  // a new machine: the player starts again on it
      } else if (!context_) {
        return make_error(compiled.error());
      }
    }
    return {};
  }

  static Expected<int> my_role(const gdl::GdlGame& game, int asked,
                               const std::vector<std::string>& legal) {
    const std::vector<int> movers = game.movers();
    if (movers.size() == 1) return movers.front();
    if (std::find(movers.begin(), movers.end(), asked) != movers.end()) return asked;
    std::vector<std::string> wanted = legal;
    std::sort(wanted.begin(), wanted.end());
    for (int seat : movers) {
      auto mine = game.legal_moves_of(seat);
      std::sort(mine.begin(), mine.end());
      if (mine == wanted) return seat;
    }
    return make_error("no role of " + std::string(game.name()) +
                      " has the legal moves the server listed in this position");
  }

  std::unique_ptr<gdl::GdlPlayer> player_;
  std::int64_t cap_ms_;
  std::shared_ptr<gdl::GdlContext> context_;
  std::future<Expected<std::shared_ptr<gdl::GdlContext>>> compiling_;  // see load()
  std::string loaded_for_;
  bool started_ = false;
  int role_ = -1;
};

}  // namespace

bool is_gdl_kind(std::string_view game) {
  return game == "gdl" || game.starts_with("gdl:");
}

Expected<std::unique_ptr<Player>> make_gdl_client_player(std::string_view spec) {
  auto split = split_movetime(spec);
  if (!split) return make_error(split.error());
  auto player = gdl::make_gdl_player(split->first);
  if (!player) return make_error(player.error());
  return std::unique_ptr<Player>(
      std::make_unique<GdlClientPlayer>(std::move(*player), split->second));
}

}  // namespace arena::client
