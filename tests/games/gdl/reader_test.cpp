#include "games/gdl/reader/description.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "games/gdl/reader/kif_reader.h"
#include "games/gdl/prover/prover.h"
#include "games/gdl/library/sheet_file.h"

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
  const auto rules =
      parse("(<= p (not (q ?x)) (or (r ?x) (s ?x)) (distinct ?x a) (true (t ?x)))", symbols);
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

TEST(KifParser, RefusesOversizedForms) {
  std::string big = "(role x)\n(p";
  for (int i = 0; i <= kMaxKifFormTerms; ++i) big += " a";
  EXPECT_NE(parse_error(big + ")").find("t.kif:2: a form of more than"), std::string::npos);
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

// read_description's refusals: the message starts with "t.kif:LINE: rule " and names the
// restriction in parentheses.
void expect_refused(const std::string& text, int line, const std::string& what) {
  const auto d = read_description(text, "t.kif");
  ASSERT_FALSE(d) << text;
  const std::string prefix = "t.kif:" + std::to_string(line) + ": rule ";
  EXPECT_EQ(d.error().rfind(prefix, 0), 0u) << d.error();
  EXPECT_NE(d.error().find(what), std::string::npos) << d.error();
}

Description read_ok(const std::string& text) {
  auto d = read_description(text, "t.kif");
  EXPECT_TRUE(d) << d.error();
  return d ? std::move(*d) : Description{};
}

constexpr const char* kGame =
    "(role a)\n(legal a go)\n(<= (next done) (does a go))\n(<= terminal (true done))\n"
    "(goal a 100)\n";  // lines 1-5

TEST(ReadDescription, AcceptsAGameAndListsItsRoles) {
  const auto d = read_ok(std::string("(role b)\n") + kGame);
  const auto roles = d.roles();
  ASSERT_EQ(roles.size(), 2u);
  EXPECT_EQ(d.symbols.name(roles[0]), "b");
  EXPECT_EQ(d.symbols.name(roles[1]), "a");
  EXPECT_EQ(d.rule_text(d.rules[3]), "(<= (next done) (does a go))");
}

TEST(ReadDescription, RefusesRelationsOrFunctionsWithTwoArities) {
  expect_refused(std::string(kGame) + "(p x)\n(p x y)\n", 7,
                 "relation p has 2 argument(s) here but 1 at line 6 (fixed arity)");
  expect_refused(std::string(kGame) + "(p (f x))\n(p (f x y))\n", 7,
                 "function f has 2 argument(s) here but 1 at line 6 (fixed arity)");
  expect_refused(std::string(kGame) + "(p x)\n(<= q (p x y))\n", 7, "(fixed arity)");
}

TEST(ReadDescription, RefusesTheTwoInvalidArityTestSheets) {
  const std::string dir = ARENA_TEST_DATA_DIR "/gdl/";
  const auto functions = read_description_file(dir + "test_invalid_function_arities_differ.kif");
  ASSERT_FALSE(functions);
  EXPECT_NE(functions.error().find("test_invalid_function_arities_differ.kif:8: rule (legal "
                                   "robot (a 2 3)): function a has 2"),
            std::string::npos)
      << functions.error();
  const auto sentences = read_description_file(dir + "test_invalid_sentence_arities_differ.kif");
  ASSERT_FALSE(sentences);
  EXPECT_NE(sentences.error().find("sentence_arities_differ.kif:13: rule (foo bar bar): "
                                   "relation foo has 2"),
            std::string::npos)
      << sentences.error();
}

TEST(ReadDescription, RefusesGdlTwoSheetsNamingGdlTwo) {
  // GDL-II: nature's role `random` and the percepts of `sees` (imperfect information).
  expect_refused(std::string("(role random)\n") + kGame, 1,
                 "the role random is GDL-II's nature");
  expect_refused(std::string("(role RANDOM)\n") + kGame, 1, "Arena plays GDL-I sheets only");
  expect_refused(std::string(kGame) + "(<= (sees a (saw ?x)) (does a ?x))\n", 6,
                 "sees is GDL-II's percept relation");
  expect_refused(std::string(kGame) + "(<= (sees ?r done) (role ?r) (true done))\n", 6,
                 "sees is GDL-II's percept relation");
  // The same words elsewhere are GDL-I: a relation random, a sees of another arity, a sees
  // whose first argument is no role.
  read_ok(std::string(kGame) + "(random x)\n(<= (sees x) (true done))\n");
  read_ok(std::string(kGame) + "(<= (sees ?u done) (p ?u) (true done))\n(p 1)\n");
}

TEST(ReadDescription, RefusesKeywordsMisused) {
  expect_refused(std::string(kGame) + "(legal a)\n", 6,
                 "legal takes 2 argument(s) (keyword usage)");
  expect_refused(std::string(kGame) + "(<= (true x) (p y))\n", 6,
                 "true may only appear in rule bodies");
  expect_refused(std::string(kGame) + "(does a go)\n", 6, "does may only appear in rule bodies");
  expect_refused(std::string(kGame) + "(<= q (next done))\n", 6,
                 "next may only appear in rule heads");
  expect_refused(std::string(kGame) + "(<= q (init done))\n", 6,
                 "init may only appear in rule heads");
  expect_refused(std::string(kGame) + "(<= (role b) (true done))\n", 6,
                 "roles are stated by facts");
  expect_refused(std::string(kGame) + "(init (true done))\n", 6,
                 "the keyword true is used as a function");
  expect_refused(std::string(kGame) + "(<= q (not (not (true done))))\n", 6,
                 "not applies to a sentence");
  expect_refused(std::string(kGame) + "(<= q (true done) (distinct done done done))\n", 6,
                 "distinct takes 2 arguments");
  expect_refused(std::string(kGame) + "(<= (legal ?p x) or)\n", 6, "misplaced or");
  expect_refused(std::string(kGame) + "(<= (distinct a b) (true done))\n", 6,
                 "distinct may only appear in rule bodies");
}

TEST(ReadDescription, RefusesUnsafeRules) {
  expect_refused(std::string(kGame) + "(<= (p ?x) (true done))\n", 6,
                 "variable ?x does not occur in a positive body literal (safety)");
  expect_refused(std::string(kGame) + "(<= (p ?x) (true done) (not (q ?x)))\n(q b)\n", 6,
                 "variable ?x does not occur");
  expect_refused(std::string(kGame) + "(<= p (true ?y) (distinct ?x ?y))\n", 6, "variable ?x");
  expect_refused(std::string(kGame) + "(p ?x)\n", 6, "variable ?x in a fact");
  // ?x is bound in one disjunct only but required by the head.
  expect_refused(std::string(kGame) + "(<= (p ?x) (or (true (c ?x)) (true done)))\n", 6,
                 "for some choice of the or's disjuncts (safety)");
}

TEST(ReadDescription, AcceptsVariablesLocalToADisjunctThatBindsThem) {
  // As in checkers.kif: ?z occurs only in the disjunct that binds it.
  read_ok(std::string(kGame) +
          "(<= (next (c ?x)) (or (does a (m ?x)) (does a (j ?x ?z))) (true done))\n");
  // ?x is bound by every disjunct.
  read_ok(std::string(kGame) + "(<= (p ?x) (or (true (c ?x)) (true (d ?x))))\n");
}

TEST(ReadDescription, RefusesNegationInACycle) {
  expect_refused(std::string(kGame) + "(<= p (true done) (not q))\n(<= q (true done) (not p))\n", 6,
                 "(not q) is in a cycle with p (stratified negation)");
  expect_refused(std::string(kGame) + "(<= p (true done) (not p))\n", 6, "(stratified negation)");
  read_ok(std::string(kGame) + "(<= p (true done) (not q))\n(<= q (true done) r)\nr\n");
}

// As ggp-repository's majorities and futoshiki write their goals: goal reads goal through not,
// but only other instances of it. The negated relation becomes a copy of the rules that can
// make its instances true, so the cycle is gone and the goals mean what they did.
TEST(ReadDescription, ReadsANegationInACycleThatOnlyItsTermsTellApart) {
  const std::string game =
      "(role a)\n(legal a go)\n(<= (next done) (does a go))\n(<= terminal (true done))\n"
      "(<= (goal ?r 100) (role ?r) (true done))\n"  // line 5
      "(<= (goal ?r 0) (role ?r) (not (goal ?r 100)))\n";
  const auto d = read_ok(game);
  std::vector<std::string> texts;
  for (const Rule& r : d.rules) texts.push_back(d.rule_text(r));
  EXPECT_NE(std::find(texts.begin(), texts.end(),
                      "(<= (goal ?r 0) (role ?r) (not (goal_negated_6_1 ?r 100)))"),
            texts.end());
  const auto copy =
      std::find(texts.begin(), texts.end(), "(<= (goal_negated_6_1 ?r 100) (role ?r) (true done))");
  ASSERT_NE(copy, texts.end());
  EXPECT_EQ(d.rules[static_cast<std::size_t>(copy - texts.begin())].line, 5);
  // Only the rules whose heads unify are copied: (goal ?r 0)'s own rule is not.
  EXPECT_EQ(std::count_if(texts.begin(), texts.end(),
                          [](const std::string& t) { return t.find("(<= (goal_negated") == 0; }),
            1);
  auto prover = make_prover(std::make_shared<const Description>(d));
  const State start = prover->initial_state();
  const auto at_start = prover->goal(start, 0);
  ASSERT_TRUE(at_start) << at_start.error();
  EXPECT_EQ(*at_start, 0);
  const State done = prover->next_state(start, {prover->legal_moves(start, 0).at(0)});
  const auto at_end = prover->goal(done, 0);
  ASSERT_TRUE(at_end) << at_end.error();
  EXPECT_EQ(*at_end, 100);
}

TEST(ReadDescription, StillRefusesANegationInACycleOfTheSameInstances) {
  expect_refused(std::string(kGame) +
                     "(<= (goal a 0) (true done) (not (goal a 50)))\n"
                     "(<= (goal a 50) (true done) (not (goal a 0)))\n",
                 6, "(not (goal a 50)) is in a cycle with goal (stratified negation)");
  // A negation whose copy would take more rules than the reader's bound is refused too.
  std::string many = std::string(kGame) + "(<= (goal a 0) (true done) (not (goal a 100)))\n";
  for (int i = 0; i < 5000; ++i) many += "(<= (goal a 100) (true (s " + std::to_string(i) + ")))\n";
  expect_refused(many, 6, "(not (goal a 100)) is in a cycle with goal (stratified negation)");
}

TEST(ReadDescription, RefusesKeywordsDependingOnTheStateOrTheMoves) {
  expect_refused(std::string(kGame) + "(<= (init x) (true done))\n", 6,
                 "init depends on (true done), which depends on the state or the moves");
  expect_refused(std::string(kGame) + "(<= (base x) q)\n(<= q terminal)\n", 6,
                 "base depends on q, which depends on the state or the moves");
  expect_refused(std::string(kGame) + "(<= (legal a stop) (does a go))\n", 6,
                 "legal depends on (does a go), which depends on does");
  expect_refused(std::string(kGame) + "(<= (goal a 0) q)\n(<= q (does a go))\n", 6,
                 "goal depends on q, which depends on does");
}

TEST(ReadDescription, RefusesRecursionThatGrowsTerms) {
  expect_refused(std::string(kGame) + "(p z)\n(<= (p (s ?x)) (p ?x))\n", 7,
                 "argument ?x of the recursive literal (p ?x) is neither ground, nor an "
                 "argument of the head, nor in a positive literal outside the recursion "
                 "(recursion restriction)");
  expect_refused(std::string(kGame) + "(p z)\n(<= (q ?x) (p ?x))\n(<= (p (s ?x)) (q ?x))\n", 8,
                 "(recursion restriction)");
  // Bounded recursion: ?y comes from the non-recursive succ, ?x is an argument of the head.
  read_ok(std::string(kGame) +
          "(succ 1 2)\n(succ 2 3)\n(<= (lt ?x ?y) (succ ?x ?y))\n"
          "(<= (lt ?x ?z) (succ ?y ?z) (lt ?x ?y))\n");
}

TEST(ReadDescription, RefusesSheetsWithoutOneRoleEach) {
  const auto none = read_description("(legal a go)\n", "t.kif");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().find("t.kif: no (role NAME) fact"), std::string::npos) << none.error();
  expect_refused(std::string(kGame) + "(role a)\n", 6, "role a is stated twice");
  expect_refused(std::string(kGame) + "(role (f b))\n", 6, "a role is a name");
}

TEST(ReadDescription, RewritesNotDistinctByUnification) {
  const auto d = read_ok(std::string(kGame) +
                         "(c 1)\n(<= (e ?x) (c ?x) (c ?y) (not (distinct ?x ?y)))\n"
                         "(<= f (c 1) (not (distinct 1 2)))\n(<= g (not (distinct h h)))\n");
  ASSERT_EQ(d.rules.size(), 8u);  // f can never hold: its rule is dropped
  EXPECT_EQ(d.rule_text(d.rules[6]), "(<= (e ?x) (c ?x) (c ?x))");
  EXPECT_EQ(d.rule_text(d.rules[7]), "g");
  EXPECT_EQ(d.rules[7].line, 9);
}

TEST(ReadDescription, SplitsNegatedOrsAndBindsRoleArguments) {
  const auto d = read_ok(std::string(kGame) +
                         "(<= q (true done) (not (or r (true x))))\nr\n(legal ?p wait)\n");
  EXPECT_EQ(d.rule_text(d.rules[5]), "(<= q (true done) (not r) (not (true x)))");
  EXPECT_EQ(d.rule_text(d.rules[7]), "(<= (legal ?p wait) (role ?p))");
}

// (and ..), which GDL leaves out but older sheets (Dresden's Corridor) write inside (or ..):
// its literals in a body, one rule per disjunct of an (or ..) that holds one, De Morgan under
// (not ..). Lines 6-9.
TEST(ReadDescription, ReadsAndAsAConjunction) {
  const auto d =
      read_ok(std::string(kGame) +
              "(c 1) (c 2)\n"
              "(<= (p ?x) (c ?x) (or (and (true done) (c 1)) (and (c 2) (not (true done)))))\n"
              "(<= q (and (c 1) (c 2)))\n"
              "(<= s (c 1) (not (and (c 1) (true done))))\n");
  ASSERT_EQ(d.rules.size(), 11u);
  EXPECT_EQ(d.rule_text(d.rules[7]), "(<= (p ?x) (c ?x) (true done) (c 1))");
  EXPECT_EQ(d.rule_text(d.rules[8]), "(<= (p ?x) (c ?x) (c 2) (not (true done)))");
  EXPECT_EQ(d.rules[8].line, 7);
  EXPECT_EQ(d.rule_text(d.rules[9]), "(<= q (c 1) (c 2))");
  EXPECT_EQ(d.rule_text(d.rules[10]), "(<= s (c 1) (or (not (c 1)) (not (true done))))");
}

// A sheet that defines a relation named `and` keeps it: the word is its own there.
TEST(ReadDescription, KeepsASheetsOwnRelationNamedAnd) {
  const auto d = read_ok(std::string(kGame) + "(and 1 2)\n(<= r (and 1 ?x))\n");
  ASSERT_EQ(d.rules.size(), 7u);
  EXPECT_EQ(d.rule_text(d.rules[6]), "(<= r (and 1 ?x))");
}

// Conjunctions under (or ..) multiply: a rule that would become more than 4,096 is refused.
TEST(ReadDescription, RefusesAConjunctionThatMultipliesBeyondItsBound) {
  std::string rule = "(<= z";
  for (int i = 0; i < 13; ++i) rule += " (or (and (true done)) (and (does a go)))";
  const auto d = read_description(std::string(kGame) + rule + ")\n", "t.kif");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().rfind("t.kif:6: ", 0), 0u) << d.error();
  EXPECT_NE(d.error().find("more than 4096 rules"), std::string::npos) << d.error();
}

TEST(ReadDescription, NamesNegationsOfVariablesOfTheirOwn) {
  // ?x and ?y occur only in the negation: no instance of (cell ?x ?y ?k) may hold.
  const auto d = read_ok(std::string(kGame) +
                         "(kind k)\n(<= (gone ?k) (kind ?k) (not (true (cell ?x ?y ?k))))\n");
  ASSERT_EQ(d.rules.size(), 8u);
  EXPECT_EQ(d.rule_text(d.rules[6]), "(<= (not_exists_7_1 ?k) (true (cell ?x ?y ?k)))");
  EXPECT_EQ(d.rule_text(d.rules[7]), "(<= (gone ?k) (kind ?k) (not (not_exists_7_1 ?k)))");
  EXPECT_EQ(d.rules[6].line, 7);
}

TEST(ReadDescription, DropsOldStyleBaseFacts) {
  const auto d = read_ok(std::string(kGame) + "(base cell (x 1 2) (y 1 2))\n(base done)\n");
  EXPECT_EQ(d.rules.size(), 5u);
}

TEST(ReadDescription, NamesTheFileItCannotRead) {
  const auto d = read_description_file("/nonexistent/sheet.kif");
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().find("/nonexistent/sheet.kif"), std::string::npos) << d.error();
  const auto dir = read_description_file(ARENA_TEST_DATA_DIR "/gdl");
  ASSERT_FALSE(dir);
  EXPECT_NE(dir.error().find("not a regular file"), std::string::npos) << dir.error();
}

TEST(ReadDescription, RefusesBadSyntaxWithTheLine) {
  const auto d = read_description(std::string(kGame) + "(<= (p ?x)\n (true ?x)\n", "t.kif");
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().rfind("t.kif:6: ", 0), 0u) << d.error();
  EXPECT_NE(d.error().find("unbalanced parentheses"), std::string::npos) << d.error();
}

// Mutated sheets (a byte dropped, a parenthesis added, a byte changed) load or are refused
// with a message that names the source, and never crash (ASan and UBSan watch in CI).
TEST(ReadDescription, RefusesMutatedSheetsNamingTheSource) {
  std::ifstream in(ARENA_TEST_DATA_DIR "/gdl/ticTacToe.kif");
  std::stringstream text;
  text << in.rdbuf();
  const std::string sheet = text.str();
  ASSERT_FALSE(sheet.empty());
  ASSERT_TRUE(read_description(sheet, "t.kif")) << "the unmutated sheet must load";
  std::mt19937 rng(23);
  int refused = 0;
  for (int i = 0; i < 400; ++i) {
    std::string mutated = sheet;
    const std::size_t at = rng() % mutated.size();
    switch (i % 3) {
      case 0:
        mutated.erase(at, 1);
        break;
      case 1:
        mutated.insert(at, 1, i % 2 ? '(' : ')');
        break;
      default:
        mutated[at] = static_cast<char>("()?;x \x01"[rng() % 7]);
        break;
    }
    const auto d = read_description(mutated, "t.kif");
    if (d) continue;
    ++refused;
    EXPECT_EQ(d.error().rfind("t.kif:", 0), 0u) << d.error();
  }
  EXPECT_GT(refused, 100);  // every added parenthesis unbalances the sheet
}

// Random sheets made of GDL's keywords, a few names and variables in random lists: each
// loads or is refused naming the source (the checks must not assume what they check).
TEST(ReadDescription, RefusesRandomKeywordSoupNamingTheSource) {
  const char* words[] = {"<=",   "role",     "init",     "true", "next", "legal", "does",
                         "goal", "terminal", "distinct", "not",  "or",   "base",  "input",
                         "p",    "q",        "a",        "?x",   "?y"};
  std::mt19937 rng(7);
  const auto word = [&] { return std::string(words[rng() % std::size(words)]); };
  int loaded = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = "(role r)\n";
    for (int form = 0; form < 3; ++form) {
      text += "(" + word();
      int open = 1;
      for (int t = 0; t < 8; ++t) {
        const auto r = rng() % 6;
        if (r == 0) {
          text += " (" + word();
          ++open;
        } else if (r == 1 && open > 1) {
          text += ")";
          --open;
        } else {
          text += " " + word();
        }
      }
      text += std::string(static_cast<std::size_t>(open), ')') + "\n";
    }
    const auto d = read_description(text, "t.kif");
    if (d) {
      ++loaded;
      continue;
    }
    EXPECT_EQ(d.error().rfind("t.kif:", 0), 0u) << text << d.error();
  }
  EXPECT_LT(loaded, 3000);
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
