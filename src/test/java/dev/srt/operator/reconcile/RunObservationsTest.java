package dev.srt.operator.reconcile;

import dev.srt.operator.run.RunHost;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.srt.operator.host.ActiveRun;
import dev.srt.operator.host.JobState;
import dev.srt.operator.host.JobStatus;
import dev.srt.operator.host.RunEvent;
import dev.srt.operator.host.RunObservation;
import dev.srt.operator.host.RunRef;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.lang.reflect.Proxy;
import dev.srt.operator.testinfra.TestRecords;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When the poller looks at a cluster: at its pollInterval, from poll start to poll start, and no later. */
class RunObservationsTest {
  private static final RunRef RUN = new RunRef("bench", "cmp", "arm", "r00000001");
  private static final ResourceID OWNER = new ResourceID("cmp", "bench");

  private final List<Long> polls = new CopyOnWriteArrayList<>();
  private final List<Long> notified = new CopyOnWriteArrayList<>();
  /** What the host shows: the job state and the events appended so far. */
  private final AtomicReference<JobStatus> job = new AtomicReference<>(JobStatus.of(JobState.RUNNING));
  private final List<RunEvent> written = new CopyOnWriteArrayList<>();
  private RunObservations observations;

  @AfterEach
  void close() {
    if (observations != null) {
      observations.close();
    }
  }

  private static RunEvent event(String name) {
    return new RunEvent(Instant.now(), name, JsonNodeFactory.instance.objectNode().put("event", name));
  }

  private RunHost host() {
    return host(this::poll);
  }

  private static RunHost host(java.util.function.Function<Collection<ActiveRun>, Map<RunRef, RunObservation>> poll) {
    return host(poll, () -> false);
  }

  private static RunHost host(java.util.function.Function<Collection<ActiveRun>, Map<RunRef, RunObservation>> poll,
      java.util.function.BooleanSupplier closed) {
    return (RunHost) Proxy.newProxyInstance(RunHost.class.getClassLoader(), new Class<?>[] {RunHost.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "poll" -> poll.apply(castRuns(args[0]));
          case "isClosed" -> closed.getAsBoolean();
          case "describe", "toString" -> "fake";
          case "mode" -> dev.srt.operator.api.Mode.SLURM;
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          case "close" -> null;
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  @SuppressWarnings("unchecked")
  private static Collection<ActiveRun> castRuns(Object runs) {
    return (Collection<ActiveRun>) runs;
  }

  private Map<RunRef, RunObservation> poll(Collection<ActiveRun> runs) {
    polls.add(System.nanoTime());
    ActiveRun run = runs.iterator().next();
    List<RunEvent> all = new ArrayList<>(written);
    List<RunEvent> fresh = all.subList((int) Math.min(run.eventsOffset(), all.size()), all.size());
    return Map.of(run.run(), new RunObservation(job.get(), List.copyOf(fresh), all.size(), false, false, 0));
  }

  private void start(Duration startingInterval, Duration pollInterval) {
    observations = new RunObservations(id -> notified.add(System.nanoTime()), startingInterval);
    observations.track(OWNER, "bench/c", host(), RUN, TestRecords.of(RUN, "1"), pollInterval);
  }

  private List<Long> gapsMillis(int count) {
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> polls.size() > count);
    List<Long> gaps = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      gaps.add((polls.get(i) - polls.get(i - 1)) / 1_000_000);
    }
    return gaps;
  }

  private static long median(List<Long> values) {
    return values.stream().sorted().toList().get(values.size() / 2);
  }

  @Test
  void aStartingRunIsPolledAtThePollIntervalWhenItIsShorterThanTheStartingInterval() {
    written.add(event("run-started"));
    start(Duration.ofSeconds(1), Duration.ofMillis(300));
    assertThat(median(gapsMillis(5))).isBetween(250L, 600L);
  }

  @Test
  void aStartingRunIsPolledAtTheStartingIntervalWhenThatIsShorter() {
    written.add(event("run-started"));
    start(Duration.ofMillis(200), Duration.ofSeconds(5));
    assertThat(median(gapsMillis(5))).isBetween(150L, 500L);
  }

  @Test
  void aJobWaitingInSlurmsQueueIsPolledAtThePollInterval() {
    job.set(new JobStatus(JobState.PENDING, "Priority", null));
    start(Duration.ofMillis(100), Duration.ofMillis(700));
    assertThat(median(gapsMillis(3))).isBetween(600L, 1200L);
  }

  /** An event written on the host is seen within one poll interval, whatever the moment it is written. */
  @Test
  void anEventReachesTheOwnerWithinOnePollInterval() throws Exception {
    written.add(event("run-started"));
    start(Duration.ofSeconds(1), Duration.ofMillis(500));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !notified.isEmpty());
    List<Long> lags = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Thread.sleep(137); // lands anywhere between two polls
      int seen = notified.size();
      long writtenAt = System.nanoTime();
      written.add(event("phase"));
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> notified.size() > seen);
      lags.add((notified.get(seen) - writtenAt) / 1_000_000);
    }
    assertThat(lags).allSatisfy(lag -> assertThat(lag).isLessThan(800L));
    assertThat(observations.view(RUN).orElseThrow().events()).hasSize(7);
  }

  /**
   * A connection replaced under the poller (the cluster's Secret changed: a rotated key) fails as
   * closed. That is no news of the cluster: it stays as last seen, the owner is told (its reconcile
   * tracks the run on the new connection), and the new connection is polled at once.
   */
  @Test
  void aReplacedConnectionIsNotAnUnreachableCluster() {
    written.add(event("run-started"));
    java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
    observations = new RunObservations(id -> notified.add(System.nanoTime()), Duration.ofMillis(200));
    RunHost replaced = host(runs -> {
      if (closed.get()) {
        throw new IllegalStateException("fake: transport is closed");
      }
      return poll(runs);
    }, closed::get);
    observations.track(OWNER, "bench/c", replaced, RUN, TestRecords.of(RUN, "1"), Duration.ofMillis(200));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> observations.clusterState("bench/c") != null);

    int told = notified.size();
    closed.set(true);
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> notified.size() > told);
    assertThat(observations.clusterState("bench/c").reachable()).isTrue();
    assertThat(observations.clusterState("bench/c").reason()).isEqualTo(dev.srt.operator.api.ConditionReason.Connected);

    int polled = polls.size();
    observations.track(OWNER, "bench/c", host(), RUN, TestRecords.of(RUN, "1"), Duration.ofMillis(200));
    // Not after the 5 s that a failed poll waits.
    Awaitility.await().atMost(Duration.ofSeconds(2)).until(() -> polls.size() > polled);
    assertThat(observations.clusterState("bench/c").reachable()).isTrue();
  }

  /** One host that hangs (a dropped connection waiting for its timeout) does not stop the polls of another. */
  @Test
  void aHangingClusterDelaysNoOther() throws Exception {
    written.add(event("run-started"));
    java.util.concurrent.CountDownLatch hung = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    observations = new RunObservations(id -> notified.add(System.nanoTime()), Duration.ofMillis(200));
    RunRef stuck = new RunRef("bench", "other", "arm", "r00000002");
    observations.track(new ResourceID("other", "bench"), "bench/hung", host(runs -> {
      hung.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Map.of();
    }), stuck, TestRecords.of(stuck, "2"), Duration.ofMillis(200));
    try {
      assertThat(hung.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      observations.track(OWNER, "bench/c", host(), RUN, TestRecords.of(RUN, "1"), Duration.ofMillis(200));
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> polls.size() >= 5);
    } finally {
      release.countDown();
    }
  }
}
