#pragma once
// The weights-file format of bots/eval/weights/*.txt: one "name value" pair a line, '#' starts
// a comment anywhere on a line, blank lines are skipped. These functions split a file into its
// pairs; what the names mean (which exist, which may be missing) is the caller's: the chess
// and qubic heuristics' loaders and `arena learn --start` (bots/lab/feature_set.h).

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "games/core/expected.h"
#include "games/core/fnv1a.h"
#include "games/core/types.h"

namespace arena::eval {

struct WeightLine {
  std::string name;
  double value = 0;
  std::string where;  // "<source>:<line>: ", or "line <n>: " without a source, for errors
};

// The pairs in order. The error says where and which name needs one finite number.
inline Expected<std::vector<WeightLine>> read_weight_lines(const std::string& text,
                                                           const std::string& source = "") {
  std::vector<WeightLine> out;
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = line.substr(0, line.find('#'));
    std::istringstream fields(line);
    std::string name, value, extra;
    if (!(fields >> name)) continue;
    const std::string where = source.empty() ? "line " + std::to_string(number) + ": "
                                             : source + ":" + std::to_string(number) + ": ";
    double v = 0;
    const bool two_fields = (fields >> value) && !(fields >> extra);
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (!two_fields || ec != std::errc() || end != value.data() + value.size() || !std::isfinite(v))
      return make_error(where + "'" + name + "' needs one finite number, not '" +
                        line.substr(line.find(name) + name.size()) + "'");
    out.push_back({name, v, where});
  }
  return out;
}

// One weight given as a parameter, key=text: the number, or an error naming the key and text.
inline Expected<double> parse_weight_parameter(std::string_view key, std::string_view text) {
  double value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(value)) {
    return make_error("parameter " + std::string(key) + ": '" + std::string(text) +
                      "' is not a number");
  }
  return value;
}

// The same from the file at `path`; an error if it cannot be read.
inline Expected<std::vector<WeightLine>> read_weights_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return make_error("cannot read weights file '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  return read_weight_lines(text.str(), path);
}

// The weights `W` read from the file at `path`, each pair given to set(w, name, value), which
// returns Expected<void>; its error is reported with the pair's place in the file.
template <class W, class Set>
Expected<W> load_weights_file(const std::string& path, Set set) {
  auto lines = read_weights_file(path);
  if (!lines) return make_error(lines.error());
  W w;
  for (const WeightLine& l : *lines)
    if (auto ok = set(w, l.name, l.value); !ok) return make_error(l.where + ok.error());
  return w;
}

// What tells two versions of a heuristic apart when its weights come from a file (the parameter
// weights=<file>): the file's text, or, when that is longer than `max_bytes`, its length and
// FNV-1a hash. The same spec over an edited file is then a new bot version. "" without the
// parameter or when the file cannot be read (the heuristic's loader says why).
inline std::string weights_parameters(const GameOptions& params, std::size_t max_bytes) {
  const auto it = params.find("weights");
  if (it == params.end()) return "";
  std::ifstream in(it->second);
  if (!in) return "";
  std::stringstream read;
  read << in.rdbuf();
  std::string text = read.str();
  if (text.size() <= max_bytes) return text;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(fnv1a({bytes, text.size()})));
  return "weights file of " + std::to_string(text.size()) + " bytes, fnv1a64 " + hash;
}

}  // namespace arena::eval
