#pragma once
// Stage: grounding, internal to ground/. The bottom-up join engine of the grounder. Rules are
// compiled into patterns over numbered variables; relations hold their derived atoms (ground
// sentences as TermIds) in derivation order with hash indices on bound argument positions; a
// phase runs semi-naive rounds (each binding of a rule body is enumerated once) until no
// relation of the phase grows, and may record every binding as a ground rule.
//
// Bounded: the caller's Budget (atoms, ground rules, seconds) is checked while joining; when it
// is exceeded the phase stops and says why.

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "games/gdl/reader/description.h"
#include "games/gdl/ground/ground.h"
#include "games/gdl/reader/term.h"

namespace arena::gdl::detail {

inline constexpr TermId kUnbound = 0xFFFFFFFFu;

// A rule of the description with `or` expanded (one per choice of disjuncts), or an auxiliary
// rule made by split_rules(); `source` is the description's rule, for messages.
struct ExpandedRule {
  const Rule* source = nullptr;
  Term head;
  std::vector<Term> body;  // no `or` left
  bool demand = false;     // defines a demand relation (add_demand): never recorded
};

// Auxiliary relations' symbols are numbered from here: they name no symbol of the
// description's table, so their atoms must never be printed (they stay inside the network).
inline constexpr Symbol kFirstAuxSymbol = 0x40000000u;
// The relations of disequality projections (ground_diseq.h) are numbered from here.
inline constexpr Symbol kFirstDisequalitySymbol = 0x50000000u;
// Demand relations (add_demand) are numbered from here (also never printed).
inline constexpr Symbol kFirstDemandSymbol = 0x60000000u;

// A term of a rule with its variables numbered 0..n-1; ground subterms are resolved to ids.
struct Pattern {
  enum class Kind : std::uint8_t { kGround, kVariable, kCompound };
  Kind kind = Kind::kGround;
  TermId ground = 0;
  int var = -1;
  Symbol functor = 0;
  std::vector<Pattern> args;
};

struct Literal {
  enum class Kind : std::uint8_t { kPositive, kNegative, kDistinct, kEqual };
  Kind kind = Kind::kPositive;
  int relation = -1;  // dense relation id (kPositive, kNegative)
  Pattern atom;       // the sentence (kPositive, kNegative); kDistinct/kEqual: atom vs other
  Pattern other;
};

struct CompiledRule {
  int head_relation = -1;
  Pattern head;
  std::vector<Literal> body;
  int num_vars = 0;
  bool record = true;  // record each binding as a ground rule (not the true/does bridges)
  int source = -1;     // the source line of the rule, for messages
};

// Which argument values of an atom form an index key: top-level arguments (sub = -1) and the
// arguments of compound top-level arguments of a given functor and arity (an atom of another
// shape cannot match the pattern and is left out of the index).
struct IndexKey {
  struct Slot {
    std::uint8_t arg = 0;
    std::int8_t sub = -1;
    bool operator==(const Slot&) const = default;
  };
  struct Shape {
    std::uint8_t arg = 0;
    Symbol functor = 0;
    std::uint32_t arity = 0;
    bool operator==(const Shape&) const = default;
  };
  std::vector<Slot> slots;
  std::vector<Shape> shapes;
  bool operator==(const IndexKey&) const = default;
};

// Atom -> position in a relation, by open addressing (atom << 32 | position per slot, at most
// half full): no allocation per atom, and freed at once, for relations of millions of atoms.
class AtomPositions {
 public:
  std::uint32_t find(TermId atom) const;  // kUnbound when absent
  std::size_t count(TermId atom) const { return find(atom) == kUnbound ? 0 : 1; }
  bool emplace(TermId atom, std::uint32_t position);  // false when present (kept)

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  std::size_t slot_of(TermId atom) const {
    return static_cast<std::size_t>((atom * 0x9E3779B97F4A7C15ull) >> 20) & (slots_.size() - 1);
  }
  std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>> slots_;
  std::size_t size_ = 0;
};

// One relation's derived atoms.
struct Relation {
  struct Index {
    IndexKey key;
    std::size_t covered = 0;
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> postings;
  };
  Symbol name = 0;
  bool is_static = false;
  bool complete = false;  // static and fully evaluated: negation can be decided
  bool in_phase = false;  // grown by the running phase (ranges apply)
  bool demand = false;    // a demand relation (add_demand): a domain, never recorded
  std::vector<TermId> atoms;
  AtomPositions position;
  std::vector<Index> indices;  // made when a phase starts, never during (references stay)
  // Round bounds of the running phase: [0, old_end) old, [old_end, delta_end) new.
  std::uint32_t old_end = 0, delta_end = 0;

  bool add(TermId atom);
  std::size_t index_for(const IndexKey& key);  // made when missing
};

struct Budget {
  std::size_t max_atoms = 0;
  std::size_t max_rules = 0;
  double max_seconds = 0;
  std::chrono::steady_clock::time_point start;
  std::size_t atoms = 0;
  std::size_t rules = 0;
  std::uint64_t steps = 0;
  std::string failure;  // set when a limit was hit
  bool exceeded() { return !failure.empty(); }
  bool tick();  // true when a limit was hit (checks the clock now and then)
};

// Ground rules as recorded: flat arrays (a chess-sized program holds millions).
struct RecordedRules {
  std::vector<TermId> heads;
  std::vector<std::uint32_t> body_begin{0};
  std::vector<std::uint32_t> literals;  // atom << 1 | negated
  std::size_t size() const { return heads.size(); }
};

class JoinEngine {
 public:
  JoinEngine(TermPool& pool, std::vector<Relation>& relations, Budget& budget)
      : pool_(pool), relations_(relations), budget_(budget) {}

  // Runs semi-naive rounds of `rules` until no in-phase relation grows. Negative literals on
  // complete relations are decided; on others they are kept in the recorded rule (and assumed
  // satisfiable while computing domains). Recorded rules go to `out` when it is not null.
  // False when the budget was exceeded.
  bool run_phase(const std::vector<CompiledRule>& rules, RecordedRules* out);

 private:
  struct Step {
    int literal = -1;  // index into the rule body
    IndexKey key;    // kPositive: the argument values known before this step
    int index = -1;  // the relation's index for `key` (-1: scan all)
  };
  struct Plan {
    const CompiledRule* rule = nullptr;
    int delta = -1;  // the body literal ranging over the newest atoms (-1: none)
    std::vector<Step> steps;
  };

  Plan make_plan(const CompiledRule& rule, int delta) const;
  void run_plan(const Plan& plan, RecordedRules* out);
  void join(std::size_t step);
  void emit();
  bool match(const Pattern& p, TermId t);
  TermId instantiate(const Pattern& p);
  bool bound(const Pattern& p) const;
  std::uint64_t key_of(const Pattern& atom, const IndexKey& key) const;
  void update(Relation::Index& index, const Relation& rel);
  void range_of(int literal, std::uint32_t& lo, std::uint32_t& hi) const;
  void scan(std::size_t step, Relation& rel, const Literal& lit, int index);

  TermPool& pool_;
  std::vector<Relation>& relations_;
  Budget& budget_;
  // The plan being run.
  const Plan* plan_ = nullptr;
  RecordedRules* out_ = nullptr;
  std::vector<TermId> bindings_;
  std::vector<int> trail_;
  std::vector<TermId> matched_;  // per body literal: the atom a positive literal matched
  std::vector<TermId> scratch_;
  // ARENA_GDL_GROUND_STATS: recorded rules per (source line, head relation), for diagnosis.
  std::map<std::pair<int, int>, std::size_t>* stats_ = nullptr;
};

// Symbol -> dense relation id lookups and pattern compilation for one rule.
class RuleCompiler {
 public:
  RuleCompiler(TermPool& pool, std::unordered_map<Symbol, int>& relation_ids)
      : pool_(pool), relation_ids_(relation_ids) {}
  Pattern compile(const Term& t);
  int relation_of(const Term& sentence) const;  // -1 when unknown
  int num_vars() const { return static_cast<int>(vars_.size()); }
  void reset() { vars_.clear(); }

 private:
  TermPool& pool_;
  std::unordered_map<Symbol, int>& relation_ids_;
  std::unordered_map<Symbol, int> vars_;
};

}  // namespace arena::gdl::detail
