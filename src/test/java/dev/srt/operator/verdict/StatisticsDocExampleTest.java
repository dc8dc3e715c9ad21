package dev.srt.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.LevelResults;
import dev.srt.operator.api.Verdict;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The second example of docs/statistics.md, "What the statistics will not say": every number it
 * quotes is recomputed here (the first example is {@link WorkedExampleTest}'s).
 */
class StatisticsDocExampleTest {
  static final double[] LADDER = {8, 16, 32, 48, 64};

  static ArmRun ladderRun(String runId, double... goodput) {
    ArmRun r = new ArmRun();
    r.runId = runId;
    r.phase = "Succeeded";
    r.levels = new ArrayList<>();
    for (int i = 0; i < LADDER.length; i++) {
      BenchmarkResults b = new BenchmarkResults();
      b.goodputRatio = goodput[i];
      r.levels.add(new LevelResults(LADDER[i], b));
    }
    return r;
  }

  @Test
  void aCapacityIsTheFirstCrossingAndItsIntervalStaysOnTheLadder() {
    List<ArmRun> runs = List.of(ladderRun("r1", 1.00, 0.88, 0.73, 1.00, 0.58), ladderRun("r2", 1.00, 1.00, 0.95, 0.85, 0.60),
        ladderRun("r3", 1.00, 1.00, 1.00, 0.92, 0.70));
    // r1 first misses 90% at 16: 8 + (1.00 − 0.90) / (1.00 − 0.88) × 8 = 14.67, not its last crossing 48 + 0.10 / 0.42 × 16 = 51.81
    assertThat(Capacities.perRun(runs, 0.9)).extracting(c -> Capacities.format(c.value())).containsExactly("14.67", "40", "49.45");
    assertThat(Capacities.format(48 + 0.10 / 0.42 * 16)).isEqualTo("51.81");
    assertThat(Capacities.recoveryWarnings("cache-aware", runs, 0.9, "concurrency")).containsExactly(
        "cache-aware run r1: goodput % recovers above the attainment at c=48 after missing it at c=16; the capacity is the first crossing");

    var capacity = Capacities.of(runs, 0.9, "concurrency");
    assertThat(Cells.capacity(capacity)).isEqualTo("34.71 [3.218, 61.69] concurrency");
    // Student's t on the capacities themselves: below 0 and beyond the ladder's 64
    double[] xs = {8 + 0.10 / 0.12 * 8, 40, 48 + 0.02 / 0.22 * 16};
    Statistics.Interval t = Statistics.meanInterval(xs);
    assertThat(String.format(Locale.ROOT, "[%.2f, %.2f]", t.low(), t.high())).isEqualTo("[-9.98, 79.39]");
    // what the last crossing made of the same runs: a higher, narrower and wrong answer
    Statistics.Interval last = Statistics.meanInterval(new double[] {48 + 0.10 / 0.42 * 16, 40, 48 + 0.02 / 0.22 * 16});
    assertThat(String.format(Locale.ROOT, "%.2f [%.2f, %.2f]", (48 + 0.10 / 0.42 * 16 + 40 + 48 + 0.02 / 0.22 * 16) / 3, last.low(),
        last.high())).isEqualTo("47.09 [31.56, 62.61]");
  }

  /** A run without a ladder: request throughput, mean TTFT (p99 twice it), p99 ITL and cache hit rate. */
  static ArmRun run(double rps, double ttft, double itl, double hit) {
    ArmRun r = VerdictsTest.run(rps, ttft, hit, 0);
    r.results.p99ItlMs = itl;
    return r;
  }

  static List<Verdict> verdicts() {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("sgl-router", List.of(run(100, 400, 10, 0.5861), run(110, 410, 11, 0.5861), run(90, 390, 9, 0.5861)));
    runs.put("dynamo-kv", List.of(run(133, 401, 1, 0.7502), run(143, 411, 9, 0.7502), run(123, 389, 2, 0.7502)));
    List<Metric> metrics = List.of(Metric.REQUEST_THROUGHPUT, Metric.MEAN_TTFT_MS, Metric.P99_TTFT_MS, Metric.P99_ITL_MS,
        Metric.ENGINE_CACHE_HIT_RATE);
    return Verdicts.of(runs, new VerdictSettings("sgl-router", 0.01, metrics, 0.02, Arrays.asList((Double) null), null, null));
  }

  @Test
  void aFamilysVerdictsAgreeWithTheirIntervalsAndDetectableEffects() {
    List<Verdict> v = verdicts();
    assertThat(v).extracting(Cells::verdictLine).containsExactly(
        "req/s +33.0% [+9.3, +63.8] inconclusive (not significant after Holm: p 0.0156, Holm 0.0623; detects ≥ 42.9%)",
        "mean TTFT +0.1% [-5.7, +6.2] inconclusive (detects ≥ 11.3%)",
        "p99 TTFT +0.1% [-5.7, +6.2] inconclusive (detects ≥ 11.3%)",
        "p99 ITL -60.0% [-100.0, +44.3] inconclusive (detects ≥ 224.1%)",
        "cache hit +28.0% not-comparable");
    assertThat(v).extracting(Cells::pValues).containsExactly("0.0156 (Holm 0.0623)", "0.9709 (Holm 1.0000)", "0.9709 (Holm 1.0000)",
        "0.1337 (Holm 0.4011)", "-");
    // Holm stops at the smallest p, 0.0156 > 0.05 / 4: every verdict of the family is held to 0.0125
    assertThat(v.subList(0, 4)).allSatisfy(x -> assertThat(x.alpha).isCloseTo(0.0125, within(1e-12)));
    assertThat(v.get(4).reason).isEqualTo("no spread between runs: dynamo-kv's 3 runs all measured 0.7502 and sgl-router's 3 all 0.5861, "
        + "so there is no run-to-run noise to weigh the difference against");

    // what the statistics said before: the delta method's intervals, the detectable effect at 5%
    double[] rps = {133, 143, 123};
    double[] rpsBase = {100, 110, 90};
    assertThat(String.format(Locale.ROOT, "%.1f", Statistics.minimumDetectableEffectPct(rps, rpsBase, 0.05))).isEqualTo("30.4");
    assertThat(deltaMethod(rps, rpsBase)).isEqualTo("[+5.5, +60.5]");
    assertThat(deltaMethod(new double[] {1, 9, 2}, new double[] {10, 11, 9})).isEqualTo("[-167.0, +47.0]");
  }

  /** The delta method's 95% interval of the percent difference, as verdicts gave it before Fieller's. */
  static String deltaMethod(double[] a, double[] b) {
    double ma = Statistics.mean(a);
    double mb = Statistics.mean(b);
    double va = Statistics.variance(a) / a.length / (mb * mb);
    double vb = ma * ma * (Statistics.variance(b) / b.length) / (mb * mb * mb * mb);
    double df = (va + vb) * (va + vb) / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
    double half = Statistics.tQuantile(df) * Math.sqrt(va + vb) * 100;
    double pct = (ma / mb - 1) * 100;
    return String.format(Locale.ROOT, "[%+.1f, %+.1f]", pct - half, pct + half);
  }
}
