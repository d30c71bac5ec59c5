#include "games/gdl/description.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "games/gdl/kif_reader.h"
#include "games/gdl/validate.h"

namespace arena::gdl {

std::vector<Symbol> Description::roles() const {
  std::vector<Symbol> out;
  for (const Rule& rule : rules) {
    if (!rule.body.empty() || rule.head.name != SymbolTable::kRole || rule.head.args.size() != 1)
      continue;
    const Term& role = rule.head.args[0];
    if (role.kind == Term::Kind::kConstant) out.push_back(role.name);
  }
  return out;
}

std::string Description::rule_text(const Rule& rule) const {
  if (rule.body.empty()) return to_kif(rule.head, symbols);
  std::string out = "(<= " + to_kif(rule.head, symbols);
  for (const Term& literal : rule.body) out += " " + to_kif(literal, symbols);
  return out + ")";
}

Expected<Description> read_description(std::string_view text, std::string_view source) {
  Description description;
  description.source = std::string(source);
  auto rules = parse_kif(text, source, description.symbols);
  if (!rules) return make_error(rules.error());
  description.rules = std::move(*rules);
  if (auto valid = validate_description(description); !valid) return make_error(valid.error());
  return description;
}

Expected<Description> read_description_file(const std::string& path) {
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
