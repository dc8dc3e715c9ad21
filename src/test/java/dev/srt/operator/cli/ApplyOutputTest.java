package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.api.ExecutionSpec;
import dev.srt.operator.api.LevelResults;
import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.SloSpec;
import dev.srt.operator.api.WorkloadSpec;
import dev.srt.operator.verdict.VerdictSettings;
import dev.srt.operator.verdict.ComparisonReport;
import dev.srt.operator.api.RouterStatus;
import dev.srt.operator.api.WorkerCount;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.host.Submission;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@code apply} prints: live lines (terminal or not), followed events, the summary. */
class ApplyOutputTest {
  private static final Instant T0 = Instant.parse("2026-11-30T05:40:00Z");
  private static final Clock AT_T0_PLUS_7S = Clock.fixed(T0.plusMillis(7200), ZoneOffset.UTC);

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

  private static ArmRunner.Run run(String arm, String phase, int ready, boolean router) {
    ArmRunner.Run r = new ArmRunner.Run(new RunRef("default", "cmp", arm, "r1a2b3c4d"), null, T0);
    r.jobId = "4242";
    r.status = new ArmStatus();
    r.status.name = arm;
    r.status.phase = phase;
    r.status.workers = new WorkerCount(ready, 2);
    r.status.router = new RouterStatus();
    r.status.router.ready = router;
    r.status.runDir = "/w/default/cmp/" + arm + "/r1a2b3c4d";
    return r;
  }

  private String printed() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void withoutATerminalALineIsPrintedWhenPhaseWorkersOrRouterChange() {
    ApplyOutput o = new ApplyOutput(out, false, false, List.of("sgl-router", "dynamo-kv"), AT_T0_PLUS_7S);
    ArmRunner.Run r = run("sgl-router", "Submitted", 0, false);
    o.submitted(r, new Submission("4242", false));
    o.polled(r);
    r.status.phase = "Starting";
    o.polled(r);
    o.polled(r);
    r.status.workers = new WorkerCount(1, 2);
    o.polled(r);

    assertThat(printed().lines().toList()).containsExactly(
        "sgl-router  submitted run r1a2b3c4d as job 4242 in /w/default/cmp/sgl-router/r1a2b3c4d",
        "sgl-router  Submitted     workers 0/2  router not ready  7.2s",
        "sgl-router  Starting      workers 0/2  router not ready  7.2s",
        "sgl-router  Starting      workers 1/2  router not ready  7.2s");
  }

  @Test
  void onATerminalTheLineIsRewrittenAndEndsWithTheArm() {
    ApplyOutput o = new ApplyOutput(out, true, false, List.of("a"), AT_T0_PLUS_7S);
    ArmRunner.Run r = run("a", "Starting", 0, false);
    o.polled(r);
    o.polled(r);
    r.status.phase = "Failed";
    r.status.message = "GateTimeout: worker-0 not ready after 3s";
    o.polled(r);

    assertThat(printed()).isEqualTo("\r\033[Ka  Starting      workers 0/2  router not ready  7.2s"
        + "\r\033[Ka  Starting      workers 0/2  router not ready  7.2s"
        + "\r\033[Ka  Failed        workers 0/2  router not ready  7.2s\n"
        + "a  failed: GateTimeout: worker-0 not ready after 3s\n");
  }

  @Test
  void followPrintsEachEventWithItsFields() throws Exception {
    ApplyOutput o = new ApplyOutput(out, false, true, List.of("arm"), AT_T0_PLUS_7S);
    JsonNode fields = Mappers.json().readTree("{\"ts\":\"2026-11-30T05:40:03Z\",\"event\":\"endpoint-ready\","
        + "\"name\":\"worker-0\",\"role\":\"worker\",\"pid\":42,\"metrics\":{\"a\":\"1\"}}");
    o.events(run("arm", "Starting", 0, false), List.of(new RunEvent(Instant.parse("2026-11-30T05:40:03Z"), "endpoint-ready", fields)));

    assertThat(printed()).isEqualTo("arm  05:40:03  endpoint-ready name=worker-0 role=worker pid=42 metrics={\"a\":\"1\"}\n");
  }

  private static ArmRun finished(String runId, int repetition, String phase, Double reqs, Double ttft, Double hit) {
    ArmRun r = new ArmRun();
    r.runId = runId;
    r.repetition = repetition;
    r.phase = phase;
    r.facts = dev.srt.operator.verdict.AgreeingFacts.of();
    if ("Succeeded".equals(phase)) {
      r.results = new BenchmarkResults();
      r.results.requestThroughput = reqs;
      r.results.meanTtftMs = ttft;
      r.results.p99TtftMs = ttft * 2;
      r.results.p99ItlMs = ttft / 10;
      r.results.engineCacheHitRate = hit;
      r.results.completed = 100L;
      r.results.failed = 0L;
    } else {
      r.message = "GateTimeout: worker-0 not ready after 3s";
    }
    return r;
  }

  @Test
  void theSummaryHasOneRowPerArmWithMeansAndIntervalsThenTheVerdictsAndEveryRunThatFailed() {
    ApplyOutput o = new ApplyOutput(out, false, false, List.of("a", "bb", "c"), AT_T0_PLUS_7S);
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("a", List.of(finished("r00000001", 1, "Succeeded", 150.0, 400.0, 0.60), finished("r00000002", 2, "Succeeded", 152.0, 404.0, 0.62),
        finished("r00000003", 3, "Succeeded", 148.0, 396.0, 0.61)));
    runs.put("bb", List.of(finished("r00000004", 1, "Succeeded", 120.0, 500.0, 0.40), finished("r00000005", 2, "Failed", null, null, null),
        finished("r00000006", 3, "Succeeded", 122.0, 510.0, 0.41)));
    runs.put("c", List.of());
    ComparisonReport report = ComparisonReport.of("cmp", runs, "a", 0.01);
    Map<String, ArmStatus> latest = new LinkedHashMap<>();
    latest.put("a", run("a", "Succeeded", 2, true).status);
    latest.put("bb", run("bb", "Succeeded", 2, true).status);

    o.summary(List.of("a", "bb", "c"), report, latest, 3, Duration.ofSeconds(71));

    assertThat(printed()).isEqualTo("""

          ARM  RUNS  PHASE      REQ/S           MEAN TTFT        P99 TTFT           CACHE HIT    FAILED REQS  RUN DIR
          a    3/3   Succeeded  150.00 ± 4.97   400.0 ± 9.9 ms   800.0 ± 19.9 ms    61.0 ± 2.5%  0.0%         /w/default/cmp/a/r1a2b3c4d
          bb   2/3   Succeeded  121.00 ± 12.71  505.0 ± 63.5 ms  1010.0 ± 127.1 ms  40.5 ± 6.4%  0.0%         /w/default/cmp/bb/r1a2b3c4d
          c    0/0   NotRun     -               -                -                  -            -            -

        against a (difference of the means with its 95% interval; p-values Holm-adjusted):
          bb  req/s -19.3% [-22.3, -16.3] worse · p99 TTFT +26.3% [+17.2, +35.7] worse · p99 ITL +26.3% [+17.2, +35.7] worse · cache hit -33.6% [-36.9, -30.2] worse
          c   req/s - not-comparable · p99 TTFT - not-comparable · p99 ITL - not-comparable · cache hit - not-comparable
          not-comparable: c has 0 succeeded runs with this metric (2 are needed)

          bb run r00000005: failed: GateTimeout: worker-0 not ready after 3s
          c: not run

        1/3 arms succeeded in 1m11s
        """);
  }

  @Test
  void aLadderSummaryGivesCapacitiesThenEachLevelThenVerdictsPerLevelAndEndsWithTheCapacityLine() {
    double[] loads = {8, 16};
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("rr", List.of(ladderRun(loads, new double[] {40, 41}, new double[] {1.0, 0.90}),
        ladderRun(loads, new double[] {41, 42}, new double[] {1.0, 0.92}), ladderRun(loads, new double[] {39, 40}, new double[] {1.0, 0.88})));
    runs.put("ca", List.of(ladderRun(loads, new double[] {40, 60}, new double[] {1.0, 0.98}),
        ladderRun(loads, new double[] {41, 61}, new double[] {1.0, 0.985}), ladderRun(loads, new double[] {39, 59}, new double[] {1.0, 0.975})));
    RouterComparisonSpec spec = new RouterComparisonSpec();
    spec.workload = new WorkloadSpec();
    spec.workload.load = new LoadSpec();
    spec.workload.load.mode = "concurrency";
    spec.workload.load.levels = List.of(8.0, 16.0);
    spec.slo = new SloSpec();
    spec.slo.e2eMs = 1500.0;
    spec.execution = new ExecutionSpec();
    spec.execution.baseline = "rr";
    spec.execution.verdictMetrics = List.of("request_throughput");
    ComparisonReport report = ComparisonReport.of("cmp", runs, VerdictSettings.of(spec));
    Map<String, ArmStatus> latest = new LinkedHashMap<>();
    latest.put("rr", run("rr", "Succeeded", 2, true).status);
    latest.put("ca", run("ca", "Succeeded", 2, true).status);

    new ApplyOutput(out, false, false, List.of("rr", "ca"), AT_T0_PLUS_7S).summary(List.of("rr", "ca"), report, latest, 3,
        Duration.ofSeconds(200));

    // capacities at the default attainment 0.99: 8 + 8 (1 - 0.99) / (1 - goodput % at 16), rr 8.8, 9, 8.67; ca 12, 13.33, 11.2;
    // their intervals on the logit of the capacity's share of the ladder's 16, the ratios' by Fieller (scipy)
    assertThat(printed()).isEqualTo("""

          ARM  RUNS  PHASE      CAPACITY                          FAILED REQS  RUN DIR
          rr   3/3   Succeeded  8.822 [8.404, 9.237] concurrency  0.0%         /w/default/cmp/rr/r1a2b3c4d
          ca   3/3   Succeeded  12.18 [8.878, 14.33] concurrency  0.0%         /w/default/cmp/ca/r1a2b3c4d

          ARM  LOAD  REQ/S         GOODPUT %     SHED %  P99 TTFT  P99 ITL  CACHE HIT
          rr   c=8   40.00 ± 2.48  100.0 ± 0.0%  -       -         -        -
          rr   c=16  41.00 ± 2.48  90.0 ± 5.0%   -       -         -        -
          ca   c=8   40.00 ± 2.48  100.0 ± 0.0%  -       -         -        -
          ca   c=16  60.00 ± 2.48  98.0 ± 1.2%   -       -         -        -

        against rr (difference of the means with its 95% interval; p-values Holm-adjusted):
          ca  capacity +38.0% [+8.6, +68.1] better
                c=8   req/s +0.0% [-5.5, +5.8] inconclusive (detects ≥ 7.6%)
                c=16  req/s +46.3% [+39.6, +53.5] better

        2/2 arms succeeded in 3m20s
        capacity at the SLO: rr 8.822 [8.404, 9.237] concurrency · ca 12.18 [8.878, 14.33] concurrency (better, +38.0%)
        """);
  }

  @Test
  void theTextReportWarnsOfAGoodputCurveThatRecoversAfterItsFirstCrossing() {
    double[] loads = {8, 16, 32};
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("rr", List.of(ladderRun(loads, new double[] {40, 41, 41}, new double[] {1.0, 0.90, 0.5}),
        ladderRun(loads, new double[] {41, 42, 42}, new double[] {1.0, 0.92, 0.5})));
    ArmRun dips = ladderRun(loads, new double[] {40, 60, 70}, new double[] {1.0, 0.95, 1.0});
    dips.runId = "r1234";
    runs.put("ca", List.of(dips, ladderRun(loads, new double[] {41, 61, 71}, new double[] {1.0, 1.0, 0.5})));
    RouterComparisonSpec spec = new RouterComparisonSpec();
    spec.workload = new WorkloadSpec();
    spec.workload.load = new LoadSpec();
    spec.workload.load.mode = "concurrency";
    spec.workload.load.levels = List.of(8.0, 16.0, 32.0);
    spec.slo = new SloSpec();
    spec.slo.e2eMs = 1500.0;
    spec.execution = new ExecutionSpec();
    spec.execution.baseline = "rr";
    spec.execution.verdictMetrics = List.of("request_throughput");
    ComparisonReport report = ComparisonReport.of("cmp", runs, VerdictSettings.of(spec));

    new ApplyOutput(out, false, false, List.of("rr", "ca"), AT_T0_PLUS_7S).summary(List.of("rr", "ca"), report, Map.of(), 2,
        Duration.ofSeconds(60));

    assertThat(printed()).contains("\n  warning: ca run r1234: goodput % recovers above the attainment at c=32 after missing it at c=16; "
        + "the capacity is the first crossing\n");
  }

  private static ArmRun ladderRun(double[] loads, double[] rps, double[] goodput) {
    ArmRun r = new ArmRun();
    r.phase = "Succeeded";
    r.runId = "r0000000" + rps.length;
    r.facts = dev.srt.operator.verdict.AgreeingFacts.of();
    r.levels = new java.util.ArrayList<>();
    for (int i = 0; i < loads.length; i++) {
      BenchmarkResults b = new BenchmarkResults();
      b.requestThroughput = rps[i];
      b.goodputRatio = goodput[i];
      b.completed = 100L;
      b.failed = 0L;
      r.levels.add(new LevelResults(loads[i], b));
    }
    return r;
  }

  @Test
  void durations() {
    assertThat(ApplyOutput.duration(Duration.ofMillis(850))).isEqualTo("850ms");
    assertThat(ApplyOutput.duration(Duration.ofMillis(12_345))).isEqualTo("12.3s");
    assertThat(ApplyOutput.duration(Duration.ofSeconds(245))).isEqualTo("4m05s");
    assertThat(ApplyOutput.duration(Duration.ofSeconds(3725))).isEqualTo("1h02m05s");
  }
}
