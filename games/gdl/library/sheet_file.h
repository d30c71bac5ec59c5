#pragma once
// Stage: the library (file and process I/O). A sheet read from a file and then through the
// reader (read_description, games/gdl/reader/description.h).

#include <string>

#include "games/core/expected.h"
#include "games/gdl/reader/description.h"

namespace arena::gdl {

// Reads the file at `path`; errors name the path when it cannot be read, and files larger than
// the reader takes (kMaxKifBytes) are refused before they are read.
Expected<Description> read_description_file(const std::string& path);

}  // namespace arena::gdl
