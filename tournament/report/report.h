#pragma once
// Text reports of an Analysis: the full report (standings with Bradley-Terry ratings and 95%
// intervals, crosstable, SPRT, search statistics) and the gauntlet table in the form of the AI
// course's Isolation tournament (won | lost per opponent, win rate per test agent).

#include <ostream>
#include <string>
#include <vector>

#include "tournament/statistics/analysis.h"

namespace arena::tournament {

void print_report(std::ostream& out, const Analysis& analysis);

// Columns: `challengers`; rows: `field` (names as in analysis.names; unknown names are skipped).
void print_gauntlet_table(std::ostream& out, const Analysis& analysis,
                          const std::vector<std::string>& challengers,
                          const std::vector<std::string>& field);

}  // namespace arena::tournament
