// arena tournament: list the tournaments in a store, or show one: standings with Bradley-Terry
// ratings and 95% intervals, crosstable, SPRT (with --sprt) and per-bot search statistics.

#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "tournament/report/stored_analysis.h"
#include "tournament/report/report.h"

namespace arena::cli {
namespace {

struct TournamentFlags {
  std::string db = "arena.db";
  std::int64_t id = 0;
  std::vector<std::string> sprt;  // challenger,baseline[,elo0,elo1,alpha,beta]
};

Expected<std::optional<tournament::LeagueConfig::Sprt>> parse_sprt(
    const std::vector<std::string>& v) {
  if (v.empty()) return std::optional<tournament::LeagueConfig::Sprt>{};
  if (v.size() != 2 && v.size() != 6)
    return make_error("--sprt takes challenger,baseline[,elo0,elo1,alpha,beta]");
  tournament::LeagueConfig::Sprt s{v[0], v[1], {}};
  if (v.size() == 6) {
    try {
      s.config = {std::stod(v[2]), std::stod(v[3]), std::stod(v[4]), std::stod(v[5])};
    } catch (const std::exception&) {
      return make_error("--sprt: bad number in '" + v[2] + "," + v[3] + "," + v[4] + "," + v[5] +
                        "'");
    }
  }
  return std::optional{s};
}

int show(const TournamentFlags& f) {
  auto sprt = parse_sprt(f.sprt);
  if (!sprt) {
    std::cerr << "arena tournament: " << sprt.error() << "\n";
    return kExitUsage;
  }
  auto reader = db::TournamentReader::open(f.db);
  if (!reader) {
    std::cerr << "arena tournament: " << reader.error() << "\n";
    return kExitFailure;
  }
  if (f.id == 0) {
    auto all = reader->tournaments();
    if (!all) {
      std::cerr << "arena tournament: " << all.error() << "\n";
      return kExitFailure;
    }
    for (const auto& t : *all)
      std::cout << t.id << "  " << t.name << "  " << t.kind << "  " << t.format << "  "
                << (t.finished ? "finished" : "unfinished") << "\n";
    return kExitOk;
  }
  auto info = reader->tournament(f.id);
  if (!info) {
    std::cerr << "arena tournament: " << info.error() << " in " << f.db << "\n";
    return kExitFailure;
  }
  auto analysis = tournament::load_analysis(*reader, f.id, *sprt);
  if (!analysis) {
    std::cerr << "arena tournament: " << analysis.error() << "\n";
    return kExitFailure;
  }
  auto rows = reader->pairings(f.id);
  int done = 0;
  if (rows)
    for (const auto& r : *rows) done += !r.result.empty() && r.result != "*";
  std::cout << "tournament " << info->id << " '" << info->name << "': " << info->kind << ", "
            << info->format << ", time control " << info->time_control << ", " << done << "/"
            << (rows ? rows->size() : 0) << " games, "
            << (info->finished ? "finished" : "unfinished") << "\n\n";
  tournament::print_report(std::cout, *analysis);
  return kExitOk;
}

}  // namespace

void add_tournament(CLI::App& app, Action& action) {
  auto f = std::make_shared<TournamentFlags>();
  CLI::App* sub = app.add_subcommand("tournament", "list tournaments, or show one's results");
  CLI::App* show_cmd = sub->add_subcommand("show", "crosstable, ratings, SPRT, search stats");
  show_cmd->add_option("id", f->id, "tournament id")->required()->check(CLI::PositiveNumber);
  show_cmd->add_option("--sprt", f->sprt, "challenger,baseline[,elo0,elo1,alpha,beta]")
      ->delimiter(',');
  CLI::App* list_cmd = sub->add_subcommand("list", "every tournament in the database");
  for (CLI::App* c : {show_cmd, list_cmd}) c->add_option("--db", f->db, "SQLite file");
  sub->require_subcommand(1);
  sub->callback([f, &action] { action = [f] { return show(*f); }; });
}

}  // namespace arena::cli
