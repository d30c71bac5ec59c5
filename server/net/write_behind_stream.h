#pragma once
// WriteBehindStream: the layer between a WebSocket stream and its TCP stream through which
// every outgoing frame goes, so that frames queued while a socket write is under way leave
// together in the next one. At most one socket write is in flight; the frames are sent in the
// order they came. Two ways in:
//   - write_text(payload): the session's messages, framed here (a server's frames are not
//     masked; no extension is negotiated), with no completion to wait for;
//   - async_write_some: what Beast writes itself (the upgrade's response, pings, pongs, close
//     frames), copied in and completed at once.
// Reads go straight through to the TCP stream.
//
// A failed socket write closes the socket: the pending read then fails and the session ends.
// backlog_frames() is what the session counts against its cap (a client that does not read is
// closed). Teardown (after a close frame) waits until everything held is written, so the close
// frame is not cut off.
//
// Threading: everything runs on the TCP stream's executor (the session's strand).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <boost/asio/buffer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket/teardown.hpp>

namespace arena::server {

class WriteBehindStream {
 public:
  using next_layer_type = boost::beast::tcp_stream;
  using executor_type = next_layer_type::executor_type;

  explicit WriteBehindStream(boost::beast::tcp_stream&& next) : next_(std::move(next)) {}

  executor_type get_executor() noexcept { return next_.get_executor(); }
  next_layer_type& next_layer() noexcept { return next_; }
  const next_layer_type& next_layer() const noexcept { return next_; }

  // Who keeps this stream alive while a socket write is in flight (the session owning it).
  void set_owner(std::weak_ptr<void> owner) { owner_ = std::move(owner); }
  // Queues one text message as one final frame; flush() sends it.
  void append_text(std::string_view payload) {
    if (error_) return;
    const std::size_t n = payload.size();
    pending_.push_back(static_cast<char>(0x81));  // FIN, text
    if (n < 126) {
      pending_.push_back(static_cast<char>(n));
    } else if (n < 65536) {
      pending_.push_back(static_cast<char>(126));
      pending_.push_back(static_cast<char>((n >> 8) & 0xff));
      pending_.push_back(static_cast<char>(n & 0xff));
    } else {
      pending_.push_back(static_cast<char>(127));
      for (int shift = 56; shift >= 0; shift -= 8)
        pending_.push_back(static_cast<char>((static_cast<std::uint64_t>(n) >> shift) & 0xff));
    }
    pending_.append(payload);
    ++pending_frames_;
  }
  // Starts a socket write of everything queued, unless one is under way (what it does not
  // carry leaves in the next, as soon as it completes).
  void flush() {
    if (writing_frames_ > 0 || pending_frames_ == 0 || error_) return;
    auto owner = owner_.lock();
    if (!owner) return;  // the session is going away: nothing more is sent
    writing_.swap(pending_);
    pending_.clear();
    writing_frames_ = pending_frames_;
    pending_frames_ = 0;
    boost::asio::async_write(
        next_, boost::asio::buffer(writing_),
        [this, keep_alive = std::move(owner)](boost::beast::error_code ec, std::size_t) {
          writing_frames_ = 0;
          writing_.clear();
          if (ec) {
            error_ = ec;
            pending_.clear();
            pending_frames_ = 0;
            boost::beast::error_code ignored;
            next_.socket().close(ignored);
          }
          flush();  // what came meanwhile, in one write
          if (writing_frames_ == 0 && after_write_) {
            auto then = std::move(after_write_);
            after_write_ = nullptr;
            then();
          }
        });
  }
  // Frames accepted but not yet written to the socket.
  std::size_t backlog_frames() const { return pending_frames_ + writing_frames_; }
  std::size_t backlog_bytes() const { return pending_.size() + writing_.size(); }

  template <class MutableBufferSequence, class ReadToken>
  auto async_read_some(const MutableBufferSequence& buffers, ReadToken&& token) {
    return next_.async_read_some(buffers, std::forward<ReadToken>(token));
  }

  template <class ConstBufferSequence, class WriteToken>
  auto async_write_some(const ConstBufferSequence& buffers, WriteToken&& token) {
    return boost::asio::async_initiate<WriteToken, void(boost::beast::error_code, std::size_t)>(
        [this](auto handler, const ConstBufferSequence& b) {
          boost::beast::error_code ec = error_;
          std::size_t n = 0;
          if (!ec) {
            n = boost::asio::buffer_size(b);
            const std::size_t old = pending_.size();
            pending_.resize(old + n);
            boost::asio::buffer_copy(boost::asio::buffer(pending_.data() + old, n), b);
            ++pending_frames_;
            flush();
          }
          // Never inline: the caller's handler runs after this returns, as Asio requires.
          boost::asio::post(next_.get_executor(),
                            boost::beast::bind_front_handler(std::move(handler), ec, n));
        },
        token, buffers);
  }

  friend void teardown(boost::beast::role_type role, WriteBehindStream& s,
                       boost::beast::error_code& ec) {
    using boost::beast::websocket::teardown;
    teardown(role, s.next_, ec);
  }

  template <class TeardownHandler>
  friend void async_teardown(boost::beast::role_type role, WriteBehindStream& s,
                             TeardownHandler&& handler) {
    auto h = std::make_shared<std::decay_t<TeardownHandler>>(std::move(handler));
    auto go = [&s, role, h] {
      using boost::beast::websocket::async_teardown;
      async_teardown(role, s.next_, std::move(*h));
    };
    // Whatever is held (the close frame, maybe behind other frames) goes out first.
    if (s.backlog_frames() > 0 && !s.error_) s.flush();
    if (s.writing_frames_ == 0) return go();
    s.after_write_ = go;
  }

 private:
  boost::beast::tcp_stream next_;
  std::weak_ptr<void> owner_;
  std::string pending_, writing_;
  std::size_t pending_frames_ = 0, writing_frames_ = 0;
  boost::beast::error_code error_;
  std::function<void()> after_write_;  // a teardown waiting for the write in flight
};

}  // namespace arena::server
