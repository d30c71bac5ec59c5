#include "games/gdl/game/gdl_game.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <utility>

namespace arena::gdl {
namespace {

constexpr int kMaxTermDepth = 64;

struct TermReader {
  std::string_view text;
  const SymbolTable& symbols;
  std::size_t pos = 0;

  void skip_space() {
    while (pos < text.size() &&
           (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }
  static bool is_name_char(char c) {
    return c > ' ' && c != '(' && c != ')' && c != ';' && c != 127;
  }
  Expected<Symbol> name() {
    const std::size_t start = pos;
    while (pos < text.size() && is_name_char(text[pos])) ++pos;
    std::string_view token = text.substr(start, pos - start);
    if (token.empty())
      return make_error("unexpected '" + std::string(1, text[pos]) + "' at offset " +
                        std::to_string(pos));
    if (token.front() == '?')
      return make_error("'" + std::string(token) + "' is a variable, not a ground term");
    Symbol s = 0;
    if (!symbols.find(token, s))
      return make_error("'" + std::string(token) + "' is not a symbol of the game");
    return s;
  }
  Expected<Term> term(int depth) {
    if (depth > kMaxTermDepth) return make_error("terms nested too deeply");
    skip_space();
    if (pos >= text.size()) return make_error("a term is missing at the end");
    if (text[pos] == ')') return make_error("unbalanced ')' at offset " + std::to_string(pos));
    if (text[pos] != '(') {
      auto s = name();
      if (!s) return make_error(s.error());
      return Term{Term::Kind::kConstant, *s, {}};
    }
    ++pos;
    skip_space();
    auto functor = name();
    if (!functor) return make_error(functor.error());
    Term t{Term::Kind::kCompound, *functor, {}};
    for (;;) {
      skip_space();
      if (pos >= text.size()) return make_error("a ')' is missing at the end");
      if (text[pos] == ')') break;
      auto arg = term(depth + 1);
      if (!arg) return arg;
      t.args.push_back(std::move(*arg));
    }
    ++pos;
    if (t.args.empty()) t.kind = Term::Kind::kConstant;  // "(noop)" is the constant noop
    return t;
  }
};

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// The KIF texts of `moves` for messages: at most 12, then "...".
std::string list_texts(const std::vector<Move>& moves, TermPool& pool, const SymbolTable& s) {
  std::string out;
  for (std::size_t i = 0; i < moves.size() && i < 12; ++i)
    out += (i ? ", " : "") + pool.to_kif(moves[i], s);
  if (moves.size() > 12) out += ", ...";
  return out;
}

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

}  // namespace

Expected<std::vector<Term>> parse_ground_terms(std::string_view text, const SymbolTable& symbols,
                                               std::size_t max_bytes) {
  if (text.size() > max_bytes)
    return make_error("the text is longer than " + std::to_string(max_bytes) + " bytes");
  // Symbols are stored lower case (KIF is case-insensitive).
  const std::string low = lowered(text);
  TermReader reader{low, symbols};
  std::vector<Term> out;
  for (;;) {
    reader.skip_space();
    if (reader.pos >= low.size()) break;
    auto t = reader.term(0);
    if (!t) return make_error(t.error());
    out.push_back(std::move(*t));
  }
  return out;
}

// ---- GdlContext ----

std::shared_ptr<GdlContext> GdlContext::make(std::string name,
                                             std::unique_ptr<StateMachine> machine) {
  std::shared_ptr<GdlContext> c(new GdlContext());
  c->game_name_ = "gdl:" + name;
  c->machine_ = std::move(machine);
  const auto& symbols = c->machine_->description().symbols;
  for (TermId r : c->machine_->roles())
    c->role_names_.push_back(c->machine_->pool().to_kif(r, symbols));
  c->collect_fluent_signatures();
  c->probe_simultaneous();
  return c;
}

void GdlContext::collect_fluent_signatures() {
  auto note = [&](const Term& fluent) {
    if (fluent.is_variable()) {
      any_fluent_ = true;
      return;
    }
    std::pair<std::uint32_t, std::size_t> sig{fluent.name, fluent.args.size()};
    if (std::find(fluent_signatures_.begin(), fluent_signatures_.end(), sig) ==
        fluent_signatures_.end())
      fluent_signatures_.push_back(sig);
  };
  // Literals in bodies may be wrapped in not/or; look through them for (true F).
  auto visit_literal = [&](auto& self, const Term& lit) -> void {
    if (lit.kind != Term::Kind::kCompound) return;
    if (lit.name == SymbolTable::kTrue && lit.args.size() == 1) note(lit.args[0]);
    if (lit.name == SymbolTable::kNot || lit.name == SymbolTable::kOr)
      for (const Term& a : lit.args) self(self, a);
  };
  for (const Rule& rule : machine_->description().rules) {
    const Term& h = rule.head;
    if (h.kind == Term::Kind::kCompound && h.args.size() == 1 &&
        (h.name == SymbolTable::kInit || h.name == SymbolTable::kNext ||
         h.name == SymbolTable::kBase))
      note(h.args[0]);
    for (const Term& lit : rule.body) visit_literal(visit_literal, lit);
  }
}

// Random playouts from the initial state until a turn with two movers is seen, or the budget
// (states, time) is spent. Cheap for small games, bounded for large ones.
void GdlContext::probe_simultaneous() {
  const int roles = static_cast<int>(role_names_.size());
  if (roles < 2) return;
  constexpr int kPlayouts = 16, kMaxStates = 400, kMaxSteps = 200, kEnoughStates = 20;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(250);
  std::mt19937_64 rng(20240623);
  int states = 0;
  for (int p = 0; p < kPlayouts && states < kMaxStates; ++p) {
    State s = machine_->initial_state();
    for (int step = 0; step < kMaxSteps && states < kMaxStates; ++step) {
      if (std::chrono::steady_clock::now() > deadline) break;
      if (machine_->is_terminal(s)) break;
      ++states;
      JointMove joint;
      int choosers = 0;
      for (int r = 0; r < roles; ++r) {
        auto legal = machine_->legal_moves(s, r);
        if (legal.empty()) break;
        if (legal.size() > 1) ++choosers;
        joint.push_back(legal[rng() % legal.size()]);
      }
      if (choosers > 1) {
        simultaneous_ = true;
        return;
      }
      if (static_cast<int>(joint.size()) != roles) break;
      s = machine_->next_state(s, joint);
    }
    if (std::chrono::steady_clock::now() > deadline) break;
  }
  simultaneous_ = states < kEnoughStates;  // too little seen to call it turn-taking
}

Expected<State> GdlContext::parse_state(std::string_view text) {
  const SymbolTable& symbols = machine_->description().symbols;
  auto terms = parse_ground_terms(text, symbols);
  if (!terms) return make_error("position: " + terms.error());
  State state;
  state.reserve(terms->size());
  for (const Term& t : *terms) {
    const std::pair<std::uint32_t, std::size_t> sig{t.name, t.args.size()};
    if (!any_fluent_ && std::find(fluent_signatures_.begin(), fluent_signatures_.end(), sig) ==
                            fluent_signatures_.end())
      return make_error("position: " + to_kif(t, symbols) + " is not a fluent of " + game_name_ +
                        " (no init, next or true of that relation and arity)");
    state.push_back(machine_->pool().from_term(t));
  }
  std::sort(state.begin(), state.end());
  state.erase(std::unique(state.begin(), state.end()), state.end());
  return state;
}

std::string GdlContext::state_text(const State& state) {
  const SymbolTable& symbols = machine_->description().symbols;
  std::vector<std::string> texts;
  texts.reserve(state.size());
  for (TermId f : state) texts.push_back(machine_->pool().to_kif(f, symbols));
  std::sort(texts.begin(), texts.end());
  std::string out;
  for (const auto& t : texts) out += (out.empty() ? "" : " ") + t;
  return out;
}

// ---- GdlGame ----

Expected<std::unique_ptr<GdlGame>> GdlGame::start(std::shared_ptr<GdlContext> context) {
  std::unique_ptr<GdlGame> g(new GdlGame(std::move(context)));
  std::lock_guard lock(g->context_->mutex());
  g->enter(g->context_->machine().initial_state());
  if (g->turn_.over && !g->turn_.problem.empty())
    return make_error("the initial state cannot be played: " + g->turn_.problem);
  return g;
}

Expected<std::unique_ptr<GdlGame>> GdlGame::load(std::shared_ptr<GdlContext> context,
                                                 std::string_view position) {
  std::unique_ptr<GdlGame> g(new GdlGame(std::move(context)));
  std::lock_guard lock(g->context_->mutex());
  auto state = g->context_->parse_state(position);
  if (!state) return make_error(state.error());
  g->enter(std::move(*state));
  if (g->turn_.unanswered) return make_error("position: " + g->turn_.problem);
  return g;
}

void GdlGame::enter(State state) {
  StateMachine& m = context_->machine();
  const int roles = num_players();
  state_ = std::move(state);
  hash_.reset();
  turn_ = Turn{};
  turn_.over = m.is_terminal(state_);
  if (!turn_.over) {
    turn_.legal.resize(static_cast<std::size_t>(roles));
    for (int r = 0; r < roles; ++r) {
      auto& legal = turn_.legal[static_cast<std::size_t>(r)];
      legal = m.legal_moves(state_, r);
      if (legal.empty() && turn_.problem.empty()) {
        turn_.problem = "role " + context_->role_names()[static_cast<std::size_t>(r)] +
                        " has no legal move in a state that is not terminal (the game ends here)";
        turn_.over = true;
      }
    }
  }
  if (turn_.over) {
    std::string why = m.failure(state_);
    if (!why.empty()) {  // the cause, rather than what the reasoner answered because of it
      turn_.problem = "the " + std::string(m.kind()) + " could not answer: " + why;
      turn_.unanswered = true;
    }
    turn_.legal.clear();
    for (int r = 0; r < roles; ++r) {
      auto goal = m.goal(state_, r);
      turn_.goals.push_back(goal ? *goal : 0);
      if (!goal && turn_.problem.empty()) turn_.problem = goal.error();
    }
    return;
  }
  for (int r = 0; r < roles; ++r)
    if (turn_.legal[static_cast<std::size_t>(r)].size() > 1) turn_.movers.push_back(r);
  if (!turn_.movers.empty()) return;
  // Nobody has a choice: the role whose single move is an action rather than a waiting move.
  int chosen = 0;
  for (int r = 0; r < roles; ++r)
    if (!m.pool().args(turn_.legal[static_cast<std::size_t>(r)].front()).empty()) {
      chosen = r;
      break;
    }
  turn_.movers.push_back(chosen);
}

Player GdlGame::side_to_move() const {
  return turn_.movers.empty() || turn_.movers.front() == 0 ? Player::kFirst : Player::kSecond;
}

std::vector<std::string> GdlGame::legal_moves() const {
  if (turn_.movers.empty()) return {};
  return legal_moves_of(turn_.movers.front());
}

std::vector<std::string> GdlGame::legal_moves_of(int seat) const {
  if (std::find(turn_.movers.begin(), turn_.movers.end(), seat) == turn_.movers.end()) return {};
  std::lock_guard lock(context_->mutex());
  StateMachine& m = context_->machine();
  std::vector<std::string> out;
  for (Move mv : turn_.legal[static_cast<std::size_t>(seat)])
    out.push_back(m.pool().to_kif(mv, m.description().symbols));
  return out;
}

bool GdlGame::simultaneous() const {
  return context_->probed_simultaneous() || turn_.movers.size() > 1;
}

Expected<std::string> GdlGame::play(std::string_view move) {
  std::lock_guard lock(context_->mutex());
  if (turn_.over) return make_error("the game is over; no move can be played");
  // One text holds the movers' moves, as history() writes a turn.
  auto terms = parse_ground_terms(move, context_->machine().description().symbols, 1 << 16);
  if (!terms) return make_error("move '" + std::string(move) + "': " + terms.error());
  if (terms->size() != turn_.movers.size())
    return make_error("move '" + std::string(move) + "': this turn takes " +
                      std::to_string(turn_.movers.size()) + " move(s), one per mover");
  std::vector<std::string> texts;
  for (const Term& t : *terms)
    texts.push_back(to_kif(t, context_->machine().description().symbols));
  return play_texts(texts);
}

Expected<std::string> GdlGame::play_turn(const std::vector<std::string>& moves) {
  std::lock_guard lock(context_->mutex());
  if (turn_.over) return make_error("the game is over; no move can be played");
  if (moves.size() != turn_.movers.size())
    return make_error("this turn takes " + std::to_string(turn_.movers.size()) +
                      " move(s), one per mover; " + std::to_string(moves.size()) + " given");
  const SymbolTable& symbols = context_->machine().description().symbols;
  std::vector<std::string> texts;
  for (std::size_t k = 0; k < moves.size(); ++k) {
    const std::string& role = context_->role_names()[static_cast<std::size_t>(turn_.movers[k])];
    auto terms = parse_ground_terms(moves[k], symbols, 1 << 16);
    if (!terms) return make_error(role + "'s move '" + moves[k] + "': " + terms.error());
    if (terms->size() != 1) return make_error(role + "'s move '" + moves[k] + "' is not one term");
    texts.push_back(to_kif(terms->front(), symbols));
  }
  return play_texts(texts);
}

Expected<std::string> GdlGame::play_texts(const std::vector<std::string>& texts) {
  StateMachine& m = context_->machine();
  const SymbolTable& symbols = m.description().symbols;
  const std::size_t roles = turn_.legal.size();
  JointMove joint(roles);
  for (std::size_t r = 0; r < roles; ++r) joint[r] = turn_.legal[r].front();
  std::string record;
  for (std::size_t k = 0; k < texts.size(); ++k) {
    const auto seat = static_cast<std::size_t>(turn_.movers[k]);
    const auto& legal = turn_.legal[seat];
    auto it = std::find_if(legal.begin(), legal.end(),
                           [&](Move mv) { return m.pool().to_kif(mv, symbols) == texts[k]; });
    if (it == legal.end())
      return make_error("illegal move '" + texts[k] + "' for " + context_->role_names()[seat] +
                        " (legal: " + list_texts(legal, m.pool(), symbols) + ")");
    joint[seat] = *it;
    record += (k ? " " : "") + texts[k];
  }
  saved_.push_back({state_, turn_});
  enter(m.next_state(state_, joint));
  history_.push_back(record);
  return record;
}

bool GdlGame::undo() {
  if (saved_.empty()) return false;
  state_ = std::move(saved_.back().state);
  turn_ = std::move(saved_.back().turn);
  saved_.pop_back();
  history_.pop_back();
  hash_.reset();
  return true;
}

Outcome GdlGame::outcome() const {
  if (!turn_.over) return Outcome::ongoing();
  const auto& g = turn_.goals;
  if (g.size() == 1)
    return {g[0] >= 100 ? Result::kFirstWins : Result::kSecondWins, EndReason::kGoals};
  if (g.size() == 2) {
    if (g[0] == g[1]) return Outcome::draw(EndReason::kGoals);
    return Outcome::win_for(g[0] > g[1] ? Player::kFirst : Player::kSecond, EndReason::kGoals);
  }
  return Outcome::draw(EndReason::kGoals);
}

std::vector<int> GdlGame::scores() const {
  if (!turn_.over) return std::vector<int>(static_cast<std::size_t>(num_players()), 0);
  return turn_.goals;
}

std::string GdlGame::serialize() const {
  std::lock_guard lock(context_->mutex());
  return context_->state_text(state_);
}

std::uint64_t GdlGame::hash() const {
  if (!hash_) hash_ = fnv1a(serialize());
  return *hash_;
}

// ---- perft ----

namespace {

// gdl_perft's count; stops at the first state the reasoner could not answer about, with
// `failure` set to why.
std::uint64_t count_turns(StateMachine& machine, const State& state, int depth,
                          std::string& failure) {
  if (depth <= 0) return 1;
  if (machine.is_terminal(state)) {
    failure = machine.failure(state);
    return 0;
  }
  const int roles = static_cast<int>(machine.roles().size());
  std::vector<std::vector<Move>> legal(static_cast<std::size_t>(roles));
  std::uint64_t product = 1;
  for (int r = 0; r < roles; ++r) {
    legal[static_cast<std::size_t>(r)] = machine.legal_moves(state, r);
    product *= legal[static_cast<std::size_t>(r)].size();
  }
  if (product == 0) failure = machine.failure(state);
  if (depth == 1 || product == 0) return product;
  std::uint64_t nodes = 0;
  std::vector<std::size_t> index(static_cast<std::size_t>(roles), 0);
  JointMove joint(static_cast<std::size_t>(roles));
  for (std::uint64_t n = 0; n < product && failure.empty(); ++n) {
    for (std::size_t r = 0; r < legal.size(); ++r) joint[r] = legal[r][index[r]];
    nodes += count_turns(machine, machine.next_state(state, joint), depth - 1, failure);
    for (std::size_t r = 0; r < legal.size(); ++r) {  // the next joint move, odometer style
      if (++index[r] < legal[r].size()) break;
      index[r] = 0;
    }
  }
  return nodes;
}

}  // namespace

Expected<std::uint64_t> gdl_perft(StateMachine& machine, const State& state, int depth) {
  std::string failure;
  const std::uint64_t nodes = count_turns(machine, state, depth, failure);
  if (!failure.empty())
    return make_error("the " + std::string(machine.kind()) + " could not answer about a state " +
                      "of the tree, so it cannot be counted: " + failure);
  return nodes;
}

std::vector<std::vector<std::string>> all_turns(const AnyGame& game) {
  const std::vector<int> movers = game.movers();
  if (movers.empty()) return {};
  std::vector<std::vector<std::string>> turns{{}};
  for (int seat : movers) {
    std::vector<std::vector<std::string>> longer;
    for (const auto& t : turns)
      for (const auto& m : game.legal_moves_of(seat)) {
        longer.push_back(t);
        longer.back().push_back(m);
      }
    turns = std::move(longer);
  }
  return turns;
}

Expected<std::vector<PerftLine>> gdl_perft_divide(
    GdlGame& game, StateMachine& machine, int depth,
    const std::function<void(const PerftLine&)>& each) {
  std::vector<PerftLine> out;
  if (depth < 1) return out;
  for (const auto& turn : all_turns(game)) {
    auto record = game.play_turn(turn);
    if (!record) continue;
    auto nodes = gdl_perft(machine, game.state(), depth - 1);
    game.undo();
    if (!nodes) return make_error("after " + *record + ": " + nodes.error());
    out.emplace_back(*record, *nodes);
    if (each) each(out.back());
  }
  return out;
}

}  // namespace arena::gdl
