package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.ArmRun;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.JobState;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.reconcile.Conditions;
import dev.srt.operator.report.MarkdownReport;
import dev.srt.operator.report.ReportContext;
import dev.srt.operator.run.RunMemory;
import dev.srt.operator.run.RunTracker;
import dev.srt.operator.run.RunView;
import dev.srt.operator.testinfra.TestRecords;
import dev.srt.operator.verdict.ComparisonReport;
import io.fabric8.kubernetes.api.model.Condition;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, hole 8, "terminal escapes are printed raw": ESC, BEL and CR from a run's events.jsonl
 * (report, its Markdown) or from a spec value (diff) reached the terminal, and the operator copied a
 * raw {@code failed} message into status. Every value printed to a terminal, and every message in
 * status, shows such characters as {@code \}{@code uXXXX} text; JSON output stays as it is.
 */
class TerminalEscapesTest {
  /** A window title, a bell, a carriage return over the line, and a screen clear. */
  private static final String HOSTILE = "x\u001b]0;owned\u0007\rfake line\u001b[2J\u009b1m";
  private static final Instant T0 = Instant.parse("2026-11-30T05:40:00Z");

  @TempDir Path dir;

  private static void assertNoControls(String printed) {
    assertThat(printed.replace("\n", "")).as(printed).doesNotContain("\u001b", "\u0007", "\r", "\u009b");
  }

  private static String failedMessage() throws Exception {
    JsonNode failed = Mappers.json().readTree("{\"event\":\"failed\",\"reason\":\"ProcessExited\",\"message\":"
        + Mappers.json().writeValueAsString(HOSTILE) + "}");
    RunRef run = new RunRef("default", "cmp", "arm", "r00000001");
    return RunTracker.step(TestRecords.of(run, "1"), new RunView(List.of(new RunEvent(T0, "failed", failed)), true,
        new JobStatus(JobState.RUNNING, null, null), null), RunMemory.FRESH, T0).status().message;
  }

  @Test
  void theFailedEventsMessageIsEscapedInStatus() throws Exception {
    assertThat(failedMessage()).isEqualTo("ProcessExited: x\\u001B]0;owned\\u0007\\u000Dfake line\\u001B[2J\\u009B1m");
    List<Condition> conditions = new ArrayList<>();
    Conditions.set(conditions, "Degraded", Conditions.TRUE, dev.srt.operator.api.ConditionReason.ArmFailed, "arm a: " + HOSTILE, 1L, T0);
    assertNoControls(conditions.get(0).getMessage());
  }

  @Test
  void theReportsTableAndItsMarkdownShowNoControlCharacters() throws Exception {
    ArmRun failed = new ArmRun();
    failed.runId = "r00000001";
    failed.repetition = 1;
    failed.phase = "Failed";
    failed.message = HOSTILE; // as a run's own events put it there (an older operator's status, a forged log)
    Map<String, List<ArmRun>> runs = new LinkedHashMap<>();
    runs.put("sgl-router", List.of(failed));
    ComparisonReport report = ComparisonReport.of("cmp", runs, "sgl-router", 0.01);
    ArmStatus latest = new ArmStatus();
    latest.phase = "Failed";
    latest.runId = "r00000001";
    latest.message = HOSTILE;
    latest.runDir = "/w/" + HOSTILE;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    new ApplyOutput(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, false, List.of("sgl-router"), Clock.systemUTC())
        .summary(List.of("sgl-router"), report, Map.of("sgl-router", latest), 1, Duration.ofSeconds(3));
    String table = bytes.toString(StandardCharsets.UTF_8);
    assertNoControls(table);
    assertThat(table).contains("x\\u001B]0;owned\\u0007\\u000Dfake line");

    String markdown = MarkdownReport.render(new ReportContext(report, Examples.comparison(), Examples.cluster(Examples.DIRECT_CLUSTER),
        "GpuCluster " + HOSTILE, T0));
    assertNoControls(markdown);
    assertThat(markdown).contains("u001B");
  }

  @Test
  void followedEventsAndLiveLinesAreEscaped() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ApplyOutput o = new ApplyOutput(new PrintStream(bytes, true, StandardCharsets.UTF_8), false, true, List.of("arm"), Clock.systemUTC());
    ArmRunner.Run run = new ArmRunner.Run(new RunRef("default", "cmp", "arm", "r1a2b3c4d"), null, T0);
    run.status = new ArmStatus();
    run.status.phase = "Queued";
    run.status.message = "queued behind " + HOSTILE;
    JsonNode fields = Mappers.json().readTree("{\"event\":\"stage-started\",\"stage\":" + Mappers.json().writeValueAsString(HOSTILE) + "}");
    o.events(run, List.of(new RunEvent(T0, "stage-started", fields)));
    o.polled(run);
    assertNoControls(bytes.toString(StandardCharsets.UTF_8));
  }

  @Test
  void diffShowsASpecValueEscaped() throws Exception {
    Path file = dir.resolve("rc.yaml");
    Files.writeString(file, Examples.exampleYaml().replace("args: {policy: cache_aware}",
        "args: {policy: cache_aware, routing-key-header: \"x\\e]0;owned\\a\\rfake line\\e[2J\\x9b1m\"}"));
    ValidateCommandTest.Run r = ValidateCommandTest.run("diff", "-f", file.toString(), "--mode", "direct");
    assertThat(r.code()).as(r.err()).isZero();
    assertNoControls(r.out());
    assertThat(r.out()).contains("x\\u001B]0;owned\\u0007");
  }
}
