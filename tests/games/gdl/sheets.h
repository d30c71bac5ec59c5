#pragma once
// The GDL tests' sheets: a file read into a shared Description (a sheet that does not read
// fails the test and gives null), from the tests' own folder (test_sheet) or from the project's
// copy of ggp-base's sheets (sheet); and term(), a ground term written as words.

#include <cstddef>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "games/gdl/reader/description.h"
#include "games/gdl/prover/state_machine.h"
#include "games/gdl/library/sheet_file.h"

namespace arena::gdl::test {

inline std::shared_ptr<const Description> load_file(const std::string& path) {
  auto d = read_description_file(path);
  EXPECT_TRUE(d.has_value()) << (d ? "" : d.error());
  if (!d) return nullptr;
  return std::make_shared<const Description>(std::move(*d));
}

inline std::shared_ptr<const Description> test_sheet(const std::string& name) {
  return load_file(std::string(ARENA_TEST_DATA_DIR) + "/gdl/" + name + ".kif");
}

inline std::shared_ptr<const Description> sheet(const std::string& name) {
  return load_file(std::string(ARENA_GDL_SHEETS_DIR) + "/" + name + ".kif");
}

// The ground term of "mark 1 1" (a function of constants) or "noop", as ggp-base's move().
inline TermId term(StateMachine& m, const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> parts;
  for (std::string w; in >> w;) parts.push_back(w);
  auto symbol = [&](const std::string& s) {
    Symbol out = 0;
    EXPECT_TRUE(m.description().symbols.find(s, out)) << s;
    return out;
  };
  std::vector<TermId> args;
  for (std::size_t i = 1; i < parts.size(); ++i) args.push_back(m.pool().constant(symbol(parts[i])));
  return m.pool().make(symbol(parts[0]), args);
}

}  // namespace arena::gdl::test
