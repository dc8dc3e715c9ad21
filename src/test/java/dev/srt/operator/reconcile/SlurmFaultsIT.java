package dev.srt.operator.reconcile;

import static dev.srt.operator.reconcile.OperatorEndToEndIT.processesOf;
import static dev.srt.operator.reconcile.OperatorEndToEndIT.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.testinfra.TestHosts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Slurm ends a run's job behind the operator's back: an outside {@code scancel}, a time limit
 * ({@code TIMEOUT}), a node set {@code DOWN} under the job ({@code NODE_FAIL}). Each arm must be
 * Failed with that reason within a poll of Slurm saying so, with one Failed event, and the run is
 * not submitted again. One comparison of three arms (one run at a time) on the {@code multinode}
 * partition, whose engines never become healthy, so each arm waits in Starting for its fault.
 */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(TestHosts.MULTINODE_PARTITION)
class SlurmFaultsIT {
  static final String NAME = "slurm-faults";
  /** A poll (500 ms) plus the reconcile and status write it triggers, on a busy 2-core machine. */
  static final Duration ONE_POLL = Duration.ofSeconds(3);
  /** Slurm, not the operator: a time-limit check (every 30 s), KillWait, a node's slurmd, on a loaded machine. */
  static final Duration SLURM_ENDS_A_JOB = Duration.ofMinutes(3);

  InJvmOperator op;
  String downedNode;

  @BeforeEach
  void start() throws Exception {
    TestHosts.MultiNodePartition partition = TestHosts.requireMultiNodeSlurm();
    TestHosts.SshTarget ssh = TestHosts.ssh();
    op = new InJvmOperator(ssh);
    op.apply(ssh, partition.name(), Map.of("SRT_EMULATOR_STARTUP_DELAY_MS", "600000"), comparison());
  }

  @AfterEach
  void stop() throws Exception {
    try {
      if (downedNode != null) {
        // Always give the node back: later tests need both nodes. It may already be back on its own
        // (ReturnToService=2 and a live slurmd), in which case RESUME is refused, harmlessly.
        run(List.of("scontrol", "update", "NodeName=" + downedNode, "State=RESUME"));
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() ->
            run(List.of("sinfo", "-h", "-N", "-n", downedNode, "-o", "%T")).strip().matches("idle|mixed|allocated"));
      }
    } finally {
      if (op != null) {
        op.close();
      }
    }
  }

  static String comparison() {
    return InJvmOperator.comparison(NAME, "5m", InJvmOperator.sglRouterArm("cancelled", "cache_aware")
        + InJvmOperator.sglRouterArm("timed-out", "round_robin") + InJvmOperator.sglRouterArm("node-failed", "random"));
  }

  @Test
  void eachSlurmEndFailsItsArmWithTheReasonWithinAPoll() throws Exception {
    List<ArmStatus> failed = new ArrayList<>();

    ArmStatus cancelled = awaitStarting("cancelled");
    run(List.of("scancel", cancelled.jobId));
    failed.add(awaitFailed(cancelled, "CANCELLED", "JobCancelled"));

    ArmStatus timedOut = awaitStarting("timed-out");
    // Slurm's minimum time limit is a minute; an end time of now times the job out at once. Slurm
    // refuses it ("Invalid time specified") while now is still the job's start second.
    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
        assertThat(run(List.of("scontrol", "update", "JobId=" + timedOut.jobId, "EndTime=now"))).isBlank());
    failed.add(awaitFailed(timedOut, "TIMEOUT", "JobTimeLimit"));

    ArmStatus nodeFailed = awaitStarting("node-failed");
    String node = run(List.of("squeue", "-h", "-j", nodeFailed.jobId, "-o", "%N")).strip();
    assertThat(node).as("job %s's node", nodeFailed.jobId).matches("srt-node\\d+");
    downedNode = node;
    assertThat(run(List.of("scontrol", "update", "NodeName=" + node, "State=DOWN", "Reason=srt-operator-fault-test"))).isBlank();
    failed.add(awaitFailed(nodeFailed, "NODE_FAIL", "NodeFailure"));

    // The host afterwards: every job ended, nothing of any run left, no arm submitted again.
    await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
      assertThat(op.rc(NAME).getStatus().phase).isEqualTo("Failed");
      for (ArmStatus a : failed) {
        assertThat(processesOf(a.runId)).as("processes of run %s", a.runId).isEmpty();
      }
    });
    for (ArmStatus a : failed) {
      ArmStatus now = op.arm(NAME, a.name);
      assertThat(now.runId).isEqualTo(a.runId);
      assertThat(now.phase).isEqualTo("Failed");
      assertThat(run(List.of("bash", "-c", "squeue --states=all -h -o '%i %j' | grep -c -- \"$1\" || true", "_", a.runId)).strip())
          .as("Slurm jobs of run %s", a.runId).isEqualTo("1");
    }
    assertThat(op.events(EventReason.Submitted)).hasSize(3);
    List<String> failures = op.events(EventReason.Failed);
    assertThat(failures).hasSize(3);
    assertThat(failures).anySatisfy(m -> assertThat(m).startsWith("arm cancelled: failed: JobCancelled: job ended CANCELLED"));
    assertThat(failures).anySatisfy(m -> assertThat(m).startsWith("arm timed-out: failed: JobTimeLimit: job ended TIMEOUT"));
    assertThat(failures).anySatisfy(m -> assertThat(m).startsWith("arm node-failed: failed: NodeFailure: job ended NODE_FAIL"));
  }

  /** The arm's run, once its script runs (phase Starting) and Slurm says its job is RUNNING. */
  ArmStatus awaitStarting(String arm) {
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
      ArmStatus a = op.arm(NAME, arm);
      return a != null && "Starting".equals(a.phase) && a.jobId != null && jobState(a.jobId).equals("RUNNING");
    });
    return op.arm(NAME, arm);
  }

  /**
   * Waits for Slurm to end the job in {@code slurmState}, then for the arm to be Failed with {@code
   * reason} within a poll. Slurm itself is given long: it checks time limits every 30 s, and keeps
   * the job COMPLETING until its node has killed every process, slowly on a loaded machine.
   */
  ArmStatus awaitFailed(ArmStatus running, String slurmState, String reason) {
    await().atMost(SLURM_ENDS_A_JOB).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
        assertThat(jobState(running.jobId)).as(() -> "Slurm's job " + slurmJob(running.jobId)).isEqualTo(slurmState));
    await().atMost(ONE_POLL).pollInterval(Duration.ofMillis(100)).until(() -> "Failed".equals(op.arm(NAME, running.name).phase));
    ArmStatus a = op.arm(NAME, running.name);
    assertThat(a.runId).isEqualTo(running.runId);
    assertThat(a.reason).isEqualTo(reason);
    // The script, signalled, says it was cancelled; one killed with its node may say nothing.
    assertThat(a.message).startsWith("job ended " + slurmState)
        .containsAnyOf("srt-operator did not cancel it", "without reporting an outcome");
    assertThat(a.finishedAt).isNotNull();
    return a;
  }

  /** What Slurm says of the job, for a failure's message. */
  static String slurmJob(String jobId) {
    try {
      return run(List.of("bash", "-c", "scontrol show job \"$1\" 2>&1 | grep -E 'JobState|RunTime|TimeLimit|EndTime|NodeList' || true", "_", jobId))
          .replaceAll("\\s+", " ").strip();
    } catch (Exception e) {
      return jobId + " (scontrol: " + e + ")";
    }
  }

  static String jobState(String jobId) throws Exception {
    return run(List.of("squeue", "--states=all", "-h", "-j", jobId, "-o", "%T")).strip();
  }
}
