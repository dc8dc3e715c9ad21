package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SlurmJobTest {
  // Captured from Slurm 22.05.8 (scontrol -o show job), a pending and a failed job.
  private static final String SCONTROL_PENDING = "JobId=17 JobName=srt-probe-x UserId=root(0) GroupId=root(0) "
      + "MCS_label=N/A Priority=4294901743 Nice=0 Account=(null) QOS=(null) JobState=PENDING Reason=Resources "
      + "Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0 RunTime=00:00:00 "
      + "TimeLimit=UNLIMITED TimeMin=N/A SubmitTime=2026-11-30T05:49:41 EligibleTime=2026-11-30T05:49:41 "
      + "AccrueTime=Unknown StartTime=Unknown EndTime=Unknown Deadline=N/A SuspendTime=None SecsPreSuspend=0 "
      + "LastSchedEval=2026-11-30T05:49:41 Scheduler=Main Partition=debug AllocNode:Sid=localhost:5505 "
      + "ReqNodeList=(null) ExcNodeList=(null) NodeList= NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 "
      + "ReqB:S:C:T=0:0:*:* TRES=cpu=1,mem=21G,node=1,billing=1 Socks/Node=* NtasksPerN:B:S:C=0:0:*:* "
      + "CoreSpec=* MinCPUsNode=1 MinMemoryNode=0 MinTmpDiskNode=0 Features=(null) DelayBoot=00:00:00 "
      + "OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null) Command=/tmp/srt-probe-3s82/j.sh "
      + "WorkDir=/tmp/srt-probe-3s82 Comment=srt-operator:a/b c/d|e/r1  StdErr=/tmp/srt-probe-3s82/out.log "
      + "StdIn=/dev/null StdOut=/tmp/srt-probe-3s82/out.log Power= \n";
  private static final String SCONTROL_FAILED = SCONTROL_PENDING
      .replace("JobState=PENDING Reason=Resources", "JobState=FAILED Reason=NonZeroExitCode")
      .replace("ExitCode=0:0", "ExitCode=3:0");

  @Test
  void scontrolPendingWithReasonAndCommentContainingSpaces() {
    SlurmJob job = SlurmJob.parseScontrol(SCONTROL_PENDING).orElseThrow();
    assertThat(job.jobId()).isEqualTo("17");
    assertThat(job.name()).isEqualTo("srt-probe-x");
    assertThat(job.comment()).isEqualTo("srt-operator:a/b c/d|e/r1");
    assertThat(job.status()).isEqualTo(new JobStatus(JobState.PENDING, "Resources", null));
  }

  @Test
  void scontrolFailedCarriesTheExitCode() {
    JobStatus status = SlurmJob.parseScontrol(SCONTROL_FAILED).orElseThrow().status();
    assertThat(status).isEqualTo(new JobStatus(JobState.FAILED, "NonZeroExitCode", 3));
    assertThat(status.terminal()).isTrue();
  }

  @Test
  void scontrolCancelledAfterScancel() {
    String line = SCONTROL_PENDING.replace("JobState=PENDING Reason=Resources", "JobState=CANCELLED Reason=None")
        .replace("ExitCode=0:0", "ExitCode=0:15");
    assertThat(SlurmJob.parseScontrol(line).orElseThrow().status())
        .isEqualTo(new JobStatus(JobState.CANCELLED, null, 143));
  }

  @Test
  void scontrolWithoutCommentOrGarbage() {
    String noComment = SCONTROL_PENDING.replace("Comment=srt-operator:a/b c/d|e/r1  ", "");
    assertThat(SlurmJob.parseScontrol(noComment).orElseThrow().comment()).isNull();
    assertThat(SlurmJob.parseScontrol("slurm_load_jobs error: Invalid job id specified")).isEmpty();
    assertThat(SlurmJob.parseScontrol("")).isEmpty();
  }

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
