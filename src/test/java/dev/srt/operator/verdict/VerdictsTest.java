package dev.srt.operator.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerdictsTest {
  static ArmRun run(double reqs, double ttft, double hit, long failed) {
    ArmRun r = new ArmRun();
    r.phase = "Succeeded";
    r.facts = AgreeingFacts.of();
    r.results = new BenchmarkResults();
    r.results.requestThroughput = reqs;
    r.results.meanTtftMs = ttft;
    r.results.p99TtftMs = ttft * 2;
    r.results.engineCacheHitRate = hit;
    r.results.completed = 1000 - failed;
    r.results.failed = failed;
    return r;
  }

  static Verdict find(ComparisonReport r, String arm, Metric metric) {
    return r.verdicts.stream().filter(v -> v.arm.equals(arm) && v.metric.equals(metric.key())).findFirst().orElseThrow();
  }

  @Test
  void directionDecidesBetterOrWorseAndWhatNoTestFindsIsEquivalentOrInconclusive() {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("base", List.of(run(100, 400, 0.40, 0), run(101, 402, 0.41, 0), run(99, 398, 0.39, 0)));
    // lower TTFT, more cache hits, throughput the same within noise
    runs.put("kv", List.of(run(101, 300, 0.60, 0), run(99, 305, 0.61, 0), run(100.5, 295, 0.59, 0)));
    ComparisonReport r = ComparisonReport.of("cmp", runs, "base", 0.01);

    assertThat(r.verdictMetrics).as("the default without an SLO").containsExactly("request_throughput", "p99_ttft_ms", "p99_itl_ms",
        "engine_cache_hit_rate");
    assertThat(r.verdicts).extracting(v -> v.metric).containsExactly("request_throughput", "p99_ttft_ms", "p99_itl_ms",
        "engine_cache_hit_rate");
    assertThat(r.verdicts).allSatisfy(v -> assertThat(v.level).isNull());
    Verdict rps = find(r, "kv", Metric.REQUEST_THROUGHPUT);
    assertThat(rps.verdict).as("within 2% at 90%: [-1.6, +1.9]").isEqualTo(Verdicts.EQUIVALENT);
    Verdict ttft = find(r, "kv", Metric.P99_TTFT_MS);
    assertThat(ttft.verdict).as("lower latency is better").isEqualTo(Verdicts.BETTER);
    assertThat(ttft.deltaPct).isCloseTo(-25.0, within(1e-9));
    assertThat(ttft.ci95Pct.get(0)).isLessThan(-25.0);
    assertThat(ttft.ci95Pct.get(1)).isBetween(-25.0, 0.0);
    assertThat(ttft.pAdjusted).as("Holm over the three tested verdicts").isGreaterThanOrEqualTo(ttft.pValue);
    assertThat(find(r, "kv", Metric.P99_ITL_MS).verdict).as("no run has it").isEqualTo(Verdicts.NOT_COMPARABLE);
    assertThat(find(r, "kv", Metric.ENGINE_CACHE_HIT_RATE).verdict).as("more cache hits are better").isEqualTo(Verdicts.BETTER);

    ComparisonReport reversed = ComparisonReport.of("cmp", runs, "kv", 0.01);
    assertThat(find(reversed, "base", Metric.P99_TTFT_MS).verdict).isEqualTo(Verdicts.WORSE);
    assertThat(find(reversed, "base", Metric.ENGINE_CACHE_HIT_RATE).verdict).isEqualTo(Verdicts.WORSE);
  }

  @Test
  void aSpreadTooLargeForTheMarginIsInconclusiveWithTheEffectItCouldHaveSeen() {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("base", List.of(run(100, 400, 0.4, 0), run(110, 400, 0.4, 0), run(90, 400, 0.4, 0)));
    runs.put("other", List.of(run(104, 400, 0.4, 0), run(94, 400, 0.4, 0), run(114, 400, 0.4, 0)));
    Verdict v = find(ComparisonReport.of("cmp", runs, "base", 0.01), "other", Metric.REQUEST_THROUGHPUT);
    assertThat(v.verdict).isEqualTo(Verdicts.INCONCLUSIVE);
    // the only verdict tested (TTFT and cache hit do not vary, ITL is absent): decided at α = 0.05 itself;
    // se = sqrt(100/3 + 100/3) = 8.165, df = 4: (t(0.975, 4) + t(0.8, 4)) · 8.165 / 100 · 100 = 30.35%
    assertThat(v.alpha).isCloseTo(0.05, within(1e-12));
    assertThat(v.mdePct).isCloseTo(30.35, within(0.01));
    // Fieller's interval (scipy): [-16.85, +30.33], asymmetric as a ratio's is
    assertThat(Cells.verdictLine(v)).isEqualTo("req/s +4.0% [-16.8, +30.3] inconclusive (detects ≥ 30.4%)");
  }
  @Test
  void fewerThanTwoRunsOrTooManyFailedRequestsAreNotComparable() {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("base", List.of(run(100, 400, 0.4, 0), run(101, 401, 0.4, 0)));
    runs.put("once", List.of(run(150, 300, 0.6, 0)));
    runs.put("shedding", List.of(run(150, 200, 0.6, 140), run(151, 201, 0.6, 130)));
    ArmRun failed = new ArmRun();
    failed.phase = "Failed";
    runs.put("broken", List.of(run(100, 400, 0.4, 0), failed));
    ComparisonReport r = ComparisonReport.of("cmp", runs, "base", 0.01);

    Verdict once = find(r, "once", Metric.REQUEST_THROUGHPUT);
    assertThat(once.verdict).isEqualTo(Verdicts.NOT_COMPARABLE);
    assertThat(once.deltaPct).as("the difference is still shown").isCloseTo(49.25, within(0.01));
    assertThat(once.ci95Pct).isNull();
    assertThat(once.reason).isEqualTo("once has 1 succeeded run with this metric (2 are needed)");
    Verdict shedding = find(r, "shedding", Metric.P99_TTFT_MS);
    assertThat(shedding.verdict).isEqualTo(Verdicts.NOT_COMPARABLE);
    assertThat(shedding.reason).isEqualTo("shedding failed 13.5% of its requests (more than maxFailedRatio 1.0%)");
    assertThat(find(r, "broken", Metric.REQUEST_THROUGHPUT).verdict).as("its failed run does not count").isEqualTo(Verdicts.NOT_COMPARABLE);
    assertThat(r.arm("broken").summary.n).isEqualTo(1);
    assertThat(r.arm("broken").summary.runs).isEqualTo(2);
    assertThat(r.arm("shedding").summary.failedRatio).isCloseTo(270.0 / 2000, within(1e-12));
  }

  @Test
  void summariesHaveMeanSpreadExtremesAndInterval() {
    List<ArmRun> runs = new ArrayList<>(List.of(run(148, 400, 0.5, 0), run(150, 400, 0.5, 0), run(152, 400, 0.5, 0)));
    var s = Summaries.of(runs).metrics.get("request_throughput");
    assertThat(s.mean).isEqualTo(150.0);
    assertThat(s.stddev).isCloseTo(2.0, within(1e-12));
    assertThat(s.min).isEqualTo(148.0);
    assertThat(s.max).isEqualTo(152.0);
    assertThat(s.ci95.get(0)).isCloseTo(145.0313, within(1e-3));
    var one = Summaries.of(List.of(run(148, 400, 0.5, 0))).metrics.get("request_throughput");
    assertThat(one.mean).isEqualTo(148.0);
    assertThat(one.stddev).isNull();
    assertThat(one.ci95).isNull();
  }

  @Test
  void aSharesIntervalStaysWithinZeroAndOneHundredPercent() {
    // goodput % of the recorded cache-aware runs at c=64: 91.4, 94.5, 98.4; Student's t gave [86.0, 103.5]
    List<ArmRun> runs = new ArrayList<>(List.of(run(60, 400, 0.70, 0), run(61, 400, 0.70, 0), run(62, 400, 0.70, 0)));
    double[] goodput = {0.9140625, 0.9453125, 0.984375};
    for (int i = 0; i < 3; i++) {
      runs.get(i).results.goodputRatio = goodput[i];
    }
    var s = Summaries.of(runs).metrics.get("goodput_ratio");
    assertThat(s.mean).isCloseTo(0.947917, within(1e-6));
    assertThat(s.ci95.get(0)).isCloseTo(0.860404, within(1e-6));
    assertThat(s.ci95.get(1)).as("100%: no mean of shares lies above it").isEqualTo(1.0);
    assertThat(Cells.meanPlusMinus(Summaries.of(runs), Metric.GOODPUT_RATIO)).isEqualTo("94.8 [86.0, 100.0]%");
    // and at the other end: 2%, 0%, 1% of prompt tokens cached
    double[] hits = {0.02, 0.0, 0.01};
    for (int i = 0; i < 3; i++) {
      runs.get(i).results.engineCacheHitRate = hits[i];
    }
    assertThat(Summaries.of(runs).metrics.get("engine_cache_hit_rate").ci95.get(0)).isEqualTo(0.0);
    assertThat(Cells.meanPlusMinus(Summaries.of(runs), Metric.ENGINE_CACHE_HIT_RATE)).isEqualTo("1.0 [0.0, 3.5]%");
    assertThat(Summaries.of(runs).metrics.get("request_throughput").ci95.get(0)).as("not a share: Student's t as it is")
        .isCloseTo(61 - 4.302653 * 1 / Math.sqrt(3), within(1e-5));
  }

  @Test
  void cellsReadTheSameEverywhere() {
    var summary = Summaries.of(List.of(run(148, 400, 0.60, 0), run(150, 404, 0.62, 0), run(152, 396, 0.61, 0)));
    assertThat(Cells.meanPlusMinus(summary, Metric.REQUEST_THROUGHPUT)).isEqualTo("150.00 ± 4.97");
    assertThat(Cells.meanPlusMinus(summary, Metric.MEAN_TTFT_MS)).isEqualTo("400.0 ± 9.9 ms");
    assertThat(Cells.meanPlusMinus(summary, Metric.ENGINE_CACHE_HIT_RATE)).isEqualTo("61.0 ± 2.5%");
    assertThat(Cells.meanPlusMinus(null, Metric.ENGINE_CACHE_HIT_RATE)).isEqualTo("-");
    Verdict v = new Verdict();
    v.metric = "mean_ttft_ms";
    v.deltaPct = -25.0;
    v.ci95Pct = List.of(-30.0, -20.0);
    v.verdict = Verdicts.BETTER;
    v.pValue = 0.00123;
    v.pAdjusted = 0.0049;
    assertThat(Cells.verdictLine(v)).isEqualTo("mean TTFT -25.0% [-30.0, -20.0] better");
    assertThat(Cells.pValues(v)).isEqualTo("0.0012 (Holm 0.0049)");
    assertThat(Cells.level(32.0, "concurrency")).isEqualTo("c=32");
    assertThat(Cells.level(2.5, "req/s")).isEqualTo("2.5 req/s");
    var goodput = new ArrayList<>(List.of(run(148, 400, 0.60, 0), run(150, 404, 0.62, 0)));
    goodput.forEach(r -> r.results.goodputRatio = 0.985);
    assertThat(Cells.meanPlusMinus(Summaries.of(goodput), Metric.GOODPUT_RATIO)).as("a share, in percent").isEqualTo("98.5 ± 0.0%");
  }

  /** A ladder run: at each load the given throughput, p99 TTFT and goodput share. */
  static ArmRun ladderRun(double[] loads, double[] rps, double[] ttft, double[] goodput) {
    ArmRun r = new ArmRun();
    r.phase = "Succeeded";
    r.facts = AgreeingFacts.of();
    r.levels = new ArrayList<>();
    for (int i = 0; i < loads.length; i++) {
      BenchmarkResults b = new BenchmarkResults();
      b.requestThroughput = rps[i];
      b.p99TtftMs = ttft[i];
      b.goodputRatio = goodput[i];
      b.completed = 100L;
      b.failed = 0L;
      r.levels.add(new dev.srt.operator.api.LevelResults(loads[i], b));
    }
    return r;
  }

  @Test
  void aLadderIsJudgedPerLevelAndOnCapacityWithHolmPerFamily() {
    double[] loads = {8, 16, 32};
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("round-robin", List.of(
        ladderRun(loads, new double[] {40, 50, 50}, new double[] {100, 400, 900}, new double[] {1.0, 0.95, 0.5}),
        ladderRun(loads, new double[] {41, 51, 51}, new double[] {105, 420, 950}, new double[] {1.0, 0.96, 0.45}),
        ladderRun(loads, new double[] {39, 49, 49}, new double[] {95, 380, 850}, new double[] {1.0, 0.94, 0.55})));
    runs.put("cache-aware", List.of(
        ladderRun(loads, new double[] {40, 70, 75}, new double[] {90, 150, 500}, new double[] {1.0, 1.0, 0.80}),
        ladderRun(loads, new double[] {40.5, 71, 76}, new double[] {92, 155, 520}, new double[] {1.0, 1.0, 0.78}),
        ladderRun(loads, new double[] {39.5, 69, 74}, new double[] {88, 145, 480}, new double[] {1.0, 1.0, 0.82})));
    dev.srt.operator.api.RouterComparisonSpec spec = new dev.srt.operator.api.RouterComparisonSpec();
    spec.workload = new dev.srt.operator.api.WorkloadSpec();
    spec.workload.load = new dev.srt.operator.api.LoadSpec();
    spec.workload.load.mode = "concurrency";
    spec.workload.load.levels = List.of(8.0, 16.0, 32.0);
    spec.slo = new dev.srt.operator.api.SloSpec();
    spec.slo.ttftMs = 500.0;
    spec.execution = new dev.srt.operator.api.ExecutionSpec();
    spec.execution.baseline = "round-robin";
    spec.execution.verdictMetrics = List.of("request_throughput", "p99_ttft_ms");
    ComparisonReport r = ComparisonReport.of("cmp", runs, VerdictSettings.of(spec));

    assertThat(r.loadUnit).isEqualTo("concurrency");
    assertThat(r.arm("cache-aware").levels).extracting(l -> l.load).containsExactly(8.0, 16.0, 32.0);
    assertThat(r.arm("cache-aware").at(16.0).metrics.get("request_throughput").mean).isCloseTo(70.0, within(1e-9));
    assertThat(r.arm("cache-aware").summary.n).isEqualTo(3);
    assertThat(r.arm("cache-aware").summary.metrics).as("metrics are per level").isEmpty();
    // round-robin: 8 + (1 - 0.99)/(1 - g16) · 8 with g16 = 0.95, 0.96, 0.94 → 9.6, 10, 9.333
    assertThat(r.arm("round-robin").capacity.value).isCloseTo((9.6 + 10 + 28.0 / 3) / 3, within(1e-9));
    // cache-aware: 16 + (1 - 0.99)/(1 - g32) · 16 with g32 = 0.80, 0.78, 0.82 → 16.8, 16.727, 16.889
    assertThat(r.arm("cache-aware").capacity.value).isCloseTo((16.8 + 16 + 16 / 22.0 + 16 + 16 / 18.0) / 3, within(1e-9));

    // capacity first, then each level's metrics in order
    assertThat(r.verdicts).extracting(v -> v.metric + "@" + v.level).containsExactly("capacity@null",
        "request_throughput@8.0", "p99_ttft_ms@8.0", "request_throughput@16.0", "p99_ttft_ms@16.0",
        "request_throughput@32.0", "p99_ttft_ms@32.0");
    assertThat(r.verdicts.get(0).verdict).isEqualTo(Verdicts.BETTER);
    assertThat(r.verdicts.get(1).verdict).as("equal at low load").isIn(Verdicts.EQUIVALENT, Verdicts.INCONCLUSIVE);
    assertThat(r.verdicts.get(3).verdict).isEqualTo(Verdicts.BETTER);
    assertThat(r.verdicts.get(4).verdict).isEqualTo(Verdicts.BETTER);
    // capacity is a family of its own (one arm: its p stands); Holm over the six per-level verdicts
    assertThat(r.verdicts.get(0).pAdjusted).isCloseTo(r.verdicts.get(0).pValue, within(1e-12));
    List<Verdict> perLevel = r.verdicts.subList(1, r.verdicts.size());
    double smallest = perLevel.stream().mapToDouble(v -> v.pValue).min().orElseThrow();
    Verdict first = perLevel.stream().filter(v -> v.pValue == smallest).findFirst().orElseThrow();
    assertThat(first.pAdjusted).isCloseTo(Math.min(1, 6 * smallest), within(Math.max(1e-12, 6 * smallest * 1e-2)));
    assertThat(r.verdicts).allSatisfy(v -> assertThat(v.pAdjusted).isGreaterThanOrEqualTo(v.pValue));
  }

  @Test
  void aCapacityBeyondTheLadderIsNotComparableWithTheReason() {
    double[] loads = {8, 16};
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("base", List.of(ladderRun(loads, new double[] {1, 1}, new double[] {1, 1}, new double[] {1.0, 0.5}),
        ladderRun(loads, new double[] {1, 1}, new double[] {1, 1}, new double[] {1.0, 0.6})));
    runs.put("kv", List.of(ladderRun(loads, new double[] {1, 1}, new double[] {1, 1}, new double[] {1.0, 1.0}),
        ladderRun(loads, new double[] {1, 1}, new double[] {1, 1}, new double[] {1.0, 0.5})));
    VerdictSettings settings = new VerdictSettings("base", 0.01, List.of(Metric.REQUEST_THROUGHPUT), 0.02, List.of(8.0, 16.0), 0.99,
        "concurrency");
    Verdict capacity = Verdicts.of(runs, settings).get(0);
    assertThat(capacity.metric).isEqualTo(Verdicts.CAPACITY);
    assertThat(capacity.verdict).isEqualTo(Verdicts.NOT_COMPARABLE);
    assertThat(capacity.reason).isEqualTo("kv's capacity is above the highest level (> 16) in 1 of 2 runs: extend the ladder");
  }

  @Test
  void everyResultsMetricHasAMetricAndOnlyTheCountsAreNotJudged() {
    var type = dev.srt.operator.base.Mappers.json().constructType(BenchmarkResults.class);
    List<String> keys = dev.srt.operator.base.Mappers.json().getSerializationConfig().introspect(type).findProperties().stream()
        .map(p -> p.getName()).toList();
    assertThat(java.util.Arrays.stream(Metric.values()).map(Metric::key).toList()).containsExactlyElementsOf(keys);
    assertThat(java.util.Arrays.stream(Metric.values()).filter(m -> m.direction == Metric.Direction.NONE).map(Metric::key))
        .containsExactlyInAnyOrderElementsOf(BenchmarkResults.NOT_JUDGED);
  }
}
