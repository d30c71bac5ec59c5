#include "cli/gdl_sheet_flags.h"

#include <filesystem>
#include <iostream>
#include <map>

#include "games/gdl/library/library.h"

namespace arena::cli {

void add_gdl_sheet_flags(CLI::App* sub, GdlSheetFlags& flags) {
  sub->add_option("--gdl-dir", flags.dir,
                  "folder of GDL sheets: gdl:NAME is NAME.kif there (default: games/gdl/sheets)");
  sub->add_option("--gdl", flags.files, "a GDL sheet file, then gdl:STEM (repeatable)");
}

bool apply_gdl_sheet_flags(const GdlSheetFlags& flags, std::string_view command) {
  if (!flags.dir.empty()) gdl::set_gdl_directory(flags.dir);
  std::map<std::string, std::string> file_of;  // stem -> the file that is gdl:STEM
  for (const auto& file : flags.files) {
    auto added = gdl::add_gdl_file(file);
    if (!added) {
      std::cerr << "arena " << command << ": " << added.error() << "\n";
      return false;
    }
    const auto [it, fresh] = file_of.emplace(*added, file);
    std::error_code ec;
    if (!fresh && !std::filesystem::equivalent(it->second, file, ec)) {
      std::cerr << "arena " << command << ": --gdl " << it->second << " and --gdl " << file
                << " would both be gdl:" << *added << "; rename one\n";
      return false;
    }
  }
  return true;
}

std::vector<std::string> gdl_sheet_args(const GdlSheetFlags& flags) {
  const auto absolute = [](const std::string& path) {
    std::error_code ec;
    const auto a = std::filesystem::absolute(path, ec);
    return ec ? path : a.string();
  };
  std::vector<std::string> args;
  if (!flags.dir.empty()) args.insert(args.end(), {"--gdl-dir", absolute(flags.dir)});
  for (const auto& file : flags.files) args.insert(args.end(), {"--gdl", absolute(file)});
  return args;
}

}  // namespace arena::cli
