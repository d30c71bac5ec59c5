#include "bots/ggp/kif_message.h"

#include "games/gdl/reader/term.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace arena::ggp {

using gdl::lower;

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool is_name_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u > 0x20 && u != 0x7f && c != '(' && c != ')' && c != ';';
}

std::string at(std::size_t pos) {
  return " at byte " + std::to_string(pos);
}

// A whole number of seconds in 0..86400.
Expected<int> parse_clock(const SExpr& e, const char* message, const char* what) {
  int value = -1;
  if (!e.is_list) {
    const char* first = e.atom.data();
    const char* last = first + e.atom.size();
    auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec == std::errc() && ptr == last && value >= 0 && value <= 86400) return value;
  }
  return make_error(std::string(message) + ": the " + what + " '" + to_text(e) +
                    "' is not a whole number of seconds in 0..86400");
}

Expected<std::string> parse_id(const SExpr& e, const char* message) {
  if (e.is_list) return make_error(std::string(message) + ": the match id must be an atom");
  return e.atom;
}

// NIL or a list of moves.
Expected<std::optional<std::vector<SExpr>>> parse_moves(const SExpr& e, const char* message) {
  if (!e.is_list) {
    if (lower(e.atom) == "nil") return std::optional<std::vector<SExpr>>{};
    return make_error(std::string(message) + ": the moves must be NIL or a list, not '" + e.atom +
                      "'");
  }
  return std::optional<std::vector<SExpr>>(e.items);
}

Expected<Message> parse_start(const SExpr& m, std::string_view body) {
  if (m.items.size() != 6)
    return make_error("START takes 5 arguments (id role rules startclock playclock), got " +
                      std::to_string(m.items.size() - 1));
  StartMessage s;
  auto id = parse_id(m.items[1], "START");
  if (!id) return make_error(id.error());
  s.id = *id;
  if (m.items[2].is_list) return make_error("START: the role must be an atom");
  s.role = m.items[2].atom;
  const SExpr& rules = m.items[3];
  if (!rules.is_list) return make_error("START: the rules must be a list of sentences");
  s.rules = std::string(body.substr(rules.begin + 1, rules.end - rules.begin - 2));
  auto start = parse_clock(m.items[4], "START", "start clock");
  if (!start) return make_error(start.error());
  auto play = parse_clock(m.items[5], "START", "play clock");
  if (!play) return make_error(play.error());
  if (*play < 1) return make_error("START: the play clock must be at least 1 second");
  s.startclock = *start;
  s.playclock = *play;
  return Message(std::move(s));
}

}  // namespace

Expected<std::vector<SExpr>> parse_sexprs(std::string_view text) {
  if (text.size() > kMaxMessageBytes)
    return make_error("message of " + std::to_string(text.size()) + " bytes; the limit is " +
                      std::to_string(kMaxMessageBytes));
  std::vector<SExpr> top;
  std::vector<SExpr> open;  // the lists being read, innermost last
  auto append = [&](SExpr e) {
    if (open.empty())
      top.push_back(std::move(e));
    else
      open.back().items.push_back(std::move(e));
  };
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (is_space(c)) {
      ++i;
    } else if (c == ';') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '(') {
      if (open.size() >= static_cast<std::size_t>(kMaxMessageDepth))
        return make_error("lists nested deeper than " + std::to_string(kMaxMessageDepth) + at(i));
      SExpr list;
      list.is_list = true;
      list.begin = i++;
      open.push_back(std::move(list));
    } else if (c == ')') {
      if (open.empty()) return make_error("unbalanced ')'" + at(i));
      SExpr list = std::move(open.back());
      open.pop_back();
      list.end = ++i;
      append(std::move(list));
    } else if (is_name_char(c)) {
      SExpr atom;
      atom.begin = i;
      while (i < text.size() && is_name_char(text[i])) ++i;
      atom.end = i;
      atom.atom = std::string(text.substr(atom.begin, i - atom.begin));
      append(std::move(atom));
    } else {
      return make_error("unexpected character (code " +
                        std::to_string(static_cast<unsigned char>(c)) + ")" + at(i));
    }
  }
  if (!open.empty()) return make_error("unbalanced '(' opened" + at(open.back().begin));
  return top;
}

Expected<SExpr> parse_sexpr(std::string_view text) {
  auto all = parse_sexprs(text);
  if (!all) return make_error(all.error());
  if (all->size() != 1)
    return make_error("expected one KIF term, found " + std::to_string(all->size()));
  return std::move((*all)[0]);
}

std::string to_text(const SExpr& e) {
  if (!e.is_list) return e.atom;
  std::string out = "(";
  for (std::size_t k = 0; k < e.items.size(); ++k) out += (k ? " " : "") + to_text(e.items[k]);
  return out + ")";
}

Expected<Message> parse_message(std::string_view body) {
  auto parsed = parse_sexpr(body);
  if (!parsed) return make_error("not a GGP message: " + parsed.error());
  const SExpr& m = *parsed;
  if (!m.is_list || m.items.empty() || m.items[0].is_list)
    return make_error("a GGP message is a list that starts with its name, like (INFO)");
  const std::string name = lower(m.items[0].atom);
  const std::size_t args = m.items.size() - 1;
  if (name == "info") {
    if (args != 0) return make_error("INFO takes no arguments");
    return Message(InfoMessage{});
  }
  if (name == "start") return parse_start(m, body);
  if (name == "play" || name == "stop") {
    const char* upper = name == "play" ? "PLAY" : "STOP";
    if (args != 2) return make_error(std::string(upper) + " takes 2 arguments (id moves)");
    auto id = parse_id(m.items[1], upper);
    if (!id) return make_error(id.error());
    auto moves = parse_moves(m.items[2], upper);
    if (!moves) return make_error(moves.error());
    if (name == "play") return Message(PlayMessage{*id, std::move(*moves)});
    return Message(StopMessage{*id, std::move(*moves)});
  }
  if (name == "preview") {
    if (args != 2) return make_error("PREVIEW takes 2 arguments (rules previewclock)");
    const SExpr& rules = m.items[1];
    if (!rules.is_list) return make_error("PREVIEW: the rules must be a list of sentences");
    auto clock = parse_clock(m.items[2], "PREVIEW", "preview clock");
    if (!clock) return make_error(clock.error());
    PreviewMessage p;
    p.rules = std::string(body.substr(rules.begin + 1, rules.end - rules.begin - 2));
    p.previewclock = *clock;
    return Message(std::move(p));
  }
  if (name == "abort") {
    if (args != 1) return make_error("ABORT takes 1 argument (id)");
    auto id = parse_id(m.items[1], "ABORT");
    if (!id) return make_error(id.error());
    return Message(AbortMessage{*id});
  }
  return make_error("unknown GGP message '" + m.items[0].atom +
                    "' (known: INFO, PREVIEW, START, PLAY, STOP, ABORT)");
}

namespace {

std::string moves_text(const std::vector<std::string>& moves) {
  if (moves.empty()) return "nil";
  std::string out = "(";
  for (std::size_t k = 0; k < moves.size(); ++k) out += (k ? " " : "") + moves[k];
  return out + ")";
}

}  // namespace

std::string start_text(const std::string& id, const std::string& role, std::string_view rules,
                       int startclock, int playclock) {
  std::string out = "(start " + id + " " + role + " (";
  out += rules;
  // A newline: the rules' last line may end in a comment.
  out += "\n) " + std::to_string(startclock) + " " + std::to_string(playclock) + ")";
  return out;
}

std::string play_text(const std::string& id, const std::vector<std::string>& moves) {
  return "(play " + id + " " + moves_text(moves) + ")";
}

std::string stop_text(const std::string& id, const std::vector<std::string>& moves) {
  return "(stop " + id + " " + moves_text(moves) + ")";
}

std::string abort_text(const std::string& id) {
  return "(abort " + id + ")";
}

}  // namespace arena::ggp
