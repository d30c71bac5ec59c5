// arena ggp-match: Arena as a GGP game manager. Plays one GDL match between GGP players given
// by URL (one per role, in the rules' role order), with the start and play clocks enforced: a
// late, malformed or illegal answer is replaced by a random legal move and logged
// (bots/ggp/game_manager.h).
//
//   arena ggp-match --gdl FILE.kif (or --game gdl:ticTacToe) --startclock 10 --playclock 5
//       --player http://127.0.0.1:9147 --player http://127.0.0.1:9148 [--record match.json]
//
// Prints each step's joint move with the seconds each player took, each replacement, then
// "goals: ROLE G, ..." and "replaced: ROLE N, ..."; --record writes the match in ggp-base's
// match JSON (bots/ggp/match_record.h). Exit status: 0 the match was played (whatever the
// players did); 1 the rules cannot be read, the players do not fit them or the record cannot
// be written; 2 bad flags.

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bots/ggp/game_manager.h"
#include "bots/ggp/kif_message.h"
#include "bots/ggp/match_record.h"
#include "cli/commands.h"
#include "games/gdl/library/library.h"

namespace arena::cli {
namespace {

struct GgpMatchOptions {
  std::string game, gdl_file, gdl_dir, match_id, record;
  std::vector<std::string> players;
  int startclock = 10, playclock = 5, grace_ms = 1000, max_steps = 1000;
  std::uint64_t seed = 1;
  bool quiet = false;
};

// The rules' text and a name for messages: `gdl:NAME` from the GDL folder, else a file.
Expected<std::pair<std::string, std::string>> read_rules(const GgpMatchOptions& o) {
  if (o.game.empty() == o.gdl_file.empty())
    return make_error("give the sheet with --gdl FILE or --game gdl:NAME (one of them)");
  std::string path = o.gdl_file.empty() ? o.game : o.gdl_file;
  if (o.game.starts_with("gdl:")) {
    if (!o.gdl_dir.empty()) gdl::set_gdl_directory(o.gdl_dir);
    auto sheet = gdl::find_gdl_sheet(o.game.substr(4));
    if (!sheet) return make_error(sheet.error());
    path = sheet->path;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot read " + path);
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, static_cast<std::size_t>(in.gcount()));
    if (text.size() > ggp::kMaxMessageBytes)
      return make_error(path + " is larger than " + std::to_string(ggp::kMaxMessageBytes) +
                        " bytes, too large to send in a START");
  }
  return std::pair{text, path};
}

std::string per_role(const std::vector<std::string>& roles, const std::vector<int>& values) {
  std::string out;
  for (std::size_t r = 0; r < roles.size() && r < values.size(); ++r)
    out += (r ? ", " : "") + roles[r] + " " + std::to_string(values[r]);
  return out;
}

int run(const GgpMatchOptions& o) {
  auto rules = read_rules(o);
  if (!rules) {
    std::cerr << "arena ggp-match: " << rules.error() << "\n";
    return kExitFailure;
  }
  ggp::MatchConfig config;
  config.rules = std::move(rules->first);
  config.source = rules->second;
  config.players = o.players;
  config.startclock = o.startclock;
  config.playclock = o.playclock;
  config.grace = std::chrono::milliseconds(o.grace_ms);
  config.max_steps = o.max_steps;
  config.seed = o.seed;
  config.match_id = o.match_id;
  config.log = [](const std::string& line) { std::cout << "event: " << line << std::endl; };
  auto result = ggp::run_ggp_match(config);
  if (!result) {
    std::cerr << "arena ggp-match: " << result.error() << "\n";
    return kExitFailure;
  }
  if (!o.quiet) {
    for (std::size_t s = 0; s < result->moves.size(); ++s) {
      std::string line;
      for (std::size_t r = 0; r < result->moves[s].size(); ++r) {
        char took[32] = "";
        if (s < result->seconds.size() && r < result->seconds[s].size())
          std::snprintf(took, sizeof took, " (%.2f s)", result->seconds[s][r]);
        line += (r ? ", " : " ") + result->moves[s][r] + took;
      }
      std::printf("step %zu:%s\n", s + 1, line.c_str());
    }
  }
  std::printf("match %s: %zu steps, %s, %.2f s (manager's reasoner: %s)\n",
              result->match_id.c_str(), result->moves.size(),
              result->terminal ? "terminal" : "not terminal", result->wall_s,
              result->reasoner.c_str());
  std::printf("goals: %s\n", per_role(result->roles, result->goals).c_str());
  std::printf("replaced: %s\n", per_role(result->roles, result->substitutions).c_str());
  if (!o.record.empty()) {
    std::ofstream out(o.record, std::ios::binary | std::ios::trunc);
    out << ggp::match_record_json(*result, o.players);
    out.flush();
    if (!out) {
      std::cerr << "arena ggp-match: cannot write the match record " << o.record << "\n";
      return kExitFailure;
    }
    std::printf("record: %s\n", o.record.c_str());
  }
  return kExitOk;
}

}  // namespace

void add_ggp_match(CLI::App& app, Action& action) {
  auto o = std::make_shared<GgpMatchOptions>();
  CLI::App* sub =
      app.add_subcommand("ggp-match", "play a GDL match between GGP players (a game manager)");
  sub->add_option("--gdl", o->gdl_file, "the sheet: a .kif file (or --game gdl:NAME)");
  sub->add_option("--game", o->game, "gdl:NAME, a sheet of the GDL folder (or a .kif file)");
  sub->add_option("--record", o->record, "write the match as ggp-base's match JSON to this file");
  sub->add_option("--player", o->players, "a GGP player's URL, once per role in role order")
      ->required();
  sub->add_option("--gdl-dir", o->gdl_dir, "the folder gdl:NAME looks in");
  sub->add_option("--startclock", o->startclock, "seconds to prepare (default 10)")
      ->check(CLI::Range(0, 86400));
  sub->add_option("--playclock", o->playclock, "seconds per move (default 5)")
      ->check(CLI::Range(1, 86400));
  sub->add_option("--grace-ms", o->grace_ms, "allowance for the network beyond each clock")
      ->check(CLI::Range(0, 60000));
  sub->add_option("--max-steps", o->max_steps, "then the match is aborted (default 1000)")
      ->check(CLI::Range(1, 1000000));
  sub->add_option("--seed", o->seed, "seed of the random replacement moves");
  sub->add_option("--match-id", o->match_id, "the match id sent to the players");
  sub->add_flag("--quiet", o->quiet, "print the result only, not each step");
  sub->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace arena::cli
