#pragma once
// Movetext as PGN (chess) and PDN (checkers) write it: tokens (move numbers, moves, comments,
// the result) separated by single spaces, a line broken before it would pass 79 columns.

#include <string>

namespace arena {

class MovetextLines {
 public:
  void add(const std::string& token) {
    if (!line_.empty() && line_.size() + 1 + token.size() > 79) {
      text_ += line_ + '\n';
      line_.clear();
    }
    line_ += (line_.empty() ? "" : " ") + token;
  }
  // The lines so far and the last one, each ending in a newline.
  std::string text() const { return text_ + line_ + '\n'; }

 private:
  std::string text_, line_;
};

}  // namespace arena
