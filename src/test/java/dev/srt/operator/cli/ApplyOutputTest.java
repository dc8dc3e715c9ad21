package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.ArmStatus;
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

  @Test
  void theSummaryHasOneRowPerArmResultsAndTheReasonsOfFailures() {
    ApplyOutput o = new ApplyOutput(out, false, false, List.of("a", "bb", "c"), AT_T0_PLUS_7S);
    ArmRunner.Run ok = run("a", "Succeeded", 2, true);
    ok.ended = T0.plusSeconds(6);
    Map<String, String> results = new LinkedHashMap<>();
    results.put("request_throughput", "150.1775");
    results.put("mean_ttft_ms", "395.09");
    results.put("p99_ttft_ms", "748.24");
    results.put("engine_cache_hit_rate", "0.6123");
    results.put("worker_requests_max_over_min", "1.07");
    ok.status.results = results;
    ArmRunner.Run failed = run("bb", "Failed", 0, false);
    failed.ended = T0.plusSeconds(65);
    failed.status.message = "GateTimeout: worker-0 not ready after 3s";
    Map<String, ArmRunner.Run> runs = new LinkedHashMap<>();
    runs.put("a", ok);
    runs.put("bb", failed);

    o.summary(List.of("a", "bb", "c"), runs, Duration.ofSeconds(71));

    assertThat(printed()).isEqualTo("""

          ARM  PHASE      WORKERS  ROUTER     DURATION  REQ/S  MEAN TTFT  P99 TTFT  CACHE HIT  REQS MAX/MIN  RUN DIR
          a    Succeeded  2/2      ready      6.0s      150.2  395 ms     748 ms    61.2%      1.07          /w/default/cmp/a/r1a2b3c4d
          bb   Failed     0/2      not ready  1m05s     -      -          -         -          -             /w/default/cmp/bb/r1a2b3c4d
          c    NotRun     -        -          -         -      -          -         -          -             -

          bb: failed: GateTimeout: worker-0 not ready after 3s
          c: not run

        1/3 arms succeeded in 1m11s
        """);
  }

  @Test
  void succeededArmsAreComparedWithTheFirstInThroughputTtftAndCacheHits() {
    Map<String, ArmRunner.Run> runs = new LinkedHashMap<>();
    String[][] results = {
        {"a", "Succeeded", "150.0", "400.0", "0.50"},
        {"b", "Failed", "10.0", "9000.0", "0.01"},
        {"c", "Succeeded", "120.0", "500.0", "0.35"},
        {"d", "Succeeded", "165.0", "380.0", null}};
    for (String[] row : results) {
      ArmRunner.Run r = run(row[0], row[1], 2, true);
      r.status.results = new LinkedHashMap<>();
      r.status.results.put("request_throughput", row[2]);
      r.status.results.put("mean_ttft_ms", row[3]);
      if (row[4] != null) {
        r.status.results.put("engine_cache_hit_rate", row[4]);
      }
      runs.put(row[0], r);
    }
    assertThat(ApplyOutput.relativeToFirst(List.of("a", "b", "c", "d"), runs)).containsExactly(
        "c vs a: req/s -20.0%, mean TTFT +25.0%, cache hit -15.0 pts",
        "d vs a: req/s +10.0%, mean TTFT -5.0%");
    // One succeeded arm has nothing to be compared with.
    assertThat(ApplyOutput.relativeToFirst(List.of("a", "b"), runs)).isEmpty();
  }

  @Test
  void durations() {
    assertThat(ApplyOutput.duration(Duration.ofMillis(850))).isEqualTo("850ms");
    assertThat(ApplyOutput.duration(Duration.ofMillis(12_345))).isEqualTo("12.3s");
    assertThat(ApplyOutput.duration(Duration.ofSeconds(245))).isEqualTo("4m05s");
    assertThat(ApplyOutput.duration(Duration.ofSeconds(3725))).isEqualTo("1h02m05s");
  }
}
