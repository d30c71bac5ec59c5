# The tests' scratch directory (their TMPDIR): `-DMODE=empty` makes it anew and empty before the
# tests, `-DMODE=check` fails after them, naming each file or directory a test left behind in it.
#   cmake -DDIR=PATH -DMODE=empty|check -P scratch_dir.cmake
if(MODE STREQUAL "empty")
  file(REMOVE_RECURSE "${DIR}")
  file(MAKE_DIRECTORY "${DIR}")
elseif(MODE STREQUAL "check")
  file(GLOB left RELATIVE "${DIR}" "${DIR}/*" "${DIR}/.*")
  list(REMOVE_ITEM left "." "..")
  if(left)
    list(JOIN left ", " names)
    message(FATAL_ERROR "the tests left these behind in ${DIR} (a test removes its own scratch "
                        "files): ${names}")
  endif()
  message(STATUS "nothing left behind in ${DIR}")
else()
  message(FATAL_ERROR "MODE must be empty or check, not '${MODE}'")
endif()
