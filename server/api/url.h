#pragma once
// Percent-decoding of a request target (RFC 3986, 2.1), once and strictly, for the REST API
// and the static files: each path segment and each query parameter's name and value is decoded
// exactly once (so "%2541" is the text "%41", never "A"), and a bad escape is an error that
// names it, never passed on as text.
//
// Strict means: a '%' must be followed by two hex digits ("%zz" and a truncated "%4" are
// errors); the decoded bytes must be UTF-8 (so that every name can be put in JSON) and hold no
// NUL. In a query, '+' is a space, as the form encoding writes it (HTML forms and the page's
// URLSearchParams; encodeURIComponent writes a space as %20 and '+' as %2B, which decode the
// same way); in a path '+' is itself (RFC 3986). A path segment that decodes to a '/' is an
// error: it would be read as two segments. Pure functions; the fuzz target fuzz/http.cpp
// reaches them through the API.

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "games/core/expected.h"

namespace arena::server {

// True if `bytes` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF).
inline bool is_utf8(std::string_view bytes) {
  std::size_t i = 0;
  while (i < bytes.size()) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int more = 0;
    unsigned min = 0, code = 0;
    if ((c & 0xE0) == 0xC0) {
      more = 1, min = 0x80, code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      more = 2, min = 0x800, code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      more = 3, min = 0x10000, code = c & 0x07;
    } else {
      return false;
    }
    if (i + static_cast<std::size_t>(more) >= bytes.size()) return false;  // cut short
    for (int k = 1; k <= more; ++k) {
      const auto d = static_cast<unsigned char>(bytes[i + static_cast<std::size_t>(k)]);
      if ((d & 0xC0) != 0x80) return false;
      code = (code << 6) | (d & 0x3F);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
    i += static_cast<std::size_t>(more) + 1;
  }
  return true;
}

// `text` with every %XX replaced by its byte, and with `plus_is_space` every '+' by a space.
// The error names the first bad escape ("bad percent-escape '%zz'"), or says that the text
// decodes to a NUL or to bytes that are not UTF-8.
inline Expected<std::string> percent_decode(std::string_view text, bool plus_is_space) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '+' && plus_is_space) {
      out += ' ';
    } else if (c != '%') {
      out += c;
    } else {
      const int high = i + 1 < text.size() ? hex(text[i + 1]) : -1;
      const int low = i + 2 < text.size() ? hex(text[i + 2]) : -1;
      if (high < 0 || low < 0)
        return make_error("bad percent-escape '" + std::string(text.substr(i, 3)) +
                          "' (a '%' takes two hex digits)");
      out += static_cast<char>(high * 16 + low);
      i += 2;
    }
  }
  if (out.find('\0') != std::string::npos) return make_error("it decodes to a NUL byte (%00)");
  if (!is_utf8(out)) return make_error("it decodes to bytes that are not UTF-8");
  return out;
}

// The path of a request target (what comes before '?'), each segment decoded; an error names
// the segment and what is wrong with it.
inline Expected<std::string> decode_path(std::string_view path) {
  std::string out;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    const auto slash = path.find('/', pos);
    const auto segment = path.substr(pos, slash == std::string_view::npos ? path.npos : slash - pos);
    auto decoded = percent_decode(segment, /*plus_is_space=*/false);
    if (!decoded)
      return make_error("path segment '" + std::string(segment) + "': " + decoded.error());
    if (decoded->find('/') != std::string::npos)
      return make_error("path segment '" + std::string(segment) +
                        "' decodes to a '/' (%2F), which a segment may not hold");
    out += *decoded;
    if (slash == std::string_view::npos) break;
    out += '/';
    pos = slash + 1;
  }
  return out;
}

// The parameters of a query ("a=1&b=x%3Ay": {a: 1, b: x:y}), names and values decoded; a
// parameter without '=' has the empty value; empty parts ("a=1&&b=2") are skipped; of a name
// given twice the last value counts. An error names the parameter and its bad escape.
inline Expected<std::map<std::string, std::string>> decode_query(std::string_view query) {
  std::map<std::string, std::string> out;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const auto part = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (part.empty()) continue;
    const auto eq = part.find('=');
    const auto raw_name = part.substr(0, eq);
    const auto raw_value = eq == std::string_view::npos ? std::string_view{} : part.substr(eq + 1);
    auto name = percent_decode(raw_name, /*plus_is_space=*/true);
    if (!name)
      return make_error("query parameter name '" + std::string(raw_name) + "': " + name.error());
    auto value = percent_decode(raw_value, /*plus_is_space=*/true);
    if (!value)
      return make_error("query parameter '" + *name + "' = '" + std::string(raw_value) +
                        "': " + value.error());
    out[std::move(*name)] = std::move(*value);
  }
  return out;
}

}  // namespace arena::server
