#pragma once
// GDL's restrictions checked on a parsed description (the second half of read_description()):
// keyword arities and places, fixed arities of relations and functions, safety, stratified
// negation, the recursion restriction, keyword dependencies, at least one role. The first
// violation is returned as "SOURCE:LINE: rule RULE: what is wrong (restriction)".

#include "games/core/expected.h"
#include "games/gdl/description.h"

namespace arena::gdl {

Expected<void> validate_description(const Description& description);

// Whether every choice of the rule's or disjuncts binds `variable` in a positive literal.
bool always_binds(const Rule& rule, Symbol variable);

}  // namespace arena::gdl
