#include "bots/client/ws_connection.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace arena::client {

namespace beast = boost::beast;
namespace asio = boost::asio;
using Ws = beast::websocket::stream<beast::tcp_stream>;

Expected<WsUrl> parse_ws_url(std::string_view url) {
  constexpr std::string_view kScheme = "ws://";
  if (!url.starts_with(kScheme))
    return make_error("server URL '" + std::string(url) + "' must start with ws://");
  std::string_view rest = url.substr(kScheme.size());
  const auto slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  WsUrl out;
  out.path = slash == std::string_view::npos ? "/ws" : std::string(rest.substr(slash));
  const auto colon = authority.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == authority.size())
    return make_error("server URL '" + std::string(url) + "' needs HOST:PORT");
  out.host = std::string(authority.substr(0, colon));
  out.port = std::string(authority.substr(colon + 1));
  for (char c : out.port)
    if (c < '0' || c > '9')
      return make_error("bad port '" + out.port + "' in '" + std::string(url) + "'");
  return out;
}

struct WsConnection::Impl {
  WsUrl url;
  std::string token;
  MessageHandler& handler;
  std::atomic<int>& connects;
  asio::io_context ioc;
  std::thread thread;
  std::mutex mutex;  // guards the fields below
  std::condition_variable wake;
  bool stopping = false;
  std::uint64_t generation = 0;  // of the current connection; stale sends are dropped
  bool connected = false;
  bool refused = false;  // the upgrade was answered 401 or 403: no more attempts
  std::string last_error;
  // I/O-thread only:
  std::shared_ptr<Ws> ws;
  std::deque<std::string> queue;
  bool writing = false;
  beast::flat_buffer buffer;

  Impl(WsUrl u, std::string t, MessageHandler& h, std::atomic<int>& c)
      : url(std::move(u)), token(std::move(t)), handler(h), connects(c) {}

  void set_error(std::string e) {
    std::lock_guard lock(mutex);
    last_error = std::move(e);
  }

  std::shared_ptr<Ws> open() {
    auto s = std::make_shared<Ws>(ioc);
    beast::error_code ec;
    asio::ip::tcp::resolver resolver(ioc);
    auto found = resolver.resolve(url.host, url.port, ec);
    if (!ec) beast::get_lowest_layer(*s).socket().connect(*found.begin(), ec);
    // A move must not wait for an ACK of the previous frame (Nagle): it is on the clock.
    if (!ec) beast::get_lowest_layer(*s).socket().set_option(asio::ip::tcp::no_delay(true), ec);
    if (ec) {
      set_error("connect to " + url.host + ":" + url.port + ": " + ec.message());
      return nullptr;
    }
    const std::string bearer = token.empty() ? "" : "Bearer " + token;
    s->set_option(
        beast::websocket::stream_base::decorator([bearer](beast::websocket::request_type& r) {
          r.set(beast::http::field::user_agent, "arena-bot");
          if (!bearer.empty()) r.set(beast::http::field::authorization, bearer);
        }));
    s->read_message_max(16u << 20);
    beast::websocket::response_type answer;
    s->handshake(answer, url.host + ":" + url.port, url.path, ec);
    if (ec && (answer.result() == beast::http::status::unauthorized ||
               answer.result() == beast::http::status::forbidden)) {
      // A token the server does not know will not become known by asking again.
      std::string why = answer.body();
      while (!why.empty() && (why.back() == '\n' || why.back() == '\r')) why.pop_back();
      set_error("the server at " + url.host + ":" + url.port + " refused the token (HTTP " +
                std::to_string(answer.result_int()) + (why.empty() ? "" : ": " + why) + ")");
      std::lock_guard lock(mutex);
      refused = true;
      return nullptr;
    }
    if (ec) {
      set_error("WebSocket handshake with " + url.host + ":" + url.port + url.path + ": " +
                ec.message());
      return nullptr;
    }
    s->text(true);
    return s;
  }

  void read() {
    ws->async_read(buffer, [this, s = ws](beast::error_code ec, std::size_t) {
      if (ec) {
        set_error("connection lost: " + ec.message());
        beast::error_code ignored;
        beast::get_lowest_layer(*s).socket().close(ignored);
        return;  // nothing else to do: run() returns, the loop reconnects
      }
      handler.on_message(beast::buffers_to_string(buffer.data()));
      buffer.consume(buffer.size());
      read();
    });
  }

  void write() {
    if (writing || queue.empty() || !ws) return;
    writing = true;
    ws->async_write(asio::buffer(queue.front()), [this, s = ws](beast::error_code ec, std::size_t) {
      writing = false;
      if (ec) return;  // the read side notices the failure too
      queue.pop_front();
      write();
    });
  }

  void run() {
    int backoff_ms = 50;
    for (;;) {
      {
        std::lock_guard lock(mutex);
        if (stopping || refused) return;
      }
      ioc.restart();
      auto s = open();
      if (!s) {
        std::unique_lock lock(mutex);
        wake.wait_for(lock, std::chrono::milliseconds(backoff_ms), [&] { return stopping; });
        backoff_ms = std::min(backoff_ms * 2, 2000);
        continue;
      }
      backoff_ms = 50;
      ws = s;
      queue.clear();
      writing = false;
      buffer.consume(buffer.size());
      {
        std::lock_guard lock(mutex);
        ++generation;
        connected = true;
      }
      ++connects;
      handler.on_open();
      read();
      ioc.run();
      {
        std::lock_guard lock(mutex);
        connected = false;
        ++generation;
      }
      ws.reset();
      handler.on_closed();
    }
  }
};

WsConnection::WsConnection(WsUrl url, std::string token, MessageHandler& handler)
    : impl_(std::make_unique<Impl>(std::move(url), std::move(token), handler, connects_)) {}

WsConnection::~WsConnection() {
  stop();
}

void WsConnection::start() {
  impl_->thread = std::thread([this] { impl_->run(); });
}

void WsConnection::stop() {
  {
    std::lock_guard lock(impl_->mutex);
    if (impl_->stopping && !impl_->thread.joinable()) return;
    impl_->stopping = true;
  }
  impl_->wake.notify_all();
  asio::post(impl_->ioc, [impl = impl_.get()] {
    if (!impl->ws) return;
    // An abrupt close: a close handshake may not start while the read is outstanding.
    beast::error_code ignored;
    beast::get_lowest_layer(*impl->ws).socket().close(ignored);
  });
  if (impl_->thread.joinable()) impl_->thread.join();
}

void WsConnection::send(std::string text) {
  std::uint64_t gen = 0;
  {
    std::lock_guard lock(impl_->mutex);
    if (!impl_->connected) return;
    gen = impl_->generation;
  }
  asio::post(impl_->ioc, [impl = impl_.get(), gen, text = std::move(text)]() mutable {
    {
      std::lock_guard lock(impl->mutex);
      if (gen != impl->generation) return;  // written for a connection that is gone
    }
    impl->queue.push_back(std::move(text));
    impl->write();
  });
}

void WsConnection::drop() {
  asio::post(impl_->ioc, [impl = impl_.get()] {
    if (!impl->ws) return;
    beast::error_code ignored;
    auto& socket = beast::get_lowest_layer(*impl->ws).socket();
    socket.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
  });
}

bool WsConnection::refused() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->refused;
}

std::string WsConnection::last_error() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->last_error;
}

}  // namespace arena::client
