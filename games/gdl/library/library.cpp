#include "games/gdl/library/library.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <utility>

#include "games/gdl/propnet/compiled.h"
#include "games/gdl/prover/prover.h"
#include "games/gdl/library/sheet_file.h"

#ifndef ARENA_GDL_SHEETS_DIR
#define ARENA_GDL_SHEETS_DIR "games/gdl/sheets"
#endif

namespace arena::gdl {
namespace {

namespace fs = std::filesystem;

struct Loaded {
  fs::file_time_type mtime{};
  std::uintmax_t size = 0;
  std::shared_ptr<const Description> description;
  std::optional<std::string> compile_error;  // set once compiling failed
  std::shared_ptr<GdlContext> shared;        // the catalog's context
  // defer_gdl_compile: the shared context is being compiled elsewhere; until it is made, the
  // catalog's games use `prover`, made at once.
  bool deferred = false;
  std::shared_ptr<GdlContext> prover;
};

struct Library {
  std::mutex mutex;
  std::string directory;                                                  // "" = the default
  std::vector<std::pair<std::string, std::string>> files;                 // added: stem, path
  std::map<std::string, Loaded> loaded;                                   // by path
  std::map<std::string, std::pair<fs::file_time_type, int>> role_counts;  // by path
};

Library& library() {
  static Library lib;
  return lib;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool valid_stem(std::string_view s) {
  if (s.empty() || s.size() > 128) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
  });
}

std::string current_directory(const Library& lib) {
  return lib.directory.empty() ? default_gdl_directory() : lib.directory;
}

// The .kif files of `dir`: stem, path. Missing folder: none.
std::vector<std::pair<std::string, std::string>> list_folder(const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.extension() != ".kif" || !it->is_regular_file(ec)) continue;
    const std::string stem = p.stem().string();
    if (valid_stem(stem)) out.emplace_back(stem, p.string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Counts top-level facts "(role X)" without reading the rules: comments skipped, case folded.
int count_roles(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  int depth = 0, roles = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ';') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '(') {
      if (depth == 0) {
        std::size_t j = i + 1;
        while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
        if (lower(std::string_view(text).substr(j, 5)) == "role " ||
            lower(std::string_view(text).substr(j, 5)) == "role\t")
          ++roles;
      }
      ++depth;
    } else if (c == ')' && depth > 0) {
      --depth;
    }
  }
  return roles;
}

// Finds `name` among the added files, then the folder; the caller holds lib.mutex.
Expected<GdlSheet> find_locked(Library& lib, std::string_view name) {
  if (name.starts_with("gdl:")) name.remove_prefix(4);
  if (!valid_stem(name))
    return make_error("GDL sheet name '" + std::string(name) +
                      "': use letters, digits, '_', '-' or '.'");
  for (const auto& [stem, path] : lib.files)
    if (stem == name) return GdlSheet{stem, path, 0};
  const std::string dir = current_directory(lib);
  std::error_code ec;
  const fs::path exact = fs::path(dir) / (std::string(name) + ".kif");
  if (fs::is_regular_file(exact, ec)) return GdlSheet{std::string(name), exact.string(), 0};
  std::vector<std::pair<std::string, std::string>> matches;
  for (const auto& f : lib.files)
    if (lower(f.first) == lower(name)) matches.push_back(f);
  for (const auto& f : list_folder(dir))
    if (lower(f.first) == lower(name)) matches.push_back(f);
  if (matches.size() == 1) return GdlSheet{matches[0].first, matches[0].second, 0};
  if (matches.size() > 1)
    return make_error("GDL sheet '" + std::string(name) + "' is ambiguous: " + matches[0].first +
                      ", " + matches[1].first + " (use the exact name)");
  std::string where = "no GDL sheet '" + std::string(name) + "' in " + dir;
  if (!fs::is_directory(dir, ec)) where += " (the folder does not exist)";
  if (!lib.files.empty()) where += " or among the files added with --gdl";
  return make_error(where);
}

// The entry for `sheet`, read (again, when the file changed); the caller holds lib.mutex.
Expected<Loaded*> load_locked(Library& lib, const GdlSheet& sheet) {
  std::error_code ec;
  const auto mtime = fs::last_write_time(sheet.path, ec);
  const auto size = fs::file_size(sheet.path, ec);
  if (ec) return make_error("cannot read GDL sheet " + sheet.path + ": " + ec.message());
  auto it = lib.loaded.find(sheet.path);
  if (it != lib.loaded.end() && it->second.mtime == mtime && it->second.size == size)
    return &it->second;
  auto description = read_description_file(sheet.path);
  if (!description) return make_error(description.error());
  Loaded entry;
  entry.mtime = mtime;
  entry.size = size;
  entry.description = std::make_shared<const Description>(std::move(*description));
  auto& slot = lib.loaded[sheet.path];
  slot = std::move(entry);
  return &slot;
}

// Sheet `name` found (find_locked) and its entry read (load_locked); the caller holds lib.mutex.
struct Found {
  std::string path;
  Loaded* entry = nullptr;
};
Expected<Found> find_and_load_locked(Library& lib, std::string_view name) {
  auto sheet = find_locked(lib, name);
  if (!sheet) return make_error(sheet.error());
  auto entry = load_locked(lib, *sheet);
  if (!entry) return make_error(entry.error());
  return Found{sheet->path, *entry};
}

// Compiles when allowed and possible, else the prover. Runs without the library's lock (a
// large sheet compiles for seconds); `compile_error` is the remembered failure, if any.
Expected<std::unique_ptr<StateMachine>> build_machine(
    const std::shared_ptr<const Description>& description, Reasoner reasoner,
    const std::optional<std::string>& compile_error, std::string* new_compile_error) {
  if (reasoner != Reasoner::kProver && !compile_error) {
    auto compiled = make_compiled(description);
    if (compiled) return std::move(*compiled);
    if (new_compile_error != nullptr) *new_compile_error = compiled.error();
    if (reasoner == Reasoner::kCompiled) return make_error(compiled.error());
  } else if (reasoner == Reasoner::kCompiled) {
    return make_error(description->source + " does not compile: " + *compile_error);
  }
  return make_prover(description);
}

}  // namespace

std::string default_gdl_directory() {
  return ARENA_GDL_SHEETS_DIR;
}

void set_gdl_directory(std::string dir) {
  Library& lib = library();
  std::lock_guard lock(lib.mutex);
  lib.directory = std::move(dir);
}

std::string gdl_directory() {
  Library& lib = library();
  std::lock_guard lock(lib.mutex);
  return current_directory(lib);
}

Expected<std::string> add_gdl_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return make_error("GDL file " + path + " does not exist");
  const std::string stem = fs::path(path).stem().string();
  if (fs::path(path).extension() != ".kif")
    return make_error("GDL file " + path + ": the name must end in .kif");
  if (!valid_stem(stem))
    return make_error("GDL file " + path + ": its name '" + stem +
                      "' may hold only letters, digits, '_', '-' and '.'");
  Library& lib = library();
  std::lock_guard lock(lib.mutex);
  const std::string absolute = fs::absolute(path, ec).string();
  std::erase_if(lib.files, [&](const auto& f) { return f.first == stem; });
  lib.files.emplace_back(stem, ec ? path : absolute);
  return stem;
}

void clear_gdl_files() {
  Library& lib = library();
  std::lock_guard lock(lib.mutex);
  lib.files.clear();
}

std::vector<GdlSheet> gdl_sheets() {
  Library& lib = library();
  std::lock_guard lock(lib.mutex);
  std::vector<GdlSheet> out;
  for (const auto& [stem, path] : lib.files) out.push_back({stem, path, 0});
  for (const auto& [stem, path] : list_folder(current_directory(lib))) {
    const std::string& name = stem;  // clang 14 cannot capture a structured binding
    if (std::none_of(out.begin(), out.end(), [&](const GdlSheet& s) { return s.name == name; }))
      out.push_back({stem, path, 0});
  }
  std::sort(out.begin(), out.end(),
            [](const GdlSheet& a, const GdlSheet& b) { return a.name < b.name; });
  for (GdlSheet& s : out) {
    std::error_code ec;
    const auto mtime = fs::last_write_time(s.path, ec);
    auto& cached = lib.role_counts[s.path];
    if (cached.second == 0 || cached.first != mtime) cached = {mtime, count_roles(s.path)};
    s.roles = cached.second;
  }
  return out;
}

Expected<GdlSheet> find_gdl_sheet(std::string_view name) {
  Library& lib = library();
  std::lock_guard lock(lib.mutex);
  return find_locked(lib, name);
}

std::map<std::string, std::string> gdl_refused_sheets() {
  struct Checked {
    fs::file_time_type mtime{};
    std::uintmax_t size = 0;
    std::string refusal;  // empty: the reader takes it
  };
  // Its own lock, not the library's: a first scan reads every sheet, while games are made.
  static std::mutex mutex;
  static std::map<std::string, Checked> checked;  // by path
  std::map<std::string, std::string> out;
  std::lock_guard lock(mutex);
  for (const auto& sheet : gdl_sheets()) {
    std::error_code ec;
    const auto mtime = fs::last_write_time(sheet.path, ec);
    const auto size = ec ? 0 : fs::file_size(sheet.path, ec);
    if (ec) {
      out[sheet.name] = "cannot read GDL sheet " + sheet.path + ": " + ec.message();
      continue;
    }
    auto it = checked.find(sheet.path);
    if (it == checked.end() || it->second.mtime != mtime || it->second.size != size) {
      auto description = read_description_file(sheet.path);
      it = checked
               .insert_or_assign(sheet.path,
                                 Checked{mtime, size, description ? "" : description.error()})
               .first;
    }
    if (!it->second.refusal.empty()) out[sheet.name] = it->second.refusal;
  }
  return out;
}

Expected<std::shared_ptr<const Description>> load_gdl_description(std::string_view name) {
  Library& lib = library();
  std::lock_guard lock(lib.mutex);
  auto found = find_and_load_locked(lib, name);
  if (!found) return make_error(found.error());
  return found->entry->description;
}

std::string_view to_string(Reasoner r) {
  switch (r) {
    case Reasoner::kAuto:
      return "auto";
    case Reasoner::kCompiled:
      return "compiled";
    case Reasoner::kProver:
      return "prover";
  }
  return "auto";
}

Expected<Reasoner> parse_reasoner(std::string_view text) {
  for (Reasoner r : {Reasoner::kAuto, Reasoner::kCompiled, Reasoner::kProver})
    if (to_string(r) == text) return r;
  return make_error("unknown reasoner '" + std::string(text) + "' (auto, compiled, prover)");
}

Expected<std::unique_ptr<StateMachine>> make_gdl_machine(std::string_view name, Reasoner reasoner) {
  Library& lib = library();
  std::shared_ptr<const Description> description;
  std::optional<std::string> compile_error;
  std::string path;
  {
    std::lock_guard lock(lib.mutex);
    auto found = find_and_load_locked(lib, name);
    if (!found) return make_error(found.error());
    description = found->entry->description;
    compile_error = found->entry->compile_error;
    path = found->path;
  }
  std::string failed;
  auto machine = build_machine(description, reasoner, compile_error, &failed);
  if (!failed.empty()) {
    std::lock_guard lock(lib.mutex);
    auto it = lib.loaded.find(path);
    if (it != lib.loaded.end() && it->second.description == description)
      it->second.compile_error = failed;
  }
  return machine;
}

Expected<std::shared_ptr<GdlContext>> make_gdl_context(std::string_view name, Reasoner reasoner) {
  auto sheet = find_gdl_sheet(name);
  if (!sheet) return make_error(sheet.error());
  auto machine = make_gdl_machine(sheet->name, reasoner);
  if (!machine) return make_error(machine.error());
  return GdlContext::make(sheet->name, std::move(*machine));
}

namespace {

// A sheet's entry as read under the lock: what a context made without the lock is checked
// against before it is kept (the file may have changed meanwhile).
struct EntryRead {
  std::string path;
  std::shared_ptr<const Description> description;
};

// Finds and loads sheet `name` under the library's lock and calls `look(entry)` there: a context
// it returns is the answer; null asks the caller to make one (from `read`, filled then).
template <class Look>
Expected<std::shared_ptr<GdlContext>> look_up(std::string_view name, Look look, EntryRead& read) {
  Library& lib = library();
  std::lock_guard lock(lib.mutex);
  auto found = find_and_load_locked(lib, name);
  if (!found) return make_error(found.error());
  if (std::shared_ptr<GdlContext> context = look(*found->entry)) return context;
  read = {found->path, found->entry->description};
  return std::shared_ptr<GdlContext>();
}

// `context`, made without the lock, kept by `keep(entry, context)` (which returns what the
// caller gets) unless the sheet changed since `read`; then `context` itself.
template <class Keep>
std::shared_ptr<GdlContext> keep_made(const EntryRead& read, std::shared_ptr<GdlContext> context,
                                      Keep keep) {
  Library& lib = library();
  std::lock_guard lock(lib.mutex);
  auto it = lib.loaded.find(read.path);
  if (it == lib.loaded.end() || it->second.description != read.description) return context;
  return keep(it->second, std::move(context));
}

}  // namespace

Expected<std::shared_ptr<GdlContext>> shared_gdl_context(std::string_view name) {
  EntryRead read;
  auto found = look_up(name, [](const Loaded& e) { return e.shared; }, read);
  if (!found || *found) return found;
  // Made without the lock (compiling takes a while); two threads may both make one, the first
  // stored wins.
  auto context = make_gdl_context(name);
  if (!context) return context;
  return keep_made(read, std::move(*context), [](Loaded& e, std::shared_ptr<GdlContext> made) {
    if (!e.shared) e.shared = std::move(made);
    e.prover.reset();  // the games made on it keep it
    return e.shared;
  });
}

void defer_gdl_compile(std::string_view name) {
  Library& lib = library();
  std::lock_guard lock(lib.mutex);
  if (auto found = find_and_load_locked(lib, name); found && !found->entry->shared)
    found->entry->deferred = true;
}

namespace {

// The catalog's context of sheet `name`: the shared one, or while its compile is deferred
// (defer_gdl_compile) a shared prover's, made once.
Expected<std::shared_ptr<GdlContext>> catalog_context(std::string_view name) {
  EntryRead read;
  bool deferred = false;
  auto found = look_up(
      name,
      [&deferred](const Loaded& e) -> std::shared_ptr<GdlContext> {
        if (e.prover && !e.shared) return e.prover;
        deferred = e.deferred && !e.shared;
        return nullptr;
      },
      read);
  if (!found || *found) return found;
  if (!deferred) return shared_gdl_context(name);  // takes the lock itself
  auto context = make_gdl_context(name, Reasoner::kProver);
  if (!context) return context;
  return keep_made(read, std::move(*context), [](Loaded& e, std::shared_ptr<GdlContext> made) {
    if (e.shared) return e.shared;  // compiled meanwhile
    if (!e.prover) e.prover = std::move(made);
    return e.prover;
  });
}

}  // namespace

Expected<std::unique_ptr<AnyGame>> make_gdl_game(std::string_view name) {
  auto context = catalog_context(name);
  if (!context) return make_error(context.error());
  auto game = GdlGame::start(*context);
  if (!game) return make_error((*context)->game_name() + ": " + game.error());
  return std::unique_ptr<AnyGame>(std::move(*game));
}

Expected<std::unique_ptr<AnyGame>> load_gdl_game(std::string_view name, std::string_view position) {
  auto context = catalog_context(name);
  if (!context) return make_error(context.error());
  auto game = GdlGame::load(*context, position);
  if (!game) return make_error((*context)->game_name() + ": " + game.error());
  return std::unique_ptr<AnyGame>(std::move(*game));
}

}  // namespace arena::gdl
