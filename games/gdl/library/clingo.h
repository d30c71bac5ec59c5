#pragma once
// Stage: the library (file and process I/O). clingo (Debian's gringo package) run as a child
// process on a program text, bounded in time, memory and output; found through PATH or given
// as a path. Standard library and POSIX only.

#include <cstddef>
#include <string>
#include <vector>

#include "games/core/expected.h"

namespace arena::gdl {

struct ClingoOptions {
  std::string program = "clingo";  // a path, or a name looked up in PATH
  std::vector<std::string> arguments;
  double timeout_seconds = 60.0;     // the run is killed after this long
  std::size_t max_memory_mb = 4096;  // address-space limit of the clingo process
  std::size_t max_output_bytes = std::size_t{64} << 20;
};

struct ClingoRun {
  int exit_code = 0;   // clingo's: 10 satisfiable, 20 unsatisfiable, 30 satisfiable and
                       // the search exhausted, 1 bit set: interrupted, 65 error
  std::string output;  // stdout
  std::string errors;  // stderr
  double seconds = 0;  // wall time of the run
};

// Runs clingo on `program_text` (written to a temporary file). Errors: clingo cannot be run
// (names the program and says: apt-get install gringo), the time limit passed, it was killed
// by a signal, or it printed more than max_output_bytes. A non-zero exit code is not an error
// here (clingo's codes carry its answer); the caller reads it.
Expected<ClingoRun> run_clingo(const std::string& program_text, const ClingoOptions& options);

}  // namespace arena::gdl
