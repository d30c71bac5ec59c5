// `arena`: one binary, git-style subcommands. Each subcommand is one add_* call below.

#include <cstdio>
#include <iostream>
#include <string>

#include "cli/commands.h"

namespace {

constexpr const char* kVersion = "arena 0.1.0";

void print_help(const CLI::App& app) {
  std::cout << "arena: a league server for game-playing programs, and its tools.\n\n"
            << "usage: arena <command> [flags]   (arena <command> --help for its flags)\n\n"
            << "commands:\n";
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    std::printf("  %-10s %s\n", sub->get_name().c_str(), sub->get_description().c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"arena: a league server for game-playing programs, and its tools", "arena"};
  app.set_version_flag("--version", kVersion);
  app.require_subcommand(0, 1);
  app.fallthrough(false);

  arena::cli::Action action;
  CLI::App* help = app.add_subcommand("help", "list the commands");
  help->callback([&] {
    action = [&] {
      print_help(app);
      return arena::cli::kExitOk;
    };
  });

  arena::cli::add_perft(app, action);
  arena::cli::add_serve(app, action);
  arena::cli::add_token(app, action);
  arena::cli::add_ratings(app, action);
  arena::cli::add_export(app, action);
  arena::cli::add_eval(app, action);
  arena::cli::add_match(app, action);
  arena::cli::add_solve(app, action);
  arena::cli::add_bot(app, action);
  arena::cli::add_league(app, action);
  arena::cli::add_tournament(app, action);
  arena::cli::add_learn(app, action);
  arena::cli::add_tune(app, action);
  arena::cli::add_analyze(app, action);
  arena::cli::add_ggp_player(app, action);
  arena::cli::add_ggp_match(app, action);
  arena::cli::add_gdl(app, action);
  arena::cli::add_ladder(app, action);
  arena::cli::add_study(app, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    if (what.find("not expected") != std::string::npos && argc > 1 && argv[1][0] != '-')
      std::cerr << "arena: unknown command or argument (" << what << ")\n";
    else
      std::cerr << "arena: " << what << "\n";
    std::cerr << "run 'arena help' for the commands, 'arena <command> --help' for flags\n";
    return arena::cli::kExitUsage;
  }
  if (!action) {
    print_help(app);
    return argc > 1 ? arena::cli::kExitUsage : arena::cli::kExitOk;
  }
  return action();
}
