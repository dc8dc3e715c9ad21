package dev.srt.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LatencyQuantilesTest {
  @Test
  void eachWholePercentileOfTheSamplesWhateverTheirOrder() {
    // 0, 10, ..., 1000 shuffled: the p-th percentile is 10p exactly
    double[] ttft = IntStream.rangeClosed(0, 100).map(i -> (i * 37) % 101).mapToDouble(i -> 10.0 * i).toArray();
    LatencyQuantiles q = LatencyQuantiles.of(ttft, new double[] {5, 1});
    for (int p = 0; p <= 100; p++) {
      assertThat(q.ttftMs()[p]).isCloseTo(10.0 * p, within(1e-9));
    }
    // two gaps: linear between them
    assertThat(q.itlMs()[0]).isEqualTo(1);
    assertThat(q.itlMs()[50]).isCloseTo(3, within(1e-9));
    assertThat(q.itlMs()[100]).isEqualTo(5);
    assertThat(ttft[1]).as("the samples are not sorted in place").isEqualTo(370);
  }

  @Test
  void anArmsDistributionAveragesItsRunsQuantilesAndSkipsRunsWithout() {
    LatencyQuantiles fast = LatencyQuantiles.of(IntStream.rangeClosed(0, 100).mapToDouble(i -> i).toArray(), new double[0]);
    LatencyQuantiles slow = LatencyQuantiles.of(IntStream.rangeClosed(0, 100).mapToDouble(i -> 3.0 * i).toArray(), new double[] {2});
    LatencyQuantiles none = LatencyQuantiles.of(new double[0], new double[0]);
    LatencyQuantiles arm = LatencyQuantiles.averaged(List.of(fast, slow, none));
    assertThat(arm.ttftMs()[50]).isCloseTo(100, within(1e-9));
    assertThat(arm.ttftMs()[100]).isCloseTo(200, within(1e-9));
    assertThat(arm.itlMs()).as("only the run that had gaps").containsOnly(2.0);
    assertThat(LatencyQuantiles.averaged(List.of(none)).ttftMs()).isEmpty();
  }

  @Test
  void onlyWholeAscendingQuantileFunctions() {
    double[] descending = IntStream.rangeClosed(0, 100).mapToDouble(i -> 100 - i).toArray();
    assertThatThrownBy(() -> new LatencyQuantiles(descending, null)).hasMessageContaining("not ascending at 1%");
    assertThatThrownBy(() -> new LatencyQuantiles(new double[] {1, 2}, null)).hasMessageContaining("2 quantiles, not 101");
    double[] nan = new double[101];
    nan[7] = Double.NaN;
    assertThatThrownBy(() -> new LatencyQuantiles(nan, null)).hasMessageContaining("at 7%");
  }
}
