#pragma once
// Stage: the reader (KIF text to checked rules, with the rewritings).
// KIF syntax to GDL rules, with no GDL restriction checked (validate.h does that): the first
// half of read_description(), split out so the parser can be tested and reused alone.
//
// Comments run from ';' to the end of the line. Tokens are '(', ')' and names: a run of
// printable characters other than whitespace, parentheses and ';'. A name starting with '?' is
// a variable. Symbols are lower-cased by the SymbolTable (term.h). A top-level form is a fact
// (a name or a list) or a rule (<= head body...); `(<= head)` is a fact and `(f)` is the
// constant `f`, as ggp-base reads them. Nesting deeper than kMaxKifDepth, forms larger than
// kMaxKifFormTerms and texts longer than kMaxKifBytes are refused, so hostile input cannot exhaust
// the stack or the memory.

#include <cstddef>
#include <string_view>
#include <vector>

#include "games/core/expected.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/reader/term.h"

namespace arena::gdl {

inline constexpr int kMaxKifDepth = 200;
// Terms (names and lists) in one top-level form; ggp-base's largest rule has about 1,100.
inline constexpr int kMaxKifFormTerms = 65536;
inline constexpr std::size_t kMaxKifBytes = std::size_t{8} << 20;

// The rules of `text` in source order, each with the line of its opening parenthesis; symbols
// are interned into `symbols`. Errors read "SOURCE:LINE: what is wrong".
Expected<std::vector<Rule>> parse_kif(std::string_view text, std::string_view source,
                                      SymbolTable& symbols);

}  // namespace arena::gdl
