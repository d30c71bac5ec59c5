#include "games/catalog/catalog.h"

#include <map>

#include "games/catalog/game_types.h"
#include "games/gdl/library/library.h"

namespace arena {
namespace {

template <class G>
std::string title_of() {
  if constexpr (requires { G::kTitle; }) {
    return std::string(G::kTitle);
  } else {
    return std::string(G::kName);
  }
}

template <class G>
std::string options_help_of() {
  if constexpr (requires { G::kOptionsHelp; }) {
    return std::string(G::kOptionsHelp);
  } else {
    return "";
  }
}

struct Alias {
  std::string_view alias;
  std::string_view name;
  std::string_view key;
  std::string_view value;
};

constexpr Alias kAliases[] = {
    {"8-puzzle", "sliding", "size", "3"},
    {"15-puzzle", "sliding", "size", "4"},
    {"24-puzzle", "sliding", "size", "5"},
    {"tic-tac-toe", "tictactoe", "", ""},
    {"4x4x4", "qubic", "", ""},
    {"rubiks-cube", "rubik", "", ""},
};

}  // namespace

std::vector<GameInfo> game_catalog() {
  std::vector<GameInfo> out;
  for_each_game_type([&]<class G>(std::type_identity<G>) {
    out.push_back({std::string(G::kName), title_of<G>(), G::kNumPlayers, options_help_of<G>(), ""});
  });
  return out;
}

std::vector<GameInfo> gdl_game_catalog(bool check_sheets) {
  std::vector<GameInfo> out;
  // Listed, not loaded: a sheet that does not load says so when a game of it is made.
  const auto refused =
      check_sheets ? gdl::gdl_refused_sheets() : std::map<std::string, std::string>{};
  for (const auto& sheet : gdl::gdl_sheets()) {
    auto it = refused.find(sheet.name);
    out.push_back({"gdl:" + sheet.name, sheet.name + " (GDL)", sheet.roles, "",
                   it == refused.end() ? "" : it->second});
  }
  return out;
}

std::string known_game_names(bool with_gdl) {
  std::string out;
  for_each_game_type([&]<class G>(std::type_identity<G>) {
    if (!out.empty()) out += ", ";
    out += G::kName;
  });
  if (!with_gdl) return out;
  return out + ", gdl:NAME (NAME.kif in " + gdl::gdl_directory() + ")";
}

bool is_gdl_game(std::string_view name) {
  return name.starts_with("gdl:");
}

bool has_gdl_sheet(std::string_view name) {
  return is_gdl_game(name) && gdl::find_gdl_sheet(name.substr(4)).has_value();
}

void set_gdl_directory(std::string dir) {
  gdl::set_gdl_directory(std::move(dir));
}

Expected<std::string> add_gdl_file(const std::string& path) {
  auto stem = gdl::add_gdl_file(path);
  if (!stem) return stem;
  return "gdl:" + *stem;
}

Expected<std::string> resolve_game(std::string_view name, std::string_view options_text,
                                   GameOptions& options) {
  std::string kind = resolve_game_name(name, options);
  if (options_text.empty()) return kind;
  auto parsed = parse_game_options(options_text);
  if (!parsed) return make_error(parsed.error());
  for (const auto& [k, v] : *parsed) options[k] = v;
  return kind;
}

std::string resolve_game_name(std::string_view name, GameOptions& options) {
  if (is_gdl_game(name)) {  // the sheet's own spelling: gdl:TicTacToe finds tictactoe.kif
    auto sheet = gdl::find_gdl_sheet(name.substr(4));
    return sheet ? "gdl:" + sheet->name : std::string(name);
  }
  for (const auto& a : kAliases) {
    if (a.alias != name) continue;
    if (!a.key.empty()) options.try_emplace(std::string(a.key), std::string(a.value));
    return std::string(a.name);
  }
  // tic-tac-toe variants are one game kind in the lobby: variant=4x4x4 means qubic.
  if (name == "tictactoe") {
    auto it = options.find("variant");
    if (it != options.end() && (it->second == "4x4x4" || it->second == "qubic")) {
      options.erase(it);
      return "qubic";
    }
    if (it != options.end() && it->second == "3x3") options.erase(it);
  }
  return std::string(name);
}

Expected<std::unique_ptr<AnyGame>> make_game(std::string_view name, const GameOptions& options) {
  GameOptions opts = options;
  std::string canonical = resolve_game_name(name, opts);
  if (is_gdl_game(canonical)) {
    if (!opts.empty())
      return make_error(canonical + ": GDL games take no options ('" + opts.begin()->first +
                        "' given)");
    return gdl::make_gdl_game(canonical);
  }
  Expected<std::unique_ptr<AnyGame>> result =
      make_error("unknown game '" + std::string(name) + "' (known: " + known_game_names() + ")");
  visit_game_type(canonical, [&]<class G>(std::type_identity<G>) {
    auto game = G::create(opts);
    if (!game) {
      result = make_error(std::string(G::kName) + ": " + game.error());
      return;
    }
    result = std::unique_ptr<AnyGame>(std::make_unique<GameAdapter<G>>(std::move(*game)));
  });
  return result;
}

void defer_game_compile(std::string_view name) {
  GameOptions ignored;
  if (const std::string canonical = resolve_game_name(name, ignored); is_gdl_game(canonical))
    gdl::defer_gdl_compile(canonical);
}

void compile_game(std::string_view name) {
  GameOptions ignored;
  if (const std::string canonical = resolve_game_name(name, ignored); is_gdl_game(canonical))
    (void)gdl::shared_gdl_context(canonical);  // a sheet that fails says so at its next make
}

Expected<std::unique_ptr<AnyGame>> load_game(std::string_view name, std::string_view position) {
  GameOptions ignored;
  std::string canonical = resolve_game_name(name, ignored);
  if (is_gdl_game(canonical)) return gdl::load_gdl_game(canonical, position);
  Expected<std::unique_ptr<AnyGame>> result =
      make_error("unknown game '" + std::string(name) + "' (known: " + known_game_names() + ")");
  visit_game_type(canonical, [&]<class G>(std::type_identity<G>) {
    auto game = G::deserialize(position);
    if (!game) {
      result = make_error(std::string(G::kName) + " position '" + std::string(position) +
                          "': " + game.error());
      return;
    }
    result = std::unique_ptr<AnyGame>(std::make_unique<GameAdapter<G>>(std::move(*game)));
  });
  return result;
}

Expected<GameOptions> parse_game_options(std::string_view text) {
  GameOptions out;
  while (!text.empty()) {
    auto comma = text.find(',');
    std::string_view part = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    if (part.empty()) continue;
    auto eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0)
      return make_error("option '" + std::string(part) + "' is not of the form key=value");
    out[std::string(part.substr(0, eq))] = std::string(part.substr(eq + 1));
  }
  return out;
}

}  // namespace arena
