#pragma once
// A hub on its own io_context with the memory store and fake connections (no network): join a
// player, send a message and run what it caused. Subclasses make the hub with their own
// HubConfig (the games they host). At the end the hub is released as the server releases it
// once its threads stopped, so that a game left in progress (a spectator's connection, the
// match's timers) does not keep the hub and its connections alive.

#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>

#include "server/hub.h"
#include "db/memory_store.h"
#include "tests/server/fake_connection.h"

namespace arena::server::testing {

class FakeHubTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (hub) hub->release();
  }
  void make_hub(HubConfig config) {
    hub = std::make_shared<Hub>(ioc.get_executor(), std::move(config), store, time);
  }
  std::shared_ptr<FakeConnection> join(const std::string& name,
                                       int version = protocol::kProtocolVersion) {
    auto c = std::make_shared<FakeConnection>();
    hub->on_open(c);
    hub->on_message(c,
                    protocol::Json{{"type", "hello"}, {"version", version}, {"name", name}}.dump());
    return c;
  }
  void send(const std::shared_ptr<FakeConnection>& c, const protocol::Json& j) {
    hub->on_message(c, j.dump());
    drain();
  }
  // Runs every handler that is ready, and those they post, without waiting for timers.
  void drain() {
    do ioc.restart();
    while (ioc.poll() > 0);
  }

  boost::asio::io_context ioc;
  db::MemoryStore store;
  std::shared_ptr<SteadyTimeSource> time = std::make_shared<SteadyTimeSource>();
  std::shared_ptr<Hub> hub;
};

}  // namespace arena::server::testing
