package dev.srt.operator.reconcile;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.reconcile.StatusAggregator.ClusterState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the scheduler decided in one reconcile: each arm's next status, what must be done for them
 * ({@link Act}s, which the {@link DecisionExecutor} performs), what it learnt that the status shows
 * (a submit that found the host unreachable, the comparison's place in a host's queue, an
 * unresolved secret), and when to look again. It starts from the observed arms and is the
 * scheduler's alone while it decides; the reconcile then only reads it.
 */
final class Decisions {
  /** The arms' next statuses, by name, in the order of the loaded ones. */
  final Map<String, ArmStatus> arms;
  final List<Act> acts = new ArrayList<>();
  /** What a host call said of the cluster, when it contradicts the loaded state; null: the loaded one. */
  ClusterState clusterState;
  /** Waiting for the direct host that another comparison holds; null: not waiting. */
  StatusAggregator.Queued queued;
  String secretEnvProblem;
  /** What the host's prerequisite check says ({@link ComparisonPreflight}); null: not assessed. */
  PrerequisiteCondition prerequisites;
  /** When to reconcile again without an event; null: only when something changes. */
  Duration again;
  /** The arms a rerun has reset already, in this or an earlier pass of the reconcile: a rerun resets each once. */
  final Set<String> rerunDone;

  /**
   * The host actions whose failure this reconcile applied, and when to try each again: no later
   * pass asks for them again, the reconcile after that delay does.
   */
  final Map<HostActions.Key, Duration> failed;

  private Decisions(Map<String, ArmStatus> arms, Set<String> rerunDone, Map<HostActions.Key, Duration> failed) {
    this.arms = new LinkedHashMap<>(arms);
    this.rerunDone = new HashSet<>(rerunDone);
    this.failed = new HashMap<>(failed);
  }

  /** The first pass of a reconcile: from the loaded arms (copies). */
  static Decisions from(ComparisonState s) {
    return new Decisions(s.armsCopy(), Set.of(), Map.of());
  }

  /**
   * Another pass of the same reconcile: from what the last one decided, keeping what it learnt
   * from the failures it applied (their outcomes are forgotten, so no later pass sees them).
   */
  static Decisions after(Decisions before) {
    Decisions d = new Decisions(before.arms, before.rerunDone, before.failed);
    d.clusterState = before.clusterState;
    d.secretEnvProblem = before.secretEnvProblem;
    return d;
  }

  ClusterState clusterState(ComparisonState s) {
    return clusterState != null ? clusterState : s.clusterState;
  }

  void act(Act act) {
    acts.add(act);
  }

  /** Look again after {@code d} at the latest (null: no sooner than decided already). */
  void lookAgainWithin(Duration d) {
    if (d != null && (again == null || d.compareTo(again) < 0)) {
      again = d;
    }
  }
}
