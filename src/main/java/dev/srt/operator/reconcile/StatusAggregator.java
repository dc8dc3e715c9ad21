package dev.srt.operator.reconcile;

import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.api.ArmReason;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.config.Problem;
import io.fabric8.kubernetes.api.model.Condition;
import dev.srt.operator.verdict.FactChecks;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The only writer of a RouterComparison's conditions and summary fields. Pure: from what the
 * reconciler knows (spec problems, cluster reachability, the arms' statuses) it derives {@code
 * phase}, {@code armsSummary}, {@code currentArm}, {@code message} and the conditions SpecValid,
 * ClusterReachable, PrerequisitesMet, Ready, Complete, Failed and Degraded, keeping each condition's lastTransitionTime
 * unless its status flips.
 */
public final class StatusAggregator {
  public static final String SPEC_VALID = "SpecValid";
  public static final String CLUSTER_REACHABLE = "ClusterReachable";
  public static final String READY = "Ready";
  public static final String COMPLETE = "Complete";
  public static final String FAILED = "Failed";
  public static final String DEGRADED = "Degraded";
  public static final String FACTS_DIFFER = "FactsDiffer";

  /** What the cluster's last probe or poll said; {@code reachable} null when not known yet. */
  public record ClusterState(Boolean reachable, ConditionReason reason, String message) {
    public static final ClusterState UNKNOWN = new ClusterState(null, ConditionReason.Probing, "no contact with the cluster yet");
  }

  /**
   * Everything the status is derived from.
   *
   * @param secretEnvProblem why the next run's secret variables cannot be resolved (names the Secret
   *     and key, never a value), or null
   * @param queued the comparison waits for its direct host, which another holds; or null
   * @param prerequisites the host's prerequisite check (nothing is submitted unless met); or null
   */
  public record Inputs(
      long generation,
      List<Problem> specErrors,
      ClusterState cluster,
      boolean suspended,
      List<ArmStatus> arms,
      String currentArm,
      String deletionMessage,
      String secretEnvProblem,
      Queued queued,
      int repetitions,
      PrerequisiteCondition prerequisites) {

    public Inputs(long generation, List<Problem> specErrors, ClusterState cluster, boolean suspended, List<ArmStatus> arms,
        String currentArm, String deletionMessage) {
      this(generation, specErrors, cluster, suspended, arms, currentArm, deletionMessage, null, null, 1, null);
    }
  }

  /** Waiting for a direct host that another comparison holds. */
  public record Queued(int position, String holder, String cluster) {}

  private StatusAggregator() {}

  public static RouterComparisonStatus aggregate(RouterComparisonStatus previous, Inputs in, Instant now) {
    RouterComparisonStatus s = new RouterComparisonStatus();
    s.observedGeneration = in.generation();
    s.conditions = previous == null || previous.conditions == null ? new ArrayList<>() : copy(previous.conditions);
    s.arms = in.arms();
    // An arm removed from the spec is reported (Cancelled, ArmRemoved) but no longer counts.
    List<ArmStatus> arms = in.arms().stream().filter(a -> a.reason() != ArmReason.ArmRemoved).toList();
    s.currentArm = in.currentArm();
    int repetitions = Math.max(1, in.repetitions());
    // An arm is done once it has all its runs; it succeeded when every one of them did.
    List<ArmStatus> done = arms.stream().filter(a -> ArmRuns.finished(a) >= repetitions).toList();
    long succeeded = done.stream().filter(a -> ArmRuns.all(a).stream().allMatch(r -> r.phase() == ArmPhase.Succeeded)).count();
    List<ArmStatus> failed = arms.stream().filter(a -> ArmRuns.all(a).stream().anyMatch(r -> r.phase() == ArmPhase.Failed)).toList();
    ArmStatus current = arms.stream().filter(a -> a.name.equals(in.currentArm())).findFirst().orElse(null);
    boolean inFlight = arms.stream().anyMatch(a -> a.phase().inFlight());
    boolean allDone = done.size() == arms.size();
    boolean started = arms.stream().anyMatch(a -> ArmRuns.finished(a) > 0);
    s.armsSummary = succeeded + "/" + arms.size();
    s.runsSummary = arms.stream().mapToInt(a -> Math.min(ArmRuns.finished(a), repetitions)).sum() + "/" + arms.size() * repetitions;
    Long gen = in.generation();

    boolean valid = in.specErrors().isEmpty();
    Conditions.set(s.conditions, SPEC_VALID, valid ? Conditions.TRUE : Conditions.FALSE, valid ? ConditionReason.Valid : ConditionReason.Invalid,
        valid ? "spec passed validation" : in.specErrors().stream().map(Problem::describe).collect(Collectors.joining("; ")), gen, now);

    ClusterState cluster = in.cluster() == null ? ClusterState.UNKNOWN : in.cluster();
    Conditions.set(s.conditions, CLUSTER_REACHABLE,
        cluster.reachable() == null ? Conditions.UNKNOWN : cluster.reachable() ? Conditions.TRUE : Conditions.FALSE,
        cluster.reason(), cluster.message(), gen, now);

    PrerequisiteCondition.set(s.conditions, in.prerequisites(), gen, now);

    String currentDetail = current == null ? null : "arm " + current.name + ": " + detail(current);
    boolean complete = !arms.isEmpty() && succeeded == arms.size();
    boolean finishedFailed = !complete && !failed.isEmpty() && !inFlight && allDone;
    // Ready is the summary kstatus-based tools and Argo CD wait for: True once every run succeeded
    // (as Complete), or while the arm in flight serves; a failed comparison is not Ready.
    if (current != null && current.phase().serving()) {
      Conditions.set(s.conditions, READY, Conditions.TRUE, ConditionReason.ArmServing, currentDetail, gen, now);
    } else if (complete) {
      Conditions.set(s.conditions, READY, Conditions.TRUE, ConditionReason.AllArmsSucceeded, "all " + succeeded + " arms succeeded", gen, now);
    } else if (finishedFailed) {
      Conditions.set(s.conditions, READY, Conditions.FALSE, ConditionReason.ArmFailed, names(failed) + " failed", gen, now);
    } else if (in.suspended()) {
      Conditions.set(s.conditions, READY, Conditions.FALSE, ConditionReason.Suspended, "spec.suspend is true", gen, now);
    } else if (current != null) {
      Conditions.set(s.conditions, READY, Conditions.FALSE, ConditionReason.ArmStarting, currentDetail, gen, now);
    } else {
      Conditions.set(s.conditions, READY, Conditions.FALSE, ConditionReason.NoArmRunning, "no arm is running", gen, now);
    }

    if (complete) {
      Conditions.set(s.conditions, COMPLETE, Conditions.TRUE, ConditionReason.AllArmsSucceeded, "all " + succeeded + " arms succeeded"
          + (repetitions > 1 ? " (" + repetitions + " runs each)" : ""), gen, now);
    } else if (finishedFailed) {
      Conditions.set(s.conditions, COMPLETE, Conditions.FALSE, ConditionReason.ArmFailed, names(failed) + " failed", gen, now);
    } else {
      long remaining = arms.size() - succeeded;
      Conditions.set(s.conditions, COMPLETE, Conditions.FALSE, ConditionReason.ArmsRemaining,
          remaining + " of " + arms.size() + " arms have not succeeded yet", gen, now);
    }
    // A Job's pair: Complete or Failed turns True once, at the end (kubectl wait --for=condition=Failed).
    Conditions.set(s.conditions, FAILED, finishedFailed ? Conditions.TRUE : Conditions.FALSE, finishedFailed ? ConditionReason.ArmFailed : ConditionReason.NoArmFailed,
        finishedFailed ? names(failed) + " failed" : "no finished arm failed", gen, now);

    boolean unreachable = Boolean.FALSE.equals(cluster.reachable());
    if (in.deletionMessage() != null) {
      Conditions.set(s.conditions, DEGRADED, Conditions.TRUE, ConditionReason.CancelPending, in.deletionMessage(), gen, now);
    } else if (!valid) {
      Conditions.set(s.conditions, DEGRADED, Conditions.TRUE, ConditionReason.SpecInvalid, "the spec is invalid; nothing new is submitted", gen, now);
    } else if (in.secretEnvProblem() != null) {
      Conditions.set(s.conditions, DEGRADED, Conditions.TRUE, ConditionReason.SecretEnvMissing, in.secretEnvProblem() + "; nothing is submitted", gen, now);
    } else if (!failed.isEmpty()) {
      ArmStatus f = failed.get(0);
      Conditions.set(s.conditions, DEGRADED, Conditions.TRUE, ConditionReason.ArmFailed, "arm " + f.name + " failed: " + failure(f), gen, now);
    } else if (unreachable && inFlight) {
      Conditions.set(s.conditions, DEGRADED, Conditions.TRUE, ConditionReason.ClusterUnreachable, cluster.message(), gen, now);
    } else {
      Conditions.set(s.conditions, DEGRADED, Conditions.FALSE, ConditionReason.AsExpected, "no arm failed", gen, now);
    }

    if (!valid && !inFlight) {
      s.phase = "Invalid";
      s.message = Conditions.find(s.conditions, SPEC_VALID).getMessage();
    } else if (in.suspended() && !inFlight) {
      s.phase = "Suspended";
      s.message = "suspended (spec.suspend: true)";
    } else if (inFlight || current != null) {
      s.phase = "Running";
      s.message = currentDetail;
    } else if (complete) {
      s.phase = "Succeeded";
      s.message = "all " + succeeded + " arms succeeded" + (repetitions > 1 ? " (" + repetitions + " runs each)" : "");
    } else if (!failed.isEmpty() && allDone) {
      s.phase = "Failed";
      s.message = "arm " + failed.get(0).name + " failed: " + failure(failed.get(0));
    } else if (started && !allDone && !in.suspended() && valid && in.queued() == null) {
      // Between two runs of the comparison: the next one is being submitted.
      s.phase = "Running";
      s.message = s.runsSummary + " runs finished; starting the next";
    } else if (in.queued() != null) {
      s.phase = "Queued";
      s.queuePosition = in.queued().position();
      s.message = "queued for GpuCluster " + in.queued().cluster() + ": position " + in.queued().position() + ", behind "
          + in.queued().holder();
    } else {
      s.phase = "Pending";
      s.message = in.secretEnvProblem() != null ? "waiting for secretEnv: " + in.secretEnvProblem()
          : unreachable ? "waiting for the cluster: " + cluster.message()
          : in.prerequisites() != null && !Boolean.TRUE.equals(in.prerequisites().met())
              ? "waiting for the host's prerequisites: " + in.prerequisites().message() : "waiting to submit";
    }
    if (in.deletionMessage() != null) {
      s.message = in.deletionMessage();
    }
    return s;
  }

  /**
   * FactsDiffer: True while the facts of the runs a verdict compares do not vouch for it
   * ({@link FactChecks}): a held-constant fact differs, a measured run has no facts, or a routing
   * fact differs within one arm. Set with the verdicts, which it explains; True also with
   * requireFacts: false, where it is the status's warning that the verdicts stand regardless.
   */
  static void factsDiffer(RouterComparisonStatus s, List<FactChecks.Check> checks, Instant now) {
    String message = FactChecks.message(checks);
    boolean differ = message != null;
    ConditionReason reason = !differ ? ConditionReason.FactsAgree
        : checks.stream().anyMatch(c -> !c.differing.isEmpty()) ? ConditionReason.HeldConstantFactsDiffer
        : checks.stream().anyMatch(c -> !c.withoutFacts.isEmpty()) ? ConditionReason.FactsUnknown
        : ConditionReason.RoutingFactsDifferWithinArm;
    boolean warnedOnly = checks.stream().anyMatch(c -> c.reason != null && !c.refused);
    Conditions.set(s.conditions, FACTS_DIFFER, differ ? Conditions.TRUE : Conditions.FALSE, reason,
        differ ? message + (warnedOnly ? " (requireFacts: false: the verdicts stand)" : "")
            + " (the status keeps digests; srt-operator report names each fact)"
            : "the compared runs' held-constant facts agree", s.observedGeneration, now);
  }

  /** "1/2 workers ready, router not ready" while starting, else the phase and message. */
  public static String detail(ArmStatus a) {
    ArmPhase phase = a.phase();
    if ((phase == ArmPhase.Starting || phase.serving()) && a.workers != null) {
      String router = a.router != null && a.router.ready ? "router ready" : "router not ready";
      return phase.name().toLowerCase() + ", " + a.workers.ready + "/" + a.workers.total + " workers ready, " + router;
    }
    return phase.name().toLowerCase() + (a.message == null || a.message.isEmpty() ? "" : " (" + a.message + ")");
  }

  /** The message of an arm's (first) failed run, and how many of its runs failed. */
  private static String failure(ArmStatus a) {
    List<dev.srt.operator.api.ArmRun> runs = ArmRuns.all(a);
    List<dev.srt.operator.api.ArmRun> bad = runs.stream().filter(r -> r.phase() == ArmPhase.Failed).toList();
    if (bad.isEmpty()) {
      return a.message;
    }
    String first = bad.get(0).message;
    return (runs.size() > 1 ? bad.size() + " of " + runs.size() + " runs failed; run " + bad.get(0).runId + ": " : "")
        + (first == null ? "failed" : first);
  }

  private static String names(List<ArmStatus> arms) {
    return arms.stream().map(a -> "arm " + a.name).collect(Collectors.joining(", "));
  }

  private static List<Condition> copy(List<Condition> conditions) {
    List<Condition> out = new ArrayList<>();
    for (Condition c : conditions) {
      out.add(new Condition(c.getLastTransitionTime(), c.getMessage(), c.getObservedGeneration(), c.getReason(), c.getStatus(), c.getType()));
    }
    return out;
  }
}
