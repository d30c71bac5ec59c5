#include "bots/ggp/game_manager.h"

#include <cstdio>
#include <optional>
#include <thread>

#include "bots/ggp/ggp_game.h"
#include "bots/ggp/http_client.h"
#include "bots/ggp/kif_message.h"
#include "games/core/rng.h"

namespace arena::ggp {

namespace {

struct Answer {
  Expected<Reply> reply = make_error("not sent");
  double seconds = 0;
};

// Sends bodies[k] to urls[k], all at once, each bounded by `timeout`.
std::vector<Answer> broadcast(const std::vector<std::string>& urls,
                              const std::vector<std::string>& bodies,
                              std::chrono::milliseconds timeout) {
  std::vector<Answer> answers(urls.size());
  std::vector<std::thread> threads;
  threads.reserve(urls.size());
  for (std::size_t k = 0; k < urls.size(); ++k) {
    threads.emplace_back([&, k] {
      const auto begin = Clock::now();
      answers[k].reply = post_message(urls[k], bodies[k], timeout);
      answers[k].seconds = std::chrono::duration<double>(Clock::now() - begin).count();
    });
  }
  for (auto& t : threads) t.join();
  return answers;
}

std::int64_t epoch_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

class Manager {
 public:
  Manager(const MatchConfig& config, std::unique_ptr<GgpGame> game)
      : config_(config), game_(std::move(game)), rng_(config.seed ^ 0x9e3779b97f4a7c15ULL) {}

  MatchResult run();

 private:
  void event(std::string line) {
    if (config_.log) config_.log(line);
    result_.events.push_back(std::move(line));
  }
  void start();
  // The players' moves of this turn, each checked; a random legal move replaces a bad one.
  // nullopt when a role has no legal move (a bug of the rules): the match ends there.
  std::optional<gdl::JointMove> collect(const std::vector<std::string>& previous);
  void finish(const std::vector<std::string>& last);

  const MatchConfig& config_;
  std::unique_ptr<GgpGame> game_;
  Rng rng_;
  MatchResult result_;
};

void Manager::start() {
  std::vector<std::string> bodies;
  for (const auto& role : result_.roles)
    bodies.push_back(start_text(result_.match_id, role, config_.rules, config_.startclock,
                                config_.playclock));
  const auto timeout = std::chrono::seconds(config_.startclock) + config_.grace;
  const auto answers = broadcast(config_.players, bodies, timeout);
  for (std::size_t r = 0; r < answers.size(); ++r) {
    const auto& a = answers[r];
    const std::string who = result_.roles[r] + " (" + config_.players[r] + ")";
    if (!a.reply)
      event("start, " + who + ": " + a.reply.error());
    else if (a.reply->status != 200 || trim(a.reply->body) != "ready")
      event("start, " + who + ": replied HTTP " + std::to_string(a.reply->status) + " '" +
            trim(a.reply->body).substr(0, 200) + "' instead of ready");
  }
}

std::optional<gdl::JointMove> Manager::collect(const std::vector<std::string>& previous) {
  const int step = game_->steps();
  std::vector<std::string> bodies(result_.roles.size(), play_text(result_.match_id, previous));
  const auto timeout = std::chrono::seconds(config_.playclock) + config_.grace;
  const auto answers = broadcast(config_.players, bodies, timeout);
  gdl::JointMove joint;
  result_.seconds.emplace_back();
  result_.errors.emplace_back();
  for (std::size_t r = 0; r < answers.size(); ++r) {
    const auto& a = answers[r];
    result_.seconds.back().push_back(a.seconds);
    result_.errors.back().emplace_back();
    const int role = static_cast<int>(r);
    std::string why;
    Expected<gdl::Move> move = make_error("");
    if (!a.reply) {
      why = a.reply.error();
    } else if (a.reply->status != 200) {
      why = "HTTP " + std::to_string(a.reply->status) + " " + trim(a.reply->body).substr(0, 200);
    } else if (auto term = parse_sexpr(a.reply->body); !term) {
      why = "the reply '" + trim(a.reply->body).substr(0, 200) + "' is not a move: " + term.error();
    } else if (move = game_->legal_move(*term, role); !move) {
      why = move.error();
    }
    if (why.empty()) {
      joint.push_back(*move);
      continue;
    }
    const auto legal = game_->machine().legal_moves(game_->state(), role);
    if (legal.empty()) {
      event("step " + std::to_string(step + 1) + ", " + result_.roles[r] +
            ": no legal move in a state that is not terminal (a bug of the rules); match ended");
      return std::nullopt;
    }
    result_.errors.back().back() = why;
    const gdl::Move replacement = legal[rng_.below(legal.size())];
    ++result_.substitutions[r];
    event("step " + std::to_string(step + 1) + ", " + result_.roles[r] + " (" +
          config_.players[r] + ", " + seconds_text(a.seconds) + "): " + why +
          "; random move " + game_->move_text(replacement) + " played");
    joint.push_back(replacement);
  }
  return joint;
}

void Manager::finish(const std::vector<std::string>& last) {
  std::vector<std::string> bodies;
  for (std::size_t r = 0; r < result_.roles.size(); ++r)
    bodies.push_back(result_.terminal ? stop_text(result_.match_id, last)
                                      : abort_text(result_.match_id));
  const auto answers =
      broadcast(config_.players, bodies, std::chrono::seconds(config_.playclock) + config_.grace);
  for (std::size_t r = 0; r < answers.size(); ++r)
    if (!answers[r].reply)
      event("stop, " + result_.roles[r] + ": " + answers[r].reply.error());
  for (std::size_t r = 0; r < result_.roles.size(); ++r) {
    auto goal = game_->machine().goal(game_->state(), static_cast<int>(r));
    result_.goals.push_back(goal ? *goal : -1);
    if (!goal) event("goal of " + result_.roles[r] + ": " + goal.error());
  }
}

MatchResult Manager::run() {
  const auto begin = Clock::now();
  result_.match_id = config_.match_id;
  result_.reasoner = std::string(game_->machine().kind());
  result_.roles = game_->role_names();
  result_.substitutions.assign(result_.roles.size(), 0);
  result_.startclock = config_.startclock;
  result_.playclock = config_.playclock;
  result_.start_ms = epoch_ms();
  start();
  result_.states.push_back(game_->state_text());
  result_.state_ms.push_back(epoch_ms());
  std::vector<std::string> previous;  // empty: NIL
  while (!game_->is_terminal() && game_->steps() < config_.max_steps) {
    const auto joint = collect(previous);
    if (!joint) break;
    previous.clear();
    for (gdl::Move m : *joint) previous.push_back(game_->move_text(m));
    result_.moves.push_back(previous);
    game_->play(*joint);
    result_.states.push_back(game_->state_text());
    result_.state_ms.push_back(epoch_ms());
  }
  result_.seconds.resize(result_.moves.size());  // a turn cut short by a rules bug made no move
  result_.errors.resize(result_.moves.size());
  result_.terminal = game_->is_terminal();
  if (!result_.terminal && game_->steps() >= config_.max_steps)
    event("the match reached " + std::to_string(config_.max_steps) + " steps; aborted");
  finish(previous);
  result_.wall_s = std::chrono::duration<double>(Clock::now() - begin).count();
  return std::move(result_);
}

bool is_atom_text(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c == '(' || c == ')' || c == ';' || static_cast<unsigned char>(c) <= 0x20) return false;
  return true;
}

}  // namespace

Expected<MatchResult> run_ggp_match(const MatchConfig& config) {
  if (config.startclock < 0 || config.startclock > 86400)
    return make_error("the start clock must be 0..86400 seconds");
  if (config.playclock < 1 || config.playclock > 86400)
    return make_error("the play clock must be 1..86400 seconds");
  if (config.max_steps < 1) return make_error("the step limit must be at least 1");
  for (const auto& url : config.players)
    if (auto parsed = parse_player_url(url); !parsed) return make_error(parsed.error());
  auto game = GgpGame::create(config.rules, config.source, std::chrono::seconds(25));
  if (!game) return make_error(game.error());
  const auto roles = (*game)->role_names();
  if (roles.size() != config.players.size())
    return make_error(config.source + " has " + std::to_string(roles.size()) + " roles; " +
                      std::to_string(config.players.size()) + " players were given");
  MatchConfig c = config;
  if (c.match_id.empty()) {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    c.match_id = "arena." + std::to_string(c.seed) + "." +
                 std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
  }
  if (!is_atom_text(c.match_id)) return make_error("the match id must be one KIF atom");
  Manager manager(c, std::move(*game));
  return manager.run();
}

}  // namespace arena::ggp
