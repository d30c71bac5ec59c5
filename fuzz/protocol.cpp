// Protocol message decoding: any WebSocket text frame a client sends (every client-to-server
// type of protocol/README.md goes through decode_client_message).
// Promises: decoding never crashes, leaks or hits undefined behaviour; a frame is either a
// message or an error with a code; the error answer can always be encoded; a decoded message
// encodes to a frame that decodes to the same message (encode is a fixed point after one
// round).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.h"
#include "protocol/codec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace arena::protocol;
  if (size > kMaxMessageBytes) return -1;  // the transport closes larger frames
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Decoded decoded = decode_client_message(text);
  if (!decoded.message) {
    // The server answers with this; it must encode whatever the client sent as its type.
    const std::string answer =
        encode_error(decoded.error.code, decoded.error.message, decoded.ref_type);
    FUZZ_CHECK(!answer.empty());
    FUZZ_CHECK(!to_string(decoded.error.code).empty());
    return 0;
  }
  const std::string type = type_of(*decoded.message);
  FUZZ_CHECK(type == decoded.ref_type);
  const std::string once = encode(*decoded.message);
  const Decoded again = decode_client_message(once);
  FUZZ_CHECK(again.message.has_value());
  FUZZ_CHECK(type_of(*again.message) == type);
  FUZZ_CHECK(encode(*again.message) == once);
  return 0;
}
