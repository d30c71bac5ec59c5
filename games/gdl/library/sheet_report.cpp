#include "games/gdl/library/sheet_report.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "games/gdl/propnet/compiled.h"
#include "games/gdl/reader/description.h"
#include "games/gdl/prover/prover.h"
#include "games/gdl/library/sheet_file.h"

namespace arena::gdl {

namespace {

using SteadyClock = std::chrono::steady_clock;

double seconds_since(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

// The reader's messages start with the path; the table names the sheet in its own column.
std::string without_path(std::string message, const std::string& path) {
  if (message.rfind(path, 0) == 0) {
    message.erase(0, path.size());
    if (!message.empty() && message.front() == ':') message.erase(0, 1);
    while (!message.empty() && message.front() == ' ') message.erase(0, 1);
    message = "line " + message;
  }
  return message;
}

// `message` with every occurrence of the sheet's path shortened to its file name, so that the
// table reads the same wherever the folder is.
std::string with_file_name(std::string message, const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  for (std::size_t at = message.find(path); at != std::string::npos;
       at = message.find(path, at + name.size()))
    message.replace(at, path.size(), name);
  return message;
}

// One random playout from the initial state; returns the states visited. Records whether it
// ended in a terminal state and whether the goals there were sound.
// Stops early (the playout not counted as ended) when `deadline` passes, so that a slow
// reasoner on a long game cannot hold the table up.
int playout(StateMachine& machine, std::mt19937_64& rng, int max_steps,
            SteadyClock::time_point deadline, SheetReport& report) {
  State state = machine.initial_state();
  const int roles = static_cast<int>(machine.roles().size());
  int states = 1;
  for (int step = 0; step < max_steps && SteadyClock::now() < deadline; ++step) {
    if (machine.is_terminal(state)) {
      ++report.playouts_ended;
      for (int r = 0; r < roles; ++r) {
        auto g = machine.goal(state, r);
        if (report.goals_ok && (!g || *g < 0 || *g > 100)) {
          report.goals_ok = false;
          report.goal_problem = g ? "goal " + std::to_string(*g) + " out of 0..100" : g.error();
        }
      }
      return states;
    }
    JointMove joint;
    for (int r = 0; r < roles; ++r) {
      auto legal = machine.legal_moves(state, r);
      if (legal.empty()) {
        if (report.goals_ok) {
          report.goals_ok = false;
          report.goal_problem = "a role has no legal move in a state that is not terminal";
        }
        return states;
      }
      joint.push_back(legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)]);
    }
    state = machine.next_state(state, joint);
    ++states;
  }
  return states;
}

void measure_playouts(StateMachine& machine, const SheetReportOptions& options,
                      SheetReport& report) {
  std::mt19937_64 rng(12345);
  const auto start = SteadyClock::now();
  const auto deadline =
      start + std::chrono::duration_cast<SteadyClock::duration>(
                  std::chrono::duration<double>(options.seconds_per_sheet * 4));
  std::int64_t states = 0;
  do {
    states += playout(machine, rng, options.max_steps, deadline, report);
    ++report.playouts;
  } while (seconds_since(start) < options.seconds_per_sheet);
  report.states_per_second = static_cast<double>(states) / seconds_since(start);
}

std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  std::replace(text.begin(), text.end(), '|', '/');
  if (text.size() > 160) text = text.substr(0, 157) + "...";
  return text;
}

std::string format_rate(double per_second) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(0);
  out << per_second;
  return out.str();
}

std::string format_seconds(double s) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(s < 10 ? 2 : 1);
  out << s;
  return out.str();
}

}  // namespace

SheetReport report_sheet(const std::string& path, const SheetReportOptions& options) {
  SheetReport report;
  report.name = std::filesystem::path(path).stem().string();
  auto start = SteadyClock::now();
  auto description = read_description_file(path);
  report.load_seconds = seconds_since(start);
  if (!description) {
    report.refused = without_path(description.error(), path);
    return report;
  }
  report.loaded = true;
  auto shared = std::make_shared<const Description>(std::move(*description));
  report.roles = static_cast<int>(shared->roles().size());
  report.bound_by_demand = shared->bound_by_demand;
  start = SteadyClock::now();
  auto compiled = make_compiled(shared, nullptr, options.limits);
  report.compile_seconds = seconds_since(start);
  std::unique_ptr<StateMachine> machine;
  if (compiled) {
    report.compiled = true;
    machine = std::move(*compiled);
  } else {
    report.not_compiled = with_file_name(compiled.error(), path);
    machine = make_prover(shared);
  }
  report.reasoner = std::string(machine->kind());
  measure_playouts(*machine, options, report);
  report.goal_problem = with_file_name(report.goal_problem, path);
  return report;
}

std::vector<SheetReport> report_sheets(const std::string& dir, const SheetReportOptions& options) {
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".kif") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  std::vector<SheetReport> reports;
  for (const auto& path : paths) reports.push_back(report_sheet(path, options));
  return reports;
}

std::string sheet_table_markdown(const std::vector<SheetReport>& reports) {
  int loaded = 0, compiled = 0, sound = 0;
  for (const auto& r : reports) {
    loaded += r.loaded;
    compiled += r.compiled;
    sound += r.loaded && r.goals_ok;
  }
  std::ostringstream out;
  out << reports.size() << " sheets: " << loaded << " load, " << compiled
      << " compile, " << reports.size() - loaded << " refused; random playouts end soundly "
      << "(terminal or the step bound, goals in 0..100) on " << sound << " of the " << loaded
      << " that load.\n\n";
  out << "| sheet | roles | loaded | reasoner | load s | compile s | states/s | playouts "
         "(ended) | notes |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : reports) {
    out << "| " << r.name << " | " << (r.loaded ? std::to_string(r.roles) : "") << " | ";
    if (!r.loaded) {
      out << "refused | | " << format_seconds(r.load_seconds) << " | | | | "
          << one_line(r.refused) << " |\n";
      continue;
    }
    out << "yes | " << r.reasoner << " | " << format_seconds(r.load_seconds) << " | "
        << format_seconds(r.compile_seconds) << " | " << format_rate(r.states_per_second)
        << " | " << r.playouts << " (" << r.playouts_ended << ") | ";
    std::string notes;
    if (!r.bound_by_demand.empty()) {
      notes = "unsafe rules bound by demand: line";
      if (r.bound_by_demand.size() > 1) notes += "s";
      for (std::size_t i = 0; i < r.bound_by_demand.size(); ++i)
        notes += (i == 0 ? " " : ", ") + std::to_string(r.bound_by_demand[i]);
    }
    if (!r.compiled)
      notes += (notes.empty() ? "" : "; ") + ("not compiled: " + one_line(r.not_compiled));
    if (!r.goals_ok) notes += (notes.empty() ? "" : "; ") + one_line(r.goal_problem);
    out << notes << " |\n";
  }
  return out.str();
}

Expected<void> write_sheet_table(const std::string& readme, const std::string& table) {
  static constexpr std::string_view kBegin = "<!-- sheet-table -->";
  static constexpr std::string_view kEnd = "<!-- /sheet-table -->";
  std::string text;
  {
    std::ifstream in(readme, std::ios::binary);
    if (in) {
      std::ostringstream buffer;
      buffer << in.rdbuf();
      text = buffer.str();
    }
  }
  const std::string block = std::string(kBegin) + "\n" + table + std::string(kEnd);
  const auto begin = text.find(kBegin);
  const auto end = text.find(kEnd);
  if (begin != std::string::npos && end != std::string::npos && end > begin) {
    text.replace(begin, end + kEnd.size() - begin, block);
  } else {
    if (!text.empty() && text.back() != '\n') text += '\n';
    text += "\n" + block + "\n";
  }
  std::ofstream out(readme, std::ios::binary | std::ios::trunc);
  if (!out) return make_error("cannot write " + readme);
  out << text;
  if (!out) return make_error("cannot write " + readme);
  return {};
}

}  // namespace arena::gdl
