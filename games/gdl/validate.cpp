#include "games/gdl/validate.h"

namespace arena::gdl {

Expected<void> validate_description(const Description& description) {
  if (description.roles().empty())
    return make_error(description.source + ": no (role NAME) fact: a game needs at least one role");
  return {};
}

}  // namespace arena::gdl
