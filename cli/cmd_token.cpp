// arena token create NAME: a new authentication token for bot NAME (created if new). The store
// keeps only the token's SHA-256, so this is the one time it is shown.

#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "db/sqlite_store.h"

namespace arena::cli {
namespace {

struct TokenOptions {
  std::string name;
  std::string db = "arena.db";
};

int create_token(const TokenOptions& o) {
  // Before the file is opened, which creates it: a bad name leaves nothing behind.
  if (auto ok = db::check_player_name(o.name); !ok) {
    std::cerr << "arena token: " << ok.error() << "\n";
    return kExitFailure;
  }
  auto store = db::open_sqlite_store(o.db);
  if (!store) {
    std::cerr << "arena token: " << store.error() << "\n";
    return kExitFailure;
  }
  auto token = (*store)->create_bot_token(o.name);
  if (!token) {
    std::cerr << "arena token: " << token.error() << "\n";
    return kExitFailure;
  }
  std::cout << *token << "\n";
  std::cerr << "token for bot '" << o.name << "' (shown once; a new one revokes it): send it as "
            << "'Authorization: Bearer <token>'\n";
  return kExitOk;
}

}  // namespace

void add_token(CLI::App& app, Action& action) {
  auto o = std::make_shared<TokenOptions>();
  CLI::App* sub = app.add_subcommand("token", "manage bots' authentication tokens");
  sub->require_subcommand(1);
  CLI::App* create = sub->add_subcommand("create", "print a new token for bot NAME");
  create->add_option("name", o->name, "the bot's name (created if it does not exist)")->required();
  create->add_option("--db", o->db, "SQLite database file (created if missing)")
      ->capture_default_str();
  create->callback([o, &action] { action = [o] { return create_token(*o); }; });
}

}  // namespace arena::cli
