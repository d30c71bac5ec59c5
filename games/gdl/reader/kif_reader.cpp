#include "games/gdl/reader/kif_reader.h"

#include <cstdio>
#include <optional>
#include <string>
#include <utility>

namespace arena::gdl {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Bytes that may form a name: printable ASCII other than the delimiters, and any byte of a
// UTF-8 sequence (names are compared byte for byte, so they are harmless).
bool is_name_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x80) return true;
  return u > 0x20 && u < 0x7f && c != '(' && c != ')' && c != ';';
}

class KifParser {
 public:
  KifParser(std::string_view text, std::string_view source, SymbolTable& symbols)
      : text_(text), source_(source), symbols_(symbols) {}

  Expected<std::vector<Rule>> run() {
    std::vector<Rule> rules;
    for (;;) {
      const Token t = next();
      if (t.kind == Tok::kEnd) break;
      Rule rule;
      rule.line = t.line;
      form_line_ = t.line;
      form_terms_ = 0;
      if (!parse_form(t, rule)) return make_error(std::move(*error_));
      rules.push_back(std::move(rule));
    }
    return rules;
  }

 private:
  enum class Tok { kOpen, kClose, kName, kEnd, kBad };
  struct Token {
    Tok kind = Tok::kEnd;
    std::string_view text;
    int line = 0;
  };

  Token next() {
    if (has_peeked_) {
      has_peeked_ = false;
      return peeked_;
    }
    skip_space_and_comments();
    if (pos_ >= text_.size()) return {Tok::kEnd, {}, line_};
    const char c = text_[pos_];
    if (c == '(' || c == ')') {
      ++pos_;
      return {c == '(' ? Tok::kOpen : Tok::kClose, text_.substr(pos_ - 1, 1), line_};
    }
    if (!is_name_char(c)) return {Tok::kBad, text_.substr(pos_++, 1), line_};
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    return {Tok::kName, text_.substr(start, pos_ - start), line_};
  }

  const Token& peek() {
    if (!has_peeked_) {
      peeked_ = next();
      has_peeked_ = true;
    }
    return peeked_;
  }

  void skip_space_and_comments() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (is_space(c)) {
        ++pos_;
      } else if (c == ';') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  bool fail(int line, const std::string& what) {
    error_ = std::string(source_) + ":" + std::to_string(line) + ": " + what;
    return false;
  }

  bool fail_token(const Token& t) {
    switch (t.kind) {
      case Tok::kEnd:
        return fail(form_line_, "the form opened here is never closed (unbalanced parentheses)");
      case Tok::kClose:
        return fail(t.line, "')' closes nothing (unbalanced parentheses)");
      case Tok::kBad: {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(t.text[0]));
        return fail(t.line, std::string("invalid character (byte ") + hex + ")");
      }
      default:
        return fail(t.line, "unexpected '" + std::string(t.text) + "'");
    }
  }

  // A term whose first token `t` is already read.
  bool parse_term(const Token& t, int depth, Term& out) {
    if (++form_terms_ > kMaxKifFormTerms)
      return fail(form_line_, "a form of more than " + std::to_string(kMaxKifFormTerms) +
                                  " terms (size limit)");
    if (t.kind == Tok::kOpen) return parse_compound(t, depth + 1, out);
    if (t.kind != Tok::kName) return fail_token(t);
    if (t.text == "<=") return fail(t.line, "'<=' may only start a top-level rule");
    if (t.text == "?") return fail(t.line, "'?' alone is not a variable name");
    out.kind = t.text[0] == '?' ? Term::Kind::kVariable : Term::Kind::kConstant;
    out.name = symbols_.intern(t.text);
    return true;
  }

  // The rest of a list whose '(' (`open`) is read: a name, then its arguments.
  bool parse_compound(const Token& open, int depth, Term& out) {
    if (depth > kMaxKifDepth)
      return fail(open.line, "nesting deeper than " + std::to_string(kMaxKifDepth) + " lists");
    const Token functor = next();
    if (functor.kind == Tok::kClose) return fail(open.line, "empty list '()'");
    if (functor.kind == Tok::kOpen)
      return fail(functor.line, "a list must start with a name, not with a list");
    if (functor.kind != Tok::kName) return fail_token(functor);
    if (functor.text[0] == '?')
      return fail(functor.line, "a list must start with a name, not with the variable " +
                                    std::string(functor.text));
    if (functor.text == "<=") return fail(functor.line, "'<=' may only start a top-level rule");
    out.kind = Term::Kind::kConstant;  // "(f)" reads as the constant f, as in ggp-base
    out.name = symbols_.intern(functor.text);
    for (;;) {
      const Token t = next();
      if (t.kind == Tok::kClose) break;
      if (t.kind == Tok::kEnd) return fail_token(t);
      Term arg;
      if (!parse_term(t, depth, arg)) return false;
      out.args.push_back(std::move(arg));
    }
    if (!out.args.empty()) out.kind = Term::Kind::kCompound;
    return true;
  }

  bool parse_sentence(const Token& t, Term& out) {
    if (!parse_term(t, 0, out)) return false;
    if (out.is_variable())
      return fail(t.line, "the variable " + symbols_.name(out.name) + " is not a sentence");
    return true;
  }

  // One top-level form: a fact, or a rule (<= head body...).
  bool parse_form(const Token& first, Rule& rule) {
    if (first.kind != Tok::kOpen || peek().kind != Tok::kName || peek().text != "<=")
      return parse_sentence(first, rule.head);
    next();  // "<="
    const Token head = next();
    if (head.kind == Tok::kClose) return fail(first.line, "rule (<=) has no head");
    if (head.kind == Tok::kEnd) return fail_token(head);
    if (!parse_sentence(head, rule.head)) return false;
    for (;;) {
      const Token t = next();
      if (t.kind == Tok::kClose) return true;
      if (t.kind == Tok::kEnd) return fail_token(t);
      Term literal;
      if (!parse_sentence(t, literal)) return false;
      rule.body.push_back(std::move(literal));
    }
  }

  std::string_view text_;
  std::string_view source_;
  SymbolTable& symbols_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int form_line_ = 1;
  int form_terms_ = 0;
  bool has_peeked_ = false;
  Token peeked_;
  std::optional<std::string> error_;
};

}  // namespace

Expected<std::vector<Rule>> parse_kif(std::string_view text, std::string_view source,
                                      SymbolTable& symbols) {
  if (text.size() > kMaxKifBytes)
    return make_error(std::string(source) + ": " + std::to_string(text.size()) +
                      " bytes; sheets are limited to " + std::to_string(kMaxKifBytes) + " bytes");
  return KifParser(text, source, symbols).run();
}

}  // namespace arena::gdl
