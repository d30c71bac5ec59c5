// Closes carry a code and a reason (protocol/README.md, Limits; issue 24 item 9): an exception
// while the server handles a message closes that connection with 1011 and "internal error: "
// and what failed, and nobody else notices. No client can make the server throw, so the test
// injects the fault through the hub's game factory (HubConfig::make_game, which `arena serve`
// fills with the catalog): a seek for the game "throws" calls it while the message is handled.

#include <stdexcept>

#include "tests/server/server_fixture.h"

namespace arena::server::testing {
namespace {

HubConfig throwing_hub_config() {
  HubConfig hub = test_hub_config();
  hub.make_game = [catalog = hub.make_game](std::string_view name, const GameOptions& o) {
    if (name == "throws") throw std::runtime_error("the game factory failed");
    return catalog(name, o);
  };
  return hub;
}

TEST_F(ServerTest, AnExceptionWhileHandlingAMessageClosesWith1011AndAReason) {
  server_->stop();
  start_server(throwing_hub_config());
  auto ann = connect("ann");
  auto bob = connect("bob");
  ann->send(Json{{"type", "seek"}, {"game", "throws"}});
  while (ann->recv(std::chrono::seconds(5))) {
  }
  ASSERT_TRUE(ann->closed());
  EXPECT_EQ(ann->close_code(), 1011);
  EXPECT_EQ(ann->close_reason(), "internal error: the game factory failed");
  // The others play on.
  bob->send(Json{{"type", "ping"}, {"id", "after"}});
  EXPECT_EQ(bob->expect("pong")["id"], "after");
}

}  // namespace
}  // namespace arena::server::testing
