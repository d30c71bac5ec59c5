#include "bots/eval/checkers.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <string>

namespace arena::eval {
namespace {

using checkers::Checkers;
using Bitboard = checkers::Bitboard;

constexpr Bitboard kBlackBackRow = 0x0000000Fu;  // squares 1-4
constexpr Bitboard kWhiteBackRow = 0xF0000000u;  // squares 29-32

// Rows advanced by `player`'s men: Black starts at row 0 and moves to higher rows.
int advancement_of(const Checkers& game, Player player) {
  int sum = 0;
  for (Bitboard men = game.men(player); men; men &= men - 1) {
    const int row = std::countr_zero(men) / 4;
    sum += player == Player::kFirst ? row : 7 - row;
  }
  return sum;
}

int back_rank_of(const Checkers& game, Player player) {
  const Bitboard back = player == Player::kFirst ? kBlackBackRow : kWhiteBackRow;
  return std::popcount(game.men(player) & back);
}

// Reads the keys that `name` accepts into `w`; anything else is an error naming the key.
Expected<CheckersWeights> parse_params(std::string_view name, const GameOptions& params) {
  CheckersWeights w;
  const bool combined = name == "combined";
  for (const auto& [key, value] : params) {
    double* slot = key == "man"                           ? &w.man
                   : key == "king"                        ? &w.king
                   : combined && key == "advancement"     ? &w.advancement
                   : combined && key == "back_rank_guard" ? &w.back_rank_guard
                                                          : nullptr;
    if (!slot) {
      return make_error("unknown parameter '" + key + "' for checkers " + std::string(name) +
                        (combined ? " (expected man, king, advancement, back_rank_guard)"
                                  : " (expected man, king)"));
    }
    auto parsed = parse_param_number(key, value);
    if (!parsed) return make_error(parsed.error());
    *slot = *parsed;
  }
  return w;
}

}  // namespace

int checkers_material(const Checkers& game, const CheckersWeights& w) {
  const auto f = checkers_features(game);
  return static_cast<int>(std::lround(w.man * f[0] + w.king * f[1]));
}

int checkers_advancement(const Checkers& game) {
  const Player me = game.side_to_move();
  return advancement_of(game, me) - advancement_of(game, opponent(me));
}

int checkers_back_rank_guard(const Checkers& game) {
  const Player me = game.side_to_move();
  return back_rank_of(game, me) - back_rank_of(game, opponent(me));
}

int checkers_combined(const Checkers& game, const CheckersWeights& w) {
  const auto f = checkers_features(game);
  const double sum = w.man * f[0] + w.king * f[1] + w.advancement * checkers_advancement(game) +
                     w.back_rank_guard * checkers_back_rank_guard(game);
  return static_cast<int>(std::lround(sum));
}

std::array<double, 2> checkers_features(const Checkers& game) {
  const Player me = game.side_to_move();
  const Player other = opponent(me);
  return {static_cast<double>(std::popcount(game.men(me)) - std::popcount(game.men(other))),
          static_cast<double>(std::popcount(game.kings(me)) - std::popcount(game.kings(other)))};
}

std::vector<HeuristicInfo> heuristics_for(std::type_identity<Checkers>) {
  return {
      {"material", "man*men + king*kings, own minus opponent's (defaults 100, 150)"},
      {"advancement", "rows advanced by own men minus the opponent's"},
      {"back_rank_guard", "own men on their back row minus the opponent's"},
      {"combined",
       "material + advancement*advancement + back_rank_guard*back_rank_guard (defaults 5, 10)"},
  };
}

Expected<Heuristic<Checkers>> make_heuristic(std::type_identity<Checkers>, std::string_view name,
                                             const GameOptions& params) {
  if (name == "material" || name == "combined") {
    auto w = parse_params(name, params);
    if (!w) return make_error(w.error());
    if (name == "material") {
      return Heuristic<Checkers>([w = *w](const Checkers& g) { return checkers_material(g, w); });
    }
    return Heuristic<Checkers>([w = *w](const Checkers& g) { return checkers_combined(g, w); });
  }
  int (*plain)(const Checkers&) = name == "advancement"       ? &checkers_advancement
                                  : name == "back_rank_guard" ? &checkers_back_rank_guard
                                                              : nullptr;
  return plain_heuristic(plain, "checkers", name,
                         "material, advancement, back_rank_guard, combined", params);
}

}  // namespace arena::eval
