// League configs: the body of POST /api/tournaments (any caller with a bot token) and the
// files `arena league` reads (leagues/*.json).
// Promises: no crash, leak or undefined behaviour for any text (numbers of any size and type
// included); a config that is accepted passes validate() and writes to JSON (to_json_text, as
// the server stores it) that reads back to the same config.

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/fuzz_check.h"
#include "tournament/config/league_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace arena::tournament;
  if (size > 65536) return -1;  // the server's body limit
  auto config = parse_league_config(std::string(reinterpret_cast<const char*>(data), size));
  if (!config) {
    FUZZ_CHECK(!config.error().empty());
    return 0;
  }
  FUZZ_CHECK(validate(*config).has_value());
  const std::string stored = to_json_text(*config);
  auto again = parse_league_config(stored);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(to_json_text(*again) == stored);
  return 0;
}
