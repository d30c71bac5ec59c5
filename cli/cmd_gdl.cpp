// arena gdl: tools for GDL rule sheets.
//
//   arena gdl latches games/gdl/sheets/ticTacToe.kif
//   arena gdl latches FILE --two-step --timeout 120 --clingo /usr/bin/clingo
//   arena gdl latches FILE --asp            (print the ASP program instead of running it)
//   arena gdl table --write games/gdl/README.md   (every sheet: loaded, compiled, states/s)
//
// Exit status: 0 done; 1 the sheet is refused, clingo is missing, fails or times out; 2 bad flags.

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/library/latches.h"
#include "games/gdl/library/library.h"
#include "games/gdl/library/sheet_report.h"
#include "games/gdl/library/sheet_file.h"

namespace arena::cli {
namespace {

struct LatchesCommand {
  std::string file;
  gdl::LatchOptions options;
  bool no_base = false;
  bool print_asp = false;
};

void print_fluents(const char* title, const std::vector<gdl::TermId>& ids,
                   const gdl::TermPool& pool, const gdl::SymbolTable& symbols) {
  std::vector<std::string> texts;
  for (gdl::TermId id : ids) texts.push_back(pool.to_kif(id, symbols));
  std::sort(texts.begin(), texts.end());
  std::printf("%s (%zu):\n", title, texts.size());
  for (const std::string& text : texts) std::printf("  %s\n", text.c_str());
}

int run_latches(const LatchesCommand& o) {
  const auto start = std::chrono::steady_clock::now();
  auto description = gdl::read_description_file(o.file);
  if (!description) {
    std::cerr << "arena gdl latches: sheet refused: " << description.error() << "\n";
    return kExitFailure;
  }
  gdl::LatchOptions options = o.options;
  options.use_base = !o.no_base;
  if (o.print_asp) {
    auto program = gdl::latch_program(*description, options);
    if (!program) {
      std::cerr << "arena gdl latches: " << program.error() << "\n";
      return kExitFailure;
    }
    std::cout << *program;
    return kExitOk;
  }
  gdl::TermPool pool;
  auto latches = gdl::find_latches(*description, pool, options);
  if (!latches) {
    std::cerr << "arena gdl latches: " << latches.error() << "\n";
    return kExitFailure;
  }
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("sheet %s\ncandidate fluents %zu (%s)%s\n", o.file.c_str(), latches->fluents.size(),
              latches->from_base ? "the sheet's base" : "relaxed reachability",
              options.two_step ? ", two-step" : "");
  if (!latches->outside_base.empty())
    std::printf("the sheet's base misses %zu fluents the rules make (%s, ...): not used\n",
                latches->outside_base.size(),
                pool.to_kif(latches->outside_base.front(), description->symbols).c_str());
  if (!latches->any_transition)
    std::printf("no non-terminal state has a legal joint move: no latch is claimed\n");
  print_fluents("positive latches (once true, always true)", latches->positive, pool,
                description->symbols);
  print_fluents("negative latches (once false, always false)", latches->negative, pool,
                description->symbols);
  std::printf("time clingo %.3f s, latches %.3f s, total with reading the sheet %.3f s\n",
              latches->clingo_seconds, latches->seconds, total);
  return kExitOk;
}

void add_latches(CLI::App& gdl, Action& action) {
  auto o = std::make_shared<LatchesCommand>();
  CLI::App* sub = gdl.add_subcommand(
      "latches", "fluents that stay true (or false) once they are, found with clingo");
  sub->add_option("file", o->file, "the GDL sheet (.kif)")->required();
  sub->add_option("--clingo", o->options.clingo,
                  "the clingo program (Debian: apt-get install gringo)")
      ->capture_default_str();
  sub->add_option("--timeout", o->options.timeout_seconds, "seconds clingo may take")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 86400.0));
  sub->add_flag("--two-step", o->options.two_step,
                "examine only states that are initial or a successor (finds more latches)");
  sub->add_flag("--no-base", o->no_base,
                "ignore the sheet's base facts; candidates by relaxed reachability");
  sub->add_flag("--asp", o->print_asp, "print the ASP program given to clingo and stop");
  sub->callback([o, &action] { action = [o] { return run_latches(*o); }; });
}

struct TableCommand {
  std::string dir = gdl::default_gdl_directory();
  std::string write;
  gdl::SheetReportOptions options;
};

int run_table(const TableCommand& o) {
  std::error_code ec;
  if (!std::filesystem::is_directory(o.dir, ec)) {
    std::cerr << "arena gdl table: no folder " << o.dir << "\n";
    return kExitFailure;
  }
  auto reports_list = gdl::report_sheets(o.dir, o.options);
  const std::string table = gdl::sheet_table_markdown(reports_list);
  if (o.write.empty()) {
    std::cout << table;
    return kExitOk;
  }
  if (auto done = gdl::write_sheet_table(o.write, table); !done) {
    std::cerr << "arena gdl table: " << done.error() << "\n";
    return kExitFailure;
  }
  std::cout << table.substr(0, table.find('\n')) << "\nwritten into " << o.write << "\n";
  return kExitOk;
}

void add_table(CLI::App& gdl, Action& action) {
  auto o = std::make_shared<TableCommand>();
  CLI::App* sub = gdl.add_subcommand(
      "table", "every sheet of a folder: loaded or refused and why, compiled, states/s");
  sub->add_option("--dir", o->dir, "the folder of .kif sheets")->capture_default_str();
  sub->add_option("--write", o->write,
                  "replace the table in this Markdown file (games/gdl/README.md) instead of "
                  "printing it");
  sub->add_option("--seconds", o->options.seconds_per_sheet, "random playouts per sheet")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 60.0));
  sub->callback([o, &action] { action = [o] { return run_table(*o); }; });
}

}  // namespace

void add_gdl(CLI::App& app, Action& action) {
  CLI::App* gdl =
      app.add_subcommand("gdl", "tools for GDL rule sheets (gdl latches FILE, gdl table)");
  gdl->require_subcommand(1);
  add_latches(*gdl, action);
  add_table(*gdl, action);
}

}  // namespace arena::cli
