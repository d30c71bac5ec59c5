#pragma once
// Listener: accepts TCP connections, each on its own strand, and starts an HttpSession.
// `blocking` runs what may wait (store reads, files): see http_session.h.

#include <memory>
#include <string>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "games/core/expected.h"
#include "server/hub.h"
#include "server/net/login_throttle.h"

namespace arena::server {

class Listener final : public std::enable_shared_from_this<Listener> {
 public:
  Listener(boost::asio::io_context& ioc, boost::asio::any_io_executor blocking,
           std::shared_ptr<Hub> hub, std::string web_root);
  // Binds and listens; port 0 picks a free port (see port()).
  Expected<void> open(const std::string& host, unsigned short port);
  unsigned short port() const { return port_; }
  void run();
  void stop();  // stops accepting (thread-safe)

 private:
  void do_accept();

  boost::asio::io_context& ioc_;
  boost::asio::any_io_executor blocking_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::shared_ptr<Hub> hub_;
  std::string web_root_;
  // Failed token logins per address, for every session of this listener (http_session.h).
  std::shared_ptr<LoginThrottle> throttle_ = std::make_shared<LoginThrottle>();
  unsigned short port_ = 0;
};

}  // namespace arena::server
