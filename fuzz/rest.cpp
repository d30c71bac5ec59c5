// REST paths and query strings: the request target of any GET (path and query) and of a POST
// to the API, as handle_api and handle_api_post get them from the HTTP session, against a hub
// whose store holds a few games of several kinds.
//
// Input: a first line "GET" or "POST"; the target; for POST an Authorization line ("-" for
// none, "token" for the bot's valid token) and then the body.
//
// Promises: no crash, leak, hang or undefined behaviour for any target or body; every answer
// is a status 200..599 with a content type, and a JSON answer is valid JSON (an error answer
// names the problem in "error").

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "fuzz/fuzz_hub.h"
#include "server/api/rest.h"

namespace {

void check_reply(const arena::server::HttpReply& reply) {
  FUZZ_CHECK(reply.status >= 200 && reply.status <= 599);
  FUZZ_CHECK(!reply.content_type.empty());
  if (reply.content_type == "application/json") {
    const auto j = arena::protocol::Json::parse(reply.body, nullptr, false);
    FUZZ_CHECK(!j.is_discarded());
    if (reply.status >= 400) FUZZ_CHECK(j.contains("error"));
  }
}

std::string_view next_line(std::string_view& text) {
  auto nl = text.find('\n');
  std::string_view line = text.substr(0, nl);
  text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16384) return -1;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto& fh = arena::fuzz::fuzz_hub();
  const std::string_view method = next_line(text);
  const std::string_view target = next_line(text);
  if (method == "GET") {
    if (auto reply = arena::server::handle_api(*fh.hub, target)) check_reply(*reply);
  } else if (method == "POST") {
    std::string authorization(next_line(text));
    if (authorization == "-") authorization.clear();
    if (authorization == "token") authorization = "Bearer " + fh.token;
    if (auto reply =
            arena::server::handle_api_post(*fh.hub, target, authorization, std::string(text)))
      check_reply(*reply);
  }
  return 0;
}
