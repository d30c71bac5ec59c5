#pragma once
// Each `arena` subcommand lives in its own cmd_*.cpp and exposes one add_* function that
// registers its flags on the app and, when chosen, stores the action main() runs.
// Keep this layer thin: parse flags, call modules, print.

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace arena::cli {

// What main() runs after parsing; returns the process exit status.
using Action = std::function<int()>;

// Exit statuses shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the work itself failed (a bad position, a lost file)
inline constexpr int kExitUsage = 2;    // bad subcommand or flag

// "a, b, c" for messages that list what there is; "none" for nothing.
inline std::string list_or_none(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? "none" : out;
}

void add_perft(CLI::App& app, Action& action);
void add_serve(CLI::App& app, Action& action);
void add_token(CLI::App& app, Action& action);
void add_ratings(CLI::App& app, Action& action);
void add_export(CLI::App& app, Action& action);
void add_eval(CLI::App& app, Action& action);
void add_match(CLI::App& app, Action& action);
void add_solve(CLI::App& app, Action& action);
void add_bot(CLI::App& app, Action& action);
void add_league(CLI::App& app, Action& action);
void add_tournament(CLI::App& app, Action& action);
void add_learn(CLI::App& app, Action& action);
void add_tune(CLI::App& app, Action& action);
void add_analyze(CLI::App& app, Action& action);
void add_ggp_player(CLI::App& app, Action& action);
void add_ggp_match(CLI::App& app, Action& action);
void add_gdl(CLI::App& app, Action& action);
void add_ladder(CLI::App& app, Action& action);
void add_study(CLI::App& app, Action& action);

}  // namespace arena::cli
