#include "server/match/board_layout.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <map>
#include <set>
#include <unordered_set>

#include "games/core/rng.h"

namespace arena::server {
namespace {

// A parsed KIF term: an atom (args empty, compound false) or a list.
struct Term {
  std::string atom;
  std::vector<Term> items;
  bool compound = false;
};

std::vector<std::string_view> tokenize(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ';') {  // a comment, to the end of the line
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '(' || c == ')') {
      out.push_back(text.substr(i++, 1));
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else {
      const std::size_t start = i;
      while (i < text.size() && text[i] != '(' && text[i] != ')' && text[i] != ' ' &&
             text[i] != '\t' && text[i] != '\n' && text[i] != '\r' && text[i] != ';')
        ++i;
      out.push_back(text.substr(start, i - start));
    }
  }
  return out;
}

// Parses the term at tokens[pos]; false on unbalanced input or past the depth limit.
bool parse(const std::vector<std::string_view>& tokens, std::size_t& pos, int depth, Term& out) {
  if (pos >= tokens.size() || depth > kMaxFactDepth || tokens[pos] == ")") return false;
  if (tokens[pos] != "(") {
    out.atom = std::string(tokens[pos++]);
    return true;
  }
  ++pos;
  out.compound = true;
  while (pos < tokens.size() && tokens[pos] != ")") {
    Term item;
    if (!parse(tokens, pos, depth + 1, item)) return false;
    out.items.push_back(std::move(item));
  }
  if (pos >= tokens.size()) return false;
  ++pos;  // ")"
  return true;
}

std::string print(const Term& t) {
  if (!t.compound) return t.atom;
  std::string out = "(";
  for (std::size_t i = 0; i < t.items.size(); ++i) out += (i ? " " : "") + print(t.items[i]);
  return out + ")";
}

std::optional<std::vector<Term>> parse_all(std::string_view text) {
  if (text.size() > kMaxPositionBytes) return std::nullopt;
  const auto tokens = tokenize(text);
  std::vector<Term> terms;
  for (std::size_t pos = 0; pos < tokens.size();) {
    Term t;
    if (!parse(tokens, pos, 0, t)) return std::nullopt;
    terms.push_back(std::move(t));
  }
  // One outer list whose items are all lists: the facts are its items.
  if (terms.size() == 1 && terms[0].compound && !terms[0].items.empty() &&
      std::all_of(terms[0].items.begin(), terms[0].items.end(),
                  [](const Term& t) { return t.compound; })) {
    std::vector<Term> inner = std::move(terms[0].items);
    return inner;
  }
  return terms;
}

std::optional<long long> as_int(const std::string& s) {
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// The axis in display order: numbers ascending with the gaps filled, else text order.
std::optional<std::vector<std::string>> order_axis(const std::set<std::string>& values) {
  std::vector<long long> numbers;
  for (const auto& v : values)
    if (auto n = as_int(v)) numbers.push_back(*n);
  std::vector<std::string> out;
  if (numbers.size() == values.size()) {
    std::sort(numbers.begin(), numbers.end());
    const long long span = numbers.back() - numbers.front() + 1;
    if (span < 0 || static_cast<unsigned long long>(span) > kMaxBoardSide) return std::nullopt;
    for (long long n = numbers.front(); n <= numbers.back(); ++n) out.push_back(std::to_string(n));
    return out;
  }
  out.assign(values.begin(), values.end());
  return out;
}

struct Candidate {
  std::size_t arity = 0;
  bool mixed = false;  // used with several arities, or with non-atom coordinates
  std::set<std::string> rows, cols;
  std::set<std::pair<std::string, std::string>> cells;
};

}  // namespace

std::vector<std::string> kif_facts(std::string_view text) {
  std::vector<std::string> out;
  auto terms = parse_all(text);
  if (!terms) return out;
  for (const auto& t : *terms) out.push_back(print(t));
  return out;
}

namespace {

// find_board_layout's grid, and in `complete` whether a fact names every one of its cells.
std::optional<protocol::BoardLayout> best_layout(const std::vector<std::string>& facts,
                                                 bool& complete) {
  complete = false;
  std::map<std::string, Candidate> candidates;
  for (const auto& text : facts) {
    auto terms = parse_all(text);
    if (!terms || terms->size() != 1) continue;
    const Term& t = terms->front();
    if (!t.compound || t.items.size() < 4 || t.items[0].compound) continue;
    Candidate& c = candidates[t.items[0].atom];
    const std::size_t arity = t.items.size() - 1;
    if (c.arity != 0 && c.arity != arity) c.mixed = true;
    c.arity = arity;
    if (t.items[1].compound || t.items[2].compound) {
      c.mixed = true;
      continue;
    }
    c.rows.insert(t.items[1].atom);
    c.cols.insert(t.items[2].atom);
    c.cells.emplace(t.items[1].atom, t.items[2].atom);
  }
  std::optional<protocol::BoardLayout> best;
  std::size_t best_cells = 0;
  for (const auto& [relation, c] : candidates) {
    if (c.mixed || c.rows.size() < 2 || c.cols.size() < 2 || c.rows.size() > kMaxBoardSide ||
        c.cols.size() > kMaxBoardSide)
      continue;
    if (c.cells.size() <= best_cells) continue;
    auto rows = order_axis(c.rows);
    auto cols = order_axis(c.cols);
    // At least a quarter of the grid (with its filled gaps) is named by a fact.
    if (!rows || !cols || c.cells.size() * 4 < rows->size() * cols->size()) continue;
    complete = c.cells.size() == rows->size() * cols->size();
    best = protocol::BoardLayout{relation, std::move(*rows), std::move(*cols)};
    best_cells = c.cells.size();
  }
  return best;
}

}  // namespace

std::optional<protocol::BoardLayout> find_board_layout(const std::vector<std::string>& facts) {
  bool complete = false;
  return best_layout(facts, complete);
}

std::optional<protocol::BoardLayout> detect_board_layout(const AnyGame& game,
                                                         std::int64_t budget_ms) {
  auto start_facts = kif_facts(game.serialize());
  if (std::none_of(start_facts.begin(), start_facts.end(),
                   [](const std::string& f) { return f.starts_with("("); }))
    return std::nullopt;
  // A grid the position names whole (a chess board's every square): random turns add nothing to it, and on a
  // large sheet's prover one turn can take a second, which the game's start would wait for.
  bool complete = false;
  if (auto whole = best_layout(start_facts, complete); whole && complete) return whole;
  std::unordered_set<std::string> seen(start_facts.begin(), start_facts.end());
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(budget_ms);
  Rng rng(0x5EEDB0A7D1A70ULL ^ game.hash());
  constexpr int kPlayouts = 32, kTurns = 400;
  for (int p = 0; p < kPlayouts && Clock::now() < deadline; ++p) {
    auto g = game.clone();
    for (int turn = 0; turn < kTurns && Clock::now() < deadline; ++turn) {
      const auto movers = g->movers();
      if (movers.empty()) break;
      std::vector<std::string> moves;
      for (int seat : movers) {
        auto legal = g->legal_moves_of(seat);
        if (legal.empty()) break;
        moves.push_back(legal[rng.below(legal.size())]);
      }
      if (moves.size() != movers.size() || !g->play_turn(moves)) break;
      for (auto& f : kif_facts(g->serialize())) seen.insert(std::move(f));
    }
  }
  return find_board_layout(std::vector<std::string>(seen.begin(), seen.end()));
}

}  // namespace arena::server
