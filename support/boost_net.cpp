// Asio's and Beast's non-template code, compiled once: every target is built with
// BOOST_ASIO_SEPARATE_COMPILATION and BOOST_BEAST_SEPARATE_COMPILATION (arena_flags in the
// top-level CMakeLists.txt), so the units that include them only declare it.
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
