// arena ggp-player: serves an Arena GDL player to any GGP game manager over the GGP HTTP
// protocol (POST, text/acl: INFO, START, PLAY, STOP, ABORT; bots/ggp/player_service.h).
//
//   arena ggp-player --port 9147 --preset GDL_UCT
//   arena ggp-player --port 0 --spec uct:c=0.5      (port 0: a free port, printed)
//
// Prints "listening on http://HOST:PORT" on stdout once it accepts connections, one line per
// match event on stderr. Runs until SIGINT/SIGTERM. Exit status: 0 stopped by a signal; 1 the
// port cannot be bound; 2 bad flags (an unknown preset or spec).

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "bots/client/roster.h"
#include "bots/gdl/gdl_player.h"
#include "bots/ggp/http_server.h"
#include "bots/ggp/player_service.h"
#include "cli/commands.h"

namespace arena::cli {
namespace {

struct GgpPlayerOptions {
  std::string host = "127.0.0.1";
  int port = 9147;
  std::string preset, spec;
  int margin_ms = 0;
  bool quiet = false;
};

// The GDL player spec of a preset (GDL_UCT -> "uct"), or of --spec.
Expected<std::string> player_spec(const GgpPlayerOptions& o) {
  if (!o.preset.empty() && !o.spec.empty()) return make_error("give --preset or --spec, not both");
  if (!o.spec.empty()) return o.spec;
  const std::string name = o.preset.empty() ? "GDL_UCT" : o.preset;
  const client::Preset* preset = client::find_preset(name);
  if (preset == nullptr || preset->game != "gdl") {
    std::vector<std::string> known;
    for (const auto& p : client::presets())
      if (p.game == "gdl") known.push_back(p.name);
    return make_error("unknown GDL preset '" + name + "' (known: " + list_or_none(known) + ")");
  }
  return preset->spec;
}

int run(const GgpPlayerOptions& o) {
  auto spec = player_spec(o);
  if (!spec) {
    std::cerr << "arena ggp-player: " << spec.error() << "\n";
    return kExitUsage;
  }
  if (auto probe = gdl::make_gdl_player(*spec); !probe) {
    std::cerr << "arena ggp-player: " << probe.error() << "\n";
    return kExitUsage;
  }
  ggp::LogFn log;
  if (!o.quiet) log = [](const std::string& line) { std::cerr << "ggp-player: " << line << "\n"; };
  ggp::PlayerServiceOptions service_options;
  service_options.margin = std::chrono::milliseconds(o.margin_ms);
  service_options.log = log;
  service_options.name = "arena-" + (o.preset.empty() ? (o.spec.empty() ? "GDL_UCT" : *spec) : o.preset);
  auto service = std::make_shared<ggp::PlayerService>(
      [spec = *spec] { return gdl::make_gdl_player(spec); }, service_options);
  ggp::HttpServerOptions http_options;
  http_options.log = log;
  auto server = ggp::HttpServer::open(
      o.host, static_cast<unsigned short>(o.port),
      [service](std::string_view body, ggp::Clock::time_point received) {
        return service->handle(body, received);
      },
      http_options);
  if (!server) {
    std::cerr << "arena ggp-player: " << server.error() << "\n";
    return kExitFailure;
  }
  std::printf("listening on http://%s:%u (%s)\n", o.host.c_str(), (*server)->port(),
              spec->c_str());
  std::fflush(stdout);
  (*server)->run(/*handle_signals=*/true);
  return kExitOk;
}

}  // namespace

void add_ggp_player(CLI::App& app, Action& action) {
  auto o = std::make_shared<GgpPlayerOptions>();
  CLI::App* sub = app.add_subcommand("ggp-player", "serve a GDL player over the GGP HTTP protocol");
  sub->add_option("--port", o->port, "TCP port (0: a free one, printed)")->check(CLI::Range(0, 65535));
  sub->add_option("--host", o->host, "address to listen on (default 127.0.0.1)");
  sub->add_option("--preset", o->preset,
                  "GDL preset: GDL_UCT (default), GDL_Fuzzy, GDL_MCTS_PB, GDL_MCTS_Cutoff, "
                  "GDL_Fuzzy_AB, GDL_Random");
  sub->add_option(
      "--spec", o->spec,
      "GDL player spec instead of a preset: uct:c=0.7, fuzzy, mcts-pb:bias=1, fuzzy-ab, random");
  sub->add_option("--margin-ms", o->margin_ms,
                  "time kept back from each clock (default: a fifth, 100 ms to 2 s)")
      ->check(CLI::Range(0, 60000));
  sub->add_flag("--quiet", o->quiet, "no match events on stderr");
  sub->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace arena::cli
