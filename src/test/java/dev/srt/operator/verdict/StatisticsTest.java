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
  void thePercentIntervalIsRelativeToTheBaselineMean() {
    double[] arm = {110, 112, 108};
    double[] base = {100, 101, 99};
    Statistics.Interval abs = Statistics.welch(arm, base);
    Statistics.Interval pct = Statistics.welchPercent(arm, base);
    assertThat(pct.low()).isCloseTo(abs.low(), within(1e-9));
    assertThat(pct.high()).isCloseTo(abs.high(), within(1e-9));
  }
}
