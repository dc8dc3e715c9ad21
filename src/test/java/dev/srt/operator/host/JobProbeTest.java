package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class JobProbeTest {
  private static final JobProbe DIRECT = DirectBackend.PROBE;
  private static final JobProbe SLURM = SlurmBackend.PROBE;

  @Test
  void directStates() {
    assertThat(DIRECT.parse(Map.of("pid", "10", "alive", "1", "exit-code", "", "cancel-requested", "0")))
        .isEqualTo(JobStatus.of(JobState.RUNNING));
    assertThat(DIRECT.parse(Map.of("pid", "10", "alive", "0", "exit-code", "0", "cancel-requested", "1")))
        .isEqualTo(new JobStatus(JobState.COMPLETED, null, 0));
    // SIGTERM from anyone but srt-operator: cancelled, not requested
    assertThat(DIRECT.parse(Map.of("pid", "10", "alive", "0", "exit-code", "143", "cancel-requested", "0")))
        .isEqualTo(new JobStatus(JobState.CANCELLED, "interrupted", 143, false));
    assertThat(DIRECT.parse(Map.of("pid", "10", "alive", "0", "exit-code", "1", "cancel-requested", "1")))
        .isEqualTo(new JobStatus(JobState.CANCELLED, "cancel requested", 1, true));
    assertThat(DIRECT.parse(Map.of("pid", "10", "alive", "0", "exit-code", "2", "cancel-requested", "0")))
        .isEqualTo(new JobStatus(JobState.FAILED, null, 2));
    assertThat(DIRECT.parse(Map.of("pid", "10", "alive", "0", "exit-code", "", "cancel-requested", "1")).state())
        .isEqualTo(JobState.CANCELLED);
    assertThat(DIRECT.parse(Map.of("pid", "10", "alive", "0", "exit-code", "", "cancel-requested", "0")).state())
        .isEqualTo(JobState.FAILED);
    assertThat(DIRECT.parse(Map.of("pid", "", "alive", "0", "exit-code", "", "cancel-requested", "0")).state())
        .isEqualTo(JobState.NOT_FOUND);
  }

  @Test
  void slurmReadsSqueue() {
    assertThat(SLURM.parse(Map.of("job-id", "5", "squeue-rc", "0", "squeue", "5|RUNNING|None|0|")))
        .isEqualTo(JobStatus.of(JobState.RUNNING));
    assertThat(SLURM.parse(Map.of("job-id", "5", "squeue-rc", "0", "squeue", "5|PENDING|JobHeldUser|0|")))
        .isEqualTo(new JobStatus(JobState.PENDING, "JobHeldUser", null));
    // squeue's exit code is the raw wait status: exit 3, SIGTERM, exit 143 (as scontrol's 3:0, 0:15, 143:0)
    assertThat(SLURM.parse(Map.of("job-id", "5", "squeue-rc", "0", "squeue", "5|FAILED|NonZeroExitCode|768|")))
        .isEqualTo(new JobStatus(JobState.FAILED, "NonZeroExitCode", 3));
    assertThat(SLURM.parse(Map.of("job-id", "5", "squeue-rc", "0", "squeue", "5|FAILED|JobLaunchFailure|15|")).exitCode())
        .isEqualTo(143);
    assertThat(SLURM.parse(Map.of("job-id", "5", "squeue-rc", "0", "squeue", "5|CANCELLED|None|36608|")))
        .isEqualTo(new JobStatus(JobState.CANCELLED, null, 143));
    assertThat(SLURM.parse(Map.of("job-id", "5", "squeue-rc", "0", "squeue", "5|TIMEOUT|None|0:15|")).exitCode())
        .isEqualTo(143);
    assertThat(SLURM.parse(Map.of("job-id", "5", "squeue-rc", "0", "squeue", "garbage")).state())
        .isEqualTo(JobState.UNKNOWN);
  }

  @Test
  void slurmFallsBackToSacctForForgottenJobs() {
    Map<String, String> forgotten = Map.of("job-id", "5", "squeue-rc", "0",
        "sacct-rc", "0", "sacct", "5|n|TIMEOUT|0:1|TimeLimit");
    assertThat(SLURM.parse(forgotten)).isEqualTo(new JobStatus(JobState.TIMEOUT, "TimeLimit", 129));
  }

  @Test
  void slurmWithoutAccountingReportsNotFound() {
    Map<String, String> noAccounting = Map.of("job-id", "5", "squeue-rc", "0",
        "sacct-rc", "1", "sacct", "Slurm accounting storage is disabled");
    assertThat(SLURM.parse(noAccounting).state()).isEqualTo(JobState.NOT_FOUND);
    assertThat(SLURM.parse(Map.of("job-id", "5", "squeue-rc", "0", "sacct-rc", "0", "sacct", "")).state())
        .isEqualTo(JobState.NOT_FOUND);
    assertThat(SLURM.parse(Map.of("job-id", "")).state()).isEqualTo(JobState.NOT_FOUND);
    assertThat(SLURM.parse(Map.of("job-id", "not-a-number")).state()).isEqualTo(JobState.NOT_FOUND);
  }

  @Test
  void slurmControllerTroubleIsUnknownNotGone() {
    JobStatus status = SLURM.parse(Map.of("job-id", "5", "squeue-rc", "1",
        "squeue-error", "slurm_load_jobs error: Unable to contact slurm controller (connect failure)"));
    assertThat(status.state()).isEqualTo(JobState.UNKNOWN);
    assertThat(status.reason()).contains("Unable to contact slurm controller");
  }
}
