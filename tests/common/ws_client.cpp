#include "tests/common/ws_client.h"

#include <gtest/gtest.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

namespace arena::server::testing {

namespace beast = boost::beast;

struct WsClient::Transport {
  boost::asio::io_context ioc;
  beast::websocket::stream<beast::tcp_stream> ws{ioc};
  beast::websocket::response_type response;
  bool open = false;
};

WsClient::WsClient(unsigned short port, Headers headers, int receive_buffer)
    : transport_(std::make_unique<Transport>()) {
  auto& ws = transport_->ws;
  boost::asio::ip::tcp::resolver resolver(transport_->ioc);
  if (receive_buffer > 0) {
    auto& socket = beast::get_lowest_layer(ws).socket();
    socket.open(boost::asio::ip::tcp::v4());
    socket.set_option(boost::asio::socket_base::receive_buffer_size(receive_buffer));
  }
  beast::get_lowest_layer(ws).connect(*resolver.resolve("127.0.0.1", std::to_string(port)).begin());
  // As browsers and the usual WebSocket libraries do: without it a move written just after
  // the pong to the server's turn probe waits for the server's delayed ACK (up to 40 ms).
  beast::get_lowest_layer(ws).socket().set_option(boost::asio::ip::tcp::no_delay(true));
  ws.set_option(beast::websocket::stream_base::decorator(
      [headers = std::move(headers)](beast::websocket::request_type& req) {
        for (const auto& [k, v] : headers) req.set(k, v);
      }));
  ws.read_message_max(1 << 24);
  beast::error_code ec;
  ws.handshake(transport_->response, "127.0.0.1", "/ws", ec);
  transport_->open = !ec;
}

WsClient::~WsClient() = default;

bool WsClient::open() const { return transport_->open; }
int WsClient::handshake_status() const { return transport_->response.result_int(); }
std::string WsClient::set_cookie() const {
  std::string c(transport_->response[beast::http::field::set_cookie]);
  return c.substr(0, c.find(';'));
}

void WsClient::send_text(const std::string& text) {
  beast::error_code ec;
  transport_->ws.text(true);
  transport_->ws.write(boost::asio::buffer(text), ec);
}

void WsClient::send_binary(const std::string& bytes) {
  beast::error_code ec;
  transport_->ws.binary(true);
  transport_->ws.write(boost::asio::buffer(bytes), ec);
  transport_->ws.text(true);
}

std::optional<Json> WsClient::recv(std::chrono::milliseconds timeout) {
  if (!backlog_.empty()) {
    Json j = std::move(backlog_.front());
    backlog_.pop_front();
    return j;
  }
  return read(timeout);
}

Json WsClient::wait_for(const std::function<bool(const Json&)>& pred, const std::string& what,
                        std::chrono::milliseconds timeout) {
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

Json WsClient::lobby_where(const std::function<bool(const Json&)>& pred, const std::string& what) {
  if (!last_lobby_.is_null() && pred(last_lobby_)) return last_lobby_;
  return wait_for([&](const Json& j) { return j.value("type", "") == "lobby" && pred(j); }, what);
}

Json WsClient::expect(const std::string& type) {
  return wait_for([&](const Json& j) { return j.value("type", "") == type; },
                  "a '" + type + "' message");
}

Json WsClient::expect_error(const std::string& code) {
  Json j = expect("error");
  EXPECT_EQ(j.value("code", ""), code) << j.dump();
  return j;
}

void WsClient::sync() {
  static int n = 0;
  const std::string id = "sync" + std::to_string(++n);
  send(Json{{"type", "ping"}, {"id", id}});
  wait_for([&](const Json& j) { return j.value("type", "") == "pong" && j.value("id", "") == id; },
           "pong");
}

std::vector<Json> WsClient::drain(const std::string& type) {
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

Json WsClient::hello(const std::string& name, const std::string& resume) {
  send(Json{{"type", "hello"}, {"version", 1}, {"name", name}, {"resume", resume}});
  return expect("welcome");
}

int WsClient::close_code() const { return static_cast<int>(transport_->ws.reason().code); }
std::string WsClient::close_reason() const {
  return std::string(transport_->ws.reason().reason.c_str());
}
void WsClient::close() {
  beast::error_code ec;
  transport_->ws.close(beast::websocket::close_code::normal, ec);
}
void WsClient::drop() {
  beast::error_code ec;
  beast::get_lowest_layer(transport_->ws).socket().close(ec);
}

std::optional<Json> WsClient::read(std::chrono::milliseconds timeout) {
  if (closed_) return std::nullopt;
  auto& ws = transport_->ws;
  auto& ioc = transport_->ioc;
  beast::flat_buffer buffer;
  bool done = false;
  beast::error_code result;
  ws.async_read(buffer, [&](beast::error_code ec, std::size_t) {
    done = true;
    result = ec;
  });
  ioc.restart();
  ioc.run_for(timeout);
  if (!done) {
    // Closed, not cancelled: a cancelled read in the middle of a close handshake may start
    // another wait that never ends. The stream is unusable after a timeout either way.
    boost::system::error_code ignored;
    beast::get_lowest_layer(ws).socket().close(ignored);
    ioc.restart();
    ioc.run();
    closed_ = true;
    return std::nullopt;
  }
  if (result) {
    closed_ = true;
    return std::nullopt;
  }
  return Json::parse(beast::buffers_to_string(buffer.data()));
}

}  // namespace arena::server::testing
