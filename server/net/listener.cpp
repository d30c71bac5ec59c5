#include "server/net/listener.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include "server/net/http_session.h"

namespace arena::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

// A whole 503 answer that closes the connection, with `body` saying why.
std::string unavailable(const std::string& body) {
  return "HTTP/1.1 503 Service Unavailable\r\nServer: arena\r\nContent-Type: text/plain\r\n"
         "Retry-After: 1\r\nConnection: close\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

const std::string& at_descriptor_limit() {
  static const std::string text =
      unavailable("the server is at its descriptor limit (too many open connections): try again "
                  "in a moment\n");
  return text;
}

int open_spare() {
  return ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

bool out_of_descriptors(const boost::system::error_code& ec) {
  return ec == asio::error::no_descriptors ||
         ec == boost::system::error_code(ENFILE, boost::system::system_category());
}

bool out_of_memory(const boost::system::error_code& ec) {
  return ec == asio::error::no_buffer_space || ec == asio::error::no_memory;
}

// A connection refused after accept: the answer is written, the sending side shut, and what the
// client sends (its request) read and dropped until it closes or kRefusalGrace passes, so that
// the close is no reset that could lose the answer before the client reads it.
class Refusal final : public std::enable_shared_from_this<Refusal> {
 public:
  Refusal(tcp::socket socket, std::string text, std::shared_ptr<std::atomic<int>> refusing)
      : stream_(std::move(socket)), text_(std::move(text)), refusing_(std::move(refusing)) {}
  ~Refusal() { --*refusing_; }
  void start() {
    stream_.expires_after(Listener::kRefusalGrace);
    asio::async_write(stream_, asio::buffer(text_),
                      [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
                        if (ec) return;
                        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
                        self->drain();
                      });
  }

 private:
  void drain() {
    stream_.async_read_some(asio::buffer(sink_),
                            [self = shared_from_this()](boost::system::error_code ec,
                                                        std::size_t) {
                              if (!ec) self->drain();
                            });
  }

  boost::beast::tcp_stream stream_;
  std::string text_;
  std::array<char, 4096> sink_{};
  std::shared_ptr<std::atomic<int>> refusing_;
};

}  // namespace

Listener::Listener(asio::io_context& ioc, asio::any_io_executor blocking,
                   std::shared_ptr<ClientEvents> events, std::shared_ptr<HubQueries> queries,
                   std::string web_root)
    : ioc_(ioc),
      blocking_(std::move(blocking)),
      acceptor_(asio::make_strand(ioc)),
      pause_(acceptor_.get_executor()),
      events_(std::move(events)),
      hub_(std::move(queries)),
      web_root_(std::move(web_root)) {}

Listener::~Listener() {
  release_reserve();
}

bool Listener::take_reserve() {
  while (reserve_.size() < static_cast<std::size_t>(kReserve)) {
    const int fd = open_spare();
    if (fd < 0) return false;
    reserve_.push_back(fd);
  }
  return true;
}

bool Listener::headroom() {
  int fds[kHeadroom];
  int opened = 0;
  while (opened < kHeadroom && (fds[opened] = open_spare()) >= 0) ++opened;
  for (int i = 0; i < opened; ++i) ::close(fds[i]);
  return opened == kHeadroom;
}

void Listener::release_reserve() {
  for (const int fd : reserve_) ::close(fd);
  reserve_.clear();
}

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
  int cap = hub_->config().max_connections_per_address;
  if (cap < 0) cap = auto_connections_per_address();
  limit_ = std::make_shared<ConnectionLimit>(cap);
  if (!take_reserve())
    return make_error("no " + std::to_string(kReserve) +
                      " descriptors to keep in reserve: " + std::strerror(errno));
  return {};
}

void Listener::run() {
  do_accept();
}

void Listener::stop() {
  asio::post(acceptor_.get_executor(), [self = shared_from_this()] {
    boost::system::error_code ec;
    self->acceptor_.close(ec);
    self->pause_.cancel();
  });
}

void Listener::do_accept() {
  // Each connection gets its own strand, so its handlers never run concurrently.
  acceptor_.async_accept(asio::make_strand(ioc_),
                         [self = shared_from_this()](boost::system::error_code ec,
                                                     tcp::socket socket) {
                           self->on_accept(ec, std::move(socket));
                         });
}

void Listener::on_accept(boost::system::error_code ec, tcp::socket socket) {
  if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
  if (ec) {
    // At the descriptor limit accept fails at once whether or not a client waits (the kernel
    // wants the descriptor first): refuse those waiting with the spare, then look again after
    // kLimitTick, not at once.
    if (out_of_descriptors(ec)) {
      release_reserve();  // for the store, the files and the runtime while at the limit
      at_limit_ = true;
      return pause_accepting(ec, refuse_waiting(ec));
    }
    if (out_of_memory(ec) || ++errors_in_a_row_ >= kErrorsBeforePause)
      return pause_accepting(ec, false);
    return do_accept();  // that connection failed (reset while queued, say): the next one
  }
  errors_in_a_row_ = 0;
  next_pause_ = std::chrono::milliseconds{0};
  if (troubled_ || refused_at_limit_ > 0) {
    std::fprintf(stderr,
                 "arena serve: accepting again (%ld client(s) refused at the descriptor limit)\n",
                 refused_at_limit_);
    troubled_ = false;
    refused_at_limit_ = 0;
  }
  // The last descriptors are not for clients: with fewer than kHeadroom free after this one (for
  // the store, the files and the runtime: a sanitizer's check needs a pipe) it is refused and
  // the reserve released.
  if (!headroom()) {
    const boost::system::error_code limit_ec(errno, boost::system::system_category());
    release_reserve();
    at_limit_ = true;
    if (refused_at_limit_++ == 0)
      std::fprintf(stderr,
                   "arena serve: at the descriptor limit (%s): new clients are refused with 503 "
                   "until descriptors are free\n",
                   limit_ec.message().c_str());
    refuse(std::move(socket), at_descriptor_limit());
    return pause_accepting(limit_ec, true);
  }
  boost::system::error_code ignored;
  const auto peer = socket.remote_endpoint(ignored);
  const std::string address = ignored ? std::string("?") : peer.address().to_string();
  auto slot = limit_->take(address);
  if (!slot) {
    refuse(std::move(socket),
           unavailable("too many connections from " + address + ": at most " +
                       std::to_string(limit_->limit()) +
                       " at once (arena serve --max-connections-per-address)\n"));
    return do_accept();
  }
  // Moves are small messages that must leave at once: no Nagle delay (which, with the peer's
  // delayed ACK, held a move back for up to 40 ms).
  socket.set_option(tcp::no_delay(true), ignored);
  std::make_shared<HttpSession>(std::move(socket), blocking_, events_, hub_, web_root_,
                                throttle_, std::move(slot))
      ->run();
  do_accept();
}

bool Listener::refuse_waiting(const boost::system::error_code& ec) {
  // The reserve is released: its descriptors take each waiting client in turn.
  for (int i = 0; i < kMaxRefusedAtOnce; ++i) {
    const int fd =
        ::accept4(acceptor_.native_handle(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
      if (errno == ECONNABORTED || errno == EINTR) continue;
      // EAGAIN: no one waits; anything else: no descriptor even so.
      return errno == EAGAIN || errno == EWOULDBLOCK;
    }
    if (refused_at_limit_++ == 0)
      std::fprintf(stderr,
                   "arena serve: at the descriptor limit (%s): new clients are refused with 503 "
                   "until descriptors are free\n",
                   ec.message().c_str());
    // A few refusals at once wait for their client (Refusal: the answer is not lost to a
    // request that arrives after the accept); past that, answered and closed at once.
    if (refusing_->load() < kMaxRefusingAtLimit) {
      tcp::socket socket(asio::make_strand(ioc_));
      boost::system::error_code assign_ec;
      socket.assign(acceptor_.local_endpoint(assign_ec).protocol(), fd, assign_ec);
      if (!assign_ec) {
        refuse(std::move(socket), at_descriptor_limit());
        continue;
      }
    }
    const std::string& text = at_descriptor_limit();
    (void)::send(fd, text.data(), text.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    // The request the client already sent is read and dropped (a few reads at most), so that
    // the close is a FIN: closing with unread data would reset the connection, and the client
    // could lose the answer.
    char sink[4096];
    for (int r = 0; r < 4 && ::recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0; ++r) {
    }
    ::shutdown(fd, SHUT_WR);
    ::close(fd);
  }
  return false;  // more may wait: the next tick
}

void Listener::limit_tick() {
  // Descriptors free again: the whole reserve, and the headroom beside it.
  if (take_reserve() && headroom()) {
    at_limit_ = false;
    return do_accept();
  }
  release_reserve();
  pause_accepting(boost::system::error_code(EMFILE, boost::system::system_category()),
                  refuse_waiting(boost::system::error_code(EMFILE, boost::system::system_category())));
}

void Listener::pause_accepting(const boost::system::error_code& ec, bool refused_all) {
  if (!refused_all && !troubled_) {
    std::fprintf(stderr, "arena serve: accept failed (%s): pausing; new clients wait\n",
                 ec.message().c_str());
    troubled_ = true;
  }
  if (refused_all) {
    next_pause_ = kLimitTick;
  } else {
    next_pause_ = next_pause_ < kFirstPause ? kFirstPause : std::min(next_pause_ * 2, kLongestPause);
  }
  pause_.expires_after(next_pause_);
  pause_.async_wait([self = shared_from_this()](boost::system::error_code wait_ec) {
    if (wait_ec || !self->acceptor_.is_open()) return;
    if (self->at_limit_) return self->limit_tick();
    self->do_accept();
  });
}

void Listener::refuse(tcp::socket socket, std::string text) {
  // Refusals hold a descriptor a little while: a bounded number of them, the rest closed at once.
  if (refusing_->fetch_add(1) >= kMaxRefusing) {
    --*refusing_;
    boost::system::error_code ignored;
    socket.close(ignored);
    return;
  }
  std::make_shared<Refusal>(std::move(socket), std::move(text), refusing_)->start();
}

}  // namespace arena::server
