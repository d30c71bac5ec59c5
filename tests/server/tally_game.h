#pragma once
// Tally: a small game of 2 to 6 seats with simultaneous turns, for the server's tests of seats
// and simultaneous moves without the GDL reasoner. Each turn every mover says "a" (+1) or "b"
// (+2) to its own total; on odd turns the last seat has only "noop" and is not a mover (as a
// GDL role waiting its turn). After kTurns turns the game ends; a seat's score is ten times
// its total (at most 100). The position is KIF-like facts, "(turn T) (total S N) ... (cell S T
// M)": cell facts record each seat's move per turn, so the state is a board of seats x turns.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "games/core/any_game.h"

namespace arena::server::testing {

class Tally final : public AnyGame {
 public:
  static constexpr int kTurns = 4;
  explicit Tally(int seats = 3, bool simultaneous = true)
      : seats_(seats), simultaneous_(simultaneous), totals_(static_cast<std::size_t>(seats)) {}

  std::string_view name() const override { return "tally"; }
  int num_players() const override { return seats_; }
  int num_seats() const override { return seats_; }
  Player side_to_move() const override { return Player::kFirst; }
  std::vector<std::string> seat_names() const override {
    std::vector<std::string> out;
    for (int s = 0; s < seats_; ++s) out.push_back("p" + std::to_string(s));
    return out;
  }
  bool simultaneous() const override { return simultaneous_; }
  std::vector<int> movers() const override {
    if (over()) return {};
    if (!simultaneous_) return {turn() % seats_};
    std::vector<int> out;
    for (int s = 0; s < seats_; ++s)
      if (s != seats_ - 1 || turn() % 2 == 0) out.push_back(s);
    return out;
  }
  std::vector<std::string> legal_moves_of(int seat) const override {
    auto m = movers();
    if (std::find(m.begin(), m.end(), seat) == m.end()) return {};
    return {"a", "b"};
  }
  std::vector<std::string> legal_moves() const override {
    auto m = movers();
    return m.empty() ? std::vector<std::string>{} : legal_moves_of(m.front());
  }
  Expected<std::string> play(std::string_view move) override {
    return play_turn({std::string(move)});
  }
  Expected<std::string> play_turn(const std::vector<std::string>& moves) override {
    const auto m = movers();
    if (m.empty()) return make_error("the game is over");
    if (moves.size() != m.size())
      return make_error("this turn takes " + std::to_string(m.size()) + " moves");
    for (std::size_t k = 0; k < m.size(); ++k)
      if (moves[k] != "a" && moves[k] != "b")
        return make_error("seat " + std::to_string(m[k]) + ": illegal move '" + moves[k] + "'");
    std::vector<std::string> turn_moves(static_cast<std::size_t>(seats_), "noop");
    for (std::size_t k = 0; k < m.size(); ++k) {
      turn_moves[static_cast<std::size_t>(m[k])] = moves[k];
      totals_[static_cast<std::size_t>(m[k])] += moves[k] == "a" ? 1 : 2;
    }
    turns_.push_back(turn_moves);
    std::string record;
    for (const auto& t : turn_moves) record += (record.empty() ? "" : " ") + t;
    history_.push_back(record);
    return record;
  }
  bool undo() override {
    if (turns_.empty()) return false;
    for (std::size_t s = 0; s < turns_.back().size(); ++s)
      totals_[s] -= turns_.back()[s] == "a" ? 1 : turns_.back()[s] == "b" ? 2 : 0;
    turns_.pop_back();
    history_.pop_back();
    return true;
  }
  Outcome outcome() const override {
    return over() ? Outcome::draw(EndReason::kGoals) : Outcome::ongoing();
  }
  std::vector<int> scores() const override {
    std::vector<int> out;
    for (int t : totals_) out.push_back(std::min(100, 10 * t));
    return out;
  }
  std::uint64_t hash() const override { return history_.size(); }
  std::string serialize() const override {
    std::string out = "(turn " + std::to_string(turn()) + ")";
    for (int s = 0; s < seats_; ++s)
      out += " (total " + std::to_string(s) + " " +
             std::to_string(totals_[static_cast<std::size_t>(s)]) + ")";
    for (std::size_t t = 0; t < turns_.size(); ++t)
      for (std::size_t s = 0; s < turns_[t].size(); ++s)
        out += " (cell " + std::to_string(s) + " " + std::to_string(t) + " " + turns_[t][s] + ")";
    return out;
  }
  const std::vector<std::string>& history() const override { return history_; }
  std::unique_ptr<AnyGame> clone() const override { return std::make_unique<Tally>(*this); }

 private:
  int turn() const { return static_cast<int>(turns_.size()); }
  bool over() const { return turn() >= kTurns; }

  int seats_;
  bool simultaneous_;
  std::vector<int> totals_;
  std::vector<std::vector<std::string>> turns_;
  std::vector<std::string> history_;
};

}  // namespace arena::server::testing
