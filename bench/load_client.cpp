#include "bench/load_client.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <string_view>
#include <thread>

#include <pthread.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

namespace arena::bench {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;

namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

// The fields of a state frame the client needs, read without building a JSON document: a state
// arrives with every move, and the clients share the machine with the server they load, so
// their parsing counts against the server's figure. The server writes states flat (sorted
// keys, no nesting but arrays of strings); anything unexpected (an escape, a missing field)
// returns nullopt and the caller parses the frame with nlohmann instead.
struct StateFields {
  std::int64_t game_id = 0, version = 0;
  int to_move = -1;
  bool over = false;
  std::vector<std::string> legal;
};

std::optional<std::int64_t> int_after(std::string_view text, std::string_view key) {
  const auto at = text.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const char* p = text.data() + at + key.size();
  char* end = nullptr;
  const long long v = std::strtoll(p, &end, 10);
  if (end == p) return std::nullopt;
  return v;
}

std::optional<StateFields> read_state(std::string_view text) {
  if (text.find('\\') != std::string_view::npos) return std::nullopt;
  if (text.find("\"type\":\"state\"") == std::string_view::npos) return std::nullopt;
  StateFields f;
  auto game = int_after(text, "\"game_id\":");
  auto version = int_after(text, "\"version\":");
  auto to_move = int_after(text, "\"to_move\":");
  if (!game || !version || !to_move) return std::nullopt;
  f.game_id = *game;
  f.version = *version;
  f.to_move = static_cast<int>(*to_move);
  f.over = text.find("\"result\":null") == std::string_view::npos;
  auto at = text.find("\"legal_moves\":[");
  if (at == std::string_view::npos) return std::nullopt;
  for (std::size_t i = at + 15; i < text.size() && text[i] != ']';) {
    if (text[i] == ',') { ++i; continue; }
    if (text[i] != '"') return std::nullopt;
    const auto close = text.find('"', i + 1);
    if (close == std::string_view::npos) return std::nullopt;
    f.legal.emplace_back(text.substr(i + 1, close - i - 1));
    i = close + 1;
  }
  return f;
}

// Phase control, read by every client.
struct Shared {
  std::atomic<bool> active{false};
  std::atomic<int> pace_ms{0};
  std::atomic<std::int64_t> window_start{0};
  std::atomic<std::int64_t> window_end{std::numeric_limits<std::int64_t>::max()};
  std::atomic<int> ready{0}, failed{0};
  bool in_window(std::int64_t sent, std::int64_t received) const {
    return sent >= window_start.load() && received <= window_end.load();
  }
};

// One per client thread: only that thread writes, run_phase reads under the mutex.
struct Stats {
  std::mutex mutex;
  std::vector<double> round_trips_ms;
  std::uint64_t moves = 0, games = 0, errors = 0;
  std::string first_error;
  // Written by the thread's clients for every frame, without the mutex.
  std::atomic<std::uint64_t> frames_in{0}, frames_out{0};
};

class Client : public std::enable_shared_from_this<Client> {
 public:
  Client(asio::io_context& ioc, int index, const LoadConfig& config, Shared& shared, Stats& stats)
      : ws_(ioc),
        timer_(ioc),
        index_(index),
        config_(config),
        shared_(shared),
        stats_(stats),
        rng_(config.seed * 7919 + static_cast<std::uint64_t>(index)) {}

  void set_partner(Client* partner, bool seeker) {
    partner_ = partner;
    seeker_ = seeker;
  }
  void start() { do_connect(); }
  // Called at the start of every phase: restart what a stopped phase left waiting.
  void resume() {
    if (!open_) return;
    if (config_.mode == LoadMode::kEcho) return send_echo();
    if (config_.mode == LoadMode::kForward) {
      if (my_turn_ && !pending_) send_forward();
      return;
    }
    if (game_id_ != 0 && last_to_move_ == seat_ && !pending_ && !move_scheduled_)
      return schedule_move();
    if (game_id_ == 0 && seeker_ && !seeking_) seek();
  }
  void close() {
    open_ = false;
    timer_.cancel();
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

 private:
  void do_connect() {
    const asio::ip::tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), config_.port);
    beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(10));
    beast::get_lowest_layer(ws_).async_connect(
        ep, [self = shared_from_this()](beast::error_code ec) { self->on_connect(ec); });
  }
  void on_connect(beast::error_code ec) {
    if (ec) {
      if (++connect_attempts_ < 3) {
        // A burst of connects can overflow the listen backlog: try again a little later.
        timer_.expires_after(std::chrono::milliseconds(200));
        return timer_.async_wait([self = shared_from_this()](beast::error_code e) {
          if (!e) self->do_connect();
        });
      }
      return fail("connect: " + ec.message());
    }
    beast::get_lowest_layer(ws_).socket().set_option(asio::ip::tcp::no_delay(true));
    beast::get_lowest_layer(ws_).expires_never();
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    ws_.read_message_max(64 << 20);  // lobby snapshots list every player and game
    ws_.async_handshake("127.0.0.1", "/ws", [self = shared_from_this()](beast::error_code e) {
      self->on_handshake(e);
    });
  }
  void on_handshake(beast::error_code ec) {
    if (ec) return fail("handshake: " + ec.message());
    open_ = true;
    ws_.text(true);
    if (config_.mode == LoadMode::kEcho)
      count_ready();
    else if (config_.mode == LoadMode::kForward)
      send("pair " + std::to_string(index_ / 2));  // "paired" comes back: then ready
    else
      // Version 3: a move is acknowledged in the mover's state (no move_ack to read).
      send(Json{{"type", "hello"}, {"version", 3}, {"name", "load" + std::to_string(index_)}}
               .dump());
    do_read();
  }
  void fail(const std::string& what) {
    if (failed_) return;
    failed_ = true;
    open_ = false;
    if (!counted_ready_) ++shared_.failed;
    std::lock_guard lock(stats_.mutex);
    ++stats_.errors;
    if (stats_.first_error.empty())
      stats_.first_error = "client " + std::to_string(index_) + ": " + what;
  }
  void count_ready() {
    counted_ready_ = true;
    ++shared_.ready;
  }

  void send(std::string text) {
    count_frame(stats_.frames_out);
    queue_.push_back(std::move(text));
    if (queue_.size() == 1) do_write();
  }
  void do_write() {
    ws_.async_write(asio::buffer(queue_.front()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      if (ec) return self->fail("write: " + ec.message());
                      self->queue_.pop_front();
                      if (!self->queue_.empty()) self->do_write();
                    });
  }
  void do_read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->fail("read: " + ec.message());
      self->on_message(beast::buffers_to_string(self->buffer_.cdata()));
      self->buffer_.consume(self->buffer_.size());
      self->do_read();
    });
  }

  // The round trip of the message sent at sent_ns_, ending now, if it lies in the window.
  void record_round_trip() {
    const std::int64_t now = now_ns();
    if (!shared_.in_window(sent_ns_, now)) return;
    std::lock_guard lock(stats_.mutex);
    stats_.round_trips_ms.push_back(static_cast<double>(now - sent_ns_) / 1e6);
    ++stats_.moves;
  }
  void count_frame(std::atomic<std::uint64_t>& counter) {
    const std::int64_t now = now_ns();
    if (shared_.in_window(now, now)) counter.fetch_add(1, std::memory_order_relaxed);
  }

  void on_message(const std::string& text) {
    count_frame(stats_.frames_in);
    if (config_.mode == LoadMode::kEcho) return on_echo();
    if (config_.mode == LoadMode::kForward) return on_forward(text);
    // Lobby snapshots are large and of no use here: JSON objects are dumped with sorted keys,
    // so "type" is the snapshot's last key and a look at the tail skips them unparsed.
    if (text.size() > 256 && text.find("\"type\":\"lobby\"", text.size() - 64) != std::string::npos)
      return;
    if (auto state = read_state(text)) return on_state(*state);
    const Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return;
    const std::string type = j.value("type", "");
    if (type == "welcome") {
      my_id_ = j["player"].value("id", std::int64_t{0});
      count_ready();
    } else if (type == "seek_created") {
      partner_->accept(j.value("seek_id", std::int64_t{0}));
    } else if (type == "game_start") {
      game_id_ = j.value("game_id", std::int64_t{0});
      seat_ = j["players"][0].value("id", std::int64_t{-1}) == my_id_ ? 0 : 1;
      seeking_ = false;
      pending_ = move_scheduled_ = false;
    } else if (type == "state") {
      StateFields f;
      f.game_id = j.value("game_id", std::int64_t{0});
      f.version = j.value("version", std::int64_t{0});
      f.over = !j["result"].is_null();
      f.to_move = j.value("to_move", -1);
      f.legal = j.value("legal_moves", std::vector<std::string>{});
      on_state(f);
    } else if (type == "game_end") {
      if (j.value("game_id", std::int64_t{0}) != game_id_) return;
      game_id_ = 0;
      pending_ = false;
      if (seeker_) {
        {
          std::lock_guard lock(stats_.mutex);
          if (shared_.in_window(now_ns(), now_ns())) ++stats_.games;
        }
        if (shared_.active) seek();
      }
    } else if (type == "error") {
      on_error(j, text);
    }
  }

  void on_state(StateFields& j) {
    if (j.game_id != game_id_) return;
    const std::int64_t version = j.version;
    if (pending_ && version > pending_version_) {
      pending_ = false;
      record_round_trip();
    }
    last_to_move_ = -1;
    if (j.over) return;
    last_to_move_ = j.to_move;
    last_version_ = version;
    legal_ = std::move(j.legal);
    if (last_to_move_ == seat_ && shared_.active) schedule_move();
  }

  void schedule_move() {
    const int pace = shared_.pace_ms.load();
    if (pace <= 0) return play_move();
    move_scheduled_ = true;
    timer_.expires_after(std::chrono::milliseconds(pace));
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      self->move_scheduled_ = false;
      if (!ec) self->play_move();
    });
  }
  void play_move() {
    if (!open_ || !shared_.active || game_id_ == 0 || legal_.empty() || last_to_move_ != seat_)
      return;
    std::uniform_int_distribution<std::size_t> pick(0, legal_.size() - 1);
    last_move_ = Json{{"type", "move"},
                      {"game_id", game_id_},
                      {"move", legal_[pick(rng_)]},
                      {"client_id", "c" + std::to_string(index_) + "-" + std::to_string(++moves_)}}
                     .dump();
    pending_ = true;
    pending_version_ = last_version_;
    sent_ns_ = now_ns();
    send(last_move_);
  }

  void on_error(const Json& j, const std::string& text) {
    const std::string code = j.value("code", "");
    {
      std::lock_guard lock(stats_.mutex);
      ++stats_.errors;
      if (stats_.first_error.empty()) stats_.first_error = text;
    }
    // The protocol says to send these again a little later (same client_id: never played twice).
    if ((code == "busy" || code == "rate_limited") && j.value("ref", "") == "move" && pending_) {
      timer_.expires_after(std::chrono::milliseconds(5));
      timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
        if (!ec && self->open_) self->send(self->last_move_);
      });
    }
  }

  void seek() {
    seeking_ = true;
    send(Json{{"type", "seek"}, {"game", config_.game}, {"time_control", "none"}}.dump());
  }
  void accept(std::int64_t seek_id) {
    if (!open_) return;
    send(Json{{"type", "accept"}, {"seek_id", seek_id}}.dump());
  }

  // A move-sized message of the references' modes, unique to this client and send.
  std::string next_reference_message() {
    return R"({"type":"move","game_id":123,"move":"b2","client_id":"c)" +
           std::to_string(index_) + "-" + std::to_string(++moves_) + "\"}";
  }
  void send_echo() {
    if (!open_ || !shared_.active) return;
    sent_ns_ = now_ns();
    send(next_reference_message());
  }
  void on_echo() {
    record_round_trip();
    send_echo();
  }

  // Forward mode: the mover's own copy ends its round trip; the partner's message gives the turn.
  void on_forward(const std::string& text) {
    if (text == "paired") {
      my_turn_ = seeker_;
      return count_ready();
    }
    if (pending_ && text == last_move_) {
      pending_ = false;
      record_round_trip();
      return;
    }
    my_turn_ = true;
    send_forward();
  }
  void send_forward() {
    if (!open_ || !shared_.active || !my_turn_ || pending_) return;
    my_turn_ = false;
    pending_ = true;
    sent_ns_ = now_ns();
    last_move_ = next_reference_message();
    send(last_move_);
  }

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> queue_;
  asio::steady_timer timer_;
  const int index_;
  const LoadConfig& config_;
  Shared& shared_;
  Stats& stats_;
  std::mt19937_64 rng_;
  Client* partner_ = nullptr;  // same io_context, owned by LoadClients
  bool seeker_ = false, open_ = false, counted_ready_ = false, failed_ = false;
  bool seeking_ = false, pending_ = false, move_scheduled_ = false, my_turn_ = false;
  int connect_attempts_ = 0, seat_ = -1, last_to_move_ = -1;
  std::int64_t my_id_ = 0, game_id_ = 0, last_version_ = 0, pending_version_ = 0, sent_ns_ = 0;
  std::uint64_t moves_ = 0;
  std::vector<std::string> legal_;
  std::string last_move_;
};

}  // namespace

double PhaseResult::percentile(double p) const {
  if (round_trips_ms.empty()) return 0;
  const double rank = std::ceil(p / 100.0 * static_cast<double>(round_trips_ms.size()));
  const auto i = static_cast<std::size_t>(std::max(1.0, rank)) - 1;
  return round_trips_ms[std::min(i, round_trips_ms.size() - 1)];
}

struct LoadClients::Impl {
  LoadConfig config;
  Shared shared;
  std::vector<std::unique_ptr<asio::io_context>> contexts;
  std::vector<std::unique_ptr<Stats>> stats;
  std::vector<std::shared_ptr<Client>> clients;
  std::vector<int> thread_of;  // client index -> context index
  std::vector<std::thread> threads;
  using Guard = asio::executor_work_guard<asio::io_context::executor_type>;
  std::vector<Guard> guards;
  bool stopped = false;
};

LoadClients::LoadClients(LoadConfig config) : impl_(std::make_unique<Impl>()) {
  if (config.mode != LoadMode::kEcho) config.connections -= config.connections % 2;
  config.threads = std::max(1, config.threads);
  impl_->config = std::move(config);
}

LoadClients::~LoadClients() {
  stop();
}

Expected<void> LoadClients::connect(std::chrono::milliseconds timeout) {
  auto& m = *impl_;
  const int n = m.config.connections;
  for (int t = 0; t < m.config.threads; ++t) {
    m.contexts.push_back(std::make_unique<asio::io_context>(1));
    m.stats.push_back(std::make_unique<Stats>());
    m.guards.emplace_back(m.contexts.back()->get_executor());
  }
  for (int i = 0; i < n; ++i) {
    // Partners share a thread, so a seek_created can go straight to the partner's accept.
    const int t = (i / 2) % m.config.threads;
    m.thread_of.push_back(t);
    m.clients.push_back(std::make_shared<Client>(*m.contexts[static_cast<std::size_t>(t)], i,
                                                 m.config, m.shared,
                                                 *m.stats[static_cast<std::size_t>(t)]));
  }
  for (int i = 0; i + 1 < n; i += 2) {
    m.clients[static_cast<std::size_t>(i)]->set_partner(
        m.clients[static_cast<std::size_t>(i) + 1].get(), true);
    m.clients[static_cast<std::size_t>(i) + 1]->set_partner(
        m.clients[static_cast<std::size_t>(i)].get(), false);
  }
  for (int i = 0; i < n; ++i)
    asio::post(*m.contexts[static_cast<std::size_t>(m.thread_of[static_cast<std::size_t>(i)])],
               [c = m.clients[static_cast<std::size_t>(i)]] { c->start(); });
  for (auto& ioc : m.contexts)
    m.threads.emplace_back([&ioc] {
      pthread_setname_np(pthread_self(), "load-client");
      ioc->run();
    });
  const auto deadline = Clock::now() + timeout;
  while (m.shared.ready + m.shared.failed < n && Clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (m.shared.ready < n) {
    std::string first;
    for (auto& s : m.stats) {
      std::lock_guard lock(s->mutex);
      if (first.empty()) first = s->first_error;
    }
    return make_error(std::to_string(m.shared.ready.load()) + " of " + std::to_string(n) +
                      " connections came up in " + std::to_string(timeout.count()) +
                      " ms (first failure: " + (first.empty() ? "none, too slow" : first) + ")");
  }
  return {};
}

PhaseResult LoadClients::run_phase(int pace_ms, std::chrono::milliseconds warmup,
                                   std::chrono::milliseconds window) {
  auto& m = *impl_;
  for (auto& s : m.stats) {
    std::lock_guard lock(s->mutex);
    s->round_trips_ms.clear();
    s->moves = s->games = s->errors = 0;
    s->first_error.clear();
    s->frames_in = 0;
    s->frames_out = 0;
  }
  const std::int64_t start = now_ns();
  const std::int64_t begin = start + std::chrono::nanoseconds(warmup).count();
  const std::int64_t end = begin + std::chrono::nanoseconds(window).count();
  m.shared.window_start = begin;
  m.shared.window_end = end;
  m.shared.pace_ms = pace_ms;
  m.shared.active = true;
  for (std::size_t i = 0; i < m.clients.size(); ++i)
    asio::post(*m.contexts[static_cast<std::size_t>(m.thread_of[i])],
               [c = m.clients[i]] { c->resume(); });
  std::this_thread::sleep_until(Clock::time_point(std::chrono::nanoseconds(begin)));
  auto store_cpu = [&] {
    double sum = 0;
    for (const auto& name : m.config.store_thread_names) sum += thread_cpu_seconds(name);
    return sum;
  };
  const MachineCpu machine_begin = machine_cpu();
  const double cpu_begin = thread_cpu_seconds(m.config.server_thread_name);
  const double store_begin = store_cpu();
  const double client_begin = thread_cpu_seconds("load-client");
  std::this_thread::sleep_until(Clock::time_point(std::chrono::nanoseconds(end)));
  const double cpu_end = thread_cpu_seconds(m.config.server_thread_name);
  const double store_end = store_cpu();
  const double client_end = thread_cpu_seconds("load-client");
  const MachineCpu machine_end = machine_cpu();
  m.shared.active = false;
  PhaseResult r;
  if (const double total = machine_end.total - machine_begin.total; total > 0) {
    r.steal_share = (machine_end.steal - machine_begin.steal) / total;
    r.others_share = std::max(
        0.0, ((machine_end.busy - machine_begin.busy) - (machine_end.self - machine_begin.self)) /
                 total);
  }
  r.seconds = std::chrono::duration<double>(window).count();
  r.server_cpu_seconds = cpu_end - cpu_begin;
  r.store_cpu_seconds = store_end - store_begin;
  r.client_cpu_seconds = client_end - client_begin;
  for (auto& s : m.stats) {
    std::lock_guard lock(s->mutex);
    r.round_trips_ms.insert(r.round_trips_ms.end(), s->round_trips_ms.begin(),
                            s->round_trips_ms.end());
    r.moves += s->moves;
    r.games_finished += s->games;
    r.errors += s->errors;
    r.frames_in += s->frames_in.load();
    r.frames_out += s->frames_out.load();
    if (r.first_error.empty()) r.first_error = s->first_error;
  }
  std::sort(r.round_trips_ms.begin(), r.round_trips_ms.end());
  // Let the moves in flight land, so the next phase starts from quiet games.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  return r;
}

void LoadClients::stop() {
  auto& m = *impl_;
  if (m.stopped) return;
  m.stopped = true;
  m.shared.active = false;
  for (std::size_t i = 0; i < m.clients.size(); ++i)
    asio::post(*m.contexts[static_cast<std::size_t>(m.thread_of[i])],
               [c = m.clients[i]] { c->close(); });
  m.guards.clear();
  // Closing cancels every pending operation, so run() returns soon; stop() bounds it anyway.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  for (auto& ioc : m.contexts) ioc->stop();
  for (auto& t : m.threads) t.join();
  m.threads.clear();
}

}  // namespace arena::bench
