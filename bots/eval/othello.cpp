#include "bots/eval/othello.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <string>

namespace arena::eval {
namespace {

using othello::Bitboard;
using othello::Othello;

constexpr Bitboard kCorners = 0x8100000000000081ULL;  // a1, h1, a8, h8

Player me(const Othello& game) {
  return game.side_to_move();
}
Player them(const Othello& game) {
  return opponent(game.side_to_move());
}

int weighted_sum(Bitboard discs) {
  int sum = 0;
  for (; discs; discs &= discs - 1) sum += kOthelloSquareWeights[std::countr_zero(discs)];
  return sum;
}

Expected<OthelloWeights> parse_combined(const GameOptions& params) {
  OthelloWeights w;
  for (const auto& [key, value] : params) {
    double* slot = key == "material"           ? &w.material
                   : key == "mobility"         ? &w.mobility
                   : key == "corners"          ? &w.corners
                   : key == "weighted_squares" ? &w.weighted_squares
                                               : nullptr;
    if (!slot) {
      return make_error("unknown parameter '" + key +
                        "' for othello combined (expected material, mobility, corners, "
                        "weighted_squares)");
    }
    auto parsed = parse_param_number(key, value);
    if (!parsed) return make_error(parsed.error());
    *slot = *parsed;
  }
  return w;
}

}  // namespace

int othello_material(const Othello& game) {
  return game.disc_count(me(game)) - game.disc_count(them(game));
}

int othello_mobility(const Othello& game) {
  return game.mobility(me(game)) - game.mobility(them(game));
}

int othello_corners(const Othello& game) {
  return std::popcount(game.discs(me(game)) & kCorners) -
         std::popcount(game.discs(them(game)) & kCorners);
}

int othello_weighted_squares(const Othello& game) {
  return weighted_sum(game.discs(me(game))) - weighted_sum(game.discs(them(game)));
}

int othello_combined(const Othello& game, const OthelloWeights& w) {
  const double sum = w.material * othello_material(game) + w.mobility * othello_mobility(game) +
                     w.corners * othello_corners(game) +
                     w.weighted_squares * othello_weighted_squares(game);
  return static_cast<int>(std::lround(sum));
}

std::array<double, 3> othello_features(const Othello& game) {
  return {static_cast<double>(othello_material(game)), static_cast<double>(othello_mobility(game)),
          static_cast<double>(othello_corners(game))};
}

std::vector<HeuristicInfo> heuristics_for(std::type_identity<Othello>) {
  return {
      {"material", "disc count: own discs minus the opponent's"},
      {"mobility", "own legal moves minus the opponent's"},
      {"corners", "own corner discs minus the opponent's"},
      {"weighted_squares", "Norvig's classic square-weight table, own minus opponent's"},
      {"combined",
       "material*material + mobility*mobility + corners*corners + "
       "weighted_squares*weighted_squares (defaults 1, 10, 100, 1)"},
  };
}

Expected<Heuristic<Othello>> make_heuristic(std::type_identity<Othello>, std::string_view name,
                                            const GameOptions& params) {
  if (name == "combined") {
    auto w = parse_combined(params);
    if (!w) return make_error(w.error());
    return Heuristic<Othello>([w = *w](const Othello& g) { return othello_combined(g, w); });
  }
  int (*plain)(const Othello&) = name == "material"           ? &othello_material
                                 : name == "mobility"         ? &othello_mobility
                                 : name == "corners"          ? &othello_corners
                                 : name == "weighted_squares" ? &othello_weighted_squares
                                                              : nullptr;
  return plain_heuristic(plain, "othello", name,
                         "material, mobility, corners, weighted_squares, combined", params);
}

}  // namespace arena::eval
