// arena ladder: one bot against a list of opponents (UCI engines, presets, search specs) with
// paired openings at one time control, and its Elo with a 95% interval on the scale of the
// opponents of known Elo (league/ladder.h).
//
//   arena ladder --player chess_strong --movetime 100 --pairs 10
//       --book leagues/openings/chess.txt
//       --opponent 'uci:/usr/games/stockfish?UCI_LimitStrength=true&UCI_Elo=1600'
//       --opponent 'uci:/usr/games/toga2'
//   arena ladder --game gdl:connectFour --player GDL_Fuzzy --opponent GDL_Random@0
//       --opponent uct:c=1.4 --movetime 200 --opening-plies 2

#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/gdl_sheet_flags.h"
#include "games/catalog/catalog.h"
#include "league/ladder.h"

namespace arena::cli {
namespace {

std::atomic<bool> g_ladder_stop{false};

extern "C" void on_ladder_signal(int) { g_ladder_stop = true; }

struct LadderFlags {
  league::LadderConfig config;
  std::string tc;
  int prior_draws = -1;
  bool quiet = false;
  GdlSheetFlags sheets;
};

// "BASE+INC" in seconds, e.g. "10+0.1".
bool parse_tc(const std::string& text, league::LadderConfig& c) {
  const auto plus = text.find('+');
  try {
    std::size_t used = 0;
    const std::string base = text.substr(0, plus);
    const double b = std::stod(base, &used);
    if (used != base.size() || b <= 0) return false;
    double inc = 0;
    if (plus != std::string::npos) {
      const std::string i = text.substr(plus + 1);
      inc = std::stod(i, &used);
      if (used != i.size() || inc < 0) return false;
    }
    c.base_ms = static_cast<std::int64_t>(b * 1000);
    c.increment_ms = static_cast<std::int64_t>(inc * 1000);
    return true;
  } catch (...) {
    return false;
  }
}

int run(LadderFlags& f) {
  auto& c = f.config;
  if (!f.tc.empty() && !parse_tc(f.tc, c)) {
    std::cerr << "arena ladder: --tc '" << f.tc << "' is not BASE+INC in seconds (e.g. 10+0.1)\n";
    return kExitUsage;
  }
  c.prior_draws = f.prior_draws >= 0 ? f.prior_draws : c.all_pairs ? 1 : 0;
  if (!apply_gdl_sheet_flags(f.sheets, "ladder")) return kExitUsage;
  if (auto game = league::check_ladder_game(c); !game) {
    std::cerr << "arena ladder: " << game.error() << "\n";
    return kExitUsage;
  }
  // Every seat is checked first, so a typo is a usage error before any game.
  std::vector<std::string> seats{c.player};
  seats.insert(seats.end(), c.opponents.begin(), c.opponents.end());
  for (const auto& s : seats) {
    if (auto seat = league::parse_ladder_seat(s, c.game); !seat) {
      std::cerr << "arena ladder: " << seat.error() << "\n";
      return kExitUsage;
    }
  }
  // An engine that dies (gnuchess 6.2.7 asserts now and then) must cost that engine its
  // game, not end the ladder on SIGPIPE when we write to it.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGINT, on_ladder_signal);
  std::signal(SIGTERM, on_ladder_signal);
  auto progress = [&](const league::LadderResult& r, int done, int total) {
    if (f.quiet) return;
    const auto& g = r.games.back();
    const char* score = g.first_score == 1 ? "1-0" : g.first_score == 0 ? "0-1" : "1/2-1/2";
    std::fprintf(stderr, "[%d/%d] %s - %s: %s %s, %d %s\n", done, total,
                 r.seats[static_cast<std::size_t>(g.first)].name.c_str(),
                 r.seats[static_cast<std::size_t>(g.second)].name.c_str(), score, g.reason.c_str(),
                 g.plies, is_gdl_game(c.game) ? "turns" : "plies");
  };
  auto result = league::run_ladder(c, progress, &g_ladder_stop);
  if (!result) {
    std::cerr << "arena ladder: " << result.error() << "\n";
    return kExitFailure;
  }
  std::cout << league::format_ladder(c, *result);
  return kExitOk;
}

}  // namespace

void add_ladder(CLI::App& app, Action& action) {
  auto f = std::make_shared<LadderFlags>();
  auto& c = f->config;
  c.game = "chess";
  CLI::App* sub = app.add_subcommand(
      "ladder", "one bot against engines or presets: scores and Elo with a 95% interval");
  sub->add_option("--game,-g", c.game, "game name (" + known_game_names() + "); default chess");
  sub->add_option("--player", c.player,
                  "the bot measured: a preset or a search spec (gdl:NAME: a GDL preset or GDL "
                  "player spec)")
      ->required();
  sub->add_option("--opponent", c.opponents,
                  "an opponent (repeatable): PRESET, SPEC, or uci:PATH?NAME=VALUE&...; "
                  "a trailing @ELO makes it an anchor of that Elo")
      ->required();
  sub->add_flag("--all-pairs", c.all_pairs,
                "every seat plays every other (a ladder of presets), not only the player");
  sub->add_option("--pairs", c.pairs, "colour-swapped pairs per opponent (default 2)")
      ->check(CLI::Range(1, 100000));
  sub->add_option("--movetime", c.movetime_ms, "ms a move (default 100)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{3'600'000}));
  sub->add_option("--tc", f->tc, "a clock instead of movetime: BASE+INC in seconds, e.g. 10+0.1");
  sub->add_option("--max-plies", c.max_plies,
                  "adjudicate a draw after this many plies (a GDL sheet's: turns) (400)")
      ->check(CLI::Range(1, 100000));
  sub->add_option("--opening-plies", c.opening_plies,
                  "random plies before each pair (no book; a GDL sheet: random turns)")
      ->check(CLI::Range(0, 200));
  sub->add_option("--book", c.opening_book,
                  "opening book: a line of moves a line (Othello: XOT lines), one line a pair");
  sub->add_option("--max-minutes", c.max_minutes, "start no new pair after this long")
      ->check(CLI::Range(0.0, 10000.0));
  sub->add_option("--seed", c.seed, "seed of the openings");
  sub->add_option("--prior-draws", f->prior_draws,
                  "virtual draws per pairing in the Elo fit (default 1 with --all-pairs, else 0)")
      ->check(CLI::Range(0, 100));
  sub->add_option("--jobs,-j", c.jobs,
                  "games played at a time, each by its own engines (default 1; at most the "
                  "cores, so that every engine keeps one)")
      ->check(CLI::Range(1, 64));
  sub->add_option("--games-file", c.games_file,
                  "append each game to this file as a JSON line; its earlier games of the same "
                  "seats, game and time control join the table and the Elo (pools bounded runs)");
  sub->add_option("--options", c.options, "game options, key=value,... (e.g. size=5)");
  sub->add_flag("--quiet,-q", f->quiet, "no line per game on stderr");
  add_gdl_sheet_flags(sub, f->sheets);
  sub->callback([f, &action] { action = [f] { return run(*f); }; });
}

}  // namespace arena::cli
