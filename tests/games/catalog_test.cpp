#include "games/catalog/catalog.h"

#include <gtest/gtest.h>

namespace arena {
namespace {

TEST(Catalog, UnknownGameIsAnErrorThatNamesIt) {
  auto g = make_game("parcheesi");
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().find("parcheesi"), std::string::npos);
}

TEST(Catalog, ParsesKeyValueOptions) {
  auto o = parse_game_options("size=5,seed=42");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->at("size"), "5");
  EXPECT_EQ(o->at("seed"), "42");
}

TEST(Catalog, MalformedOptionIsNamed) {
  auto o = parse_game_options("size=5,oops");
  ASSERT_FALSE(o);
  EXPECT_NE(o.error().find("oops"), std::string::npos);
}

TEST(Catalog, AliasesResolveToGameAndOptions) {
  GameOptions opts;
  EXPECT_EQ(resolve_game_name("15-puzzle", opts), "sliding");
  EXPECT_EQ(opts.at("size"), "4");
  GameOptions ttt{{"variant", "4x4x4"}};
  EXPECT_EQ(resolve_game_name("tictactoe", ttt), "qubic");
  EXPECT_TRUE(ttt.empty());
}

TEST(Catalog, GivenOptionsGoOverTheAliasOnesAndABadOneIsNamed) {
  GameOptions opts;
  auto kind = resolve_game("15-puzzle", "size=5,seed=3", opts);
  ASSERT_TRUE(kind) << kind.error();
  EXPECT_EQ(*kind, "sliding");
  EXPECT_EQ(opts.at("size"), "5");
  EXPECT_EQ(opts.at("seed"), "3");
  GameOptions bad;
  auto refused = resolve_game("chess", "oops", bad);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("oops"), std::string::npos);
}

TEST(Catalog, EveryListedGameCanBeCreatedAndReloaded) {
  for (const auto& info : game_catalog()) {
    auto g = make_game(info.name);
    ASSERT_TRUE(g) << info.name << ": " << g.error();
    auto again = load_game(info.name, (*g)->serialize());
    ASSERT_TRUE(again) << info.name << ": " << again.error();
    EXPECT_EQ((*again)->serialize(), (*g)->serialize());
    EXPECT_FALSE((*g)->legal_moves().empty()) << info.name;
  }
}

}  // namespace
}  // namespace arena
