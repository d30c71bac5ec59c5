#pragma once
// The two flags every command that takes `gdl:NAME` shares: --gdl-dir DIR (the folder gdl:NAME
// looks in) and --gdl FILE (a sheet anywhere, then gdl:STEM; repeatable). They set the GDL
// library's process-wide folder and files (games/gdl/library/library.h).

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace arena::cli {

struct GdlSheetFlags {
  std::string dir;
  std::vector<std::string> files;
};

void add_gdl_sheet_flags(CLI::App* sub, GdlSheetFlags& flags);

// Sets the folder and adds the files. On a file that cannot be added, or two different files
// that would both be gdl:STEM, prints "arena COMMAND: <why>" and returns false.
bool apply_gdl_sheet_flags(const GdlSheetFlags& flags, std::string_view command);

// The same flags for a child process (the local server and bots of a league), with absolute
// paths; empty when none was given.
std::vector<std::string> gdl_sheet_args(const GdlSheetFlags& flags);

}  // namespace arena::cli
