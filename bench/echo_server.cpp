#include "bench/echo_server.h"

#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <pthread.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "server/net/write_behind_stream.h"

namespace arena::bench {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

// Same per-socket settings as the arena's sessions, so the comparison is like for like.
template <class Stream>
void configure(Stream& ws) {
  beast::get_lowest_layer(ws).socket().set_option(tcp::no_delay(true));
  ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws.read_message_max(64 * 1024);
}

class EchoSession : public std::enable_shared_from_this<EchoSession> {
 public:
  explicit EchoSession(tcp::socket&& socket) : ws_(std::move(socket)) {}
  void run() {
    configure(ws_);
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

class PairSession;

// Connections waiting for their partner, by the K of their "pair K".
struct Pairing {
  std::mutex mutex;
  std::map<std::string, std::weak_ptr<PairSession>> waiting;
};

// kPairs: the first message pairs the connection; each later one goes to both partners. Frames
// go out through the arena's own write path (server/net/write_behind_stream.h), as the arena's
// sessions send them, so that the forward reference differs from the arena by the game alone.
class PairSession : public std::enable_shared_from_this<PairSession> {
 public:
  PairSession(tcp::socket&& socket, Pairing& pairing)
      : ws_(beast::tcp_stream(std::move(socket))), pairing_(pairing) {}
  void run() {
    ws_.next_layer().set_owner(weak_from_this());
    configure(ws_);
    ws_.text(true);
    ws_.async_accept([self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->do_read();
    });
  }

 private:
  using Text = std::shared_ptr<const std::string>;

  void do_read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return;
      auto text = std::make_shared<const std::string>(beast::buffers_to_string(self->buffer_.cdata()));
      self->buffer_.consume(self->buffer_.size());
      if (auto partner = self->partner_.lock()) {
        self->send(text);
        asio::post(partner->ws_.get_executor(), [partner, text] { partner->send(text); });
      } else if (!self->paired_) {
        self->pair(*text);
      }
      self->do_read();
    });
  }
  void pair(const std::string& request) {
    std::shared_ptr<PairSession> first;
    {
      std::lock_guard lock(pairing_.mutex);
      auto it = pairing_.waiting.find(request);
      if (it == pairing_.waiting.end()) {
        pairing_.waiting.emplace(request, weak_from_this());
        return;
      }
      first = it->second.lock();
      pairing_.waiting.erase(it);
    }
    if (!first) return;
    paired_ = true;
    partner_ = first;
    send(paired_text());
    // The first learns of its partner on its own strand, before its "paired" goes out: no
    // message of the pair comes before both are told.
    asio::post(first->ws_.get_executor(), [first, second = weak_from_this()] {
      first->paired_ = true;
      first->partner_ = second;
      first->send(paired_text());
    });
  }
  static Text paired_text() {
    static const Text text = std::make_shared<const std::string>("paired");
    return text;
  }
  // On the strand: one socket write at a time; what comes meanwhile leaves in the next.
  void send(const Text& text) {
    ws_.next_layer().append_text(*text);
    ws_.next_layer().flush();
  }

  websocket::stream<server::WriteBehindStream> ws_;
  beast::flat_buffer buffer_;
  Pairing& pairing_;
  bool paired_ = false;
  std::weak_ptr<PairSession> partner_;
};

}  // namespace

struct EchoServer::Impl {
  Impl(int thread_count, EchoMode m) : mode(m), ioc(thread_count), acceptor(ioc) {}
  void do_accept() {
    // Each session gets its own strand, as the arena's listener does.
    acceptor.async_accept(asio::make_strand(ioc), [this](beast::error_code ec, tcp::socket s) {
      if (ec) return;
      if (mode == EchoMode::kPairs)
        std::make_shared<PairSession>(std::move(s), pairing)->run();
      else
        std::make_shared<EchoSession>(std::move(s))->run();
      do_accept();
    });
  }
  const EchoMode mode;
  Pairing pairing;
  asio::io_context ioc;
  tcp::acceptor acceptor;
  std::vector<std::thread> threads;
};

EchoServer::EchoServer(int threads, EchoMode mode)
    : impl_(std::make_unique<Impl>(threads, mode)) {
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
