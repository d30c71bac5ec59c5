#include "server/net/websocket_session.h"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

namespace arena::server {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;

WebSocketSession::WebSocketSession(beast::tcp_stream&& stream, std::shared_ptr<Hub> hub)
    : ws_(std::move(stream)), hub_(std::move(hub)) {}

void WebSocketSession::run(http::request<http::string_body> request, std::string set_cookie) {
  // The tcp_stream's timeout is replaced by the websocket's own (idle timeout with pings).
  beast::get_lowest_layer(ws_).expires_never();
  auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
  timeouts.idle_timeout = std::chrono::seconds(60);
  timeouts.keep_alive_pings = true;
  ws_.set_option(timeouts);
  ws_.read_message_max(protocol::kMaxMessageBytes);
  ws_.set_option(websocket::stream_base::decorator([set_cookie](websocket::response_type& res) {
    res.set(http::field::server, "arena");
    if (!set_cookie.empty()) res.set(http::field::set_cookie, set_cookie);
  }));
  ws_.async_accept(request,
                   beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
}

void WebSocketSession::on_accept(beast::error_code ec) {
  if (ec) return;
  open_ = true;
  hub_->on_open(shared_from_this());
  do_read();
}

void WebSocketSession::do_read() {
  ws_.async_read(buffer_,
                 beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
}

void WebSocketSession::on_read(beast::error_code ec, std::size_t) {
  // Errors include message_too_big: Beast has then already closed with code 1009.
  if (ec) return fail();
  if (!ws_.got_text()) {
    hub_->on_binary_message(shared_from_this());
  } else {
    const auto data = buffer_.cdata();
    hub_->on_message(shared_from_this(),
                     std::string_view(static_cast<const char*>(data.data()), data.size()));
  }
  buffer_.consume(buffer_.size());
  if (reading_paused) return;  // the hub waits for the store: continue_reading reads on
  do_read();
}

void WebSocketSession::continue_reading(std::function<void()> step) {
  boost::asio::post(ws_.get_executor(), [self = shared_from_this(), step = std::move(step)] {
    self->reading_paused = false;
    step();
    // Closed meanwhile: the read fails at once and fail() tells the hub.
    if (!self->reading_paused) self->do_read();
  });
}

void WebSocketSession::send(Text text) {
  boost::asio::post(ws_.get_executor(),
                    [self = shared_from_this(), text = std::move(text)]() mutable {
                      self->on_send(std::move(text));
                    });
}

void WebSocketSession::on_send(Text text) {
  if (closed_ || !open_) return;
  if (queue_.size() >= kMaxQueuedMessages) {
    // The client does not read: drop it rather than hold memory or slow anyone else.
    closed_ = true;
    beast::get_lowest_layer(ws_).socket().close();
    return;
  }
  queue_.push_back(std::move(text));
  if (queue_.size() > 1) return;  // a write is in flight; it will continue with this one
  ws_.text(true);
  ws_.async_write(boost::asio::buffer(*queue_.front()),
                  beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
}

void WebSocketSession::on_write(beast::error_code ec, std::size_t) {
  if (ec) return fail();
  queue_.pop_front();
  if (queue_.empty() || closed_) return;
  ws_.async_write(boost::asio::buffer(*queue_.front()),
                  beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
}

void WebSocketSession::close_going_away() {
  boost::asio::post(ws_.get_executor(), [self = shared_from_this()] {
    if (self->closed_ || !self->open_) return;
    self->closed_ = true;
    self->ws_.async_close(websocket::close_code::going_away, [self](beast::error_code) {});
  });
}

void WebSocketSession::close_now() {
  boost::asio::post(ws_.get_executor(), [self = shared_from_this()] {
    self->closed_ = true;
    beast::error_code ignored;
    beast::get_lowest_layer(self->ws_).socket().close(ignored);
  });
}

void WebSocketSession::fail() {
  if (!open_) return;
  open_ = false;
  closed_ = true;
  hub_->on_close(shared_from_this());
}

}  // namespace arena::server
