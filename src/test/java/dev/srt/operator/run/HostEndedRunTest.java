package dev.srt.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.Mode;
import dev.srt.operator.host.JobState;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.plan.Examples;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A run whose job the host ended (an outside scancel, a time limit, a failed node): its script,
 * signalled like a cancelled one, reports itself cancelled; the job's state decides.
 */
class HostEndedRunTest {
  static final Instant T0 = Instant.parse("2026-12-02T03:00:00Z");

  private static RunEvent event(String type, String... kv) {
    var fields = JsonNodeFactory.instance.objectNode().put("event", type);
    for (int i = 0; i < kv.length; i += 2) {
      fields.put(kv[i], kv[i + 1]);
    }
    return new RunEvent(T0.plusSeconds(5), type, fields);
  }

  /** What the script writes when SIGTERM reaches it. */
  private static final List<RunEvent> TERMINATED = List.of(
      event("phase", "phase", "benchmarking"),
      event("failed", "reason", "Interrupted", "message", "received SIGTERM"),
      event("finished", "status", "cancelled", "code", "143"));

  /**
   * What the script writes when a process it watches dies of the host's SIGTERM before the signal
   * reaches the script itself (each Slurm step is signalled by its own slurmstepd).
   */
  private static final List<RunEvent> A_PROCESS_DIED_FIRST = List.of(
      event("phase", "phase", "starting"),
      event("failed", "reason", "ProcessExited", "message", "worker-0 exited with code 143 (SIGTERM)"),
      event("finished", "status", "failed", "code", "1"));

  private static ArmStatus apply(JobStatus job) {
    return apply(TERMINATED, job);
  }

  private static ArmStatus apply(List<RunEvent> events, JobStatus job) {
    return Replays.replay(Replays.record(Examples.plan("sgl-router", Mode.SLURM), T0), events, job, T0.plusSeconds(9));
  }

  @Test
  void eachSlurmEndIsAFailureWithItsReasonAndState() {
    ArmStatus timeout = apply(new JobStatus(JobState.TIMEOUT, "TimeLimit", 143));
    assertThat(timeout.phase).isEqualTo("Failed");
    assertThat(timeout.reason).isEqualTo("JobTimeLimit");
    assertThat(timeout.message).isEqualTo("job ended TIMEOUT with exit code 143: TimeLimit; srt-operator did not cancel it"
        + " (Interrupted: received SIGTERM)");
    assertThat(timeout.finishedAt).isEqualTo(T0.plusSeconds(9).toString());

    ArmStatus nodeFail = apply(new JobStatus(JobState.NODE_FAIL, "NodeDown", 143));
    assertThat(nodeFail.phase).isEqualTo("Failed");
    assertThat(nodeFail.reason).isEqualTo("NodeFailure");
    assertThat(nodeFail.message).startsWith("job ended NODE_FAIL with exit code 143: NodeDown;");

    ArmStatus scancel = apply(new JobStatus(JobState.CANCELLED, null, 143));
    assertThat(scancel.phase).isEqualTo("Failed");
    assertThat(scancel.reason).isEqualTo("JobCancelled");
    assertThat(scancel.message).startsWith("job ended CANCELLED with exit code 143; srt-operator did not cancel it");
  }

  @Test
  void aRunThatSawItsProcessDieOfTheHostsSignalFailsWithTheHostsReason() {
    ArmStatus timeout = apply(A_PROCESS_DIED_FIRST, new JobStatus(JobState.TIMEOUT, "TimeLimit", 1));
    assertThat(timeout.phase).isEqualTo("Failed");
    assertThat(timeout.reason).isEqualTo("JobTimeLimit");
    assertThat(timeout.message).isEqualTo("job ended TIMEOUT with exit code 1: TimeLimit; srt-operator did not cancel it"
        + " (ProcessExited: worker-0 exited with code 143 (SIGTERM))");

    ArmStatus scancel = apply(A_PROCESS_DIED_FIRST, new JobStatus(JobState.CANCELLED, null, 1));
    assertThat(scancel.reason).isEqualTo("JobCancelled");

    // Until Slurm has finished the job, the run's end waits for the job's state.
    ArmStatus completing = apply(A_PROCESS_DIED_FIRST, new JobStatus(JobState.RUNNING, null, null));
    assertThat(completing.phase).isEqualTo("Starting");
    assertThat(completing.finishedAt).isNull();
    assertThat(completing.message).isEqualTo("the run reported a failure (ProcessExited: worker-0 exited with code 143 (SIGTERM));"
        + " waiting for the job's final state");
  }

  @Test
  void aRunThatFailedOnItsOwnKeepsItsOwnWord() {
    for (JobStatus job : new JobStatus[] {new JobStatus(JobState.FAILED, null, 1), JobStatus.of(JobState.NOT_FOUND), null}) {
      ArmStatus s = apply(A_PROCESS_DIED_FIRST, job);
      assertThat(s.phase).as("with job %s", job).isEqualTo("Failed");
      assertThat(s.reason).as("with job %s", job).isNull();
      assertThat(s.message).as("with job %s", job).isEqualTo("ProcessExited: worker-0 exited with code 143 (SIGTERM)");
    }
    // srt-operator cancelled it: the run's own failure stands.
    assertThat(apply(A_PROCESS_DIED_FIRST, new JobStatus(JobState.CANCELLED, null, 1, true)).reason).isNull();
  }

  @Test
  void aCancelSrtOperatorRequestedStaysCancelled() {
    ArmStatus s = apply(new JobStatus(JobState.CANCELLED, null, 143, true));
    assertThat(s.phase).isEqualTo("Cancelled");
    assertThat(s.reason).isNull();
    // Without the job's state (the CLI while it catches up) the run's word stands.
    assertThat(apply(null).phase).isEqualTo("Cancelled");
  }

  @Test
  void whileSlurmStillCompletesTheJobTheRunIsNotOverYet() {
    ArmStatus s = apply(new JobStatus(JobState.RUNNING, "TimeLimit", null));
    assertThat(s.phase).isEqualTo("Benchmarking");
    assertThat(s.finishedAt).isNull();
    assertThat(s.message).contains("interrupted").contains("received SIGTERM");
  }

  @Test
  void aJobKilledHardWithoutOutcomeGetsTheReasonToo() {
    RunRecord record = Replays.record(Examples.plan("sgl-router", Mode.SLURM), T0);
    ArmStatus s = Replays.replay(record, List.of(), new JobStatus(JobState.NODE_FAIL, "NodeDown", null), T0.plusSeconds(3));
    assertThat(s.phase).isEqualTo("Failed");
    assertThat(s.reason).isEqualTo("NodeFailure");
    assertThat(s.message).isEqualTo("job ended NODE_FAIL: NodeDown without reporting an outcome (submitted as job 42)");
    ArmStatus killed = Replays.replay(record, List.of(), new JobStatus(JobState.CANCELLED, "killed after a cancel request", null, true), T0);
    assertThat(killed.phase).isEqualTo("Cancelled");
  }
}
