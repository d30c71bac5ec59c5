#include "bots/ggp/ggp_seat.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "bots/ggp/ggp_game.h"
#include "bots/ggp/http_client.h"
#include "bots/ggp/kif_message.h"
#include "games/gdl/library/library.h"

namespace arena::ggp {
namespace {

constexpr int kMaxGapSteps = 12;              // steps between two turns of the seat
constexpr std::size_t kMaxJointMoves = 4096;  // joint moves tried in one state
constexpr std::size_t kMaxSearchNodes = 50000;
constexpr auto kAbortTimeout = std::chrono::seconds(2);

Expected<std::string> read_sheet(std::string_view game) {
  auto sheet = gdl::find_gdl_sheet(game.substr(4));
  if (!sheet) return make_error(sheet.error());
  std::ifstream in(sheet->path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) return make_error("cannot read " + sheet->path);
  if (text.str().size() > kMaxMessageBytes)
    return make_error(sheet->path + " is too large to send in a START");
  return text.str();
}

std::string canonical(const std::string& move_text) {
  auto e = parse_sexpr(move_text);
  if (!e) return "";
  return gdl::lower(to_text(*e));
}

class GgpSeat final : public client::Player {
 public:
  GgpSeat(std::string url, GgpSeatOptions options)
      : url_(std::move(url)), options_(std::move(options)), rng_(std::random_device{}()) {}
  ~GgpSeat() override { end_match(); }

  void new_game() override { end_match(); }

  Expected<client::TurnReply> choose_move(const client::TurnRequest& request) override;

 private:
  void log(const std::string& line) const {
    if (options_.log) options_.log(line);
  }
  void end_match();
  // Reads the sheet, finds the seat's role from the listed moves, sends START.
  Expected<void> begin_match(const client::TurnRequest& request);
  // The joint moves from game_'s state to `target`, shortest first; nullopt when none is found
  // within the bounds.
  std::optional<std::vector<gdl::JointMove>> find_path(const gdl::State& target);
  bool search(const gdl::State& from, const gdl::State& target, int depth,
              std::vector<gdl::JointMove>& path, std::size_t& nodes);
  Expected<Reply> play(std::chrono::milliseconds timeout);
  // `timeout` cut to what is left of the turn's budget (turn_end_), at least 1 ms.
  std::chrono::milliseconds within_turn(std::chrono::milliseconds timeout) const;
  client::TurnReply random_move(const client::TurnRequest& request, const std::string& why);

  std::string url_;
  GgpSeatOptions options_;
  std::mt19937_64 rng_;
  std::unique_ptr<GgpGame> game_;
  std::string game_name_, match_id_;
  int role_ = -1, playclock_ = 5;
  bool lost_ = false;      // positions stopped following from the moves: random from now on
  bool asked_here_ = false;  // a PLAY was answered for game_'s state
  std::vector<std::string> pending_;  // the last joint move, not yet sent (empty: NIL)
  gdl::Move my_move_ = 0;
  std::string last_reply_;
  int matches_ = 0;
  // The bot client's budget for this turn ends here (less a margin for the reply); every wait
  // of the turn (START, the PLAYs of steps without a choice, the answer) ends by then, so that
  // a slow GGP player costs a random move, not the game on time.
  std::chrono::steady_clock::time_point turn_end_ = std::chrono::steady_clock::time_point::max();
};

void GgpSeat::end_match() {
  if (game_ && !lost_) (void)post_message(url_, abort_text(match_id_), kAbortTimeout);
  game_.reset();
  role_ = -1;
  lost_ = asked_here_ = false;
  pending_.clear();
  last_reply_.clear();
}

Expected<void> GgpSeat::begin_match(const client::TurnRequest& request) {
  auto rules = read_sheet(request.game);
  if (!rules) return make_error(rules.error());
  auto game = GgpGame::create(*rules, request.game, std::chrono::seconds(25));
  if (!game) return make_error(game.error());
  auto now = (*game)->parse_state(request.position);
  if (!now) return make_error(now.error());
  // The role whose legal moves in the current state are the ones listed.
  std::vector<std::string> wanted;
  for (const auto& m : request.legal_moves) wanted.push_back(canonical(m));
  std::sort(wanted.begin(), wanted.end());
  std::vector<int> matching;
  const int roles = static_cast<int>((*game)->machine().roles().size());
  for (int r = 0; r < roles; ++r) {
    std::vector<std::string> mine;
    for (gdl::Move m : (*game)->machine().legal_moves(*now, r))
      mine.push_back((*game)->move_text(m));
    std::sort(mine.begin(), mine.end());
    if (mine == wanted) matching.push_back(r);
  }
  // The request's seat when it names one with these moves (roles are seats, in order);
  // otherwise the one role that has them.
  const bool seat_matches =
      std::find(matching.begin(), matching.end(), request.seat) != matching.end();
  if (!seat_matches && matching.size() != 1) {
    return make_error(matching.empty() ? "no role of " + request.game + " has the listed moves"
                                       : "several roles of " + request.game +
                                             " have the listed moves; the seat's role is unknown");
  }
  game_ = std::move(*game);
  game_name_ = request.game;
  role_ = seat_matches ? request.seat : matching.front();
  playclock_ = options_.playclock > 0 ? options_.playclock
               : request.budget_ms > 0
                   ? static_cast<int>(std::max<std::int64_t>(
                         1, (request.budget_ms - options_.grace.count()) / 1000))
                   : 5;
  const int startclock = options_.startclock > 0 ? options_.startclock : playclock_;
  match_id_ = "arena.seat." + std::to_string(++matches_) + "." + std::to_string(rng_() % 1000000);
  const auto names = game_->role_names();
  auto ready = post_message(url_, start_text(match_id_, names[role_], *rules, startclock, playclock_),
                            within_turn(std::chrono::seconds(startclock) + options_.grace));
  if (!ready || ready->status != 200 || ready->body.find("ready") == std::string::npos)
    log("START to " + url_ + ": " + (ready ? "HTTP " + std::to_string(ready->status) + " " +
                                                 ready->body.substr(0, 200)
                                           : ready.error()));
  return {};
}

bool GgpSeat::search(const gdl::State& from, const gdl::State& target, int depth,
                     std::vector<gdl::JointMove>& path, std::size_t& nodes) {
  if (from == target) return true;
  if (depth == 0 || nodes >= kMaxSearchNodes) return false;
  gdl::StateMachine& machine = game_->machine();
  if (machine.is_terminal(from)) return false;
  const int roles = static_cast<int>(machine.roles().size());
  std::vector<std::vector<gdl::Move>> legal;
  std::size_t product = 1;
  for (int r = 0; r < roles; ++r) {
    legal.push_back(machine.legal_moves(from, r));
    if (legal.back().empty()) return false;
    product *= legal.back().size();
    if (product > kMaxJointMoves) return false;
  }
  // This seat's own move first, on the first step (where it was played).
  if (path.empty()) {
    auto& mine = legal[role_];
    auto it = std::find(mine.begin(), mine.end(), my_move_);
    if (it != mine.end()) std::rotate(mine.begin(), it, it + 1);
  }
  gdl::JointMove joint(roles);
  for (std::size_t k = 0; k < product; ++k) {
    std::size_t rest = k;
    for (int r = roles - 1; r >= 0; --r) {
      joint[r] = legal[r][rest % legal[r].size()];
      rest /= legal[r].size();
    }
    if (++nodes > kMaxSearchNodes) return false;
    path.push_back(joint);
    if (search(machine.next_state(from, joint), target, depth - 1, path, nodes)) return true;
    path.pop_back();
  }
  return false;
}

std::optional<std::vector<gdl::JointMove>> GgpSeat::find_path(const gdl::State& target) {
  std::size_t nodes = 0;
  for (int depth = 0; depth <= kMaxGapSteps && nodes < kMaxSearchNodes; ++depth) {
    std::vector<gdl::JointMove> path;
    if (search(game_->state(), target, depth, path, nodes)) return path;
  }
  return std::nullopt;
}

Expected<Reply> GgpSeat::play(std::chrono::milliseconds timeout) {
  return post_message(url_, play_text(match_id_, pending_), within_turn(timeout));
}

std::chrono::milliseconds GgpSeat::within_turn(std::chrono::milliseconds timeout) const {
  const auto now = std::chrono::steady_clock::now();
  if (turn_end_ == std::chrono::steady_clock::time_point::max()) return timeout;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(turn_end_ - now);
  return std::max(std::chrono::milliseconds(1), std::min(timeout, left));
}

client::TurnReply GgpSeat::random_move(const client::TurnRequest& request, const std::string& why) {
  client::TurnReply reply;
  reply.move = request.legal_moves[rng_() % request.legal_moves.size()];
  reply.info.pv = {"substituted: " + why};
  log("GGP seat " + url_ + ": " + why + "; random move " + reply.move + " played");
  return reply;
}

Expected<client::TurnReply> GgpSeat::choose_move(const client::TurnRequest& request) {
  if (!request.game.starts_with("gdl:"))
    return make_error("a GGP player plays gdl:NAME games, not '" + request.game + "'");
  if (request.legal_moves.empty()) return make_error("no legal move listed");
  const auto turn_begin = std::chrono::steady_clock::now();
  turn_end_ = std::chrono::steady_clock::time_point::max();
  if (request.budget_ms > 0) {
    const std::int64_t margin = std::min<std::int64_t>(100, request.budget_ms / 10);
    turn_end_ = turn_begin + std::chrono::milliseconds(request.budget_ms - margin);
  }
  if (game_ && game_name_ != request.game) end_match();
  if (lost_) return random_move(request, "the seat lost track of the game");
  if (!game_)
    if (auto begun = begin_match(request); !begun) return make_error(begun.error());
  auto now = game_->parse_state(request.position);
  if (!now) return make_error(now.error());
  const auto timeout = std::chrono::seconds(playclock_) + options_.grace;
  auto path = find_path(*now);
  if (!path) {
    lost_ = true;
    (void)post_message(url_, abort_text(match_id_), kAbortTimeout);
    return random_move(request, "no joint move leads from the last state to this position");
  }
  if (path->empty() && asked_here_) {
    client::TurnReply again;  // asked again in the same state
    again.move = last_reply_;
    return again;
  }
  for (const gdl::JointMove& joint : *path) {
    if (!asked_here_) (void)play(timeout);  // a step where the seat had no choice
    game_->play(joint);
    pending_.clear();
    for (gdl::Move m : joint) pending_.push_back(game_->move_text(m));
    asked_here_ = false;
  }
  const auto begin = std::chrono::steady_clock::now();
  if (begin >= turn_end_) {
    asked_here_ = false;  // not asked: the next turn sends this state's PLAY first
    return random_move(request, "no time left of the turn's " +
                                    std::to_string(request.budget_ms) + " ms for the PLAY");
  }
  auto answer = play(timeout);
  asked_here_ = true;
  client::TurnReply reply;
  std::string why;
  if (!answer)
    why = answer.error();
  else if (answer->status != 200)
    why = "HTTP " + std::to_string(answer->status) + " " + answer->body.substr(0, 200);
  else if (reply.move = canonical(answer->body);
           std::find(request.legal_moves.begin(), request.legal_moves.end(), reply.move) ==
           request.legal_moves.end())
    why = "the answer '" + answer->body.substr(0, 200) + "' is not a legal move";
  if (!why.empty()) reply = random_move(request, why);
  reply.info.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now() - begin)
                           .count();
  last_reply_ = reply.move;
  my_move_ = 0;  // the seat's move, tried first by the next search
  for (gdl::Move m : game_->machine().legal_moves(game_->state(), role_))
    if (game_->move_text(m) == reply.move) my_move_ = m;
  return reply;
}

}  // namespace

client::PlayerFactory ggp_seat_factory(std::string url, GgpSeatOptions options) {
  return [url = std::move(url), options = std::move(options)](
             std::string_view game) -> Expected<std::unique_ptr<client::Player>> {
    if (!game.starts_with("gdl:") && game != "gdl")
      return make_error("a GGP player plays gdl:NAME games, not '" + std::string(game) + "'");
    if (auto parsed = parse_player_url(url); !parsed) return make_error(parsed.error());
    return std::unique_ptr<client::Player>(std::make_unique<GgpSeat>(url, options));
  };
}

}  // namespace arena::ggp
