#pragma once
// The messages of the GGP HTTP player protocol, read from and written as KIF text. Both sides
// use them: the player (`arena ggp-player`) reads what a game manager sends, the game manager
// (game_manager.h) writes them.
//
//   (INFO)                                   -> ((name N) (status available | busy))
//   (PREVIEW (rules...) previewclock)        -> done
//   (START id role (rules...) startclock playclock)  -> ready
//   (PLAY id moves)    moves: NIL on the first turn, else every role's last move in role order
//                                            -> the player's move, as KIF
//   (STOP id moves)                          -> done
//   (ABORT id)                               -> aborted
//
// Keywords are case-insensitive (KIF is). Parsing is iterative with bounded depth and size, so
// hostile text cannot exhaust the stack or the memory; errors say what is wrong.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "games/core/expected.h"

namespace arena::ggp {

inline constexpr std::size_t kMaxMessageBytes = std::size_t{4} << 20;  // a START of big rules
inline constexpr int kMaxMessageDepth = 200;

// An S-expression of KIF: an atom or a list, with the byte span of its text in the source.
struct SExpr {
  bool is_list = false;
  std::string atom;           // when !is_list
  std::vector<SExpr> items;   // when is_list
  std::size_t begin = 0;      // first byte in the source
  std::size_t end = 0;        // one past the last byte (after ')' for a list)
};

// The top-level S-expressions of `text`; ';' starts a comment to the end of the line.
Expected<std::vector<SExpr>> parse_sexprs(std::string_view text);
// Exactly one S-expression (a move, a reply).
Expected<SExpr> parse_sexpr(std::string_view text);
// Canonical text: atoms separated by single spaces, "(mark 1 1)".
std::string to_text(const SExpr& e);

struct InfoMessage {};
struct StartMessage {
  std::string id, role;
  std::string rules;  // the text inside the rules list: the sentences, for read_description
  int startclock = 0, playclock = 0;  // seconds
};
struct PlayMessage {
  std::string id;
  std::optional<std::vector<SExpr>> moves;  // nullopt: NIL (the first turn)
};
struct StopMessage {
  std::string id;
  std::optional<std::vector<SExpr>> moves;
};
struct AbortMessage {
  std::string id;
};
// (PREVIEW RULES PREVIEWCLOCK): ggp-base's look at a game before any match of it.
struct PreviewMessage {
  std::string rules;  // as StartMessage::rules
  int previewclock = 0;  // seconds
};
using Message = std::variant<InfoMessage, StartMessage, PlayMessage, StopMessage, AbortMessage,
                             PreviewMessage>;

// Reads one message; an error names what is wrong ("START: the start clock 'x' is not a whole
// number of seconds").
Expected<Message> parse_message(std::string_view body);

// The messages a game manager sends. `rules` is the sentences' text (no enclosing list);
// `moves` are KIF texts in role order, empty for NIL.
std::string start_text(const std::string& id, const std::string& role, std::string_view rules,
                       int startclock, int playclock);
std::string play_text(const std::string& id, const std::vector<std::string>& moves);
std::string stop_text(const std::string& id, const std::vector<std::string>& moves);
std::string abort_text(const std::string& id);

}  // namespace arena::ggp
