# Included by the top-level CMakeLists.txt in a test build (ARENA_BUILD_TESTS=ON, ARENA_FUZZ off):
# each fuzz target of fuzz/ runs for ARENA_FUZZ_SECONDS (30) as a CTest test labelled "fuzz",
# through scripts/fuzz, when clang and libFuzzer's runtime (libclang-rt-*-dev) are installed.
# The fuzz build (build/fuzz, clang) is made once by the test fuzz_build (a fixture: CTest runs
# it before the targets' tests, which then use build/fuzz as it is, so they never build at
# once). `ctest -LE fuzz` leaves them out; -DARENA_FUZZ_TESTS=OFF does not register them.
option(ARENA_FUZZ_TESTS "Run each fuzz target for ARENA_FUZZ_SECONDS in ctest (needs clang)" ON)
set(ARENA_FUZZ_SECONDS 30 CACHE STRING "Seconds each fuzz target runs in ctest")

find_program(ARENA_CLANGXX clang++)
set(arena_fuzz_runtime "")
if(ARENA_CLANGXX)
  execute_process(COMMAND ${ARENA_CLANGXX} --print-runtime-dir OUTPUT_VARIABLE arena_rt_dir
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  file(GLOB arena_fuzz_runtime "${arena_rt_dir}/libclang_rt.fuzzer-*.a")
endif()

if(ARENA_FUZZ_TESTS AND arena_fuzz_runtime)
  set(arena_fuzz_script ${CMAKE_CURRENT_LIST_DIR}/../scripts/fuzz)
  add_test(NAME fuzz_build COMMAND ${arena_fuzz_script} --build-only)
  set_tests_properties(fuzz_build PROPERTIES FIXTURES_SETUP arena_fuzz_build LABELS fuzz
                       TIMEOUT 3600)
  file(GLOB arena_fuzz_corpora LIST_DIRECTORIES true ${CMAKE_CURRENT_LIST_DIR}/corpus/*)
  foreach(dir ${arena_fuzz_corpora})
    if(IS_DIRECTORY ${dir})
      get_filename_component(target ${dir} NAME)
      add_test(NAME fuzz_${target} COMMAND ${arena_fuzz_script} ${target} ${ARENA_FUZZ_SECONDS})
      math(EXPR arena_fuzz_timeout "${ARENA_FUZZ_SECONDS} + 120")
      set_tests_properties(fuzz_${target} PROPERTIES FIXTURES_REQUIRED arena_fuzz_build
        LABELS fuzz TIMEOUT ${arena_fuzz_timeout} ENVIRONMENT ARENA_FUZZ_NO_BUILD=1)
    endif()
  endforeach()
elseif(ARENA_FUZZ_TESTS)
  message(STATUS "fuzz: clang or libFuzzer (libclang-rt-14-dev) missing: no fuzz tests")
endif()
