#pragma once
// The GDL tests' sheets: a file read into a shared Description (a sheet that does not read
// fails the test and gives null), from the tests' own folder (test_sheet) or from the project's
// copy of ggp-base's sheets (sheet).

#include <memory>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "games/gdl/description.h"

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

}  // namespace arena::gdl::test
