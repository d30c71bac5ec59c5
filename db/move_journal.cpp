// MoveJournal: records, segments, the lock and the recovery of a killed run's moves.

#include "db/move_journal.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string_view>
#include <utility>

namespace arena::db {
namespace {

constexpr std::size_t kHeader = 4 + 8;            // payload length, checksum
constexpr std::uint32_t kMaxPayload = 64u << 20;  // larger is damage, not a record
// First payload byte. Version 2 adds the seat after the ply; version 1 records (a journal a
// killed older build left behind) still read, with the seat unknown (-1).
constexpr std::uint8_t kVersion = 2;
constexpr std::uint8_t kVersionWithoutSeat = 1;

std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

template <class T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

void put_text(std::string& out, const std::string& text) {
  put<std::uint32_t>(out, static_cast<std::uint32_t>(text.size()));
  out += text;
}

// Reads fields in order; any read past the end makes ok false.
struct Reader {
  std::string_view rest;
  bool ok = true;

  template <class T>
  T get() {
    T value{};
    if (rest.size() < sizeof(T)) {
      ok = false;
      return value;
    }
    std::memcpy(&value, rest.data(), sizeof(T));
    rest.remove_prefix(sizeof(T));
    return value;
  }
  std::string text() {
    const auto n = get<std::uint32_t>();
    if (!ok || rest.size() < n) {
      ok = false;
      return {};
    }
    std::string s(rest.substr(0, n));
    rest.remove_prefix(n);
    return s;
  }
};

std::string errno_text() {
  return std::strerror(errno);
}

// Writes all of `bytes` at `offset`; false (errno set) if it could not.
bool write_at(int fd, std::string_view bytes, std::uint64_t offset) {
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) {
      errno = ENOSPC;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

}  // namespace

std::string encode_journaled_move(const JournaledMove& j) {
  const MoveRecord& m = j.move;
  std::string out;
  out.reserve(64 + m.move.size() + m.pv.size());
  put<std::uint8_t>(out, kVersion);
  put<std::int64_t>(out, m.game);
  put<std::int32_t>(out, m.ply);
  put<std::int32_t>(out, m.seat);
  put<std::int64_t>(out, m.time_used_ms);
  put<std::int64_t>(out, m.clock_left_ms);
  put<std::int32_t>(out, m.depth);
  put<std::int64_t>(out, m.nodes);
  put<std::uint8_t>(out, m.score ? 1 : 0);
  put<std::int32_t>(out, m.score.value_or(0));
  put<std::int64_t>(out, j.created_at_ms);
  put_text(out, m.move);
  put_text(out, m.pv);
  return out;
}

std::optional<JournaledMove> decode_journaled_move(std::string_view payload) {
  Reader r{payload};
  const auto version = r.get<std::uint8_t>();
  if ((version != kVersion && version != kVersionWithoutSeat) || !r.ok) return std::nullopt;
  JournaledMove j;
  MoveRecord& m = j.move;
  m.game = r.get<std::int64_t>();
  m.ply = r.get<std::int32_t>();
  if (version == kVersion) m.seat = r.get<std::int32_t>();
  m.time_used_ms = r.get<std::int64_t>();
  m.clock_left_ms = r.get<std::int64_t>();
  m.depth = r.get<std::int32_t>();
  m.nodes = r.get<std::int64_t>();
  const bool has_score = r.get<std::uint8_t>() != 0;
  const auto score = r.get<std::int32_t>();
  if (has_score) m.score = score;
  j.created_at_ms = r.get<std::int64_t>();
  m.move = r.text();
  m.pv = r.text();
  if (!r.ok || !r.rest.empty()) return std::nullopt;
  return j;
}

namespace {

// Appends the whole records of the segment at `path` to `out` (of game `only`, 0: every game).
// A missing file is an error only when `missing_ok` is false.
Expected<void> read_segment(const std::string& path, bool missing_ok, GameId only,
                            std::vector<JournaledMove>& out) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT && missing_ok) return {};
  if (fd < 0) return make_error("cannot read the move journal " + path + ": " + errno_text());
  std::string bytes;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      const std::string why = errno_text();
      ::close(fd);
      return make_error("cannot read the move journal " + path + ": " + why);
    }
    if (got == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  std::string_view rest(bytes);
  while (rest.size() >= kHeader) {
    std::uint32_t length = 0;
    std::uint64_t sum = 0;
    std::memcpy(&length, rest.data(), 4);
    std::memcpy(&sum, rest.data() + 4, 8);
    if (length > kMaxPayload || rest.size() - kHeader < length) break;
    const std::string_view payload = rest.substr(kHeader, length);
    if (fnv1a(payload) != sum) break;
    auto move = decode_journaled_move(payload);
    if (!move) break;
    if (only == 0 || move->move.game == only) out.push_back(std::move(*move));
    rest.remove_prefix(kHeader + length);
  }
  return {};
}

// The numbers of the segments "<base>-<n>" in base's directory, ascending.
Expected<std::vector<std::uint64_t>> segment_numbers(const std::string& base) {
  std::vector<std::uint64_t> out;
  const std::filesystem::path b(base);
  const std::string prefix = b.filename().string() + "-";
  std::error_code ec;
  const auto dir = b.has_parent_path() ? b.parent_path() : std::filesystem::path(".");
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        digits.size() > 18)
      continue;
    out.push_back(std::stoull(digits));
  }
  if (ec)
    return make_error("cannot read the directory of the move journal " + base + ": " +
                      ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Expected<std::unique_ptr<MoveJournal>> MoveJournal::open(const std::string& db_path,
                                                         std::uint64_t segment_limit) {
  const std::string base = db_path + "-moves";
  const std::string lock_path = base + ".lock";
  const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return make_error("cannot write the move journal " + lock_path + ": " + errno_text());
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK) return std::unique_ptr<MoveJournal>{};  // another process journals
    errno = err;
    return make_error("cannot lock the move journal " + lock_path + ": " + errno_text());
  }
  std::unique_ptr<MoveJournal> journal(new MoveJournal(base, fd, segment_limit));
  // Segments earlier runs left: "<base>-<n>".
  auto numbers = segment_numbers(base);
  if (!numbers) return Error{numbers.error()};
  journal->old_segments_ = std::move(*numbers);
  return journal;
}

MoveJournal::MoveJournal(std::string base, int lock_fd, std::uint64_t segment_limit)
    : base_(std::move(base)),
      lock_fd_(lock_fd),
      segment_limit_(segment_limit),
      rotate_at_(segment_limit) {}

MoveJournal::~MoveJournal() {
  if (retired_ready_.load()) retired_.push_back(std::move(handed_));
  const bool all_stored = unstored_.empty() && stored_ == appended_.load();
  for (Retired& r : retired_) {
    ::close(r.fd);
    if (all_stored) ::unlink(r.path.c_str());
  }
  if (fd_ >= 0) {
    ::close(fd_);
    if (all_stored) ::unlink(path_.c_str());
  }
  if (const int next = next_fd_.load(); next >= 0) {
    ::close(next);
    ::unlink(next_path_.c_str());  // created ahead, never written
  }
  ::close(lock_fd_);  // releases the lock
}

std::string MoveJournal::segment_path(std::uint64_t n) const {
  return base_ + "-" + std::to_string(n);
}

Expected<std::vector<JournaledMove>> MoveJournal::recover() {
  std::vector<JournaledMove> out;
  for (std::uint64_t n : old_segments_)
    if (auto ok = read_segment(segment_path(n), false, 0, out); !ok) return Error{ok.error()};
  return out;
}

Expected<std::vector<JournaledMove>> peek_journal(const std::string& db_path, GameId game) {
  const std::string base = db_path + "-moves";
  auto numbers = segment_numbers(base);
  if (!numbers) return Error{numbers.error()};
  std::vector<JournaledMove> out;
  // A segment deleted meanwhile was stored: its moves are in the database.
  for (std::uint64_t n : *numbers)
    if (auto ok = read_segment(base + "-" + std::to_string(n), true, game, out); !ok)
      return Error{ok.error()};
  return out;
}

Expected<void> MoveJournal::start() {
  for (std::uint64_t n : old_segments_) {
    const std::string path = segment_path(n);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
      return make_error("cannot delete the stored move journal " + path + ": " + errno_text());
  }
  const std::uint64_t next = old_segments_.empty() ? 1 : old_segments_.back() + 1;
  old_segments_.clear();
  auto fd = create_segment(next);
  if (!fd) return Error{fd.error()};
  next_number_ = next + 1;
  std::lock_guard lock(mutex_);
  use_segment(*fd, next);
  return {};
}

Expected<int> MoveJournal::create_segment(std::uint64_t n) const {
  const std::string path = segment_path(n);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return make_error("cannot write the move journal " + path + ": " + errno_text());
  return fd;
}

void MoveJournal::use_segment(int fd, std::uint64_t n) {
  fd_ = fd;
  path_ = segment_path(n);
  offset_ = 0;
  segment_bytes_.store(0);
}

Expected<void> MoveJournal::append(const JournaledMove& m) {
  const std::string payload = encode_journaled_move(m);
  std::string record;
  record.reserve(kHeader + payload.size());
  put<std::uint32_t>(record, static_cast<std::uint32_t>(payload.size()));
  put<std::uint64_t>(record, fnv1a(payload));
  record += payload;
  if (const int next = next_fd_.load(std::memory_order_acquire); next >= 0) {
    // The writer created the next segment: this record begins it, and the full one goes
    // back to the writer, to be deleted once its records are stored. retired_ready_ rises
    // before next_fd_ falls: the writer creates a segment only when it sees next_fd_ at -1
    // and retired_ready_ down, so it never sees this hand-over half done: it never rewrites
    // next_path_ while this copies it, nor handed_ before it took the last one back.
    handed_ = {fd_, path_, appended_.load()};
    fd_ = next;
    path_ = next_path_;
    offset_ = 0;
    segment_bytes_.store(0, std::memory_order_relaxed);
    retired_ready_.store(true, std::memory_order_release);
    next_fd_.store(-1, std::memory_order_release);
  }
  // At the tracked offset, not O_APPEND: after a short write (a full disk) the next record
  // overwrites the piece, so no damaged record sits before good ones.
  if (!write_at(fd_, record, offset_))
    return make_error("cannot write the move journal " + path_ + ": " + errno_text());
  offset_ += record.size();
  segment_bytes_.store(offset_, std::memory_order_relaxed);
  appended_.fetch_add(1);
  return {};
}

std::uint64_t MoveJournal::stored(bool ok) {
  const std::uint64_t number = ++stored_;
  if (!ok) {
    unstored_.insert(number);
    ++unstored_count_;
  }
  tidy();
  return number;
}

void MoveJournal::stored_later(std::uint64_t number) {
  if (unstored_.erase(number) == 0) return;
  --unstored_count_;
  tidy();
}

void MoveJournal::tidy() {
  if (retired_ready_.load(std::memory_order_acquire)) {
    std::lock_guard lock(retired_mutex_);
    retired_.push_back(std::move(handed_));
    retired_ready_.store(false, std::memory_order_release);
  }
  // A segment goes once every record in it is stored: none of its records is still unstored.
  const std::uint64_t first_unstored = unstored_.empty() ? ~0ull : *unstored_.begin();
  while (!retired_.empty() && stored_ >= retired_.front().last_record &&
         first_unstored > retired_.front().last_record) {
    ::close(retired_.front().fd);
    ::unlink(retired_.front().path.c_str());
    std::lock_guard lock(retired_mutex_);
    retired_.pop_front();
  }
  if (segment_bytes_.load(std::memory_order_relaxed) >= rotate_at_) rotate();
}

void MoveJournal::rotate() {
  // The next segment is created here, off the appending threads, and offered to the next
  // append (see Threading): the writer never holds the appenders' lock.
  if (next_fd_.load(std::memory_order_acquire) >= 0 ||
      retired_ready_.load(std::memory_order_acquire))
    return;  // offered already, or the last swap not taken back yet
  auto fd = create_segment(next_number_);
  if (!fd) {
    // Keep writing where we were: a long segment is better than a refused move. Try again
    // after another segment_limit_.
    rotate_at_ = segment_bytes_.load(std::memory_order_relaxed) + segment_limit_;
    return;
  }
  next_path_ = segment_path(next_number_);
  ++next_number_;
  rotate_at_ = segment_limit_;
  next_fd_.store(*fd, std::memory_order_release);
}

std::size_t MoveJournal::segments() {
  std::lock_guard lock(mutex_);
  std::lock_guard retired(retired_mutex_);
  return retired_.size() + (retired_ready_.load() ? 1 : 0) + (fd_ >= 0 ? 1 : 0) +
         (next_fd_.load() >= 0 ? 1 : 0);
}

}  // namespace arena::db
