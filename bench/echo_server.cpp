#include "bench/echo_server.h"

#include <thread>

#include <pthread.h>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

namespace arena::bench {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

class EchoSession : public std::enable_shared_from_this<EchoSession> {
 public:
  explicit EchoSession(tcp::socket&& socket) : ws_(std::move(socket)) {}
  void run() {
    // Same per-socket settings as the arena's sessions, so the comparison is like for like.
    beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(64 * 1024);
    ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->do_read();
    });
  }

 private:
  void do_read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      self->ws_.text(self->ws_.got_text());
      self->ws_.async_write(self->buffer_.data(), [self](beast::error_code e, std::size_t) {
        if (e) return;
        self->buffer_.consume(self->buffer_.size());
        self->do_read();
      });
    });
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
};

}  // namespace

struct EchoServer::Impl {
  explicit Impl(int thread_count) : ioc(thread_count), acceptor(ioc) {}
  void do_accept() {
    // Each session gets its own strand, as the arena's listener does.
    acceptor.async_accept(asio::make_strand(ioc), [this](beast::error_code ec, tcp::socket s) {
      if (ec) return;
      std::make_shared<EchoSession>(std::move(s))->run();
      do_accept();
    });
  }
  asio::io_context ioc;
  tcp::acceptor acceptor;
  std::vector<std::thread> threads;
};

EchoServer::EchoServer(int threads) : impl_(std::make_unique<Impl>(threads)) {
  const tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(ep.protocol());
  impl_->acceptor.set_option(asio::socket_base::reuse_address(true));
  impl_->acceptor.bind(ep);
  impl_->acceptor.listen(asio::socket_base::max_listen_connections);
  impl_->do_accept();
  for (int i = 0; i < std::max(1, threads); ++i)
    impl_->threads.emplace_back([this] {
      pthread_setname_np(pthread_self(), "echo-io");
      impl_->ioc.run();
    });
}

EchoServer::~EchoServer() {
  beast::error_code ignored;
  impl_->acceptor.close(ignored);
  // Sessions end when their clients close; stop() bounds the wait either way.
  impl_->ioc.stop();
  for (auto& t : impl_->threads) t.join();
}

unsigned short EchoServer::port() const {
  return impl_->acceptor.local_endpoint().port();
}

}  // namespace arena::bench
