#include "tournament/report/report.h"

#include <algorithm>
#include <cstdio>

namespace arena::tournament {
namespace {

std::string format(const char* fmt, auto... args) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, fmt, args...);
  return buffer;
}

int find(const Analysis& a, const std::string& name) {
  const auto it = std::find(a.names.begin(), a.names.end(), name);
  return it == a.names.end() ? -1 : static_cast<int>(it - a.names.begin());
}

std::size_t name_width(const Analysis& a) {
  std::size_t w = 6;
  for (const auto& n : a.names) w = std::max(w, n.size());
  return w;
}

void print_crosstable(std::ostream& out, const Analysis& a) {
  const int w = static_cast<int>(name_width(a));
  out << "\ncrosstable (row's points / games against column):\n" << format("%-*s", w, "");
  for (std::size_t j = 0; j < a.names.size(); ++j) out << format(" %8zu", j + 1);
  out << "\n";
  for (std::size_t i = 0; i < a.names.size(); ++i) {
    out << format("%-*s", w, a.names[i].c_str());
    for (std::size_t j = 0; j < a.names.size(); ++j) {
      const HeadToHead& h = a.crosstable[i][j];
      out << (i == j || h.games() == 0 ? format(" %8s", i == j ? "x" : ".")
                                       : format(" %4.1f/%-3d", h.points(), h.games()));
    }
    out << format("  (%zu)\n", i + 1);
  }
}

void print_search(std::ostream& out, const Analysis& a) {
  const int w = static_cast<int>(name_width(a));
  out << "\nsearch statistics (per move):\n"
      << format("%-*s %8s %9s %12s %10s\n", w, "bot", "moves", "depth", "nodes", "time ms");
  for (std::size_t i = 0; i < a.names.size(); ++i) {
    const MoveStats& s = a.search[i];
    const double n = std::max(1, s.moves);
    out << format("%-*s %8d %9.2f %12.0f %10.1f\n", w, a.names[i].c_str(), s.moves, s.depth_sum / n,
                  s.nodes_sum / n, s.time_ms_sum / n);
  }
}

}  // namespace

void print_report(std::ostream& out, const Analysis& a) {
  const int w = static_cast<int>(name_width(a));
  out << format("%-4s %-*s %6s %5s %5s %5s %7s %6s %14s\n", "rank", w, "bot", "games", "won",
                "lost", "drawn", "points", "score", "BT Elo (95%)");
  for (std::size_t r = 0; r < a.standings.size(); ++r) {
    const Standing& s = a.standings[r];
    const auto p = static_cast<std::size_t>(s.player);
    const std::string rating =
        a.ratings.empty() ? "-" : format("%6.0f +-%4.0f", a.ratings[p], a.half_widths[p]);
    out << format("%-4zu %-*s %6d %5d %5d %5d %7.1f %5.1f%% %14s\n", r + 1, w, a.names[p].c_str(),
                  s.games, s.wins, s.losses, s.draws, s.points, 100 * s.score(), rating.c_str());
  }
  if (!a.rating_error.empty()) out << "(no Bradley-Terry ratings: " << a.rating_error << ")\n";
  if (a.noted_games > 0)
    out << "(" << a.noted_games << (a.noted_games == 1 ? " game" : " games")
        << " ended by a fault of the rules, counted as their scores make them and not rated in "
           "the store; the first: "
        << a.first_note << ")\n";
  print_crosstable(out, a);
  if (a.sprt)
    out << format("\nSPRT: LLR %.3f (bounds %.3f, %.3f): ", a.sprt->llr, a.sprt->lower,
                  a.sprt->upper)
        << to_string(a.sprt->verdict) << "\n";
  print_search(out, a);
}

void print_gauntlet_table(std::ostream& out, const Analysis& a,
                          const std::vector<std::string>& challengers,
                          const std::vector<std::string>& field) {
  std::vector<int> cols;
  for (const auto& c : challengers)
    if (int i = find(a, c); i >= 0) cols.push_back(i);
  out << format("%8s %13s", "Match #", "Opponent");
  for (int c : cols) out << format(" %15s", a.names[static_cast<std::size_t>(c)].c_str());
  out << "\n" << format("%8s %13s", "", "");
  for (std::size_t k = 0; k < cols.size(); ++k) out << format(" %15s", "Won | Lost");
  out << "\n";
  std::vector<int> won(cols.size(), 0), games(cols.size(), 0);
  int match = 0;
  for (const auto& f : field) {
    const int row = find(a, f);
    if (row < 0) continue;
    out << format("%8d %13s", ++match, f.c_str());
    for (std::size_t k = 0; k < cols.size(); ++k) {
      const HeadToHead& h =
          a.crosstable[static_cast<std::size_t>(cols[k])][static_cast<std::size_t>(row)];
      // Draws (none in Isolation) count as half a win in the win rate.
      out << format(" %9d | %3d", h.wins, h.losses + h.draws);
      won[k] += 2 * h.wins + h.draws;
      games[k] += h.games();
    }
    out << "\n";
  }
  out << std::string(22 + 16 * cols.size(), '-') << "\n" << format("%22s", "Win Rate:");
  for (std::size_t k = 0; k < cols.size(); ++k)
    out << format(" %14.1f%%", games[k] > 0 ? 50.0 * won[k] / games[k] : 0.0);
  out << "\n";
}

}  // namespace arena::tournament
