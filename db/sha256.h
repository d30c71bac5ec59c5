#pragma once
// SHA-256 (FIPS 180-4), small and dependency-free: the store keeps only this hash of a bot's
// token. Not constant-time with respect to the input length; tokens have a fixed length.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace arena::db {

std::array<std::uint8_t, 32> sha256(std::string_view data);

// Lower-case hexadecimal of sha256(data), 64 characters.
std::string sha256_hex(std::string_view data);

}  // namespace arena::db
