// Boost's assertion handler (BOOST_ENABLE_ASSERT_DEBUG_HANDLER, set for every project target by
// arena_options): in a build without NDEBUG (the test, TSan and fuzz builds) a failed
// BOOST_ASSERT prints where and aborts, as assert() does; in a build with NDEBUG (scripts/run's
// Release build) BOOST_ASSERT is off as before and this file is never called.
//
// The one exception is an assertion of Boost.Beast that is itself wrong in Debian's Boost 1.81:
// basic_parser's parse_chunk_header asserts `n >= 5` when it resumes a chunked body whose last
// chunk ("0\r\n") came in an earlier read, but a client whose trailer arrives one byte at a time
// gives it 4 bytes ("0\r\n\r"); the code after the assertion already handles that (it asks for
// more), and Beast corrected the assertion upstream (boostorg/beast#2861, Boost 1.86). Without
// this, a hostile client could abort any server built without NDEBUG, and the fuzz target
// fuzz_http did. Tests: ServerTest.AChunkedBodyWhoseLastChunkArrivesByteByByteIsAnswered and the
// input in fuzz/corpus/http.

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <boost/version.hpp>

namespace {

bool ends_with(const char* text, const char* suffix) {
  const std::size_t n = std::strlen(text), m = std::strlen(suffix);
  return n >= m && std::strcmp(text + n - m, suffix) == 0;
}

// An assertion that Boost itself has since corrected, and that the code after it handles.
bool known_wrong(const char* expr, const char* file) {
#if BOOST_VERSION < 108600
  return std::strcmp(expr, "n >= 5") == 0 &&
         ends_with(file, "boost/beast/http/impl/basic_parser.ipp");
#else
  (void)expr;
  (void)file;
  return false;
#endif
}

}  // namespace

namespace boost {

void assertion_failed_msg(const char* expr, const char* msg, const char* function,
                          const char* file, long line) {
  if (known_wrong(expr, file)) return;
  std::fprintf(stderr, "%s:%ld: %s: Assertion `%s' failed%s%s.\n", file, line, function, expr,
               msg ? ": " : "", msg ? msg : "");
  std::abort();
}

void assertion_failed(const char* expr, const char* function, const char* file, long line) {
  assertion_failed_msg(expr, nullptr, function, file, line);
}

}  // namespace boost
