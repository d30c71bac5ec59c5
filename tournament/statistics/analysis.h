#pragma once
// Tournament analysis from finished games: crosstable, standings, Bradley-Terry ratings with
// 95% intervals, head-to-head, SPRT (sprt.h) and per-bot search statistics. Pure functions over
// the results, so a hand-made result set tests them; report.h prints them.

#include <optional>
#include <string>
#include <vector>

#include "games/core/expected.h"
#include "tournament/statistics/sprt.h"

namespace arena::tournament {

struct GameOutcome {
  int first = 0, second = 0;  // player indices
  double first_score = 0.5;   // 1, 0.5, 0
};

// Sums of the search info stored with one player's moves.
struct MoveStats {
  int moves = 0;
  double depth_sum = 0, nodes_sum = 0, time_ms_sum = 0;
};

struct Standing {
  int player = 0;
  int games = 0, wins = 0, losses = 0, draws = 0;
  double points = 0;
  double score() const { return games > 0 ? points / games : 0; }
};

struct HeadToHead {
  int wins = 0, losses = 0, draws = 0;  // of the row player against the column player
  int games() const { return wins + losses + draws; }
  double points() const { return wins + 0.5 * draws; }
};

struct Analysis {
  std::vector<std::string> names;
  std::vector<std::vector<HeadToHead>> crosstable;  // [row][column]
  std::vector<Standing> standings;                  // best first (points, then wins, then index)
  std::vector<double> ratings, half_widths;         // Bradley-Terry, indexed by player
  std::string rating_error;                         // why ratings are empty, if they are
  std::vector<MoveStats> search;                    // indexed by player
  std::optional<SprtResult> sprt;
  // Games the rules ended by their own fault (a note: a GDL sheet's bug, a reasoner's limit),
  // counted above as their scores make them; the first one's note. Set by load_analysis.
  int noted_games = 0;
  std::string first_note{};
};

struct SprtRequest {
  int challenger = 0, baseline = 1;
  SprtConfig config;
};

// Bradley-Terry uses a prior of 2 virtual draws against the average (as BayesElo), so that a
// player with a perfect score still has a finite rating.
Analysis analyse(const std::vector<std::string>& names, const std::vector<GameOutcome>& games,
                 const std::vector<MoveStats>& search,
                 const std::optional<SprtRequest>& sprt_request = std::nullopt);

}  // namespace arena::tournament
