#include "games/gdl/library/sheet_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "games/gdl/reader/kif_reader.h"

namespace arena::gdl {

Expected<Description> read_description_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    return make_error("cannot read GDL sheet " + path + ": not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot read GDL sheet " + path + ": " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  if (size < 0) return make_error("cannot read GDL sheet " + path + ": not a regular file");
  if (static_cast<std::size_t>(size) > kMaxKifBytes)
    return make_error(path + ": " + std::to_string(static_cast<long long>(size)) +
                      " bytes; sheets are limited to " + std::to_string(kMaxKifBytes) + " bytes");
  in.seekg(0, std::ios::beg);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return make_error("cannot read GDL sheet " + path + ": read error");
  return read_description(text.str(), path);
}

}  // namespace arena::gdl
