#include "server/net/listener.h"

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

#include "server/net/http_session.h"

namespace arena::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

Listener::Listener(asio::io_context& ioc, asio::any_io_executor blocking, std::shared_ptr<Hub> hub,
                   std::string web_root)
    : ioc_(ioc),
      blocking_(std::move(blocking)),
      acceptor_(asio::make_strand(ioc)),
      hub_(std::move(hub)),
      web_root_(std::move(web_root)) {}

Expected<void> Listener::open(const std::string& host, unsigned short port) {
  boost::system::error_code ec;
  auto address = asio::ip::make_address(host, ec);
  if (ec) return make_error("bad host '" + host + "': " + ec.message());
  tcp::endpoint endpoint(address, port);
  if (acceptor_.open(endpoint.protocol(), ec); ec) return make_error("open: " + ec.message());
  if (acceptor_.set_option(asio::socket_base::reuse_address(true), ec); ec)
    return make_error("reuse_address: " + ec.message());
  if (acceptor_.bind(endpoint, ec); ec)
    return make_error("bind " + host + ":" + std::to_string(port) + ": " + ec.message());
  if (acceptor_.listen(asio::socket_base::max_listen_connections, ec); ec)
    return make_error("listen: " + ec.message());
  port_ = acceptor_.local_endpoint().port();
  return {};
}

void Listener::run() {
  do_accept();
}

void Listener::stop() {
  asio::post(acceptor_.get_executor(), [self = shared_from_this()] {
    boost::system::error_code ec;
    self->acceptor_.close(ec);
  });
}

void Listener::do_accept() {
  // Each connection gets its own strand, so its handlers never run concurrently.
  acceptor_.async_accept(asio::make_strand(ioc_), [self = shared_from_this()](
                                                      boost::system::error_code ec,
                                                      tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !self->acceptor_.is_open()) return;
    if (!ec) {
      // Moves are small messages that must leave at once: no Nagle delay (which, with
      // the peer's delayed ACK, held a move back for up to 40 ms).
      boost::system::error_code ignored;
      socket.set_option(tcp::no_delay(true), ignored);
      std::make_shared<HttpSession>(std::move(socket), self->blocking_, self->hub_, self->web_root_,
                                    self->throttle_)
          ->run();
    }
    self->do_accept();
  });
}

}  // namespace arena::server
