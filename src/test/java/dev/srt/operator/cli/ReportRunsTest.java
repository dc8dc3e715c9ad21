package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.BenchmarkResults;
import dev.srt.operator.verdict.ComparisonReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code report -o wide}: one row per run of every arm, with that run's own numbers. */
class ReportRunsTest {
  private static ArmRun run(String id, int repetition, String phase, Double throughput) {
    ArmRun r = new ArmRun();
    r.runId = id;
    r.repetition = repetition;
    r.phase = phase;
    r.jobId = "70" + repetition;
    r.runDir = "/work/default/cmp/arm/" + id;
    if (throughput != null) {
      r.results = new BenchmarkResults();
      r.results.requestThroughput = throughput;
      r.results.meanTtftMs = 812.25;
    }
    return r;
  }

  @Test
  void everyRunIsARowWithItsOwnNumbers() {
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("sgl-router", List.of(run("r00000001", 1, "Succeeded", 69.5), run("r00000002", 2, "Failed", null)));
    runs.put("dynamo-kv", List.of(run("r00000003", 1, "Succeeded", 43.75)));
    ComparisonReport report = ComparisonReport.of("cmp", runs, "sgl-router", 0.01);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ReportRuns.print(report, List.of("sgl-router", "dynamo-kv"), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    List<List<String>> rows = bytes.toString(StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).skip(1)
        .map(l -> List.of(l.strip().split("\\s+"))).toList();
    assertThat(rows.get(0)).startsWith("ARM", "RUN", "REP", "PHASE", "REQ/S");
    assertThat(rows.subList(1, rows.size())).satisfiesExactly(
        r -> assertThat(r).startsWith("sgl-router", "r00000001", "1", "Succeeded", "69.50", "812.3").endsWith("/work/default/cmp/arm/r00000001"),
        r -> assertThat(r).startsWith("sgl-router", "r00000002", "2", "Failed", "-", "-"),
        r -> assertThat(r).startsWith("dynamo-kv", "r00000003", "1", "Succeeded", "43.75"));
  }
}
