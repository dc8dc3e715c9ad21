package dev.srt.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.LevelResults;
import dev.srt.operator.api.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The worked example of docs/statistics.md: every number it quotes comes from here. */
class WorkedExampleTest {
  static final double[] LOADS = {8, 16, 32};

  /** One run: per level its throughput and goodput ratio. */
  static ArmRun run(double[] rps, double[] goodput) {
    ArmRun r = new ArmRun();
    r.phase = "Succeeded";
    r.facts = AgreeingFacts.of();
    r.levels = new ArrayList<>();
    for (int i = 0; i < LOADS.length; i++) {
      BenchmarkResults b = new BenchmarkResults();
      b.requestThroughput = rps[i];
      b.goodputRatio = goodput[i];
      b.completed = 256L;
      b.failed = 0L;
      r.levels.add(new LevelResults(LOADS[i], b));
    }
    return r;
  }

  static ComparisonReport report() {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("round-robin", List.of(
        run(new double[] {37.5, 40.0, 43.0}, new double[] {1.00, 0.88, 0.45}),
        run(new double[] {38.3, 41.2, 42.1}, new double[] {1.00, 0.85, 0.48}),
        run(new double[] {36.9, 39.1, 44.0}, new double[] {0.99, 0.90, 0.41})));
    runs.put("cache-aware", List.of(
        run(new double[] {38.1, 55.0, 63.0}, new double[] {1.00, 0.99, 0.70}),
        run(new double[] {37.2, 53.1, 61.8}, new double[] {1.00, 0.98, 0.66}),
        run(new double[] {38.9, 56.2, 64.4}, new double[] {1.00, 1.00, 0.74})));
    return ComparisonReport.of("example", runs, new VerdictSettings("round-robin", 0.01, List.of(Metric.REQUEST_THROUGHPUT), 0.02,
        List.of(8.0, 16.0, 32.0), 0.95, "concurrency"));
  }

  @Test
  void theNumbersOfTheWorkedExample() {
    ComparisonReport r = report();
    // capacities: round robin 8 + 0.05/0.12·8, 8 + 0.05/0.15·8, 8 + 0.04/0.09·8; cache-aware 16 + 0.04/0.29·16, ...
    assertThat(Capacities.perRun(r.arm("round-robin").runs, 0.95)).extracting(c -> Capacities.format(c.value()))
        .containsExactly("11.33", "10.67", "11.56");
    assertThat(Capacities.perRun(r.arm("cache-aware").runs, 0.95)).extracting(c -> Capacities.format(c.value()))
        .containsExactly("18.21", "17.5", "19.08");
    // the capacities' intervals on the logit of their share of the ladder's 32
    assertThat(Cells.capacity(r.arm("round-robin").capacity)).isEqualTo("11.19 [10.06, 12.36] concurrency");
    assertThat(Cells.capacity(r.arm("cache-aware").capacity)).isEqualTo("18.26 [16.27, 20.19] concurrency");
    // the differences' by Fieller
    assertThat(r.verdicts).extracting(v -> v.metric + "@" + v.level + " " + Cells.delta(v) + " " + v.verdict).containsExactly(
        "capacity@null +63.3% [+46.8, +81.5] better",
        "request_throughput@8.0 +1.3% [-3.4, +6.2] inconclusive",
        "request_throughput@16.0 +36.6% [+27.8, +45.8] better",
        "request_throughput@32.0 +46.6% [+39.4, +54.1] better");
    assertThat(r.verdicts).extracting(Cells::pValues).containsExactly("0.0006 (Holm 0.0006)", "0.4777 (Holm 0.4777)",
        "0.0004 (Holm 0.0008)", "<0.0001 (Holm 0.0002)");
    // each detectable effect at the level Holm decided its verdict at: capacity alone at 0.05; the levels at 0.05 / 3
    // (c=32, the smallest p), 0.05 / 2 (c=16) and, Holm stopping there, 0.05 (c=8)
    assertThat(r.verdicts).extracting(Cells::detectable).containsExactly("19.0% at α 0.0500", "6.4% at α 0.0500", "12.8% at α 0.0250",
        "11.1% at α 0.0167");
    // Holm by hand: capacity alone (· 1); the levels sorted 5.45e-5 · 3, 3.82e-4 · 2, 0.478 · 1
    assertThat(r.verdicts.get(0).pAdjusted).isCloseTo(r.verdicts.get(0).pValue, within(1e-12));
    assertThat(r.verdicts.get(3).pAdjusted).isCloseTo(3 * r.verdicts.get(3).pValue, within(1e-12));
    assertThat(r.verdicts.get(2).pAdjusted).isCloseTo(2 * r.verdicts.get(2).pValue, within(1e-12));
    // at c=8: the 90% interval is [-2.3, +5.1]: not within ±2%, within ±6%
    double[] rr = {37.5, 38.3, 36.9};
    double[] ca = {38.1, 37.2, 38.9};
    Statistics.Interval ci90 = new WelchRatioTest(ca, rr).ratioPct(0.90);
    assertThat(String.format(java.util.Locale.ROOT, "[%+.1f, %+.1f]", ci90.low(), ci90.high())).isEqualTo("[-2.3, +5.1]");
    assertThat(ci90.within(2)).isFalse();
    assertThat(ci90.within(6)).isTrue();
    VerdictSettings wider = new VerdictSettings("round-robin", 0.01, List.of(Metric.REQUEST_THROUGHPUT), 0.06, List.of(8.0, 16.0, 32.0),
        0.95, "concurrency");
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    r.arms.forEach(a -> runs.put(a.name, a.runs));
    assertThat(Verdicts.of(runs, wider).get(1).verdict).isEqualTo(Verdicts.EQUIVALENT);
  }
}
