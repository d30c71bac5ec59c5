// The GGP messages: each read with its fields, keywords in any case, the rules of a START
// handed over as text, and every malformed message refused with a reason.

#include "bots/ggp/kif_message.h"

#include <gtest/gtest.h>

namespace arena::ggp {
namespace {

TEST(GgpMessage, InfoInAnyCase) {
  for (const char* text : {"(INFO)", "(info)", "  ( Info )\r\n"}) {
    auto m = parse_message(text);
    ASSERT_TRUE(m) << text << ": " << m.error();
    EXPECT_TRUE(std::holds_alternative<InfoMessage>(*m));
  }
}

TEST(GgpMessage, StartCarriesTheRulesAsText) {
  const std::string body =
      "(START match.1 xPlayer ((role xplayer) (role oplayer) (<= terminal (true (over))))"
      " 30 10)";
  auto m = parse_message(body);
  ASSERT_TRUE(m) << m.error();
  const auto& s = std::get<StartMessage>(*m);
  EXPECT_EQ(s.id, "match.1");
  EXPECT_EQ(s.role, "xPlayer");
  EXPECT_EQ(s.rules, "(role xplayer) (role oplayer) (<= terminal (true (over)))");
  EXPECT_EQ(s.startclock, 30);
  EXPECT_EQ(s.playclock, 10);
}

TEST(GgpMessage, StartTextReadsBack) {
  // A rules text ending in a comment must not swallow the clocks.
  const std::string rules = "(role a) ; the only role";
  auto m = parse_message(start_text("m7", "a", rules, 5, 2));
  ASSERT_TRUE(m) << m.error();
  const auto& s = std::get<StartMessage>(*m);
  EXPECT_EQ(s.id, "m7");
  EXPECT_NE(s.rules.find("(role a)"), std::string::npos);
  EXPECT_EQ(s.startclock, 5);
  EXPECT_EQ(s.playclock, 2);
}

TEST(GgpMessage, PlayWithNilAndWithMoves) {
  auto first = parse_message("(PLAY m NIL)");
  ASSERT_TRUE(first) << first.error();
  EXPECT_FALSE(std::get<PlayMessage>(*first).moves.has_value());
  auto next = parse_message(play_text("m", {"(mark 1 1)", "noop"}));
  ASSERT_TRUE(next) << next.error();
  const auto& p = std::get<PlayMessage>(*next);
  EXPECT_EQ(p.id, "m");
  ASSERT_TRUE(p.moves.has_value());
  ASSERT_EQ(p.moves->size(), 2u);
  EXPECT_EQ(to_text((*p.moves)[0]), "(mark 1 1)");
  EXPECT_EQ(to_text((*p.moves)[1]), "noop");
}

TEST(GgpMessage, StopAndAbort) {
  auto stop = parse_message(stop_text("m", {"noop", "(mark 3 3)"}));
  ASSERT_TRUE(stop) << stop.error();
  EXPECT_EQ(std::get<StopMessage>(*stop).moves->size(), 2u);
  auto abort = parse_message(abort_text("m"));
  ASSERT_TRUE(abort) << abort.error();
  EXPECT_EQ(std::get<AbortMessage>(*abort).id, "m");
}

TEST(GgpMessage, MalformedMessagesAreRefusedWithAReason) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "found 0"},
      {"(INFO", "unbalanced '('"},
      {"(INFO))", "unbalanced ')'"},
      {"INFO", "a GGP message is a list"},
      {"(INFO) (INFO)", "found 2"},
      {"(HELLO)", "unknown GGP message 'HELLO'"},
      {"(INFO x)", "INFO takes no arguments"},
      {"(START m r ((role r)) 10)", "START takes 5 arguments"},
      {"(START m r ((role r)) ten 5)", "start clock 'ten'"},
      {"(START m r ((role r)) 10 -1)", "play clock '-1'"},
      {"(START m r ((role r)) 10 0)", "at least 1 second"},
      {"(START m r role 10 5)", "the rules must be a list"},
      {"(START (m) r ((role r)) 10 5)", "match id must be an atom"},
      {"(PLAY m)", "PLAY takes 2 arguments"},
      {"(PLAY m noop)", "must be NIL or a list"},
      {"(STOP m x y)", "STOP takes 2 arguments"},
      {"(ABORT)", "ABORT takes 1 argument"},
      {"(INFO \x01)", "unexpected character"},
  };
  for (const auto& [text, reason] : cases) {
    auto m = parse_message(text);
    ASSERT_FALSE(m) << "accepted: " << text;
    EXPECT_NE(m.error().find(reason), std::string::npos) << text << " -> " << m.error();
  }
}

TEST(GgpMessage, DeepNestingAndHugeBodiesAreRefused) {
  const std::string deep = std::string(100000, '(') + std::string(100000, ')');
  auto m = parse_message(deep);
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().find("nested deeper"), std::string::npos) << m.error();
  const std::string huge = "(INFO " + std::string(kMaxMessageBytes, 'x') + ")";
  auto h = parse_message(huge);
  ASSERT_FALSE(h);
  EXPECT_NE(h.error().find("limit"), std::string::npos) << h.error();
}

TEST(GgpMessage, CommentsAreSkipped) {
  auto m = parse_message("; a manager's note\n(PLAY m ; the moves\n ((mark 1 1) noop))");
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(std::get<PlayMessage>(*m).moves->size(), 2u);
}

}  // namespace
}  // namespace arena::ggp
