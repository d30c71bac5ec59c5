// Bad input gets its specific error and changes nothing; no one can act for another player;
// bots authenticate with tokens; limits close only the offender.

#include <thread>

#include <boost/asio/read.hpp>

#include "server/net/write_behind_stream.h"
#include "tests/server/server_fixture.h"

namespace arena::server::testing {
namespace {

class BadInputTest : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    a = connect("ann");
    b = connect("bob");
    id = start_game(*a, *b, "race");
    next_state(*a, id, 0);
    next_state(*b, id, 0);
  }
  // The game goes on: ann can still move and both see the state.
  void expect_game_goes_on() {
    a->send(Json{{"type", "move"}, {"game_id", id}, {"move", "1"}, {"client_id", "ok"}});
    a->expect("move_ack");
    EXPECT_EQ(next_state(*b, id, 1)["position"], "1:1");
  }
  std::unique_ptr<WsClient> a, b;
  std::int64_t id = 0;
};

TEST_F(BadInputTest, MalformedJsonIsBadJson) {
  a->send_text("{\"type\": \"move\", ");
  a->expect_error("bad_json");
  expect_game_goes_on();
}

// Valid JSON in a binary frame is refused for being binary, not as invalid JSON.
TEST_F(BadInputTest, ABinaryFrameIsRefusedSayingTheProtocolIsText) {
  a->send_binary(R"({"type":"ping","id":"b"})");
  const Json e = a->expect_error("bad_json");
  EXPECT_NE(e.value("message", "").find("binary frames are not part of the protocol"),
            std::string::npos)
      << e.dump();
  EXPECT_NE(e.value("message", "").find("text frame"), std::string::npos) << e.dump();
  expect_game_goes_on();
}

TEST_F(BadInputTest, UnknownTypeIsNamed) {
  a->send(Json{{"type", "teleport"}});
  Json e = a->expect_error("unknown_type");
  EXPECT_EQ(e["ref"], "teleport");
  expect_game_goes_on();
}

TEST_F(BadInputTest, MissingFieldIsNamed) {
  a->send(Json{{"type", "move"}, {"game_id", id}, {"client_id", "x"}});
  Json e = a->expect_error("missing_field");
  EXPECT_NE(e["message"].get<std::string>().find("'move'"), std::string::npos);
  expect_game_goes_on();
}

TEST_F(BadInputTest, WrongGameIdIsNoSuchGame) {
  a->send(Json{{"type", "move"}, {"game_id", id + 1000}, {"move", "1"}, {"client_id", "x"}});
  a->expect_error("no_such_game");
  expect_game_goes_on();
}

TEST_F(BadInputTest, MoveOutOfTurnIsNotYourTurn) {
  b->send(Json{{"type", "move"}, {"game_id", id}, {"move", "1"}, {"client_id", "x"}});
  b->expect_error("not_your_turn");
  expect_game_goes_on();
}

TEST_F(BadInputTest, IllegalMoveMayBeRetried) {
  a->send(Json{{"type", "move"}, {"game_id", id}, {"move", "5"}, {"client_id", "x"}});
  Json e = a->expect_error("illegal_move");
  EXPECT_NE(e["message"].get<std::string>().find("'5'"), std::string::npos);
  expect_game_goes_on();
}

TEST_F(BadInputTest, TooDeepNestingIsRefused) {
  a->send_text(R"({"type":"ping","x":)" + std::string(100, '[') + std::string(100, ']') + "}");
  a->expect_error("too_deep");
  expect_game_goes_on();
}

TEST_F(BadInputTest, AnOversizedMessageClosesOnlyThatConnection) {
  auto c = connect("carol");
  c->send_text(R"({"type":"ping","id":")" + std::string(protocol::kMaxMessageBytes, 'x') + "\"}");
  while (c->recv(std::chrono::seconds(10))) {
  }
  EXPECT_TRUE(c->closed());
  EXPECT_EQ(c->close_code(), 1009);  // message too big
  EXPECT_EQ(c->close_reason(), "message too big: the limit is 65536 bytes");
  expect_game_goes_on();
}

// A message of exactly the limit is no violation.
TEST_F(BadInputTest, AMessageOfTheSizeLimitIsRead) {
  auto c = connect("carol");
  std::string text = R"({"type":"ping","id":"x","pad":")";
  text += std::string(protocol::kMaxMessageBytes - text.size() - 2, 'y') + "\"}";
  ASSERT_EQ(text.size(), protocol::kMaxMessageBytes);
  c->send_text(text);
  EXPECT_EQ(c->expect("pong")["id"], "x");
}

// Policy (1008): a client that does not read while the server has more than the queue's cap
// (4096 messages) waiting for it. Its receive buffer is small, so the server's socket buffer
// and then the queue fill with the answers (pongs and rate_limited errors) to its pings.
TEST_F(BadInputTest, AClientThatDoesNotReadIsClosedWithAPolicyReason) {
  WsClient c(port(), {}, 4096);
  c.hello("carol");
  for (int i = 0; i < 80'000; ++i) c.send(Json{{"type", "ping"}, {"id", std::to_string(i)}});
  while (c.recv(std::chrono::seconds(20))) {
  }
  EXPECT_TRUE(c.closed());
  // The close frame (1008, policy violation) waits behind everything the client did not read.
  // When the client reads in time it gets the reason; under load the server's close handshake
  // can time out first and the socket is reset (its unread pings make the kernel send RST,
  // which discards the client's unread data): then no close frame arrives at all. Either way
  // the connection is closed and no other close code is sent. Pings this fast are a flood as
  // well, so the reason is whichever limit came first: the flood's (1000 messages dropped for
  // the rate) or the outgoing queue's. The queue's alone is reached by a client under the rate
  // in HostileTest.AClientThatNeverReadsHasItsQueueBoundedThenIsClosed.
  if (c.close_code() != 0) {
    EXPECT_EQ(c.close_code(), 1008);
    EXPECT_TRUE(c.close_reason() == "the client does not read: 4096 messages are waiting" ||
                c.close_reason().starts_with("flooding: "))
        << c.close_reason();
  }
  expect_game_goes_on();
}

// The frames of WriteBehindStream: FIN and text, the length in 7, 16 or 64 bits, no mask; the
// messages queued while a socket write is under way follow it, in order.
TEST(WriteBehindStreamFrames, EverySizeAndWhatWasQueuedInOrder) {
  namespace asio = boost::asio;
  asio::io_context ioc;
  asio::ip::tcp::acceptor acceptor(ioc, {asio::ip::make_address("127.0.0.1"), 0});
  asio::ip::tcp::socket client(ioc);
  client.connect(acceptor.local_endpoint());
  WriteBehindStream out(boost::beast::tcp_stream(acceptor.accept()));
  auto owner = std::make_shared<int>(0);
  out.set_owner(owner);
  const std::vector<std::size_t> sizes{5, 125, 126, 300, 65535, 65536, 70000};
  std::string expected;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::size_t n = sizes[i];
    const std::string payload(n, static_cast<char>('a' + i));
    expected.push_back(static_cast<char>(0x81));
    if (n < 126) {
      expected.push_back(static_cast<char>(n));
    } else if (n < 65536) {
      expected += {static_cast<char>(126), static_cast<char>(n >> 8), static_cast<char>(n & 0xff)};
    } else {
      expected.push_back(static_cast<char>(127));
      for (int shift = 56; shift >= 0; shift -= 8)
        expected.push_back(static_cast<char>((n >> shift) & 0xff));
    }
    expected += payload;
    out.append_text(payload);
    if (i == 2) out.flush();  // the first three are under way; the rest wait for them
  }
  EXPECT_EQ(out.backlog_frames(), sizes.size());
  out.flush();  // no second write while one is under way
  std::thread io([&] { ioc.run(); });
  std::string got(expected.size(), '\0');
  asio::read(client, asio::buffer(got));
  io.join();
  EXPECT_TRUE(got == expected) << "the bytes differ";
  EXPECT_EQ(out.backlog_frames(), 0u);
}

TEST_F(BadInputTest, AFloodIsRateLimitedAndTheConnectionSurvives) {
  // More than the bucket holds plus two seconds of refill: sent in much less than that.
  const int sent = protocol::kMaxMessageBurst + 2 * protocol::kMaxMessagesPerSecond;
  for (int i = 0; i < sent; ++i) b->send(Json{{"type", "ping"}, {"id", std::to_string(i)}});
  int pongs = 0, limited = 0;
  for (int i = 0; i < sent; ++i) {
    auto j = b->wait_for([](const Json& m) { return m["type"] == "pong" || m["type"] == "error"; },
                         "reply");
    if (j["type"] == "pong")
      ++pongs;
    else if (j["code"] == "rate_limited")
      ++limited;
  }
  EXPECT_GE(limited, 1);
  EXPECT_GE(pongs, protocol::kMaxMessageBurst - 5);  // the bucket starts (nearly) full
  expect_game_goes_on();
}

TEST_F(BadInputTest, EverythingBeforeHelloIsRefused) {
  WsClient c(port());
  c.send(Json{{"type", "seek"}, {"game", "race"}});
  c.expect_error("hello_required");
  c.send(Json{{"type", "hello"}, {"version", 99}});
  c.expect_error("bad_version");
}

TEST_F(BadInputTest, BadOffersNameTheProblem) {
  a->send(Json{{"type", "seek"}, {"game", "nosuchgame"}});
  a->expect_error("unknown_game");
  a->send(Json{{"type", "seek"}, {"game", "race"}, {"options", "size=9"}});
  a->expect_error("bad_options");
  a->send(Json{{"type", "seek"}, {"game", "race"}, {"time_control", "blitz"}});
  a->expect_error("bad_time_control");
  a->send(Json{{"type", "seek"}, {"game", "counter"}});
  a->expect_error("unknown_game");  // a puzzle is not a two-player game
}

TEST_F(BadInputTest, NoOneCanActForAnotherPlayer) {
  auto c = connect("mallory");
  for (const char* type : {"resign", "offer_draw", "accept_draw", "abort", "claim_win"}) {
    c->send(Json{{"type", type}, {"game_id", id}});
    c->expect_error("not_your_game");
  }
  c->send(Json{{"type", "move"}, {"game_id", id}, {"move", "1"}, {"client_id", "x"}});
  c->expect_error("not_your_game");
  c->send(Json{{"type", "resume"}, {"game_id", id}});
  c->expect_error("not_your_game");
  // Bob cannot move for ann either, and his resignation is his own loss.
  b->send(Json{{"type", "move"}, {"game_id", id}, {"move", "1"}, {"client_id", "y"}});
  b->expect_error("not_your_turn");
  expect_game_goes_on();
  b->send(Json{{"type", "resign"}, {"game_id", id}});
  Json end = a->expect("game_end");
  EXPECT_EQ(end["result"], "1-0");
  EXPECT_EQ(end["reason"], "resignation");
}

TEST_F(ServerTest, BotsAuthenticateWithATokenAndWrongTokensAreRefused) {
  auto token = store_.create_bot_token("alphabot");
  ASSERT_TRUE(token);
  WsClient bot(port(), Headers{{"Authorization", "Bearer " + *token}});
  ASSERT_TRUE(bot.open());
  Json w = bot.hello("ignored");
  EXPECT_EQ(w["player"]["name"], "alphabot");
  EXPECT_TRUE(w["player"]["bot"].get<bool>());
  WsClient impostor(port(), Headers{{"Authorization", "Bearer wrong"}});
  EXPECT_FALSE(impostor.open());
  EXPECT_EQ(impostor.handshake_status(), 401);
}

TEST_F(ServerTest, AGuestIsTheSameAcrossConnectionsWithTheSessionToken) {
  auto first = connect("ann");
  WsClient c1(port());
  Json w1 = c1.hello("ann");
  WsClient c2(port());
  Json w2 = c2.hello("ann", w1["session"]);
  EXPECT_EQ(w2["player"]["id"], w1["player"]["id"]);
  WsClient c3(port());
  Json w3 = c3.hello("ann");
  EXPECT_NE(w3["player"]["id"], w1["player"]["id"]) << "a new guest without the token";
}

TEST_F(ServerTest, ShutdownTellsEveryClientItIsGoingAway) {
  auto a = connect("ann");
  auto b = connect("bob");
  start_game(*a, *b, "race");
  server_->stop();
  for (auto* c : {a.get(), b.get()}) {
    while (c->recv(std::chrono::seconds(5))) {
    }
    EXPECT_TRUE(c->closed());
    EXPECT_EQ(c->close_code(), 1001);
  }
  auto unfinished = store_.unfinished_games();
  ASSERT_TRUE(unfinished);
  EXPECT_EQ(unfinished->size(), 1u) << "the live game stays recorded for a restart";
}

TEST_F(ServerTest, AnUnfinishedGameResumesAfterARestart) {
  std::string session_a, session_b;
  WsClient ca(port()), cb(port());
  session_a = ca.hello("ann")["session"];
  session_b = cb.hello("bob")["session"];
  std::int64_t id = start_game(ca, cb, "race", "", "fischer:60000+0");
  ca.send(Json{{"type", "move"}, {"game_id", id}, {"move", "2"}, {"client_id", "a1"}});
  ca.expect("move_ack");
  server_->stop();
  start_server();
  WsClient ra(port()), rb(port());
  Json wa = ra.hello("ann", session_a);
  rb.hello("bob", session_b);
  EXPECT_EQ(wa["your_games"], Json::array({id}));
  rb.send(Json{{"type", "resume"}, {"game_id", id}, {"since_version", 7}});
  Json start = rb.expect("game_start");
  EXPECT_EQ(start["moves"], Json::array({"2"}));
  Json state = next_state(rb, id, 0);
  EXPECT_EQ(state["position"], "2:1");
  EXPECT_EQ(state["to_move"], 1);
  EXPECT_EQ(state["clocks"][1], 60000);
  rb.send(Json{{"type", "move"}, {"game_id", id}, {"move", "1"}, {"client_id", "b1"}});
  rb.expect("move_ack");
}

}  // namespace
}  // namespace arena::server::testing
