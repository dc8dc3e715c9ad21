package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.run.RunMemory;
import dev.srt.operator.run.RunTracker;
import dev.srt.operator.run.RunView;
import dev.srt.operator.testinfra.TestRecords;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 23: "a forged {@code exit-code} too large for an int leaves a run {@code Benchmarking}
 * forever" (the parse threw, the job state was unknown, and the run never ended). An exit code that
 * is no exit status is a failed run, with the reason.
 */
class UnparsableExitCodeTest {
  @Test
  void anExitCodeBeyondAnIntIsAFailedRunWithItsReason() {
    // What the poll reports for a run whose script is gone and whose exit-code file holds 20 digits.
    JobStatus job = DirectBackend.PROBE.parse(Map.of("pid", "4242", "alive", "0", "exit-code", "99999999999999999999", "cancel-requested", "0"));
    assertThat(job.state()).isEqualTo(JobState.FAILED);
    assertThat(job.reason()).isEqualTo("its exit-code file holds 99999999999999999999, not an exit status (0 to 255)");

    ArmStatus s = RunTracker.step(TestRecords.of(new RunRef("default", "cmp", "arm", "r00000001"), "4242"),
        new RunView(List.of(), true, job, null), RunMemory.FRESH, Instant.parse("2026-11-30T05:40:00Z")).status();
    assertThat(s.phase).isEqualTo(ArmPhase.Failed.name());
    assertThat(s.message).contains("not an exit status");
  }

  @Test
  void codesUpTo255StayWhatTheyWere() {
    assertThat(DirectBackend.PROBE.parse(Map.of("pid", "1", "alive", "0", "exit-code", "0")).state()).isEqualTo(JobState.COMPLETED);
    assertThat(DirectBackend.PROBE.parse(Map.of("pid", "1", "alive", "0", "exit-code", "137")).exitCode()).isEqualTo(137);
    assertThat(DirectBackend.PROBE.parse(Map.of("pid", "1", "alive", "0", "exit-code", "256")).reason()).contains("not an exit status");
    // Slurm's code:signal, when it is no int, is no exit code rather than an exception.
    assertThat(SlurmJob.exitCode("99999999999999999999:0")).isNull();
    assertThat(SlurmJob.exitCode("0:9")).isEqualTo(137);
  }
}
