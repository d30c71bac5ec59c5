#include "bots/lab/report.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace arena::lab {
namespace {

std::string fmt(double v, const char* f = "%.3f") {
  if (!std::isfinite(v)) return "-";
  char buf[48];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

constexpr std::array<const char*, 8> kColours = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                                 "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string svg_open(int width, int height, const std::string& title) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
                width, height, width, height);
  return std::string(buf) + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" +
         "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" + xml_escape(title) +
         "</text>\n";
}

}  // namespace

std::string report_table(const std::string& title, const std::vector<ReportRow>& rows) {
  std::string out =
      title + "\n\nmove invariance: |h(after) - h(before)| per move, raw and / spread\n";
  char line[320];
  std::snprintf(line, sizeof line, "%-24s %8s %7s %8s %7s %7s %7s %8s %8s %8s %9s\n", "heuristic",
                "rating", "moves", "spread", "mean", "median", "p90", "mean/sd", "med/sd", "p90/sd",
                "unchanged");
  out += line;
  for (const ReportRow& r : rows) {
    const InvarianceStats& s = r.invariance;
    std::snprintf(line, sizeof line, "%-24s %8s %7d %8s %7s %7s %7s %8s %8s %8s %9s\n",
                  r.name.c_str(), r.rating ? fmt(*r.rating, "%.0f").c_str() : "-", s.moves,
                  fmt(s.spread, "%.2f").c_str(), fmt(s.mean, "%.2f").c_str(),
                  fmt(s.median, "%.2f").c_str(), fmt(s.p90, "%.2f").c_str(),
                  fmt(s.mean_norm).c_str(), fmt(s.median_norm).c_str(), fmt(s.p90_norm).c_str(),
                  fmt(s.unchanged, "%.2f").c_str());
    out += line;
  }
  out += "\noutcome determination: sign agreement / correlation with the result, by plies left\n";
  for (const ReportRow& r : rows) {
    out += "  " + r.name + ":";
    for (const OutcomeBucket& b : r.outcome)
      out += "  [" + b.label + "] " + fmt(b.sign_agreement, "%.2f") + " / " +
             fmt(b.correlation, "%.2f") + " (n=" + std::to_string(b.positions) + ")";
    out += "\n";
  }
  out += "\npositions:\n";
  for (const ReportRow& r : rows) out += "  " + r.name + ": " + r.positions + "\n";
  return out;
}

std::string report_json(const std::string& title, const std::vector<ReportRow>& rows) {
  std::string out = "{\"title\":" + json_string(title) + ",\"rows\":[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ReportRow& r = rows[i];
    const InvarianceStats& s = r.invariance;
    out += std::string(i ? "," : "") + "\n{\"name\":" + json_string(r.name) +
           ",\"positions\":" + json_string(r.positions) +
           ",\"rating\":" + (r.rating ? json_number(*r.rating) : "null") +
           ",\"move_invariance\":{\"moves\":" + std::to_string(s.moves) +
           ",\"spread\":" + json_number(s.spread) + ",\"mean\":" + json_number(s.mean) +
           ",\"median\":" + json_number(s.median) + ",\"p90\":" + json_number(s.p90) +
           ",\"max\":" + json_number(s.max) + ",\"mean_norm\":" + json_number(s.mean_norm) +
           ",\"median_norm\":" + json_number(s.median_norm) +
           ",\"p90_norm\":" + json_number(s.p90_norm) + ",\"max_norm\":" + json_number(s.max_norm) +
           ",\"unchanged\":" + json_number(s.unchanged) + "},\"outcome_determination\":[";
    for (std::size_t j = 0; j < r.outcome.size(); ++j) {
      const OutcomeBucket& b = r.outcome[j];
      out += std::string(j ? "," : "") + "{\"plies_left\":" + json_string(b.label) +
             ",\"positions\":" + std::to_string(b.positions) +
             ",\"sign_agreement\":" + json_number(b.sign_agreement) +
             ",\"correlation\":" + json_number(b.correlation) + "}";
    }
    out += "]}";
  }
  return out + "\n]}\n";
}

std::string move_invariance_svg(const std::string& title, const std::vector<ReportRow>& rows) {
  const int left = 190, bar_h = 22, top = 40, width = 640;
  const int height = top + static_cast<int>(rows.size()) * (bar_h + 8) + 40;
  double top_value = 0;
  for (const ReportRow& r : rows) {
    if (std::isfinite(r.invariance.p90_norm))
      top_value = std::max(top_value, r.invariance.p90_norm);
    if (std::isfinite(r.invariance.mean_norm))
      top_value = std::max(top_value, r.invariance.mean_norm);
  }
  if (top_value <= 0) top_value = 1;
  const double scale = (width - left - 60) / top_value;
  std::string out = svg_open(width, height, title + ": |delta h| / spread (bar mean, tick p90)");
  char buf[512];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const InvarianceStats& s = rows[i].invariance;
    const int y = top + static_cast<int>(i) * (bar_h + 8);
    const double mean = std::isfinite(s.mean_norm) ? s.mean_norm : 0;
    const double p90 = std::isfinite(s.p90_norm) ? s.p90_norm : 0;
    std::snprintf(buf, sizeof buf,
                  "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n"
                  "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n"
                  "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\" "
                  "stroke-width=\"2\"/>\n<text x=\"%.1f\" y=\"%d\">%s</text>\n",
                  left - 6, y + 15, xml_escape(rows[i].name).c_str(), left, y, mean * scale, bar_h,
                  kColours[i % kColours.size()], left + p90 * scale, y - 2, left + p90 * scale,
                  y + bar_h + 2, left + std::max(mean, p90) * scale + 6, y + 15, fmt(mean).c_str());
    out += buf;
  }
  std::snprintf(buf, sizeof buf,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n", left, top - 4,
                left, height - 30);
  return out + buf + "</svg>\n";
}

std::string outcome_determination_svg(const std::string& title,
                                      const std::vector<ReportRow>& rows) {
  const int left = 60, top = 40, plot_w = 420, plot_h = 240, width = 700;
  const int height = top + plot_h + 60;
  std::vector<std::string> labels;  // the buckets, in order, without "all"
  for (const ReportRow& r : rows)
    for (const OutcomeBucket& b : r.outcome)
      if (b.label != "all" && std::find(labels.begin(), labels.end(), b.label) == labels.end())
        labels.push_back(b.label);
  std::string out = svg_open(width, height, title + ": outcome determination by plies left");
  char buf[512];
  // Axes from -1 to 1 (correlation) with 0 and 1 marked; sign agreement lies in [0, 1].
  auto y_of = [&](double v) { return top + plot_h * (1 - (v + 1) / 2); };
  for (double v : {-1.0, 0.0, 0.5, 1.0}) {
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                  "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n",
                  left, y_of(v), left + plot_w, y_of(v), left - 4, y_of(v) + 4, v);
    out += buf;
  }
  const double step = labels.size() > 1 ? plot_w / static_cast<double>(labels.size() - 1) : 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                  left + step * static_cast<double>(i), top + plot_h + 16, labels[i].c_str());
    out += buf;
  }
  std::snprintf(buf, sizeof buf, "<text x=\"%d\" y=\"%d\">plies left</text>\n",
                left + plot_w / 2 - 25, top + plot_h + 34);
  out += buf;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const char* colour = kColours[r % kColours.size()];
    std::string points;
    bool uses_correlation = false;
    for (const OutcomeBucket& b : rows[r].outcome) {
      const auto at = std::find(labels.begin(), labels.end(), b.label);
      if (at == labels.end()) continue;
      double v = b.sign_agreement;
      if (!std::isfinite(v)) {
        v = b.correlation;
        uses_correlation = true;
      }
      if (!std::isfinite(v)) continue;
      std::snprintf(buf, sizeof buf, "%.1f,%.1f ",
                    left + step * static_cast<double>(at - labels.begin()), y_of(v));
      points += buf;
    }
    std::snprintf(buf, sizeof buf,
                  "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n"
                  "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                  "<text x=\"%d\" y=\"%d\">%s%s</text>\n",
                  points.c_str(), colour, left + plot_w + 20, top + 18 * static_cast<int>(r),
                  colour, left + plot_w + 34, top + 18 * static_cast<int>(r) + 10,
                  xml_escape(rows[r].name).c_str(), uses_correlation ? " (corr.)" : "");
    out += buf;
  }
  return out + "</svg>\n";
}

}  // namespace arena::lab
