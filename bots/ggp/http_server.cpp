#include "bots/ggp/http_server.h"

#include <atomic>
#include <optional>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace arena::ggp {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// Declared so that the sessions, which the I/O context and the pool may still hold when they
// are destroyed, outlive neither the counter nor the handler they use.
struct HttpServer::Impl {
  std::atomic<int> connections{0};
  unsigned short port = 0;
  HttpServerOptions options;
  RequestHandler handler;
  asio::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  asio::thread_pool pool;

  Impl(RequestHandler h, HttpServerOptions o)
      : options(std::move(o)),
        handler(std::move(h)),
        pool(static_cast<std::size_t>(std::max(1, options.handler_threads))) {}
  void log(const std::string& line) const {
    if (options.log) options.log(line);
  }
  void do_accept();
};

namespace {

constexpr std::uint32_t kHeaderLimit = 8 * 1024;

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket&& socket, HttpServer::Impl& server)
      : stream_(std::move(socket)), server_(server) {
    ++server_.connections;
  }
  ~Session() { --server_.connections; }

  void do_read() {
    parser_.emplace();
    parser_->body_limit(server_.options.body_limit);
    parser_->header_limit(kHeaderLimit);
    stream_.expires_after(server_.options.read_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       self->on_read(ec);
                     });
  }

 private:
  void on_read(beast::error_code ec) {
    if (ec == http::error::body_limit) {
      return write(Reply{413, "the message is larger than " +
                                  std::to_string(server_.options.body_limit) + " bytes"},
                   false);
    }
    if (ec == http::error::end_of_stream || ec == beast::error::timeout) return close();
    if (ec) {
      if (ec != asio::error::operation_aborted && ec != asio::error::connection_reset)
        server_.log("GGP HTTP: read: " + ec.message());
      return close();
    }
    const auto received = Clock::now();
    auto request = parser_->release();
    keep_alive_ = request.keep_alive();
    if (request.method() == http::verb::options) return write(Reply{204, ""}, keep_alive_);
    if (request.method() != http::verb::post)
      return write(Reply{405, "GGP messages are sent with POST"}, keep_alive_);
    // The handler may think for a play clock: off the I/O thread.
    asio::post(server_.pool, [self = shared_from_this(), body = std::move(request.body()),
                              received]() mutable {
      Reply reply;
      try {
        reply = self->server_.handler(body, received);
      } catch (const std::exception& e) {
        reply = Reply{500, std::string("internal error: ") + e.what()};
      }
      asio::post(self->stream_.get_executor(), [self, reply = std::move(reply)]() mutable {
        self->write(std::move(reply), self->keep_alive_);
      });
    });
  }

  void write(Reply reply, bool keep_alive) {
    response_ = {};
    response_.version(11);
    response_.result(static_cast<unsigned>(reply.status));
    response_.set(http::field::content_type, "text/acl");
    response_.set(http::field::access_control_allow_origin, "*");
    response_.set(http::field::access_control_allow_methods, "POST, GET, OPTIONS");
    response_.set(http::field::access_control_allow_headers, "Content-Type");
    response_.keep_alive(keep_alive);
    response_.body() = std::move(reply.body);
    response_.prepare_payload();
    stream_.expires_after(server_.options.read_timeout);
    http::async_write(stream_, response_,
                      [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
                        if (ec || !keep_alive) return self->close();
                        self->do_read();
                      });
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  beast::tcp_stream stream_;
  HttpServer::Impl& server_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  http::response<http::string_body> response_;
  bool keep_alive_ = false;
};

}  // namespace

void HttpServer::Impl::do_accept() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (!ec) {
      if (connections.load() >= options.max_connections) {
        log("GGP HTTP: too many connections; one refused");
        beast::error_code ignored;
        socket.close(ignored);
      } else {
        std::make_shared<Session>(std::move(socket), *this)->do_read();
      }
    }
    do_accept();
  });
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HttpServer::~HttpServer() {
  stop();
  impl_->pool.join();
}

Expected<std::unique_ptr<HttpServer>> HttpServer::open(const std::string& host,
                                                       unsigned short port,
                                                       RequestHandler handler,
                                                       HttpServerOptions options) {
  auto impl = std::make_unique<Impl>(std::move(handler), std::move(options));
  beast::error_code ec;
  const auto address = asio::ip::make_address(host, ec);
  if (ec) return make_error("bad listen address '" + host + "': " + ec.message());
  const tcp::endpoint endpoint(address, port);
  auto& acceptor = impl->acceptor;
  if (acceptor.open(endpoint.protocol(), ec); ec)
    return make_error("cannot open a socket: " + ec.message());
  if (acceptor.set_option(asio::socket_base::reuse_address(true), ec); ec)
    return make_error("cannot set SO_REUSEADDR: " + ec.message());
  if (acceptor.bind(endpoint, ec); ec)
    return make_error("cannot bind " + host + ":" + std::to_string(port) + ": " + ec.message());
  if (acceptor.listen(asio::socket_base::max_listen_connections, ec); ec)
    return make_error("cannot listen on " + host + ":" + std::to_string(port) + ": " +
                      ec.message());
  impl->port = acceptor.local_endpoint().port();
  impl->do_accept();
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

unsigned short HttpServer::port() const {
  return impl_->port;
}

void HttpServer::run(bool handle_signals) {
  std::optional<asio::signal_set> signals;
  if (handle_signals) {
    signals.emplace(impl_->ioc, SIGINT, SIGTERM);
    signals->async_wait([this](beast::error_code, int) { stop(); });
  }
  impl_->ioc.run();
}

void HttpServer::stop() {
  impl_->ioc.stop();
}

}  // namespace arena::ggp
