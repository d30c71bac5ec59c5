#include "bots/lab/chess_tuning.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "bots/eval/chess_tapered.h"

namespace arena::lab {
namespace {

// The FEN's first four fields (board, side, castling, en passant): a position seen twice.
std::string position_key(const std::string& fen) {
  std::istringstream in(fen);
  std::string key, word;
  for (int i = 0; i < 4 && in >> word; ++i) key += word + " ";
  return key;
}

// The number after the ';' with nothing but spaces (or a '\r') after it.
Expected<double> parse_score(const std::string& text, const std::string& where) {
  try {
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    if (text.find_first_not_of(" \r", used) != std::string::npos)
      throw std::invalid_argument("trailing text");
    return value;
  } catch (const std::exception&) {
    return make_error(where + "'" + text + "' is not a number");
  }
}

}  // namespace

Expected<void> read_scored_positions(const std::string& path, bool results,
                                     std::size_t max_positions, ScoredPositions& into) {
  std::ifstream in(path);
  if (!in) return make_error("cannot read '" + path + "'");
  std::string line;
  std::size_t read = 0;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    if (max_positions > 0 && read >= max_positions) break;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    const auto semicolon = line.rfind(';');
    if (semicolon == std::string::npos) return make_error(where + "no ';' between FEN and score");
    const std::string fen = line.substr(0, semicolon);
    auto value = parse_score(line.substr(semicolon + 1), where);
    if (!value) return make_error(value.error());
    if (results && *value != 0 && *value != 0.5 && *value != 1)
      return make_error(where + "a result must be 1, 0.5 or 0, not " + line.substr(semicolon + 1));
    auto position = chess::Chess::deserialize(fen);
    if (!position) return make_error(where + position.error());
    ++read;
    if (!into.seen.insert(position_key(fen)).second) continue;
    into.positions.push_back(std::move(*position));
    into.targets.push_back(results ? *value : win_probability(*value, 1.0));
  }
  return {};
}

Expected<GameOptions> parse_fixed_weights(const std::vector<std::string>& items) {
  GameOptions fixed;
  for (const std::string& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      return make_error("--set '" + item + "' is not name=value");
    fixed[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return fixed;
}

FitStart fit_start(const std::vector<eval::WeightLine>& start, const GameOptions& fixed) {
  FitStart out;
  for (const auto& line : start) {
    if (fixed.count(line.name)) continue;
    out.names.push_back(line.name);
    out.weights.push_back(line.value);
  }
  return out;
}

SampleScorer tapered_scorer(const std::vector<std::string>& names, const GameOptions& fixed,
                            const ScoredPositions& samples) {
  return [&names, fixed, &samples](const std::vector<double>& weights,
                                   std::vector<int>& scores) -> Expected<void> {
    GameOptions params = fixed;
    char text[64];
    for (std::size_t i = 0; i < names.size(); ++i) {
      std::snprintf(text, sizeof text, "%.6g", weights[i]);
      params[names[i]] = text;
    }
    auto h = eval::make_chess_tapered_heuristic(params);
    if (!h) return make_error(h.error());
    const std::size_t n = samples.positions.size();
    auto run = [&](std::size_t from, std::size_t to) {
      for (std::size_t i = from; i < to; ++i) scores[i] = (*h)(samples.positions[i]);
    };
    std::thread other(run, 0, n / 2);
    run(n / 2, n);
    other.join();
    return {};
  };
}

std::string fitted_weights_text(const std::vector<std::string>& names, const TexelResult& fit,
                                const GameOptions& fixed, const std::string& source) {
  std::ostringstream text;
  text << "# chess tapered weights fitted by `arena tune` (bots/lab/texel.h) from " << source
       << "\n# on " << fit.train_positions << " positions; validation error "
       << fit.valid_error_start << " -> " << fit.valid_error << "\n";
  for (const auto& [name, value] : fixed) text << name << " " << value << "\n";
  for (std::size_t i = 0; i < names.size() && i < fit.weights.size(); ++i) {
    char line[128];
    std::snprintf(line, sizeof line, "%s %.4g\n", names[i].c_str(), fit.weights[i]);
    text << line;
  }
  return text.str();
}

}  // namespace arena::lab
