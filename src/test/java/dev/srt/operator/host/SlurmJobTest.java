package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SlurmJobTest {
  @Test
  void squeueLines() {
    SlurmJob running = SlurmJob.parseSqueueLine("18|RUNNING|None|srt-x|(null)").orElseThrow();
    assertThat(running.jobId()).isEqualTo("18");
    assertThat(running.comment()).isNull();
    assertThat(running.status()).isEqualTo(JobStatus.of(JobState.RUNNING));

    SlurmJob ours = SlurmJob.parseSqueueLine("17|PENDING|Priority|srt-x|srt-operator:a/b|c/d/r1").orElseThrow();
    assertThat(ours.comment()).isEqualTo("srt-operator:a/b|c/d/r1");
    assertThat(ours.status()).isEqualTo(new JobStatus(JobState.PENDING, "Priority", null));

    assertThat(SlurmJob.parseSqueueLine("")).isEmpty();
    assertThat(SlurmJob.parseSqueueLine("squeue: error: Invalid user")).isEmpty();
  }

  @Test
  void sacctLines() {
    assertThat(SlurmJob.parseSacctLine("42|srt-x|CANCELLED by 0|0:15|None").orElseThrow().status())
        .isEqualTo(new JobStatus(JobState.CANCELLED, "CANCELLED by 0", 143));
    assertThat(SlurmJob.parseSacctLine("43|srt-x|FAILED|1:0|NonZeroExitCode").orElseThrow().status())
        .isEqualTo(new JobStatus(JobState.FAILED, "NonZeroExitCode", 1));
    assertThat(SlurmJob.parseSacctLine("Slurm accounting storage is disabled")).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', nullValues = "null", value = {
      "PENDING;PENDING;null",
      "PD;PENDING;null",
      "CONFIGURING;PENDING;CONFIGURING",
      "REQUEUED;PENDING;REQUEUED",
      "REQUEUE_HOLD;PENDING;REQUEUE_HOLD",
      "RUNNING;RUNNING;null",
      "R;RUNNING;null",
      "COMPLETING;RUNNING;COMPLETING",
      "SUSPENDED;RUNNING;SUSPENDED",
      "COMPLETED;COMPLETED;null",
      "CANCELLED;CANCELLED;null",
      "CANCELLED by 0;CANCELLED;CANCELLED by 0",
      "CANCELLED+;CANCELLED;null",
      "FAILED;FAILED;null",
      "TIMEOUT;TIMEOUT;null",
      "DEADLINE;TIMEOUT;DEADLINE",
      "NODE_FAIL;NODE_FAIL;null",
      "BOOT_FAIL;NODE_FAIL;BOOT_FAIL",
      "OUT_OF_MEMORY;OUT_OF_MEMORY;null",
      "OOM;OUT_OF_MEMORY;null",
      "CG;RUNNING;CG",
      "PREEMPTED;PREEMPTED;null",
      "SPECIAL_EXIT;FAILED;SPECIAL_EXIT",
      "REVOKED;CANCELLED;REVOKED",
      "WARP_DRIVE_FAILURE;UNKNOWN;WARP_DRIVE_FAILURE",
      "'';UNKNOWN;null",
  })
  void statesMapToJobStates(String slurm, JobState expected, String reason) {
    JobStatus status = SlurmJob.status(slurm, "None", null);
    assertThat(status.state()).isEqualTo(expected);
    assertThat(status.reason()).isEqualTo(reason);
  }

  @Test
  void exitCodes() {
    assertThat(SlurmJob.exitCode("0:0")).isZero();
    assertThat(SlurmJob.exitCode("1:0")).isEqualTo(1);
    assertThat(SlurmJob.exitCode("0:15")).isEqualTo(143);
    assertThat(SlurmJob.exitCode("0:9")).isEqualTo(137);
    assertThat(SlurmJob.exitCode("garbage")).isNull();
    assertThat(SlurmJob.exitCode(null)).isNull();
  }

  @Test
  void runningJobsHaveNoExitCodeYet() {
    assertThat(SlurmJob.status("RUNNING", null, "0:0").exitCode()).isNull();
    assertThat(SlurmJob.status("COMPLETED", null, "0:0").exitCode()).isZero();
  }

  @Test
  void terminalStates() {
    assertThat(JobState.COMPLETED.terminal()).isTrue();
    assertThat(JobState.PREEMPTED.terminal()).isTrue();
    assertThat(JobState.RUNNING.terminal()).isFalse();
    assertThat(JobState.NOT_FOUND.terminal()).isFalse();
    assertThat(JobState.UNKNOWN.terminal()).isFalse();
  }
}
