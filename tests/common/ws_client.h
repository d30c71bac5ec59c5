#pragma once
// A small blocking WebSocket client for the tests of a running server (tests/server, the crash
// test of tests/db; Beast, loopback only). Every wait has a timeout, so a broken server fails a
// test instead of hanging it.

#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "protocol/codec.h"

namespace arena::server::testing {

using protocol::Json;
using Headers = std::vector<std::pair<std::string, std::string>>;

class WsClient {
 public:
  // `receive_buffer` > 0: the socket's receive buffer in bytes (a small one makes a client
  // that does not read fill the server's queue soon).
  explicit WsClient(unsigned short port, Headers headers = {}, int receive_buffer = 0) : ws_(ioc_) {
    namespace beast = boost::beast;
    boost::asio::ip::tcp::resolver resolver(ioc_);
    if (receive_buffer > 0) {
      auto& socket = beast::get_lowest_layer(ws_).socket();
      socket.open(boost::asio::ip::tcp::v4());
      socket.set_option(boost::asio::socket_base::receive_buffer_size(receive_buffer));
    }
    beast::get_lowest_layer(ws_).connect(
        *resolver.resolve("127.0.0.1", std::to_string(port)).begin());
    // As browsers and the usual WebSocket libraries do: without it a move written just after
    // the pong to the server's turn probe waits for the server's delayed ACK (up to 40 ms).
    beast::get_lowest_layer(ws_).socket().set_option(boost::asio::ip::tcp::no_delay(true));
    ws_.set_option(
        beast::websocket::stream_base::decorator([headers](beast::websocket::request_type& req) {
          for (const auto& [k, v] : headers) req.set(k, v);
        }));
    ws_.read_message_max(1 << 24);
    beast::error_code ec;
    ws_.handshake(response_, "127.0.0.1", "/ws", ec);
    open_ = !ec;
  }
  bool open() const { return open_; }
  int handshake_status() const { return response_.result_int(); }
  std::string set_cookie() const {
    std::string c(response_[boost::beast::http::field::set_cookie]);
    return c.substr(0, c.find(';'));
  }

  void send_text(const std::string& text) {
    boost::beast::error_code ec;
    ws_.text(true);
    ws_.write(boost::asio::buffer(text), ec);
  }
  void send(const Json& j) { send_text(j.dump()); }
  void send_binary(const std::string& bytes) {
    boost::beast::error_code ec;
    ws_.binary(true);
    ws_.write(boost::asio::buffer(bytes), ec);
    ws_.text(true);
  }

  // The next message, or nullopt on timeout or close (closed() tells which).
  std::optional<Json> recv(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    if (!backlog_.empty()) {
      Json j = std::move(backlog_.front());
      backlog_.pop_front();
      return j;
    }
    return read(timeout);
  }
  // The first message (buffered or new) that satisfies `pred`; others stay buffered.
  Json wait_for(const std::function<bool(const Json&)>& pred, const std::string& what,
                std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    for (auto it = backlog_.begin(); it != backlog_.end(); ++it)
      if (pred(*it)) {
        Json j = std::move(*it);
        backlog_.erase(it);
        return j;
      }
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      auto j = read(left);
      if (!j) break;
      if (pred(*j)) return *j;
      if ((*j)["type"] == "lobby")
        last_lobby_ = std::move(*j);  // only the latest lobby matters
      else
        backlog_.push_back(std::move(*j));
    }
    ADD_FAILURE() << "timed out or closed waiting for " << what;
    return Json{};
  }
  // The latest lobby update if it satisfies `pred` (updates read while waiting for something
  // else are not buffered, only remembered), else the next one that does.
  Json lobby_where(const std::function<bool(const Json&)>& pred, const std::string& what) {
    if (!last_lobby_.is_null() && pred(last_lobby_)) return last_lobby_;
    return wait_for([&](const Json& j) { return j.value("type", "") == "lobby" && pred(j); }, what);
  }
  Json expect(const std::string& type) {
    return wait_for([&](const Json& j) { return j.value("type", "") == type; },
                    "a '" + type + "' message");
  }
  Json expect_error(const std::string& code) {
    Json j = expect("error");
    EXPECT_EQ(j.value("code", ""), code) << j.dump();
    return j;
  }
  // Round trip: everything the server sent before the pong has arrived afterwards.
  void sync() {
    static int n = 0;
    const std::string id = "sync" + std::to_string(++n);
    send(Json{{"type", "ping"}, {"id", id}});
    wait_for(
        [&](const Json& j) { return j.value("type", "") == "pong" && j.value("id", "") == id; },
        "pong");
  }
  // Buffered messages of `type` (dropping lobby updates).
  std::vector<Json> drain(const std::string& type) {
    std::vector<Json> out;
    for (auto it = backlog_.begin(); it != backlog_.end();)
      if ((*it)["type"] == type) {
        out.push_back(*it);
        it = backlog_.erase(it);
      } else {
        ++it;
      }
    return out;
  }

  Json hello(const std::string& name, const std::string& resume = "") {
    send(Json{{"type", "hello"}, {"version", 1}, {"name", name}, {"resume", resume}});
    return expect("welcome");
  }

  bool closed() const { return closed_; }
  int close_code() const { return static_cast<int>(ws_.reason().code); }
  std::string close_reason() const { return std::string(ws_.reason().reason.c_str()); }
  void close() {
    boost::beast::error_code ec;
    ws_.close(boost::beast::websocket::close_code::normal, ec);
  }
  void drop() {
    boost::beast::error_code ec;
    boost::beast::get_lowest_layer(ws_).socket().close(ec);
  }

 private:
  std::optional<Json> read(std::chrono::milliseconds timeout) {
    if (closed_) return std::nullopt;
    boost::beast::flat_buffer buffer;
    bool done = false;
    boost::beast::error_code result;
    ws_.async_read(buffer, [&](boost::beast::error_code ec, std::size_t) {
      done = true;
      result = ec;
    });
    ioc_.restart();
    ioc_.run_for(timeout);
    if (!done) {
      // Closed, not cancelled: a cancelled read in the middle of a close handshake may start
      // another wait that never ends. The stream is unusable after a timeout either way.
      boost::system::error_code ignored;
      boost::beast::get_lowest_layer(ws_).socket().close(ignored);
      ioc_.restart();
      ioc_.run();
      closed_ = true;
      return std::nullopt;
    }
    if (result) {
      closed_ = true;
      return std::nullopt;
    }
    return Json::parse(boost::beast::buffers_to_string(buffer.data()));
  }

  boost::asio::io_context ioc_;
  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::websocket::response_type response_;
  std::deque<Json> backlog_;
  Json last_lobby_;
  bool open_ = false, closed_ = false;
};

}  // namespace arena::server::testing
