#pragma once
// A blocking HTTP/1.1 request to a server of ours (the REST API), for `arena league`, which
// creates a tournament and follows it. Beast stays in http_request.cpp.

#include <chrono>
#include <string>

#include "games/core/expected.h"

namespace arena::client {

struct HttpResponse {
  int status = 0;
  std::string body;
};

// `url` is http://HOST:PORT (a ws://HOST:PORT/ws URL is accepted too: the same host and port).
// `bearer` is sent as "Authorization: Bearer ..." when not empty. Errors name the URL and what
// failed (resolve, connect, read) and give up after `timeout`.
Expected<HttpResponse> http_request(const std::string& url, const std::string& method,
                                    const std::string& target, const std::string& body = "",
                                    const std::string& bearer = "",
                                    std::chrono::milliseconds timeout = std::chrono::seconds(10));

}  // namespace arena::client
