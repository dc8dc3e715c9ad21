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
    assertThat(DIRECT.parse(Map.of("pid", "10", "alive", "0", "exit-code", "143", "cancel-requested", "0")).state())
        .isEqualTo(JobState.CANCELLED);
    assertThat(DIRECT.parse(Map.of("pid", "10", "alive", "0", "exit-code", "1", "cancel-requested", "1")))
        .isEqualTo(new JobStatus(JobState.CANCELLED, "cancel requested", 1));
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
  void slurmPrefersScontrol() {
    String line = "JobId=5 JobName=n JobState=RUNNING Reason=None ExitCode=0:0 Comment=c";
    assertThat(SLURM.parse(Map.of("job-id", "5", "scontrol-rc", "0", "scontrol", line)))
        .isEqualTo(JobStatus.of(JobState.RUNNING));
  }

  @Test
  void slurmFallsBackToSacctForForgottenJobs() {
    Map<String, String> forgotten = Map.of("job-id", "5", "scontrol-rc", "1",
        "scontrol", "slurm_load_jobs error: Invalid job id specified",
        "sacct-rc", "0", "sacct", "4|n|COMPLETED|0:0|None\n5|n|TIMEOUT|0:1|TimeLimit\n");
    assertThat(SLURM.parse(forgotten)).isEqualTo(new JobStatus(JobState.TIMEOUT, "TimeLimit", 129));
  }

  @Test
  void slurmWithoutAccountingReportsNotFound() {
    Map<String, String> noAccounting = Map.of("job-id", "5", "scontrol-rc", "1",
        "scontrol", "slurm_load_jobs error: Invalid job id specified",
        "sacct-rc", "1", "sacct", "Slurm accounting storage is disabled");
    assertThat(SLURM.parse(noAccounting).state()).isEqualTo(JobState.NOT_FOUND);
    assertThat(SLURM.parse(Map.of("job-id", "")).state()).isEqualTo(JobState.NOT_FOUND);
  }

  @Test
  void slurmControllerTroubleIsUnknownNotGone() {
    JobStatus status = SLURM.parse(Map.of("job-id", "5", "scontrol-rc", "1",
        "scontrol", "slurm_load_jobs error: Unable to contact slurm controller (connect failure)"));
    assertThat(status.state()).isEqualTo(JobState.UNKNOWN);
    assertThat(status.reason()).contains("Unable to contact slurm controller");
  }
}
