#include "league/study.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>

#include "bots/client/roster.h"
#include "bots/gdl/gdl_player.h"
#include "db/tournament_reader.h"
#include "games/core/join.h"
#include "games/gdl/library/library.h"
#include "league/league_runner.h"

namespace arena::league {
namespace {

using Clock = std::chrono::steady_clock;

// The GDL player spec a study player plays with: a GDL preset's, or the text itself.
std::string spec_of(const std::string& player) {
  const client::Preset* preset = client::find_preset(player);
  return preset != nullptr && preset->game == "gdl" ? preset->spec : player;
}

tournament::LeagueConfig league_config(const StudyConfig& c, const std::string& sheet) {
  tournament::LeagueConfig l;
  l.name = study_tournament_name(c, sheet);
  l.game = "gdl:" + sheet;
  l.format = tournament::Format::kRoundRobin;
  for (const std::string& p : c.players) l.players.push_back({p, spec_of(p), {}});
  l.games_per_pairing = 2 * c.games_per_pair;
  l.concurrency = c.jobs;
  l.movetime_ms = c.movetime_ms;
  l.max_plies = c.max_turns;
  l.seed = c.seed;
  return l;
}

// Why the study cannot play `sheet` before any reasoner is built, or "".
std::string sheet_problem(const std::string& sheet) {
  auto found = gdl::find_gdl_sheet(sheet);
  if (!found) return "load error: " + found.error();
  auto description = gdl::load_gdl_description(sheet);
  if (!description) return "load error: " + description.error();
  auto two = tournament::check_two_roles("gdl:" + sheet, (*description)->roles().size(), "a study");
  return two ? "" : two.error();
}

// The sheet's finished tournament of this study, if one is stored.
Expected<std::optional<std::int64_t>> finished_tournament(const std::string& db_path,
                                                          const std::string& name) {
  auto reader = db::TournamentReader::open(db_path);
  if (!reader) return make_error(reader.error());
  auto all = reader->tournaments();
  if (!all) return make_error(all.error());
  for (const auto& t : *all)
    if (t.name == name && t.finished) return std::optional{t.id};
  return std::optional<std::int64_t>{};
}

// Sets `halt` when `stop` is set or the deadline passes, until `done`.
class Halter {
 public:
  Halter(const std::atomic<bool>* stop, std::optional<Clock::time_point> deadline)
      : halt(due(stop, deadline)), thread_([this, stop, deadline] {
          while (!done_) {
            if (due(stop, deadline)) halt = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
          }
        }) {}
  ~Halter() {
    done_ = true;
    thread_.join();
  }
  std::atomic<bool> halt;

 private:
  static bool due(const std::atomic<bool>* stop, std::optional<Clock::time_point> deadline) {
    return (stop != nullptr && stop->load()) || (deadline && Clock::now() >= *deadline);
  }
  std::atomic<bool> done_{false};
  std::thread thread_;
};

// Plays (or finishes) one playable sheet's tournament; its id, or the reason it cannot be played.
Expected<std::int64_t> play_sheet(const StudyConfig& c, db::Store& store, const std::string& db_path,
                                  const std::string& sheet, const StudyProgress& progress,
                                  std::atomic<bool>& halt, StudyReport& report) {
  const tournament::LeagueConfig l = league_config(c, sheet);
  auto done = finished_tournament(db_path, l.name);
  if (!done) return make_error(done.error());
  if (*done) {
    if (progress) progress("gdl:" + sheet + ": finished earlier (tournament " +
                           std::to_string(**done) + "), read from the store");
    return **done;
  }
  if (progress) progress("gdl:" + sheet + ": playing");
  ProgressFn games;
  if (progress)
    games = [&](const LeagueProgress& p) {
      progress("gdl:" + sheet + ": " + std::to_string(p.done) + "/" + std::to_string(p.total) +
               " games");
    };
  auto run = run_league(l, store, db_path, games, &halt);
  if (!run) return make_error(run.error());
  report.games_played += run->games_played;
  return run->tournament;
}

// The sheets of the study: the config's, or every sheet of the library in name order.
std::vector<std::string> study_sheets(const StudyConfig& c) {
  if (!c.sheets.empty()) return c.sheets;
  std::vector<std::string> names;
  for (const gdl::GdlSheet& s : gdl::gdl_sheets()) names.push_back(s.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::string study_tournament_name(const StudyConfig& c, const std::string& sheet) {
  return "study gdl:" + sheet + " movetime=" + std::to_string(c.movetime_ms) +
         " turns=" + std::to_string(c.max_turns) + " players=" + join(c.players, ",") +
         " games=" + std::to_string(c.games_per_pair) + " seed=" + std::to_string(c.seed);
}

Expected<void> check_study(const StudyConfig& c) {
  if (c.players.size() < 2) return make_error("--players: a study needs at least two players");
  std::set<std::string> seen;
  for (const std::string& p : c.players) {
    if (!seen.insert(p).second) return make_error("--players: '" + p + "' is given twice");
    if (auto name = db::check_player_name(p); !name) return make_error("--players: " + name.error());
    if (auto made = gdl::make_gdl_player(spec_of(p)); !made)
      return make_error("--players: '" + p + "' is neither a GDL preset (arena bot " +
                        "--list-presets) nor a GDL player spec: " + made.error());
  }
  if (c.movetime_ms < 1) return make_error("--movetime must be at least 1 ms");
  if (c.games_per_pair < 1) return make_error("--games-per-pair must be at least 1");
  if (c.max_turns < 1) return make_error("--max-turns must be at least 1");
  if (c.jobs < 1) return make_error("--jobs must be at least 1");
  for (const std::string* who : {&c.heuristic_player, &c.baseline})
    if (!who->empty() && !seen.count(*who))
      return make_error("--versus: '" + *who + "' is not one of --players");
  return {};
}

std::pair<std::string, std::string> study_versus(const StudyConfig& c) {
  std::string h = c.heuristic_player, b = c.baseline;
  for (const std::string& p : c.players) {
    const std::string spec = spec_of(p);
    if (h.empty() && gdl::gdl_player_heuristic(spec) == "fuzzy_goal") h = p;
    if (b.empty() && (spec == "uct" || spec.starts_with("uct:"))) b = p;
  }
  return {h, b};
}

Expected<StudyReport> run_study(const StudyConfig& c, db::Store& store, const std::string& db_path,
                                const StudyProgress& progress, const std::atomic<bool>* stop,
                                std::optional<Clock::time_point> deadline) {
  if (auto ok = check_study(c); !ok) return make_error(ok.error());
  const auto started = Clock::now();
  StudyReport report;
  report.players = c.players;
  std::tie(report.heuristic_player, report.baseline) = study_versus(c);
  Halter halter(stop, deadline);
  for (const std::string& sheet : study_sheets(c)) {
    if (halter.halt) {
      report.pending.push_back(sheet);
      continue;
    }
    if (const std::string problem = sheet_problem(sheet); !problem.empty()) {
      report.unplayable.push_back({sheet, problem});
      continue;
    }
    auto tournament = play_sheet(c, store, db_path, sheet, progress, halter.halt, report);
    if (!tournament) {
      report.unplayable.push_back({sheet, tournament.error()});
      continue;
    }
    auto sheet_report = report_sheet(c, store, db_path, sheet, *tournament);
    if (!sheet_report) return make_error(sheet_report.error());
    if (sheet_report->finished < sheet_report->scheduled) report.stopped = true;
    report.sheets.push_back(std::move(*sheet_report));
  }
  report.stopped = report.stopped || !report.pending.empty();
  summarise_study(report);
  report.wall_s = std::chrono::duration<double>(Clock::now() - started).count();
  return report;
}

}  // namespace arena::league
