#include "games/gdl/prover/prover_table.h"

#include <algorithm>

namespace arena::gdl::prover_detail {

namespace {

std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  return h;
}

}  // namespace

Table::Table(std::uint32_t arity, std::vector<IndexDef> indexes) : arity_(arity) {
  set_.assign(16, 0);
  for (IndexDef& def : indexes) {
    Index index;
    index.def = std::move(def);
    index.buckets.resize(16);
    indexes_.push_back(std::move(index));
  }
}

std::uint64_t Table::row_hash(const TermId* tuple) const {
  std::uint64_t h = kKeySeed;
  for (std::uint32_t a = 0; a < arity_; ++a) h = key_step(h, tuple[a]);
  return mix(h);
}

bool Table::contains(const TermId* tuple) const {
  const std::size_t mask = set_.size() - 1;
  for (std::size_t slot = row_hash(tuple) & mask;; slot = (slot + 1) & mask) {
    const std::uint32_t entry = set_[slot];
    if (entry == 0) return false;
    if (std::equal(tuple, tuple + arity_, row(entry - 1))) return true;
  }
}

bool Table::insert(const TermId* tuple, const TermPool& pool) {
  const std::size_t mask = set_.size() - 1;
  std::size_t slot = row_hash(tuple) & mask;
  for (;; slot = (slot + 1) & mask) {
    const std::uint32_t entry = set_[slot];
    if (entry == 0) break;
    if (std::equal(tuple, tuple + arity_, row(entry - 1))) return false;
  }
  const std::uint32_t r = rows_++;
  data_.insert(data_.end(), tuple, tuple + arity_);
  set_[slot] = r + 1;
  if (std::size_t{rows_} * 2 > set_.size()) grow_set();
  for (Index& index : indexes_) index_row(index, r, pool);
  return true;
}

void Table::grow_set() {
  std::vector<std::uint32_t> grown(set_.size() * 2, 0);
  const std::size_t mask = grown.size() - 1;
  for (std::uint32_t r = 0; r < rows_; ++r) {
    std::size_t slot = row_hash(row(r)) & mask;
    while (grown[slot] != 0) slot = (slot + 1) & mask;
    grown[slot] = r + 1;
  }
  set_ = std::move(grown);
}

bool Table::row_key(const Index& index, const TermId* tuple, const TermPool& pool,
                    std::uint64_t& key) const {
  std::uint64_t h = kKeySeed;
  for (const Path& path : index.def) {
    TermId value = tuple[path.arg];
    if (path.child >= 0) {
      // A row whose argument has another functor can never match a literal probing this path.
      if (pool.functor(value) != path.functor) return false;
      auto args = pool.args(value);
      if (args.size() != path.arity) return false;
      value = args[static_cast<std::size_t>(path.child)];
    }
    h = key_step(h, value);
  }
  key = h;
  return true;
}

void Table::index_row(Index& index, std::uint32_t r, const TermPool& pool) {
  index.next.push_back(kNone);
  std::uint64_t key = 0;
  if (!row_key(index, row(r), pool, key)) return;
  const std::size_t mask = index.buckets.size() - 1;
  for (std::size_t slot = mix(key) & mask;; slot = (slot + 1) & mask) {
    Bucket& b = index.buckets[slot];
    if (b.head == kNone) {
      b = {key, r, r};
      if (++index.used * 2 > index.buckets.size()) grow_buckets(index);
      return;
    }
    if (b.key == key) {
      index.next[b.tail] = r;
      b.tail = r;
      return;
    }
  }
}

void Table::grow_buckets(Index& index) {
  std::vector<Bucket> grown(index.buckets.size() * 2);
  const std::size_t mask = grown.size() - 1;
  for (const Bucket& b : index.buckets) {
    if (b.head == kNone) continue;
    std::size_t slot = mix(b.key) & mask;
    while (grown[slot].head != kNone) slot = (slot + 1) & mask;
    grown[slot] = b;
  }
  index.buckets = std::move(grown);
}

std::uint32_t Table::first(std::size_t index, std::uint64_t key) const {
  const Index& ix = indexes_[index];
  const std::size_t mask = ix.buckets.size() - 1;
  for (std::size_t slot = mix(key) & mask;; slot = (slot + 1) & mask) {
    const Bucket& b = ix.buckets[slot];
    if (b.head == kNone) return kNone;
    if (b.key == key) return b.head;
  }
}

void Table::clear() {
  if (rows_ == 0) return;
  rows_ = 0;
  data_.clear();
  std::fill(set_.begin(), set_.end(), 0);
  for (Index& index : indexes_) {
    std::fill(index.buckets.begin(), index.buckets.end(), Bucket{});
    index.used = 0;
    index.next.clear();
  }
}

}  // namespace arena::gdl::prover_detail
