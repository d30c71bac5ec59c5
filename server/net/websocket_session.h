#pragma once
// WebSocketSession: one client on /ws. Reads frames (read_message_max, idle timeout with
// pings) and hands each text to the hub; one outgoing queue where only the first message
// starts a write, with a cap: a client that does not read is closed, never waited for.

#include <deque>
#include <memory>
#include <string>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "server/connection.h"
#include "server/hub.h"

namespace arena::server {

inline constexpr std::size_t kMaxQueuedMessages = 4096;

class WebSocketSession final : public Connection,
                               public std::enable_shared_from_this<WebSocketSession> {
 public:
  WebSocketSession(boost::beast::tcp_stream&& stream, std::shared_ptr<Hub> hub);

  // Accepts the upgrade `request`; `set_cookie` (if not empty) goes into the response.
  void run(boost::beast::http::request<boost::beast::http::string_body> request,
           std::string set_cookie);

  void send(Text text) override;
  void close_going_away() override;
  void close_now() override;
  void continue_reading(std::function<void()> step) override;

 private:
  void on_accept(boost::beast::error_code ec);
  void do_read();
  void on_read(boost::beast::error_code ec, std::size_t bytes);
  void on_send(Text text);
  void on_write(boost::beast::error_code ec, std::size_t bytes);
  void fail();

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  std::shared_ptr<Hub> hub_;
  std::deque<Text> queue_;
  bool open_ = false, closed_ = false;
};

}  // namespace arena::server
