// The logistic fit of bots/lab/texel.h on synthetic data whose true weights are known.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "bots/lab/texel.h"

namespace arena::lab {
namespace {

// Two features per position; the score is w0 * x + w1 * y, rounded as an evaluation is.
struct Synthetic {
  std::vector<double> x, y, targets;

  explicit Synthetic(std::size_t n, double w0, double w1, double k) {
    std::uint64_t rng = 17;
    auto next = [&] {
      rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
      return static_cast<double>((rng >> 33) % 2001) / 100.0 - 10.0;  // -10 .. 10
    };
    for (std::size_t i = 0; i < n; ++i) {
      x.push_back(next());
      y.push_back(next());
      targets.push_back(win_probability(w0 * x.back() + w1 * y.back(), k));
    }
  }

  SampleScorer scorer() const {
    return [this](const std::vector<double>& w, std::vector<int>& scores) -> Expected<void> {
      for (std::size_t i = 0; i < x.size(); ++i)
        scores[i] = static_cast<int>(std::lround(w[0] * x[i] + w[1] * y[i]));
      return {};
    };
  }
};

TEST(Texel, WinProbabilityIsAHalfAtZeroAndRisesWithTheScore) {
  EXPECT_DOUBLE_EQ(win_probability(0, 1), 0.5);
  EXPECT_NEAR(win_probability(400, 1), 10.0 / 11.0, 1e-12);
  EXPECT_NEAR(win_probability(-400, 1), 1.0 / 11.0, 1e-12);
  EXPECT_LT(win_probability(100, 1), win_probability(100, 2));
}

TEST(Texel, TheScaleFitRecoversTheTargetsScale) {
  const Synthetic data(4000, 40, 15, 1.7);
  std::vector<int> scores(data.x.size());
  ASSERT_TRUE(data.scorer()({40, 15}, scores));
  EXPECT_NEAR(fit_texel_scale(scores, data.targets, 10), 1.7, 0.02);
}

TEST(Texel, TheFitFindsTheRatioOfTheTrueWeightsAndLowersTheValidationError) {
  // Truth 40 : 15; the start has the wrong ratio, 30 : 30. k absorbs the overall scale, so
  // the fit must find the ratio, and the held-out positions must agree.
  const Synthetic data(4000, 40, 15, 1.0);
  std::vector<int> passes;
  auto r = texel_tune({30, 30}, data.targets, data.scorer(), TexelOptions{},
                      [&](const TexelPass& p) { passes.push_back(p.pass); });
  ASSERT_TRUE(r) << r.error();
  EXPECT_NEAR(r->weights[0] / r->weights[1], 40.0 / 15.0, 0.15);
  EXPECT_LT(r->train_error, r->train_error_start / 20);
  EXPECT_LT(r->valid_error, r->valid_error_start / 20);
  EXPECT_EQ(r->valid_positions, 400u);
  EXPECT_EQ(r->train_positions, 3600u);
  EXPECT_EQ(static_cast<int>(passes.size()), r->passes);
}

TEST(Texel, ErrorsNameTheProblem) {
  const Synthetic data(100, 1, 1, 1);
  auto none = texel_tune({}, data.targets, data.scorer(), TexelOptions{});
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().find("no weights"), std::string::npos);
  auto few = texel_tune({1, 1}, {0.5, 0.5, 0.5}, data.scorer(), TexelOptions{});
  ASSERT_FALSE(few);
  EXPECT_NE(few.error().find("too few"), std::string::npos);
  const SampleScorer failing = [](const std::vector<double>&, std::vector<int>&) -> Expected<void> {
    return make_error("unknown weight 'zz'");
  };
  auto bad = texel_tune({1, 1}, data.targets, failing, TexelOptions{});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("'zz'"), std::string::npos);
}

}  // namespace
}  // namespace arena::lab
