#include "server/net/websocket_session.h"

#include <cstdio>
#include <exception>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

namespace arena::server {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace http = beast::http;

namespace {

void log_line(const std::string& peer, const std::string& what) {
  std::fprintf(stderr, "arena ws %s: %s\n", peer.c_str(), what.c_str());
}

// How a connection usually ends: the client closed or went away, or we closed it.
bool ordinary_end(const beast::error_code& ec) {
  return ec == websocket::error::closed || ec == boost::asio::error::eof ||
         ec == boost::asio::error::connection_reset ||
         ec == boost::asio::error::operation_aborted || ec == boost::asio::error::broken_pipe;
}

}  // namespace

WebSocketSession::WebSocketSession(beast::tcp_stream&& stream,
                                   std::shared_ptr<ClientEvents> events,
                                   std::chrono::milliseconds idle_timeout,
                                   std::shared_ptr<void> slot)
    : ws_(std::move(stream)),
      close_deadline_(ws_.get_executor()),
      hub_(std::move(events)),
      idle_timeout_(idle_timeout),
      slot_(std::move(slot)) {
  beast::error_code ec;
  const auto ep = beast::get_lowest_layer(ws_).socket().remote_endpoint(ec);
  peer_ = ec ? std::string("?") : ep.address().to_string() + ":" + std::to_string(ep.port());
}

void WebSocketSession::run(http::request<http::string_body> request, std::string set_cookie) {
  ws_.next_layer().set_owner(weak_from_this());
  // The tcp_stream's timeout is replaced by the websocket's own (idle timeout with pings).
  beast::get_lowest_layer(ws_).expires_never();
  auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::server);
  timeouts.idle_timeout = idle_timeout_;
  timeouts.keep_alive_pings = true;
  ws_.set_option(timeouts);
  // The size limit is ours (on_read), so that the close says why; Beast's would close with
  // 1009 and no reason.
  ws_.read_message_max(0);
  // The pongs of our lag probes (read with the messages, on the strand; the session outlives
  // its reads).
  ws_.control_callback([this](websocket::frame_type kind, beast::string_view payload) {
    on_control_frame(kind, std::string_view(payload.data(), payload.size()));
  });
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
  // At most one byte past the limit: enough to know a message is too big.
  ws_.async_read_some(buffer_, protocol::kMaxMessageBytes + 1 - buffer_.size(),
                      beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
}

void WebSocketSession::on_read(beast::error_code ec, std::size_t) {
  if (ec) return fail(ec, "read");
  if (closed_) return;
  if (buffer_.size() > protocol::kMaxMessageBytes)
    return close_with(
        websocket::close_code::too_big,
        "message too big: the limit is " + std::to_string(protocol::kMaxMessageBytes) + " bytes");
  if (!ws_.is_message_done()) return do_read();
  try {
    if (!ws_.got_text()) {
      hub_->on_binary_message(shared_from_this());
    } else {
      const auto data = buffer_.cdata();
      hub_->on_message(shared_from_this(),
                       std::string_view(static_cast<const char*>(data.data()), data.size()));
    }
  } catch (const std::exception& e) {
    buffer_.consume(buffer_.size());
    return close_with(websocket::close_code::internal_error,
                      std::string("internal error: ") + e.what());
  }
  buffer_.consume(buffer_.size());
  probe_lag();
  if (reading_paused) return;  // the hub waits for the store: continue_reading reads on
  do_read();
}

void WebSocketSession::probe_lag() {
  const auto now = std::chrono::steady_clock::now();
  if (probes_ > 0 && now - probe_sent_ < kLagProbeInterval) return;
  send_probe(now);
}

void WebSocketSession::probe_turn() {
  // Timed from here, so the round trip counts the server's own sending of the turn too.
  boost::asio::post(ws_.get_executor(), [self = shared_from_this(),
                                         asked = std::chrono::steady_clock::now()] {
    self->send_probe(asked);
  });
}

void WebSocketSession::send_probe(std::chrono::steady_clock::time_point sent) {
  if (closed_ || !open_ || probe_writing_) return;
  probe_writing_ = true;
  probe_sent_ = sent;
  probe_payload_ = "lag " + std::to_string(++probes_);
  // A pong to an earlier probe no longer counts: its payload is not this one.
  ws_.async_ping(websocket::ping_data(probe_payload_.c_str()),
                 [self = shared_from_this()](beast::error_code) { self->probe_writing_ = false; });
}

void WebSocketSession::on_control_frame(websocket::frame_type kind, std::string_view payload) {
  if (kind != websocket::frame_type::pong || probe_payload_.empty() || payload != probe_payload_)
    return;
  probe_payload_.clear();  // one answer per probe (Beast's keep-alive pings carry none)
  const std::int64_t sample = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::steady_clock::now() - probe_sent_)
                                  .count();
  // Up at once to a slower round trip, down by a quarter of the way per faster one: under
  // load a connection's delays come in bursts, and the credit is bounded anyway (LagRule).
  round_trip_ms_ = round_trip_ms_ < 0 || sample >= round_trip_ms_
                       ? sample
                       : round_trip_ms_ - (round_trip_ms_ - sample) / 4;
  set_measured_lag_ms(round_trip_ms_);
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
  {
    std::lock_guard lock(outbox_mutex_);
    outbox_.push_back(std::move(text));
    if (drain_posted_) return;  // the drain already on its way takes this one too
    drain_posted_ = true;
  }
  boost::asio::post(ws_.get_executor(), [self = shared_from_this()] { self->drain(); });
}

void WebSocketSession::drain() {
  std::vector<Text> batch;
  {
    std::lock_guard lock(outbox_mutex_);
    batch.swap(outbox_);
    drain_posted_ = false;
  }
  // Not after a close frame (ours, or Beast's answer to the client's).
  if (closed_ || !open_ || !ws_.is_open()) return;
  auto& out = ws_.next_layer();
  if (out.backlog_frames() + batch.size() > kMaxQueuedMessages) {
    // The client does not read: drop it rather than hold memory or slow anyone else.
    return close_with(websocket::close_code::policy_error,
                      "the client does not read: " + std::to_string(kMaxQueuedMessages) +
                          " messages are waiting");
  }
  for (const auto& text : batch) out.append_text(*text);
  out.flush();
}

void WebSocketSession::close_with(websocket::close_code code, std::string_view reason) {
  if (closed_ || !open_) return;
  closed_ = true;
  log_line(peer_, "closing with " + std::to_string(static_cast<int>(code)) + " (" +
                      std::string(reason) + ")");
  // A close reason is at most 123 bytes (RFC 6455, 5.5: control frames carry 125).
  websocket::close_reason cr(code, reason.substr(0, 123));
  ws_.async_close(cr, [self = shared_from_this()](beast::error_code ec) {
    // The read in progress (if any) fails too; fail() runs once.
    self->fail(ec ? ec : beast::error_code(websocket::error::closed), "close");
  });
  close_deadline_.expires_after(kCloseGrace);
  close_deadline_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (!ec) self->close_socket();  // fail() cancels this wait when the close completes
  });
}

void WebSocketSession::close_going_away() {
  boost::asio::post(ws_.get_executor(), [self = shared_from_this()] {
    self->close_with(websocket::close_code::going_away, "the server is shutting down");
  });
}

void WebSocketSession::close_for_policy(std::string reason) {
  boost::asio::post(ws_.get_executor(), [self = shared_from_this(), reason = std::move(reason)] {
    self->close_with(websocket::close_code::policy_error, reason);
  });
}

void WebSocketSession::close_now() {
  boost::asio::post(ws_.get_executor(), [self = shared_from_this()] { self->close_socket(); });
}

void WebSocketSession::close_socket() {
  if (open_) log_line(peer_, "closing the socket: no answer to the close in time");
  closed_ = true;
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().close(ignored);
}

void WebSocketSession::fail(beast::error_code ec, std::string_view during) {
  if (!open_) return;
  open_ = false;
  closed_ = true;
  close_deadline_.cancel();
  // What may never reach the client: the frames queued and those of the socket write under
  // way (which may have left in part or whole; its completion had not come).
  const auto& out = ws_.next_layer();
  if (out.backlog_frames() > 0 || !ordinary_end(ec))
    log_line(peer_, "connection ended during " + std::string(during) + " (" + ec.message() +
                        "); dropping " + std::to_string(out.backlog_frames()) +
                        " frame(s) not known to be written, " +
                        std::to_string(out.backlog_bytes()) + " bytes");
  hub_->on_close(shared_from_this());
}

}  // namespace arena::server
