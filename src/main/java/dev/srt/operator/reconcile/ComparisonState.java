package dev.srt.operator.reconcile;

import dev.srt.operator.run.HostFailures;
import dev.srt.operator.api.ConditionReason;
import dev.srt.operator.api.ArmReason;
import dev.srt.operator.api.Mode;
import dev.srt.operator.run.RunHost;
import dev.srt.operator.api.Api;
import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.config.Durations;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.plan.SpecHash;
import dev.srt.operator.reconcile.StatusAggregator.ClusterState;
import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.run.Runs;
import dev.srt.operator.run.ArmRuns;
import dev.srt.operator.run.LevelTables;
import dev.srt.operator.api.ArmRun;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one reconcile knows of a comparison before it decides anything, fixed once loaded: its spec
 * problems, its GpuCluster and host, the arms' statuses as last written (copies, which nothing
 * changes), the cluster's reachability and whether a rerun was asked for. The observer reads the
 * runs against it, the scheduler decides from it ({@link Decisions}), and the status is derived from
 * it and the decisions ({@link StatusRecorder}).
 */
final class ComparisonState {
  final RouterComparison rc;
  final String who;
  final Instant now;
  final String ns;
  final String name;
  final ResourceID id;
  final long generation;
  final GpuCluster cluster;
  final List<Problem> specErrors;
  final ClusterState clusterState;
  final RunHost host;
  /** The arms as last written, in the spec's order, then removed arms still watched; never changed. */
  final Map<String, ArmStatus> arms;
  final String observedRerun;
  final boolean rerun;
  /** The GpuCluster is being deleted: its runs are watched (and cancelled) but none is started. */
  final boolean clusterDeleting;
  /**
   * Every GpuCluster of the comparison's namespace, read when a run is submitted: no Secret that
   * one of them logs in with is resolved as a secret variable ({@link SecretEnvResolver}).
   */
  final java.util.function.Supplier<List<GpuCluster>> clustersOfNamespace;

  private ComparisonState(Loader l, java.util.function.Supplier<List<GpuCluster>> clustersOfNamespace) {
    this.rc = l.rc;
    this.who = "RouterComparison " + rc.getMetadata().getNamespace() + "/" + rc.getMetadata().getName();
    this.now = l.now;
    this.ns = rc.getMetadata().getNamespace();
    this.name = rc.getMetadata().getName();
    this.id = ResourceID.fromResource(rc);
    this.generation = l.generation;
    this.cluster = l.cluster;
    this.specErrors = List.copyOf(l.specErrors);
    this.clusterState = l.clusterState;
    this.host = l.host;
    this.arms = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(l.arms));
    this.observedRerun = l.observedRerun;
    this.rerun = l.rerun;
    this.clusterDeleting = l.clusterDeleting;
    this.clustersOfNamespace = clustersOfNamespace;
  }

  /**
   * Reads the comparison, its previous arm statuses, its GpuCluster (by name, from {@code clusters})
   * and that cluster's host; {@code clustersOfNamespace} lists every GpuCluster of its namespace
   * (asked only when a run is submitted).
   */
  static ComparisonState load(RouterComparison rc, Instant now, java.util.function.Function<String, GpuCluster> clusters,
      java.util.function.Supplier<List<GpuCluster>> clustersOfNamespace, Hosts hosts, ClusterPolicy policy,
      RunObservations observations) {
    Loader l = new Loader(rc, now);
    l.load(clusters, hosts, policy, observations);
    return new ComparisonState(l, clustersOfNamespace);
  }

  /** The arms' statuses, each a fresh copy the caller may change. */
  Map<String, ArmStatus> armsCopy() {
    Map<String, ArmStatus> copy = new LinkedHashMap<>();
    arms.forEach((n, a) -> copy.put(n, copy(a)));
    return copy;
  }

  /**
   * Whether {@code runId} is the arm's run id as last written: only such a run is submitted, so a
   * crash between choosing an id and writing it never leaves a job that no status names.
   */
  boolean persisted(String arm, String runId) {
    ArmStatus written = arms.get(arm);
    return runId != null && written != null && runId.equals(written.runId);
  }

  private static final class Loader {
    final RouterComparison rc;
    final Instant now;
    final long generation;
    final String ns;
    GpuCluster cluster;
    List<Problem> specErrors = new ArrayList<>();
    ClusterState clusterState;
    RunHost host;
    final Map<String, ArmStatus> arms = new LinkedHashMap<>();
    String observedRerun;
    boolean rerun;
    boolean clusterDeleting;

    Loader(RouterComparison rc, Instant now) {
      this.rc = rc;
      this.now = now;
      this.ns = rc.getMetadata().getNamespace();
      this.generation = rc.getMetadata().getGeneration() == null ? 0 : rc.getMetadata().getGeneration();
    }

    void load(java.util.function.Function<String, GpuCluster> clusters, Hosts hosts, ClusterPolicy policy, RunObservations observations) {
      RouterComparisonStatus old = rc.getStatus();
      Map<String, ArmStatus> previous = new HashMap<>();
      if (old != null && old.arms != null) {
        old.arms.forEach(a -> previous.put(a.name, copy(a)));
      }
      for (ArmSpec arm : rc.getSpec() == null ? List.<ArmSpec>of() : rc.getSpec().arms) {
        ArmStatus a = previous.remove(arm.name);
        if (a != null) {
          // A status written before runs were kept: its finished run is the arm's first.
          ArmRuns.record(a);
        }
        arms.put(arm.name, a != null ? a : pending(arm.name));
      }
      // Arms removed from the spec: keep watching one that still runs until it is cancelled, and
      // keep reporting its cancellation until the spec changes again.
      boolean sameGeneration = old != null && old.observedGeneration != null && old.observedGeneration == generation;
      previous.values().stream()
          .filter(a -> ArmRuns.holdsHost(a) || (sameGeneration && a.reason() == ArmReason.ArmRemoved))
          .forEach(a -> arms.put(a.name, a));
      observedRerun = old == null ? null : old.observedRerun;
      String token = rc.getMetadata().getAnnotations() == null ? null : rc.getMetadata().getAnnotations().get(Api.RERUN_ANNOTATION);
      rerun = token != null && !token.equals(observedRerun);
      if (rerun) {
        observedRerun = token;
      }

      String clusterName = rc.getSpec() == null || rc.getSpec().clusterRef == null ? null : rc.getSpec().clusterRef.name;
      cluster = clusterName == null ? null : clusters.apply(clusterName);
      specErrors = new ArrayList<>(Validator.validate(rc, cluster).stream().filter(Problem::isError).toList());
      specErrors.addAll(policy.problems(rc, cluster));
      if (cluster == null) {
        clusterState = new ClusterState(false, ConditionReason.ClusterNotFound, "GpuCluster " + clusterName + " not found in namespace " + ns);
        return;
      }
      List<Problem> clusterErrors = Validator.validate(cluster).stream().filter(Problem::isError).toList();
      if (!clusterErrors.isEmpty()) {
        clusterState = new ClusterState(false, ConditionReason.ClusterInvalid, "GpuCluster " + clusterName + ": "
            + clusterErrors.stream().map(Problem::describe).reduce((x, y) -> x + "; " + y).orElse(""));
        return;
      }
      var refusal = policy.refusal(cluster);
      if (refusal.isPresent()) {
        clusterState = new ClusterState(false, refusal.get().reason(), "GpuCluster " + clusterName + ": " + refusal.get().message());
        return;
      }
      clusterDeleting = cluster.getMetadata().getDeletionTimestamp() != null;
      try {
        cluster = policy.preparer().prepare(cluster);
        host = hosts.forCluster(cluster);
        ClusterState polled = observations.clusterState(ns + "/" + cluster.getMetadata().getName());
        clusterState = polled != null ? polled : new ClusterState(null, ConditionReason.Probing, "connecting to " + host.describe());
      } catch (ClusterSecretException e) {
        clusterState = new ClusterState(false, e.reason(), "GpuCluster " + clusterName + ": " + e.getMessage());
      } catch (HostException e) {
        clusterState = new ClusterState(false, HostFailures.reason(e.kind(), cluster.getSpec().mode()), e.getMessage());
      }
    }
  }

  /** Every run the spec asks for, in its order; stable across restarts (seeded by the object's identity and generation). */
  List<Runs.Slot> schedule() {
    return Runs.schedule(rc.getSpec(), rc.getSpec().arms.stream().map(a -> a.name).toList(), seed());
  }

  long seed() {
    return Runs.seed(rc.getMetadata().getUid(), generation);
  }

  boolean specHasArm(String arm) {
    return rc.getSpec() != null && rc.getSpec().arms.stream().anyMatch(a -> a.name.equals(arm));
  }

  String specHash(String arm) {
    ArmSpec spec = rc.getSpec().arms.stream().filter(a -> a.name.equals(arm)).findFirst().orElseThrow();
    return SpecHash.of(rc.getSpec(), spec, cluster == null ? null : cluster.getSpec());
  }

  RunPlan planFor(String arm) {
    return Planner.plan(rc, cluster, arm, null);
  }

  RunRef ref(ArmStatus a) {
    return new RunRef(ns, name, a.name, a.runId);
  }

  String clusterKey() {
    return ns + "/" + cluster.getMetadata().getName();
  }

  /** A direct host runs one comparison at a time (Slurm queues jobs itself). */
  boolean sharedHost() {
    return cluster.getSpec().mode() == Mode.DIRECT;
  }

  Instant arrival() {
    String created = rc.getMetadata().getCreationTimestamp();
    return created == null ? Instant.EPOCH : Instant.parse(created);
  }

  Duration pollInterval() {
    return Durations.parse(cluster.getSpec().pollInterval, Duration.ofSeconds(5));
  }

  static ArmStatus pending(String arm) {
    ArmStatus a = new ArmStatus();
    a.name = arm;
    a.phase(ArmPhase.Pending);
    return a;
  }

  static ArmStatus copy(ArmStatus a) {
    ArmStatus copy = Mappers.json().convertValue(a, ArmStatus.class);
    // The status keeps a ladder's levels as tables (StatusBudget); the verdicts read them as levels.
    (copy.runs == null ? List.<ArmRun>of() : copy.runs).forEach(LevelTables::unpack);
    return copy;
  }
}
