// arena serve: the match server (HTTP + WebSocket on one port) until SIGINT/SIGTERM.

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "bots/client/house_bots.h"
#include "bots/client/search_player.h"
#include "bots/solver/puzzle_solver.h"
#include "cli/commands.h"
#include "cli/gdl_sheet_flags.h"
#include "db/memory_store.h"
#include "db/sqlite_store.h"
#include "games/catalog/catalog.h"
#include "games/gdl/library/library.h"
#include "server/net/connection_limit.h"
#include "server/net/origin.h"
#include "server/server.h"
#include "tournament/report/tournament_json.h"

namespace arena::cli {
namespace {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // checked to 0-65535
  std::string db = "arena.db";
  std::string web_root;
  int threads = 2;
  bool house_bots = false;
  bool illegal_move_loses = false;
  std::int64_t grace_ms = 30000;
  std::int64_t seek_ttl_ms = server::HubConfig{}.seek_ttl_ms;
  int idle_timeout_s = 60;
  std::string synchronous = "normal";
  int commit_window_us = 0;
  std::string move_journal = "on";
  std::size_t memory_games = db::MemoryStore::kDefaultKeptGames;  // --db :memory: only
  GdlSheetFlags sheets;  // gdl:NAME's folder and more sheets, gdl:STEM each
  int max_connections_per_address = server::kAutoConnectionsPerAddress;
  std::vector<std::string> allow_origins;  // as given; normalized by server_config
  std::int64_t guest_ttl_s = server::HubConfig{}.guest_ttl_ms / 1000;
  int guest_logins_per_minute = server::HubConfig{}.guest_logins_per_minute;
  bool limit_loopback_guests = false;
};

// The web/ folder: the flag, else a web/ with an index.html in the working directory or in
// a parent of the binary's directory (a build tree lives inside the source tree).
std::string find_web_root(const std::string& flag) {
  if (!flag.empty()) return flag;
  namespace fs = std::filesystem;
  if (fs::exists("web/index.html")) return fs::absolute("web").string();
  std::error_code ec;
  fs::path dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  for (int i = 0; i < 6 && !ec && !dir.empty(); ++i, dir = dir.parent_path()) {
    if (fs::exists(dir / "web" / "index.html")) return (dir / "web").string();
    if (dir == dir.parent_path()) break;
  }
  return "web";
}

// The store: in memory (--db :memory:) or the SQLite file with the flags' durability.
Expected<std::unique_ptr<db::Store>> open_store(const ServeOptions& o) {
  if (o.db == ":memory:")
    return std::unique_ptr<db::Store>(std::make_unique<db::MemoryStore>(o.memory_games));
  db::SqliteOptions options;
  options.synchronous_full = o.synchronous == "full";
  options.commit_window = std::chrono::microseconds(o.commit_window_us);
  options.move_journal = o.move_journal == "on";
  auto opened = db::open_sqlite_store(o.db, options);
  if (!opened) return make_error(opened.error());
  return std::unique_ptr<db::Store>(std::move(*opened));
}

server::ServerConfig server_config(const ServeOptions& o) {
  server::ServerConfig config;
  config.host = o.host;
  config.port = static_cast<unsigned short>(o.port);
  config.web_root = find_web_root(o.web_root);
  config.threads = o.threads;
  config.check_gdl_sheets_at_start = true;  // /api/catalog marks the sheets the reader refuses
  config.hub.illegal_move_loses = o.illegal_move_loses;
  config.hub.reconnect_grace_ms = o.grace_ms;
  config.hub.seek_ttl_ms = o.seek_ttl_ms;
  config.hub.idle_timeout_ms = std::int64_t{o.idle_timeout_s} * 1000;
  config.hub.max_connections_per_address = o.max_connections_per_address;
  config.hub.guest_ttl_ms = o.guest_ttl_s * 1000;
  config.hub.guest_logins_per_minute = o.guest_logins_per_minute;
  config.hub.limit_loopback_guests = o.limit_loopback_guests;
  for (const auto& origin : o.allow_origins)  // checked by the flag's validator
    config.hub.allowed_origins.push_back(
        origin == "*" ? origin : *server::normalize_origin(origin, /*trailing_slash=*/true));
  // Puzzle sessions learn their optimal length from IDA* when 2 million nodes settle it (all
  // 8-puzzles and short scrambles at once; a hard random 15-puzzle stays unknown).
  config.hub.optimal_length = [](std::string_view puzzle, std::string_view position) {
    return solver::optimal_puzzle_length(puzzle, position, 2'000'000);
  };
  // Tournaments in the same file (a league run with --db pointing here shows up live).
  if (o.db != ":memory:")
    config.hub.tournaments = [db = o.db](std::optional<std::int64_t> id) {
      return tournament::tournaments_json(db, id);
    };
  return config;
}

// House bots (bots/client): a token per bot from the store, then bot clients on threads of
// this process connected over loopback, each keeping a seek open for its game. Null (and why
// said) when they cannot start; the server runs on without them.
std::unique_ptr<client::HouseBots> start_house(const ServeOptions& o, db::Store& store,
                                               unsigned short port) {
  // Enough GDL house bots for the hosted sheet of the most roles (gdl_sheets counts them).
  int gdl_seats = 0;
  for (const auto& sheet : gdl::gdl_sheets()) gdl_seats = std::max(gdl_seats, sheet.roles);
  if (gdl_seats > client::kMaxGdlHouseSeats)
    std::cerr << "arena serve: house bots fill GDL games of at most " << client::kMaxGdlHouseSeats
              << " seats; the largest sheet here has " << gdl_seats << " roles\n";
  auto accounts = client::house_bot_accounts(gdl_seats);
  for (auto& a : accounts)
    if (auto token = store.create_bot_token(a.name); token) a.token = *token;
  const std::string host = o.host == "0.0.0.0" || o.host == "::" ? "127.0.0.1" : o.host;
  auto started =
      client::start_house_bots("ws://" + host + ":" + std::to_string(port) + "/ws", accounts);
  if (started) return std::move(*started);
  std::cerr << "arena serve: no house bots: " << started.error() << "\n";
  return nullptr;
}

int run_serve(const ServeOptions& o) {
  // A server outlives whoever reads its output: a closed stdout or a clingo child that died
  // makes a write fail (EPIPE), not the server.
  std::signal(SIGPIPE, SIG_IGN);
  if (!apply_gdl_sheet_flags(o.sheets, "serve")) return kExitUsage;
  auto store = open_store(o);
  if (!store) {
    std::cerr << "arena serve: " << store.error() << "\n";
    return kExitFailure;
  }
  const server::ServerConfig config = server_config(o);
  server::Server server(config, **store);
  if (auto started = server.start(); !started) {
    std::cerr << "arena serve: " << started.error() << "\n";
    return kExitFailure;
  }
  // The line that says where it listens comes last and in the same write as the one before:
  // scripts and tests read up to it and may then close the pipe.
  const int per_address = o.max_connections_per_address < 0 ? server::auto_connections_per_address()
                                                            : o.max_connections_per_address;
  std::cout << "arena serve: at most "
            << (per_address > 0 ? std::to_string(per_address) : std::string("unlimited"))
            << " connections per address; WebSocket pages from this server's origin"
            << (o.allow_origins.empty() ? std::string("")
                                        : " and " + std::to_string(o.allow_origins.size()) +
                                              " allowed origin(s)")
            << "\narena serve: listening on http://" << o.host << ":" << server.port()
            << "/ (WebSocket /ws), web root " << config.web_root << ", db " << o.db << std::endl;
  std::unique_ptr<client::HouseBots> house;
  if (o.house_bots) house = start_house(o, **store, server.port());
  // Wait for SIGINT/SIGTERM on a private io_context, then shut down in order.
  boost::asio::io_context signals_ioc;
  boost::asio::signal_set signals(signals_ioc, SIGINT, SIGTERM);
  signals.async_wait([](boost::system::error_code, int) {});
  signals_ioc.run();
  std::cout << "arena serve: shutting down (closing clients, flushing the store)" << std::endl;
  if (house) house->stop();  // before the server, so they leave as clients
  server.stop();
  (*store)->flush();
  std::cout << "arena serve: stopped" << std::endl;
  return kExitOk;
}

// Where it listens, what it stores in, what it serves, on how many threads.
void add_listen_flags(CLI::App* sub, ServeOptions& o) {
  sub->add_option("--host", o.host, "address to listen on")->capture_default_str();
  sub->add_option("--port", o.port, "port (0: any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  sub->add_option("--db", o.db, "SQLite file, or :memory: for a throw-away store")
      ->capture_default_str();
  sub->add_option("--web-root", o.web_root,
                  "folder served at / (default: the web/ folder found nearby)");
  sub->add_option("--threads", o.threads, "I/O threads")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
}

// How long a game waits for a player who went away, a seek for a taker, a silent socket.
void add_wait_flags(CLI::App* sub, ServeOptions& o) {
  sub->add_option("--grace-ms", o.grace_ms,
                  "after a disconnection this long the opponent may claim the win")
      ->capture_default_str();
  sub->add_option("--seek-ttl-ms", o.seek_ttl_ms,
                  "an open seek nobody took is dropped from the lobby after this long (house "
                  "bots open another)")
      ->check(CLI::Range(std::int64_t{1000}, std::int64_t{7} * 24 * 3600 * 1000))
      ->capture_default_str();
  sub->add_option("--idle-timeout", o.idle_timeout_s,
                  "seconds: a WebSocket that sent nothing this long is closed (pinged at half)")
      ->check(CLI::Range(2, 86400))
      ->capture_default_str();
}

// SQLite's durability and group commit; the memory store's bound.
void add_store_flags(CLI::App* sub, ServeOptions& o) {
  sub->add_option("--synchronous", o.synchronous,
                  "SQLite durability: normal (a move survives the server being killed; the "
                  "default) or full (also a power cut; every move waits for a disk sync, and "
                  "there is no move journal)")
      ->check(CLI::IsMember({"normal", "full"}))
      ->capture_default_str();
  sub->add_option("--move-journal", o.move_journal,
                  "with --synchronous normal: on (a move is durable once appended to the file "
                  "<db>-moves-N and is stored in SQLite soon after, many per commit) or off "
                  "(every move waits for its own commit)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  sub->add_option("--commit-window-us", o.commit_window_us,
                  "group commit: hold writes that arrive close together up to this long so "
                  "that they share one SQLite commit (less CPU per write, more latency); 0 "
                  "commits at once")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  sub->add_option("--memory-games", o.memory_games,
                  "with --db :memory:: the finished games kept (older ones are dropped, so a "
                  "long run stays bounded; about 8 KB per 60-move game); 0 keeps every game")
      ->capture_default_str();
}

// What one client address may do: connections, guests; which pages' origins may connect.
void add_client_limit_flags(CLI::App* sub, ServeOptions& o) {
  sub->add_option("--max-connections-per-address", o.max_connections_per_address,
                  "connections one client address may hold at once, loopback included, as "
                  "nginx's limit_conn: one more is refused with 503 naming the cap; 0: no cap "
                  "(default: three quarters of the descriptor limit, ulimit -n)")
      ->check(CLI::Range(0, 1 << 20));
  sub->add_option("--guest-ttl", o.guest_ttl_s,
                  "seconds: a guest who never played is deleted from the store this long after "
                  "it first said hello, unless online (checked every minute); 0: never")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{10} * 365 * 24 * 3600))
      ->capture_default_str();
  sub->add_option("--guest-logins-per-minute", o.guest_logins_per_minute,
                  "new guests one client address may make a minute (a token bucket); over it "
                  "a hello is refused with rate_limited; 0: no limit. Bots with tokens are "
                  "never limited; loopback only with --limit-loopback-guests")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  sub->add_flag("--limit-loopback-guests", o.limit_loopback_guests,
                "apply --guest-logins-per-minute to loopback addresses too (behind a reverse "
                "proxy on the same machine every client is loopback)");
  sub->add_option("--allow-origin", o.allow_origins,
                  "a page origin (scheme://host[:port]) that may open a WebSocket besides this "
                  "server's own (its Host); repeatable; '*' allows all, 'null' sandboxed pages. "
                  "An upgrade with another Origin gets 403; one without (a bot) is not checked")
      ->check([](const std::string& value) -> std::string {
        if (value == "*") return "";
        auto origin = server::normalize_origin(value, /*trailing_slash=*/true);
        return origin ? "" : origin.error();
      });
}

}  // namespace

void add_serve(CLI::App& app, Action& action) {
  auto o = std::make_shared<ServeOptions>();
  CLI::App* sub =
      app.add_subcommand("serve", "run the match server (HTTP + WebSocket on one port)");
  // In the order --help lists them.
  add_listen_flags(sub, *o);
  add_wait_flags(sub, *o);
  add_store_flags(sub, *o);
  add_client_limit_flags(sub, *o);
  sub->add_flag("--illegal-move-loses", o->illegal_move_loses,
                "an illegal move loses the game (for leagues) instead of being refused");
  add_gdl_sheet_flags(sub, o->sheets);
  sub->add_flag("--house-bots", o->house_bots,
                "start house bots: two strengths per game, each keeping a seek open");
  sub->callback([o, &action] { action = [o] { return run_serve(*o); }; });
}

}  // namespace arena::cli
