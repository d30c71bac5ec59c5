// League configs (tournament/config/league_config.h): what fuzz/league_config.cpp found, each a
// config that a POST /api/tournaments body or a leagues/*.json file can hold.

#include <string>

#include <gtest/gtest.h>

#include "tournament/config/league_config.h"

namespace arena::tournament {
namespace {

// A number too large for a double is nlohmann's out_of_range, not its parse_error: it escaped
// parse_league_config and ended the process (the server's, for a POST body).
TEST(LeagueConfig, ANumberTooLargeForADoubleIsAnErrorNotAnException) {
  const auto config = parse_league_config(R"({"game": "isolation", "seed": 1e999})");
  ASSERT_FALSE(config);
  EXPECT_NE(config.error().find("not valid JSON"), std::string::npos) << config.error();
  EXPECT_FALSE(parse_league_config("77777777e777777"));
}

// A number the field cannot hold was converted anyway: undefined for a float out of range
// (UBSan: 1.8e19 as the 64-bit seed), wrapped for an integer (3e9 games a pairing).
TEST(LeagueConfig, ANumberOutOfTheFieldsRangeNamesTheField) {
  const std::string players = R"("players": ["A", "B"])";
  for (const char* field :
       {R"("seed": 18446744077709551615.0)", R"("seed": -1)", R"("games_per_pairing": 3000000000)",
        R"("movetime_ms": 1e300)", R"("max_plies": -1e20)"}) {
    const auto config =
        parse_league_config("{\"game\": \"isolation\", " + players + ", " + field + "}");
    ASSERT_FALSE(config) << field;
    EXPECT_NE(config.error().find("must be a number from"), std::string::npos) << config.error();
  }
  const auto fine = parse_league_config(
      R"({"game": "isolation", "players": ["A", "B"], "seed": 18446744073709551615,
          "movetime_ms": 1.5, "games_per_pairing": 4})");
  ASSERT_TRUE(fine) << fine.error();
  EXPECT_EQ(fine->seed, 18446744073709551615u);
  EXPECT_EQ(fine->movetime_ms, 1);
  EXPECT_EQ(fine->games_per_pairing, 4);
}

// "challengers" in a round robin are players too; to_json_text (what the server stores to
// continue a tournament after a restart) wrote them only for a gauntlet, so the stored config
// lost them and no longer read back.
TEST(LeagueConfig, ChallengersOfARoundRobinSurviveTheStoredJson) {
  const auto config =
      parse_league_config(R"({"game": "isolation", "challengers": ["A", "B"], "players": ["C"]})");
  ASSERT_TRUE(config) << config.error();
  ASSERT_EQ(config->players.size(), 3u);
  const auto again = parse_league_config(to_json_text(*config));
  ASSERT_TRUE(again) << again.error();
  EXPECT_EQ(again->players.size(), 3u);
  EXPECT_EQ(again->num_challengers, 2);
  EXPECT_EQ(to_json_text(*again), to_json_text(*config));
}

}  // namespace
}  // namespace arena::tournament
