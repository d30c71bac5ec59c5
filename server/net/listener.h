#pragma once
// Listener: accepts TCP connections, each on its own strand, and starts an HttpSession.
// `blocking` runs what may wait (store reads, files): see http_session.h.
//
// Limits, so that no client can make the server spin or hang the others:
// - Per address: at most HubConfig::max_connections_per_address connections at once
//   (ConnectionLimit, as nginx's limit_conn); one more is answered 503 naming the cap and
//   closed (the refusal waits at most kRefusalGrace for the client to read it; at most
//   kMaxRefusing refusals at once, past that the connection is closed at once).
// - At the descriptor limit (accept fails with EMFILE or ENFILE; Linux wants the new
//   descriptor before it looks at the queue, so accept fails at once whether or not a client
//   waits) accepting again at once spins a core while every new client waits in the queue,
//   unanswered. So the listener holds kReserve descriptors (/dev/null) while it accepts. At the
//   limit it releases them (for the store, the web files and the runtime: a sanitizer's own
//   checks need a pipe), takes each waiting client with one, answers it 503 ("the server is at
//   its descriptor limit") and closes it, and looks again every kLimitTick: it refuses who
//   waits, and goes back to accepting once it can take the whole reserve again and one more.
//   A new client gets a prompt refusal, and the server wakes 20 times a second until
//   descriptors are free. A client is never taken with fewer than kHeadroom descriptors
//   left free beside the reserve (it is refused, and the reserve released). On ENOBUFS/ENOMEM accepting pauses on a timer, from kFirstPause
//   doubling to kLongestPause, until an accept succeeds. The first error and the end of such
//   an episode are logged. Other errors concern one connection (gone from the queue): accept
//   again at once, but after kErrorsBeforePause in a row, pause as well.

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "games/core/expected.h"
#include "server/core/client_events.h"
#include "server/core/hub_queries.h"
#include "server/net/connection_limit.h"
#include "server/net/login_throttle.h"

namespace arena::server {

class Listener final : public std::enable_shared_from_this<Listener> {
 public:
  static constexpr std::chrono::milliseconds kLimitTick{50};
  static constexpr int kReserve = 16;
  static constexpr int kHeadroom = 4;  // free descriptors a client may never take
  static constexpr int kMaxRefusedAtOnce = 256;
  static constexpr std::chrono::milliseconds kFirstPause{10};
  static constexpr std::chrono::milliseconds kLongestPause{1000};
  static constexpr int kErrorsBeforePause = 16;
  static constexpr int kMaxRefusing = 64;
  static constexpr int kMaxRefusingAtLimit = 8;  // of the kReserve descriptors released
  static constexpr std::chrono::milliseconds kRefusalGrace{2000};

  // `events` and `queries`: the hub, handed to each session.
  Listener(boost::asio::io_context& ioc, boost::asio::any_io_executor blocking,
           std::shared_ptr<ClientEvents> events, std::shared_ptr<HubQueries> queries,
           std::string web_root);
  ~Listener();
  // Binds and listens; port 0 picks a free port (see port()).
  Expected<void> open(const std::string& host, unsigned short port);
  unsigned short port() const { return port_; }
  // The cap on connections per address in force (0: none), known after open().
  int connections_per_address() const { return limit_ ? limit_->limit() : 0; }
  void run();
  void stop();  // stops accepting (thread-safe)

 private:
  void do_accept();
  void on_accept(boost::system::error_code ec, boost::asio::ip::tcp::socket socket);
  // At the descriptor limit (the reserve released): the clients waiting in the queue accepted
  // and refused. True if the queue is empty now.
  bool refuse_waiting(const boost::system::error_code& ec);
  // At the limit, every kLimitTick: back to accepting if the reserve can be had, else refuse.
  void limit_tick();
  bool take_reserve();  // true when all kReserve are held
  void release_reserve();
  bool headroom();  // kHeadroom descriptors could be opened now
  // Accepting waits on the timer: kLimitTick when every waiting client was refused, else
  // longer each time in a row.
  void pause_accepting(const boost::system::error_code& ec, bool refused_all);
  // Answers `text` (a whole HTTP response) on `socket` and closes it (see kRefusalGrace).
  void refuse(boost::asio::ip::tcp::socket socket, std::string text);

  boost::asio::io_context& ioc_;
  boost::asio::any_io_executor blocking_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer pause_;  // on the acceptor's strand, as is what follows
  std::chrono::milliseconds next_pause_{0};
  int errors_in_a_row_ = 0;
  bool troubled_ = false;      // accepting paused (and said so) since the last success
  long refused_at_limit_ = 0;  // in the episode under way, for its log line
  std::vector<int> reserve_;  // descriptors held while accepting (/dev/null)
  bool at_limit_ = false;      // the reserve is released: refusing until it can be had again
  std::shared_ptr<ClientEvents> events_;
  std::shared_ptr<HubQueries> hub_;
  std::string web_root_;
  // Failed token logins per address, for every session of this listener (http_session.h).
  std::shared_ptr<LoginThrottle> throttle_ = std::make_shared<LoginThrottle>();
  std::shared_ptr<ConnectionLimit> limit_;
  std::shared_ptr<std::atomic<int>> refusing_ = std::make_shared<std::atomic<int>>(0);
  unsigned short port_ = 0;
};

}  // namespace arena::server
