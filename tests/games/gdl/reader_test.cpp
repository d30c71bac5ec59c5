#include "games/gdl/description.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "games/gdl/kif_reader.h"

namespace arena::gdl {
namespace {

std::vector<Rule> parse(const std::string& text, SymbolTable& symbols) {
  auto rules = parse_kif(text, "t.kif", symbols);
  EXPECT_TRUE(rules) << rules.error();
  return rules ? *rules : std::vector<Rule>{};
}

std::string parse_error(const std::string& text) {
  SymbolTable symbols;
  auto rules = parse_kif(text, "t.kif", symbols);
  EXPECT_FALSE(rules) << text;
  return rules ? std::string() : rules.error();
}

TEST(KifParser, ReadsFactsAndRulesWithTheirLines) {
  SymbolTable symbols;
  const auto rules = parse(
      "; a comment (with parentheses\n"
      "(role xplayer)\n"
      "terminal\n"
      "\n"
      "(<= (next (cell ?x ?y x))\n"
      "    (does xplayer (mark ?x ?y)))\n",
      symbols);
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[0].line, 2);
  EXPECT_EQ(to_kif(rules[0].head, symbols), "(role xplayer)");
  EXPECT_TRUE(rules[0].body.empty());
  EXPECT_EQ(rules[1].line, 3);
  EXPECT_EQ(rules[1].head.kind, Term::Kind::kConstant);
  EXPECT_EQ(rules[1].head.name, SymbolTable::kTerminal);
  EXPECT_EQ(rules[2].line, 5);
  EXPECT_EQ(rules[2].head.name, SymbolTable::kNext);
  ASSERT_EQ(rules[2].body.size(), 1u);
  EXPECT_EQ(rules[2].body[0].name, SymbolTable::kDoes);
  EXPECT_EQ(to_kif(rules[2].body[0], symbols), "(does xplayer (mark ?x ?y))");
  EXPECT_TRUE(rules[2].head.args[0].args[0].is_variable());
}

TEST(KifParser, FoldsCaseOfSymbolsAndVariables) {
  SymbolTable symbols;
  const auto rules = parse("(<= (LEGAL xPlayer (Mark ?X)) (TRUE (cell ?x)))", symbols);
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].head.name, SymbolTable::kLegal);
  EXPECT_EQ(rules[0].body[0].name, SymbolTable::kTrue);
  EXPECT_EQ(to_kif(rules[0].head, symbols), "(legal xplayer (mark ?x))");
  EXPECT_EQ(rules[0].head.args[1].args[0], rules[0].body[0].args[0].args[0]);
}

TEST(KifParser, KeepsNotOrDistinctAsFunctors) {
  SymbolTable symbols;
  const auto rules = parse(
      "(<= p (not (q ?x)) (or (r ?x) (s ?x)) (distinct ?x a) (true (t ?x)))", symbols);
  ASSERT_EQ(rules.size(), 1u);
  const auto& body = rules[0].body;
  ASSERT_EQ(body.size(), 4u);
  EXPECT_EQ(body[0].name, SymbolTable::kNot);
  EXPECT_EQ(body[1].name, SymbolTable::kOr);
  EXPECT_EQ(body[1].args.size(), 2u);
  EXPECT_EQ(body[2].name, SymbolTable::kDistinct);
  EXPECT_EQ(body[3].name, SymbolTable::kTrue);
}

TEST(KifParser, ReadsEmptyParenthesesAsConstantsAndEmptyRulesAsFacts) {
  SymbolTable symbols;
  const auto rules = parse("(<= (terminal))\n(p (f) ?x)", symbols);
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_TRUE(rules[0].body.empty());
  EXPECT_EQ(rules[0].head.kind, Term::Kind::kConstant);
  EXPECT_EQ(to_kif(rules[1].head, symbols), "(p f ?x)");
}

TEST(KifParser, RefusesUnbalancedParenthesesNamingTheLine) {
  EXPECT_NE(parse_error("(role x)\n\n(<= (p ?x)\n  (q ?x)\n").find("t.kif:3:"), std::string::npos);
  EXPECT_NE(parse_error("(role x)\n(q a))\n").find("t.kif:2: ')' closes nothing"),
            std::string::npos);
}

TEST(KifParser, RefusesGarbage) {
  EXPECT_NE(parse_error("(role x)\n(p \x01)").find("t.kif:2: invalid character (byte 0x01)"),
            std::string::npos);
  EXPECT_NE(parse_error("(())").find("must start with a name"), std::string::npos);
  EXPECT_NE(parse_error("()").find("empty list"), std::string::npos);
  EXPECT_NE(parse_error("(?x a)").find("variable ?x"), std::string::npos);
  EXPECT_NE(parse_error("?x").find("not a sentence"), std::string::npos);
  EXPECT_NE(parse_error("(p (<= a b))").find("'<='"), std::string::npos);
  EXPECT_NE(parse_error("(<= (p a) ?y)").find("not a sentence"), std::string::npos);
}

TEST(KifParser, RefusesDeepNestingWithoutExhaustingTheStack) {
  std::string deep = "(p ";
  for (int i = 0; i < 100000; ++i) deep += "(f ";
  const std::string error = parse_error(deep);
  EXPECT_NE(error.find("nesting deeper than"), std::string::npos) << error;
  std::string tight;
  for (int i = 0; i < 200000; ++i) tight += "(a";
  EXPECT_NE(parse_error(tight).find("nesting deeper than"), std::string::npos);
}

// Every sheet of the project's folder and of the reasoner test set loads or is refused with a
// reason, each within 10 s; the refused ones are printed (games/gdl/README.md says why).
TEST(ReadDescription, EverySheetLoadsOrIsRefusedWithAReason) {
  std::vector<std::filesystem::path> paths;
  for (const char* dir : {ARENA_GDL_SHEETS_DIR, ARENA_TEST_DATA_DIR "/gdl"})
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.path().extension() == ".kif") paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  ASSERT_GE(paths.size(), 199u);
  int loaded = 0;
  for (const auto& path : paths) {
    const auto start = std::chrono::steady_clock::now();
    const auto description = read_description_file(path.string());
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    EXPECT_LT(seconds.count(), 10.0) << path;
    if (description) {
      ++loaded;
      EXPECT_FALSE(description->roles().empty()) << path;
    } else {
      EXPECT_FALSE(description.error().empty()) << path;
      std::cout << "refused: " << description.error() << "\n";
    }
  }
  std::cout << loaded << " of " << paths.size() << " sheets load\n";
}

}  // namespace
}  // namespace arena::gdl
