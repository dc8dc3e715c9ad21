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
  void directionDecidesBetterOrWorseAndAnIntervalAcrossZeroIsNoDifference() {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("base", List.of(run(100, 400, 0.40, 0), run(101, 402, 0.41, 0), run(99, 398, 0.39, 0)));
    // faster, lower TTFT, more cache hits, throughput the same within noise
    runs.put("kv", List.of(run(101, 300, 0.60, 0), run(99, 305, 0.61, 0), run(100.5, 295, 0.59, 0)));
    ComparisonReport r = ComparisonReport.of("cmp", runs, "base", 0.01);

    assertThat(r.verdicts).hasSize(Metric.HEADLINE.size());
    assertThat(find(r, "kv", Metric.REQUEST_THROUGHPUT).verdict).isEqualTo(Verdicts.NO_DIFFERENCE);
    Verdict ttft = find(r, "kv", Metric.MEAN_TTFT_MS);
    assertThat(ttft.verdict).as("lower latency is better").isEqualTo(Verdicts.BETTER);
    assertThat(ttft.deltaPct).isCloseTo(-25.0, within(1e-9));
    assertThat(ttft.ci95Pct.get(0)).isLessThan(-25.0);
    assertThat(ttft.ci95Pct.get(1)).isBetween(-25.0, 0.0);
    assertThat(find(r, "kv", Metric.ENGINE_CACHE_HIT_RATE).verdict).as("more cache hits are better").isEqualTo(Verdicts.BETTER);

    ComparisonReport reversed = ComparisonReport.of("cmp", runs, "kv", 0.01);
    assertThat(find(reversed, "base", Metric.MEAN_TTFT_MS).verdict).isEqualTo(Verdicts.WORSE);
    assertThat(find(reversed, "base", Metric.ENGINE_CACHE_HIT_RATE).verdict).isEqualTo(Verdicts.WORSE);
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
    Verdict shedding = find(r, "shedding", Metric.MEAN_TTFT_MS);
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
    assertThat(Cells.verdictLine(v)).isEqualTo("mean TTFT -25.0% [-30.0, -20.0] better");
  }
}
