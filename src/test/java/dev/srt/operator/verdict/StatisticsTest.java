package dev.srt.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Against values from statistical tables and worked examples. */
class StatisticsTest {
  @Test
  void studentTQuantilesForSmallSamplesMatchTheTables() {
    // Two-sided 95%: t(0.975, df)
    assertThat(Statistics.tQuantile(1)).isCloseTo(12.706, within(0.001));
    assertThat(Statistics.tQuantile(2)).isCloseTo(4.303, within(0.001));
    assertThat(Statistics.tQuantile(4)).isCloseTo(2.776, within(0.001));
    assertThat(Statistics.tQuantile(9)).isCloseTo(2.262, within(0.001));
    assertThat(Statistics.tQuantile(30)).isCloseTo(2.042, within(0.001));
  }

  @Test
  void meanIntervalOfThreeRuns() {
    double[] xs = {148, 150, 152};
    // mean 150, s = 2, half = 4.303 * 2 / sqrt(3) = 4.9687
    Statistics.Interval ci = Statistics.meanInterval(xs);
    assertThat(Statistics.mean(xs)).isEqualTo(150.0);
    assertThat(Math.sqrt(Statistics.variance(xs))).isCloseTo(2.0, within(1e-12));
    assertThat(ci.low()).isCloseTo(145.0313, within(1e-3));
    assertThat(ci.high()).isCloseTo(154.9687, within(1e-3));
  }

  @Test
  void welchDegreesOfFreedomAndIntervalMatchAWorkedExample() {
    // Wikipedia, "Welch's t-test", example 1: t = -2.46, df = 24.99, p = 0.021.
    double[] a = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
    double[] b = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
    double df = Statistics.welchDegreesOfFreedom(a, b);
    assertThat(df).isCloseTo(24.99, within(0.01));
    double se = Math.sqrt(Statistics.variance(a) / a.length + Statistics.variance(b) / b.length);
    double t = (Statistics.mean(a) - Statistics.mean(b)) / se;
    assertThat(t).isCloseTo(-2.46, within(0.005));
    Statistics.Interval ci = Statistics.welch(a, b);
    assertThat((ci.low() + ci.high()) / 2).isCloseTo(Statistics.mean(a) - Statistics.mean(b), within(1e-9));
    assertThat((ci.high() - ci.low()) / 2).isCloseTo(Statistics.tQuantile(df) * se, within(1e-9));
    assertThat(ci.spansZero()).isFalse();
  }

  @Test
  void twoSamplesWithoutSpreadGiveTheirDifference() {
    Statistics.Interval ci = Statistics.welch(new double[] {2, 2}, new double[] {1, 1});
    assertThat(ci.low()).isEqualTo(1.0);
    assertThat(ci.high()).isEqualTo(1.0);
    assertThat(Statistics.welch(new double[] {1, 1}, new double[] {1, 1}).spansZero()).isTrue();
  }

  @Test
  void welchsPValueMatchesTheWorkedExample() {
    // Wikipedia, "Welch's t-test", example 1: p = 0.021 (scipy.stats.ttest_ind(equal_var=False): 0.021378).
    double[] a = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
    double[] b = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
    assertThat(Statistics.welchPValue(a, b)).isCloseTo(0.021378, within(1e-6));
    assertThat(Statistics.welchPValue(b, a)).isCloseTo(0.021378, within(1e-6));
    assertThat(Statistics.welchPValue(new double[] {2, 2}, new double[] {1, 1})).as("no spread, different means").isEqualTo(0.0);
    assertThat(Statistics.welchPValue(new double[] {1, 1}, new double[] {1, 1})).as("no spread, the same means").isEqualTo(1.0);
  }

  @Test
  void theMinimumDetectableEffectFollowsTheSpreadTheRunsAndTheLevel() {
    double[] a = {100, 104, 96};
    double[] b = {100, 102, 98};
    // se = sqrt(16/3 + 4/3) = 2.58199, df = 2.94118; (t(0.975) + t(0.8)) · se / 100 · 100 = 10.84521%
    assertThat(Statistics.minimumDetectableEffectPct(a, b, 0.05)).isCloseTo(10.845209, within(1e-5));
    // at α = 0.01 (a verdict Holm decides at 0.05 / 5): (t(0.995) + t(0.8)) · se = 17.91853% (scipy)
    assertThat(Statistics.minimumDetectableEffectPct(a, b, 0.01)).isCloseTo(17.918535, within(1e-5));
    double[] a9 = {100, 104, 96, 100, 104, 96, 100, 104, 96};
    double[] b9 = {100, 102, 98, 100, 102, 98, 100, 102, 98};
    assertThat(Statistics.minimumDetectableEffectPct(a9, b9, 0.05)).as("three times the runs see smaller differences")
        .isLessThan(Statistics.minimumDetectableEffectPct(a, b, 0.05) / 2);
    assertThat(Statistics.minimumDetectableEffectPct(new double[] {2, 2}, new double[] {1, 1}, 0.05)).isEqualTo(0.0);
  }

  @Test
  void valuesThatAgreeToSixDigitsHaveNoSpread() {
    // 0.7033 three times: the same number, though its floating-point variance need not be exactly 0
    assertThat(Statistics.hasSpread(new double[] {0.7033, 0.7033, 0.7033})).isFalse();
    assertThat(Statistics.hasSpread(new double[] {0.1 + 0.2, 0.3, 0.3})).isFalse();
    assertThat(Statistics.hasSpread(new double[] {0.7033, 0.7034, 0.7033})).isTrue();
    assertThat(Statistics.hasSpread(new double[] {0.7033})).as("one value").isFalse();
  }
}
