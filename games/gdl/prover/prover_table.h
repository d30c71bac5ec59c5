#pragma once
// Stage: the prover (the reasoners' contract and the reference reasoner).
// The prover's storage for one relation: its facts as rows of ground argument ids (TermPool
// ids), a hash set that keeps rows unique, and hash indexes that find the rows agreeing with a
// literal on its bound arguments.
//
// An index is keyed by "paths": a path names an argument, or one child of an argument whose
// functor is known ((true (cell ?x 2 ?p)) with ?x bound probes the children 0 and 1 of the
// argument 0 of functor cell/3), so lookups never build terms. A probe returns candidates only:
// the caller matches each row against its literal (keys are hashes).
//
// Rows are numbered in insertion order and index chains are in increasing row order, so a
// reader can stop at a row limit (the semi-naive evaluation's snapshots) while rows are added.

#include <cstdint>
#include <span>
#include <vector>

#include "games/gdl/reader/term.h"

namespace arena::gdl::prover_detail {

inline constexpr std::uint32_t kNone = 0xFFFFFFFFu;

struct Path {
  std::uint32_t arg = 0;
  std::int32_t child = -1;  // -1: the argument itself
  Symbol functor = 0;       // the argument's functor and arity when child >= 0
  std::uint32_t arity = 0;
  bool operator==(const Path&) const = default;
};
using IndexDef = std::vector<Path>;

// Hash of one key value, combined in path order (the same on insertion and on lookup).
inline std::uint64_t key_step(std::uint64_t h, std::uint32_t value) {
  h ^= value + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h * 0xBF58476D1CE4E5B9ull;
}
inline constexpr std::uint64_t kKeySeed = 0x2545F4914F6CDD1Dull;

class Table {
 public:
  Table(std::uint32_t arity, std::vector<IndexDef> indexes);

  std::uint32_t arity() const { return arity_; }
  std::uint32_t size() const { return rows_; }
  const TermId* row(std::uint32_t r) const { return data_.data() + std::size_t{r} * arity_; }

  // Adds `tuple` (arity ids) unless present; true when added. `pool` reads argument functors
  // for the indexes.
  bool insert(const TermId* tuple, const TermPool& pool);
  bool contains(const TermId* tuple) const;
  void clear();

  // The first row of index `index` whose key hashes to `key`, then the next ones; kNone ends.
  std::uint32_t first(std::size_t index, std::uint64_t key) const;
  std::uint32_t next(std::size_t index, std::uint32_t row) const {
    return indexes_[index].next[row];
  }

 private:
  struct Bucket {
    std::uint64_t key = 0;
    std::uint32_t head = kNone;  // kNone: empty slot
    std::uint32_t tail = kNone;
  };
  struct Index {
    IndexDef def;
    std::vector<Bucket> buckets;  // open addressing, size a power of two
    std::uint32_t used = 0;
    std::vector<std::uint32_t> next;  // per row: the next row of its chain
  };

  std::uint64_t row_hash(const TermId* tuple) const;
  bool row_key(const Index& index, const TermId* tuple, const TermPool& pool,
               std::uint64_t& key) const;
  void index_row(Index& index, std::uint32_t r, const TermPool& pool);
  void grow_set();
  static void grow_buckets(Index& index);

  std::uint32_t arity_;
  std::uint32_t rows_ = 0;
  std::vector<TermId> data_;
  std::vector<std::uint32_t> set_;  // open addressing over rows: row + 1, 0 empty
  std::vector<Index> indexes_;
};

}  // namespace arena::gdl::prover_detail
