#pragma once
// A fresh directory under $TMPDIR (else /tmp) for one test, removed with everything in it
// afterwards.

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace arena::test {

class TempDir {
 public:
  // In `parent` when one is given (a test that drops its privileges needs a directory every
  // user can reach, which TMPDIR inside a private build directory may not be).
  explicit TempDir(const std::string& prefix = "arena-db-", const std::string& parent = "") {
    const std::filesystem::path base =
        parent.empty() ? std::filesystem::temp_directory_path() : std::filesystem::path(parent);
    std::string pattern = (base / (prefix + "XXXXXX")).string();
    path_ = mkdtemp(pattern.data()) ? pattern : std::string();
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// A path in this test program's own scratch directory, which is removed when the program exits.
inline std::string scratch_file(const std::string& name) {
  static const TempDir dir("arena-test-");
  return dir.file(name);
}

}  // namespace arena::test
