#include "bots/eval/tictactoe.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>

namespace arena::eval {
namespace {

using tictactoe::TicTacToe;

// Lines holding exactly `own` of p's marks (or at least 1 when own is 0) and exactly `theirs`
// of the opponent's.
int count_lines(const TicTacToe& g, Player p, int own, int theirs) {
  const std::uint16_t mine = g.marks(p);
  const std::uint16_t other = g.marks(opponent(p));
  int n = 0;
  for (auto line : TicTacToe::kLines) {
    const int m = std::popcount(static_cast<unsigned>(mine & line));
    const int t = std::popcount(static_cast<unsigned>(other & line));
    if ((own == 0 ? m >= 1 : m == own) && t == theirs) ++n;
  }
  return n;
}

// A finished game from the side to move's point of view, or nothing if it goes on.
std::optional<int> terminal_value(const TicTacToe& g) {
  const Outcome o = g.outcome();
  if (!o.is_terminal()) return std::nullopt;
  if (o.result == Result::kDraw) return 0;
  const bool first_won = o.result == Result::kFirstWins;
  return first_won == (g.side_to_move() == Player::kFirst) ? kScoreWin : -kScoreWin;
}

template <class F>
Heuristic<TicTacToe> mover_based(F value_for_mover) {
  return [value_for_mover](const TicTacToe& g) {
    if (auto t = terminal_value(g)) return *t;
    return -value_for_mover(g, opponent(g.side_to_move()));
  };
}

Expected<Heuristic<TicTacToe>> make_combined(const GameOptions& params) {
  double w_available = 1, w_block = 2;
  for (const auto& [key, text] : params) {
    auto v = parse_param_number(key, text);
    if (!v) return make_error(v.error());
    if (key == "w_available") {
      w_available = *v;
    } else if (key == "w_block") {
      w_block = *v;
    } else {
      return make_error("unknown parameter '" + key + "' (combined knows w_available, w_block)");
    }
  }
  return mover_based([w_available, w_block](const TicTacToe& g, Player p) {
    return static_cast<int>(
        std::lround(w_available * available_wins(g, p) + w_block * block_win(g, p)));
  });
}

Expected<Heuristic<TicTacToe>> make_fuzzy(const GameOptions& params) {
  FuzzyParams f;
  for (const auto& [key, text] : params) {
    auto v = parse_param_number(key, text);
    if (!v) return make_error(v.error());
    if (key == "tau" && *v > 0.5 && *v <= 1) {
      f.tau = *v;
    } else if (key == "theta" && *v >= 0 && *v <= 1) {
      f.theta = *v;
    } else if (key == "q" && *v >= 0) {
      f.q = *v;
    } else if (key == "tau" || key == "theta" || key == "q") {
      return make_error("parameter " + key + "=" + text +
                        " is out of range (tau in (0.5, 1], theta in [0, 1], q >= 0)");
    } else {
      return make_error("unknown parameter '" + key + "' (fuzzy_goal knows tau, theta, q)");
    }
  }
  return Heuristic<TicTacToe>([f](const TicTacToe& g) {
    if (auto t = terminal_value(g)) return *t;
    const Player me = g.side_to_move();
    const double diff = fuzzy_goal_value(g, me, f) - fuzzy_goal_value(g, opponent(me), f);
    return static_cast<int>(std::lround(diff * 1000));
  });
}

}  // namespace

int available_wins(const TicTacToe& g, Player p) {
  return count_lines(g, p, 0, 0);
}

int block_win(const TicTacToe& g, Player p) {
  return count_lines(g, p, 1, 2);
}

double fuzzy_line(const TicTacToe& g, Player p, const FuzzyParams& f) {
  const std::uint16_t mine = g.marks(p);
  double any = 0.0;  // OR's identity
  for (auto line : TicTacToe::kLines) {
    double all = 1.0;  // AND's identity
    for (int c = 0; c < TicTacToe::kCells; ++c)
      if ((line >> c) & 1u) all = fuzzy_and(all, ((mine >> c) & 1u) ? f.tau : 1 - f.tau, f);
    any = fuzzy_or(any, all, f);
  }
  return any;
}

double fuzzy_goal_win(const TicTacToe& g, Player p, const FuzzyParams& f) {
  return fuzzy_and(fuzzy_line(g, p, f), 1.0 - fuzzy_line(g, opponent(p), f), f);
}

double fuzzy_goal_draw(const TicTacToe& g, Player p, const FuzzyParams& f) {
  return fuzzy_and(1.0 - fuzzy_line(g, p, f), 1.0 - fuzzy_line(g, opponent(p), f), f);
}

double fuzzy_goal_value(const TicTacToe& g, Player p, const FuzzyParams& f) {
  const double g100 = fuzzy_goal_win(g, p, f);
  const double g50 = fuzzy_goal_draw(g, p, f);
  return 100.0 * (g100 + 0.5 * g50 - 0.5 * g100 * g50);
}

std::vector<HeuristicInfo> heuristics_for(std::type_identity<TicTacToe>) {
  return {
      {"available_wins", "lines the last mover can still complete (tutorial)"},
      {"bad_heuristic", "always 1: a baseline that knows nothing"},
      {"block_win", "opponent's two-mark lines the last mover has blocked"},
      {"combined", "w_available * available_wins + w_block * block_win (1, 2)"},
      {"fuzzy_goal", "fuzzy-logic goal value, own minus opponent's, x1000 (tau, theta, q)"},
  };
}

Expected<Heuristic<TicTacToe>> make_heuristic(std::type_identity<TicTacToe>, std::string_view name,
                                              const GameOptions& params) {
  if (name == "combined") return make_combined(params);
  if (name == "fuzzy_goal") return make_fuzzy(params);
  if (auto none = expect_no_params(name, params); !none) return make_error(none.error());
  if (name == "bad_heuristic") return Heuristic<TicTacToe>([](const TicTacToe&) { return 1; });
  if (name == "available_wins")
    return mover_based([](const TicTacToe& g, Player p) { return available_wins(g, p); });
  if (name == "block_win")
    return mover_based([](const TicTacToe& g, Player p) { return block_win(g, p); });
  return make_error("unknown tic-tac-toe heuristic '" + std::string(name) + "'");
}

}  // namespace arena::eval
