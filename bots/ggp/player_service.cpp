#include "bots/ggp/player_service.h"

#include <algorithm>
#include <exception>

namespace arena::ggp {

struct PlayerService::Match {
  std::string id;
  std::unique_ptr<GgpGame> game;
  std::unique_ptr<gdl::GdlPlayer> player;
  int role = 0;
  int startclock = 0, playclock = 1;
  Clock::time_point last_message;
};

namespace {

Reply bad(std::string reason) {
  return Reply{400, std::move(reason)};
}

// How long to wait for the lock before answering "busy": the work in progress ends by its own
// deadline, so this is only reached when messages pile up.
constexpr auto kLockWait = std::chrono::seconds(30);

}  // namespace

PlayerService::PlayerService(PlayerFactory factory, PlayerServiceOptions options)
    : factory_(std::move(factory)), options_(std::move(options)) {}

PlayerService::~PlayerService() = default;

void PlayerService::log(const std::string& line) const {
  if (options_.log) options_.log(line);
}

Clock::time_point PlayerService::deadline(Clock::time_point received, int clock_seconds) const {
  using std::chrono::milliseconds;
  const milliseconds clock = std::chrono::seconds(clock_seconds);
  milliseconds margin = options_.margin;
  if (margin.count() <= 0) margin = std::clamp(clock / 5, milliseconds(100), milliseconds(2000));
  margin = std::min(margin, clock);
  return received + (clock - margin);
}

Reply PlayerService::handle(std::string_view body, Clock::time_point received) {
  try {
    auto message = parse_message(body);
    if (!message) return bad(message.error());
    if (std::holds_alternative<InfoMessage>(*message)) return info();
    std::unique_lock lock(mutex_, std::defer_lock);
    if (!lock.try_lock_for(kLockWait)) return Reply{503, "busy: another message is being handled"};
    if (const auto* s = std::get_if<StartMessage>(&*message)) return start(*s, received);
    if (const auto* p = std::get_if<PlayMessage>(&*message)) return play(*p, received);
    if (const auto* s = std::get_if<StopMessage>(&*message)) return stop(s->id, &s->moves);
    if (const auto* p = std::get_if<PreviewMessage>(&*message)) return preview(*p, received);
    return stop(std::get<AbortMessage>(*message).id, nullptr);
  } catch (const std::exception& e) {
    log(std::string("internal error: ") + e.what());
    return Reply{500, std::string("internal error: ") + e.what()};
  }
}

Reply PlayerService::info() const {
  // One atom: the characters KIF gives a meaning to become '_'.
  std::string name = options_.name.empty() ? "arena" : options_.name;
  for (char& c : name)
    if (c == '(' || c == ')' || c == ';' || c == '"' || static_cast<unsigned char>(c) <= 0x20)
      c = '_';
  return Reply{200, "((name " + name + ") (status " + (in_match_ ? "busy" : "available") + "))"};
}

Reply PlayerService::preview(const PreviewMessage& m, Clock::time_point received) {
  // Nothing is kept: a START brings the rules again. Reading them answers whether they can be.
  const auto budget = std::chrono::duration_cast<std::chrono::milliseconds>(
      (deadline(received, m.previewclock) - Clock::now()) / 2);
  auto game = GgpGame::create(m.rules, "preview", std::max(budget, std::chrono::milliseconds(1)));
  if (!game) return bad("PREVIEW: the rules: " + game.error());
  log("preview: the rules read, " + std::to_string((*game)->role_names().size()) + " roles");
  return Reply{200, "done"};
}

Reply PlayerService::start(const StartMessage& m, Clock::time_point received) {
  if (match_ && match_->id == m.id) return Reply{200, "ready"};  // a repeated START
  if (match_) {
    const auto idle = received - match_->last_message;
    const auto abandon =
        std::max<Clock::duration>(options_.abandon_after, std::chrono::seconds(4 * match_->playclock));
    if (idle < abandon) return Reply{200, "busy"};
    log("match " + match_->id + " abandoned (no message for a long time); starting " + m.id);
    match_.reset();
    in_match_ = false;
  }
  const auto ready_by = deadline(received, m.startclock);
  const auto budget = std::chrono::duration_cast<std::chrono::milliseconds>(
      (ready_by - Clock::now()) / 2);
  auto game = GgpGame::create(m.rules, "match " + m.id, budget);
  if (!game) return bad("START: the rules: " + game.error());
  const int role = (*game)->role_index(m.role);
  if (role < 0) return bad("START: no role '" + m.role + "' in the rules");
  auto player = factory_();
  if (!player) return Reply{500, "START: no player: " + player.error()};
  auto match = std::make_unique<Match>();
  match->id = m.id;
  match->game = std::move(*game);
  match->player = std::move(*player);
  match->role = role;
  match->startclock = m.startclock;
  match->playclock = m.playclock;
  match->player->start(match->game->machine(), role, ready_by);
  match->last_message = Clock::now();
  log("match " + m.id + ": " + std::string(match->player->name()) + " plays " + m.role +
      " with the " + std::string(match->game->machine().kind()) + " reasoner" +
      (match->game->fallback_reason().empty() ? "" : " (" + match->game->fallback_reason() + ")"));
  if (auto why = match->player->fallback(); !why.empty()) log("match " + m.id + ": " + why);
  match_ = std::move(match);
  in_match_ = true;
  return Reply{200, "ready"};
}

Reply PlayerService::play(const PlayMessage& m, Clock::time_point received) {
  if (!match_ || match_->id != m.id)
    return bad("PLAY: no match '" + m.id + "' here (" +
               (match_ ? "the current one is '" + match_->id + "'" : std::string("none")) + ")");
  Match& match = *match_;
  match.last_message = received;
  GgpGame& game = *match.game;
  if (m.moves) {
    if (auto played = game.play(*m.moves); !played)
      return bad("PLAY " + m.id + ": " + played.error());
  } else if (game.steps() != 0) {
    return bad("PLAY " + m.id + ": NIL moves after the first turn");
  }
  if (game.is_terminal()) return bad("PLAY " + m.id + ": the game is over");
  const auto legal = game.machine().legal_moves(game.state(), match.role);
  if (legal.empty()) return bad("PLAY " + m.id + ": no legal move (a bug of the rules)");
  gdl::Move move = legal.front();
  if (legal.size() > 1) {
    move = match.player->choose(game.state(), deadline(received, match.playclock));
    if (!std::binary_search(legal.begin(), legal.end(), move)) {
      log("match " + m.id + ": the player chose an illegal move; playing the first legal one");
      move = legal.front();
    }
  }
  return Reply{200, game.move_text(move)};
}

Reply PlayerService::stop(const std::string& id, const std::optional<std::vector<SExpr>>* moves) {
  const Reply answer{200, moves ? "done" : "aborted"};  // ggp-base: STOP done, ABORT aborted
  if (!match_ || match_->id != id) return answer;
  std::string summary;
  if (moves && *moves) {
    GgpGame& game = *match_->game;
    if (game.play(**moves) && game.is_terminal()) {
      auto goal = game.machine().goal(game.state(), match_->role);
      summary = goal ? ", goal " + std::to_string(*goal) : "";
    }
  }
  log("match " + id + (moves ? " stopped" : " aborted") + summary);
  match_.reset();
  in_match_ = false;
  return answer;
}

}  // namespace arena::ggp
