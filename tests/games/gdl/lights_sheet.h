#pragma once
// A GDL puzzle for tests of sheets of one role (the server's puzzle sessions, the puzzle
// search): four lights, a press toggles one; all on (goal 100) ends it, and so does the fifth
// press (goal 10). Each light must be pressed an odd number of times, so 4 presses at least.
// tests/e2e/gdl.test.js holds the same sheet for the page.

namespace arena::gdl_test {

inline constexpr const char* kLightsSheet =
    "(role p)\n"
    "(init (cell 1 1 off)) (init (cell 1 2 off)) (init (cell 2 1 off)) (init (cell 2 2 off))\n"
    "(init (step 0))\n"
    "(<= (legal p (press ?r ?c)) (true (cell ?r ?c ?s)))\n"
    "(<= (pressed ?r ?c) (does p (press ?r ?c)))\n"
    "(<= (next (cell ?r ?c on)) (pressed ?r ?c) (true (cell ?r ?c off)))\n"
    "(<= (next (cell ?r ?c off)) (pressed ?r ?c) (true (cell ?r ?c on)))\n"
    "(<= (next (cell ?r ?c ?s)) (true (cell ?r ?c ?s)) (not (pressed ?r ?c)))\n"
    "(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m))\n"
    "(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)\n"
    "(<= allon (true (cell 1 1 on)) (true (cell 1 2 on)) (true (cell 2 1 on))\n"
    "    (true (cell 2 2 on)))\n"
    "(<= terminal allon) (<= terminal (true (step 5)))\n"
    "(<= (goal p 100) allon) (<= (goal p 10) (not allon))\n";

}  // namespace arena::gdl_test
