// arena export: every stored game in the standard format of its kind (PGN for chess, PDN for
// checkers) or as JSON, to a file or standard output.

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "db/game_export.h"
#include "db/sqlite_store.h"

namespace arena::cli {
namespace {

struct ExportOptions {
  std::string db;
  std::string format;
  std::string game;
  std::string out;
};

int run_export(const ExportOptions& o) {
  auto format = db::parse_export_format(o.format);
  if (!format) {
    std::cerr << "arena export: " << format.error() << "\n";
    return kExitUsage;
  }
  if (!std::filesystem::exists(o.db)) {
    std::cerr << "arena export: no database file " << o.db << "\n";
    return kExitFailure;
  }
  auto store = db::open_sqlite_store(o.db);
  if (!store) {
    std::cerr << "arena export: " << store.error() << "\n";
    return kExitFailure;
  }
  std::ofstream file;
  if (!o.out.empty()) {
    file.open(o.out, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "arena export: cannot write " << o.out << "\n";
      return kExitFailure;
    }
  }
  std::ostream& out = o.out.empty() ? std::cout : file;
  auto written = db::export_games(**store, *format, o.game, out);
  if (!written) {
    std::cerr << "arena export: " << written.error() << "\n";
    return kExitFailure;
  }
  out.flush();
  if (!out) {
    std::cerr << "arena export: cannot write " << (o.out.empty() ? "standard output" : o.out)
              << "\n";
    return kExitFailure;
  }
  std::cerr << "arena export: " << *written << " games";
  if (*written == 0 && *format != db::ExportFormat::kJson) {
    // PGN and PDN hold one kind each: say what the file has instead.
    auto stored = (*store)->stored_kinds();
    const std::vector<std::string> kinds = stored ? *stored : std::vector<std::string>{};
    const bool pgn = *format == db::ExportFormat::kPgn;
    std::cerr << " (" << (pgn ? "PGN" : "PDN") << " holds " << (pgn ? "chess" : "checkers")
              << " games; stored here: " << list_or_none(kinds)
              << (kinds.empty() ? "" : "; --format json writes every kind") << ")";
  }
  std::cerr << "\n";
  return kExitOk;
}

}  // namespace

void add_export(CLI::App& app, Action& action) {
  auto o = std::make_shared<ExportOptions>();
  CLI::App* sub = app.add_subcommand("export", "write stored games as PGN, PDN or JSON");
  sub->add_option("--db", o->db, "SQLite database file")->required();
  sub->add_option("--format,-f", o->format, "pgn (chess), pdn (checkers) or json (every game)")
      ->required();
  sub->add_option("--game,-g", o->game, "only games of this kind");
  sub->add_option("--out,-o", o->out, "output file (default: standard output)");
  sub->callback([o, &action] { action = [o] { return run_export(*o); }; });
}

}  // namespace arena::cli
