package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.ArmPhase;
import dev.srt.operator.api.ArmReason;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.RunRef;
import dev.srt.operator.run.RunTracker;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler decides from what was loaded and observed alone: it calls no host, changes nothing
 * it was given, and what it wants done comes back as acts. Observations are written by hand here,
 * so each decision is shown against exactly what it saw.
 */
class ArmSchedulerTest {
  static final String NS = "bench";

  MockApiServer api;
  KubernetesClient client;
  FakeHosts.State host;
  RunObservations observations;
  ComparisonPreflight preflight;
  ArmScheduler scheduler;
  GpuCluster cluster;
  RouterComparison rc;

  @BeforeEach
  void setUp() {
    api = new MockApiServer();
    client = api.client;
    host = new FakeHosts.State();
    observations = new RunObservations(id -> {}, Duration.ofMillis(200), Clock.systemUTC());
    preflight = new ComparisonPreflight(id -> {}, Clock.systemUTC(), ComparisonPreflight.EVERY);
    scheduler = new ArmScheduler(client, new ClusterQueue(id -> {}), preflight);
    rc = ComparisonFixture.comparison(client, NS, ComparisonFixture.example(), ComparisonFixture.SLURM_LOCAL);
    cluster = client.resources(GpuCluster.class).inNamespace(NS).withName("h100-box").get();
  }

  @AfterEach
  void tearDown() {
    observations.close();
    preflight.close();
    api.close();
  }

  ComparisonState load() {
    return ComparisonState.load(rc, Clock.systemUTC().instant(), name -> cluster, () -> List.of(cluster), new FakeHosts(host), new ClusterPolicy(true),
        observations);
  }

  static Observation nothingSeen() {
    return new Observation(Map.of(), new HostActions.Snapshot(Set.of(), Map.of()));
  }

  /** A status whose first arm holds {@code arm}. */
  void written(ArmStatus arm) {
    RouterComparisonStatus s = new RouterComparisonStatus();
    s.observedGeneration = 1L;
    s.arms.add(arm);
    rc.setStatus(s);
  }

  /** The first arm's run {@code runId}, job {@code jobId}, benchmarking, as the status last written holds it. */
  ArmStatus benchmarking(String runId, String jobId, String specHash) {
    ArmStatus running = ComparisonState.pending("sgl-router");
    running.phase(ArmPhase.Benchmarking);
    running.runId = runId;
    running.jobId = jobId;
    running.specHash = specHash;
    written(running);
    return running;
  }

  @Test
  void aWrittenRunIdIsSubmittedAsAnActAndNoHostIsCalledWhileDeciding() {
    ArmStatus pending = ComparisonState.pending("sgl-router");
    pending.runId = "r0000001a";
    written(pending);
    ComparisonState state = load();
    String before = Mappers.json().valueToTree(state.arms).toString();

    Decisions first = scheduler.decide(state, null, nothingSeen());
    Decisions again = scheduler.decide(state, null, nothingSeen());

    RunRef ref = new RunRef(NS, rc.getMetadata().getName(), "sgl-router", "r0000001a");
    assertThat(first.acts).filteredOn(Act.Submit.class::isInstance).extracting(a -> ((Act.Submit) a).run()).containsExactly(ref);
    assertThat(again.acts).filteredOn(Act.Submit.class::isInstance).hasSize(1);
    assertThat(host.submitCalls.get()).as("deciding submits nothing").isZero();
    assertThat(Mappers.json().valueToTree(state.arms).toString()).as("the loaded arms are never changed").isEqualTo(before);
    assertThat(first.again).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void aRunIdChosenInThisReconcileIsNotSubmittedBeforeItIsWritten() {
    ComparisonState state = load();
    Decisions chosen = scheduler.decide(state, null, nothingSeen());
    String runId = chosen.arms.get("sgl-router").runId;
    assertThat(runId).startsWith("r");
    assertThat(chosen.acts).noneMatch(Act.Submit.class::isInstance);

    // A second pass of the same reconcile (after host actions that ended at once) still waits for the write.
    Decisions second = scheduler.decide(state, chosen, nothingSeen());
    assertThat(second.arms.get("sgl-router").runId).isEqualTo(runId);
    assertThat(second.acts).noneMatch(Act.Submit.class::isInstance);
    assertThat(second.again).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void aCancelIsAskedForOnceAndItsOutcomeIsAppliedWhenSeen() {
    ArmStatus running = benchmarking("r0000002b", "42", "the spec before it changed");
    ComparisonState state = load();
    RunRef ref = new RunRef(NS, rc.getMetadata().getName(), "sgl-router", "r0000002b");

    Decisions asked = scheduler.decide(state, null, nothingSeen());
    assertThat(asked.acts).filteredOn(Act.Cancel.class::isInstance).containsExactly(new Act.Cancel(state.id, ref, state.host, "42",
        new CancelReason(ArmReason.SpecChanged, "the arm's spec changed")));
    assertThat(asked.arms.get("sgl-router").message).startsWith("cancelling run r0000002b");

    Observation stillRunning = new Observation(Map.of(), new HostActions.Snapshot(Set.of(new HostActions.Key(ref, HostActions.Kind.CANCEL)),
        Map.of()));
    assertThat(scheduler.decide(state, null, stillRunning).acts).as("not asked twice").noneMatch(Act.Cancel.class::isInstance);

    Observation cancelled = new Observation(Map.of(), new HostActions.Snapshot(Set.of(),
        Map.of(new HostActions.Key(ref, HostActions.Kind.CANCEL), new HostActions.Outcome(state.now, null, null))));
    Decisions applied = scheduler.decide(state, null, cancelled);
    assertThat(applied.acts).contains(new Act.Untrack(ref), new Act.Forget(ref, HostActions.Kind.CANCEL),
        new Act.Forget(ref, HostActions.Kind.SUBMIT));
    assertThat(applied.acts).filteredOn(Act.Event.class::isInstance).extracting(a -> ((Act.Event) a).reason())
        .containsExactly(EventReason.Cancelled);
    assertThat(applied.arms.get("sgl-router").phase()).isEqualTo(ArmPhase.Pending);
    assertThat(applied.arms.get("sgl-router").reason()).isEqualTo(ArmReason.SpecChanged);
    assertThat(host.cancelled).as("deciding cancels nothing").isEmpty();

    // The poller may see the cancelled job end before the cancel's outcome is applied: the
    // outcome still says why the run ended.
    ArmStatus ended = ComparisonState.copy(running);
    ended.phase(ArmPhase.Cancelled);
    ended.reason(null);
    Observation both = new Observation(Map.of("sgl-router", new RunTracker.Step(ended, null, Set.of(), null)),
        cancelled.actions());
    Decisions raced = scheduler.decide(state, null, both);
    assertThat(raced.arms.get("sgl-router").reason()).isEqualTo(ArmReason.SpecChanged);
    assertThat(raced.acts).filteredOn(Act.Event.class::isInstance).extracting(a -> ((Act.Event) a).reason())
        .containsExactly(EventReason.Cancelled);
  }

  /**
   * A cancel asked for a reason that is gone when it ends (a rerun is seen by the reconcile that
   * asks for the cancel only): the run still ended because of it, with its event and reason, and
   * runs again; the poller's sight of the job's end waits for the cancel's outcome meanwhile.
   */
  @Test
  void aCancelEndsTheRunWithTheReasonItWasAskedForEvenWhenTheReasonIsGone() {
    ArmStatus running = benchmarking("r0000003c", "43", load().specHash("sgl-router"));
    ComparisonState state = load();
    assertThat(state.rerun).as("the rerun was handled by an earlier reconcile").isFalse();
    RunRef ref = new RunRef(NS, rc.getMetadata().getName(), "sgl-router", "r0000003c");
    HostActions.Key cancel = new HostActions.Key(ref, HostActions.Kind.CANCEL);
    Map<HostActions.Key, CancelReason> why = Map.of(cancel, new CancelReason(ArmReason.RerunRequested, "a rerun was requested"));
    ArmStatus ended = ComparisonState.copy(running);
    ended.phase(ArmPhase.Cancelled);
    Map<String, RunTracker.Step> polled = Map.of("sgl-router", new RunTracker.Step(ended, null, Set.of(), null));

    Decisions whileRunning = scheduler.decide(state, null, new Observation(polled, new HostActions.Snapshot(Set.of(cancel), Map.of(), why)));
    assertThat(whileRunning.arms.get("sgl-router").phase()).as("the poller's end waits").isEqualTo(ArmPhase.Benchmarking);
    assertThat(whileRunning.arms.get("sgl-router").message).isEqualTo("cancelling run r0000003c (a rerun was requested)");
    assertThat(whileRunning.acts).noneMatch(Act.Cancel.class::isInstance).noneMatch(Act.Untrack.class::isInstance);

    Decisions d = scheduler.decide(state, null, new Observation(polled,
        new HostActions.Snapshot(Set.of(), Map.of(cancel, new HostActions.Outcome(state.now, null, null)), why)));
    assertThat(d.acts).contains(new Act.Untrack(ref), new Act.Forget(ref, HostActions.Kind.CANCEL));
    assertThat(d.acts).filteredOn(Act.Event.class::isInstance).extracting(a -> ((Act.Event) a).message())
        .containsExactly("arm sgl-router: run r0000003c cancelled (RerunRequested): a rerun was requested");
    assertThat(d.arms.get("sgl-router").phase()).as("and runs again").isEqualTo(ArmPhase.Pending);
    assertThat(d.arms.get("sgl-router").reason()).isEqualTo(ArmReason.RerunRequested);
    assertThat(d.acts).noneMatch(Act.Cancel.class::isInstance);
  }

  /** A cancel asked for without a reason (the comparison's deletion) does not hold the poller's sight of the run's end. */
  @Test
  void aCancelWithoutAReasonLetsThePollerEndTheRun() {
    ArmStatus running = benchmarking("r0000003c", "43", load().specHash("sgl-router"));
    ComparisonState state = load();
    RunRef ref = new RunRef(NS, rc.getMetadata().getName(), "sgl-router", "r0000003c");
    ArmStatus ended = ComparisonState.copy(running);
    ended.phase(ArmPhase.Cancelled);
    Observation seen = new Observation(Map.of("sgl-router", new RunTracker.Step(ended, null, Set.of(), null)),
        new HostActions.Snapshot(Set.of(), Map.of(new HostActions.Key(ref, HostActions.Kind.CANCEL), new HostActions.Outcome(state.now, null, null))));

    Decisions d = scheduler.decide(state, null, seen);

    assertThat(d.acts).contains(new Act.Untrack(ref), new Act.Forget(ref, HostActions.Kind.CANCEL));
    assertThat(d.arms.get("sgl-router").phase()).as("cancelled runs run again").isEqualTo(ArmPhase.Pending);
    assertThat(d.acts).noneMatch(Act.Cancel.class::isInstance).noneMatch(Act.Event.class::isInstance);
  }

  @Test
  void aFailedSubmitIsTriedAgainByALaterReconcileNotByALaterPass() {
    ArmStatus pending = ComparisonState.pending("sgl-router");
    pending.runId = "r0000004d";
    written(pending);
    ComparisonState state = load();
    RunRef ref = new RunRef(NS, rc.getMetadata().getName(), "sgl-router", "r0000004d");
    Observation refused = new Observation(Map.of(), new HostActions.Snapshot(Set.of(), Map.of(new HostActions.Key(ref, HostActions.Kind.SUBMIT),
        new HostActions.Outcome(state.now, null, new dev.srt.operator.host.HostException(
            dev.srt.operator.host.HostException.Kind.UNREACHABLE, "connection refused")))));

    Decisions applied = scheduler.decide(state, null, refused);
    assertThat(applied.acts).contains(new Act.Forget(ref, HostActions.Kind.SUBMIT)).noneMatch(Act.Submit.class::isInstance);
    assertThat(applied.arms.get("sgl-router").message).isEqualTo("submit failed, will retry: connection refused");
    assertThat(applied.clusterState.reachable()).isFalse();
    assertThat(applied.again).isEqualTo(ArmScheduler.RETRY);

    // A later pass of the same reconcile no longer sees the outcome (forgotten) and still waits.
    Decisions second = scheduler.decide(state, applied, nothingSeen());
    assertThat(second.acts).noneMatch(Act.Submit.class::isInstance);
    assertThat(second.again).isEqualTo(ArmScheduler.RETRY);
    assertThat(second.clusterState).isEqualTo(applied.clusterState);
    assertThat(second.arms.get("sgl-router").message).isEqualTo("submit failed, will retry: connection refused");
  }

  @Test
  void aRerunResetsEachArmOnceInAReconcileOfManyPasses() {
    ArmStatus done = ComparisonState.pending("sgl-router");
    done.phase(ArmPhase.Succeeded);
    done.runId = "r0000003c";
    written(done);
    rc.getMetadata().setAnnotations(Map.of(dev.srt.operator.api.Api.RERUN_ANNOTATION, "again-1"));
    ComparisonState state = load();
    assertThat(state.rerun).isTrue();

    Decisions first = scheduler.decide(state, null, nothingSeen());
    String chosen = first.arms.get("sgl-router").runId;
    assertThat(chosen).as("reset, then a new run id chosen").isNotNull().isNotEqualTo("r0000003c");
    Decisions second = scheduler.decide(state, first, nothingSeen());
    assertThat(second.arms.get("sgl-router").runId).as("not reset a second time").isEqualTo(chosen);
    assertThat(second.acts).as("nor its new run cancelled").noneMatch(Act.Cancel.class::isInstance);
  }

  @Test
  void theStatusIsDerivedFromTheDecisionsNotFromTheLoadedArms() {
    ComparisonState state = load();
    Decisions chosen = scheduler.decide(state, null, nothingSeen());
    RouterComparisonStatus status = StatusRecorder.status(state, chosen);
    assertThat(status.arms).extracting(a -> a.name).startsWith("sgl-router");
    assertThat(status.arms.get(0).runId).isEqualTo(chosen.arms.get("sgl-router").runId).isNotNull();
    assertThat(status.arms.get(0).message).startsWith("submitting run ");
    assertThat(state.arms.get("sgl-router").runId).isNull();
  }
}
