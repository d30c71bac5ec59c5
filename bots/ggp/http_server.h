#pragma once
// A small HTTP/1.1 server for the GGP player protocol: every POST body goes to a handler, whose
// reply is sent back as text/acl (with the CORS headers GGP's browser tools expect). Beast stays
// in http_server.cpp.
//
// One I/O thread (the one that calls run()) reads and writes; handlers run on a small pool of
// worker threads, so a quick message (INFO) is answered while a slow one (PLAY) is thought
// about. Bounded: request bodies over body_limit get 413, headers over 8 KB are refused, at most
// max_connections are open at once (more are closed at accept), an idle connection is closed
// after read_timeout. Methods other than POST get 405 (OPTIONS gets the CORS preflight reply).

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "bots/ggp/kif_message.h"
#include "bots/ggp/reply.h"
#include "games/core/expected.h"

namespace arena::ggp {

using RequestHandler = std::function<Reply(std::string_view body, Clock::time_point received)>;

struct HttpServerOptions {
  std::size_t body_limit = kMaxMessageBytes;
  int handler_threads = 4;
  int max_connections = 64;
  std::chrono::seconds read_timeout{120};
  LogFn log;  // connection-level problems; may be empty
};

class HttpServer {
 public:
  // Binds `host`:`port` (0: a free port, see port()) and listens.
  static Expected<std::unique_ptr<HttpServer>> open(const std::string& host, unsigned short port,
                                                    RequestHandler handler,
                                                    HttpServerOptions options = {});
  ~HttpServer();  // stops, and waits for the handlers that are running
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  unsigned short port() const;
  // Serves until stop() (or SIGINT/SIGTERM when `handle_signals`).
  void run(bool handle_signals = false);
  void stop();  // thread-safe

  struct Impl;  // the Beast side, in http_server.cpp

 private:
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace arena::ggp
