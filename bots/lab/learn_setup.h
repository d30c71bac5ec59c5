#pragma once
// The choices a learning run makes beyond LearnOptions, checked against the game's feature set
// (what `arena learn` takes from its flags): the search that values positions (a fixed-depth
// alpha-beta or minimax spec; unset: the game's default), the batch size and the scale rule
// (unset: the game's defaults) and the weights of the first batch. Errors name the choice and
// why it cannot be (the flag's name, as a user gives it).

#include <optional>
#include <string>

#include "bots/lab/feature_set.h"
#include "bots/lab/learn.h"
#include "bots/search/spec.h"
#include "games/core/expected.h"

namespace arena::lab {

struct LearnChoices {
  std::optional<std::string> search;  // else FeatureSet::default_search
  std::optional<int> batch_plies;     // else FeatureSet::default_batch_plies
  std::optional<bool> fixed_scale;    // else FeatureSet::default_fixed_scale
  // "classical" (the feature set's initial weights), "ones", or the text of a weights file
  // (start_file names it in errors).
  std::string start = "classical";
  std::string start_file;
};

// The search text the run uses (the choice, or the game's default).
template <class G>
std::string learn_search_text(const FeatureSet<G>& fs, const LearnChoices& c) {
  return c.search ? *c.search : fs.default_search;
}

template <class G>
Expected<LearnOptions> resolve_learn_options(const FeatureSet<G>& fs, LearnOptions options,
                                             const LearnChoices& c) {
  const std::string search_text = learn_search_text(fs, c);
  auto spec = search::parse_search_spec(search_text);
  if (!spec) return make_error("--search: " + spec.error());
  if (spec->algorithm != search::Algorithm::kAlphaBeta &&
      spec->algorithm != search::Algorithm::kMinimax)
    return make_error("--search: '" + search_text +
                      "' is not a fixed-depth search (use alphabeta:depth=N[,qsearch])");
  options.depth = spec->depth > 0 ? spec->depth : 2;
  options.quiescence = spec->quiescence;
  if (options.rows == LearnRows::kTree && options.depth < 2)
    return make_error("--rows tree needs a search of depth 2 or more ('" + search_text +
                      "'): a child's value is a search of depth - 1");
  options.batch_plies = c.batch_plies.value_or(fs.default_batch_plies);
  options.fixed_scale = c.fixed_scale.value_or(fs.default_fixed_scale);
  if (options.fixed_scale && fs.start_counts.empty())
    return make_error(std::string("--fixed-scale: the ") + std::string(G::kName) +
                      " features are not piece counts, so there is no initial material to keep "
                      "(use --free-scale)");
  if (c.start == "ones") {
    options.start_weights.assign(fs.names.size(), 1.0);
  } else if (c.start != "classical") {
    auto weights = parse_weights_text(c.start, fs.names);
    if (!weights) return make_error("--start " + c.start_file + ": " + weights.error());
    options.start_weights = std::move(*weights);
  }
  return options;
}

}  // namespace arena::lab
