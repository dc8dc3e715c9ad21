package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.host.RunRef;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Comparisons sharing one direct GPU host take it in the order they were created, all arms of one
 * before any of the next; the waiting one says so (phase Queued, its position and who is ahead).
 * Comparisons on a Slurm cluster do not wait for each other: Slurm queues their jobs.
 */
class SharedHostQueueTest {
  static final String NS = "bench";

  MockApiServer api;
  KubernetesClient client;
  FakeHosts.State host;
  RouterComparisonReconciler reconciler;

  @BeforeEach
  void setUp() {
    api = new MockApiServer();
    client = api.client;
    host = new FakeHosts.State();
    reconciler = ComparisonFixture.reconciler(client, host, true, Duration.ofMillis(100));
  }

  @AfterEach
  void tearDown() {
    reconciler.close();
    api.close();
  }

  RouterComparison comparison(String name, String created, String mode) {
    RouterComparison rc = ComparisonFixture.comparison(client, NS,
        ComparisonFixture.example().replace("name: qwen3-32b-routers", "name: " + name),
        "{mode: %s, transport: local, workDir: /work, gpusPerNode: 8}".formatted(mode));
    rc.getMetadata().setCreationTimestamp(created);
    rc.getSpec().arms.removeIf(a -> !a.name.equals("sgl-router") && !a.name.equals("dynamo-kv"));
    return rc;
  }

  void reconcile(RouterComparison... rcs) {
    for (RouterComparison rc : rcs) {
      reconciler.reconcile(rc, null);
    }
  }

  /** Reconciles until the condition holds (the fake host's events arrive through the poller). */
  void until(java.util.function.BooleanSupplier condition, RouterComparison... rcs) {
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
      reconcile(rcs);
      return condition.getAsBoolean();
    });
  }

  @Test
  void aDirectHostRunsOneComparisonAtATimeInArrivalOrder() throws Exception {
    RouterComparison first = comparison("first", "2026-12-01T10:00:00Z", "direct");
    RouterComparison second = comparison("second", "2026-12-01T10:00:05Z", "direct");
    reconcile(first, second, first, second);
    assertThat(host.runs()).extracting(RunRef::comparison).containsOnly("first");
    assertThat(second.getStatus().phase).isEqualTo("Queued");
    assertThat(second.getStatus().queuePosition).isEqualTo(1);
    assertThat(second.getStatus().message).contains("behind bench/first").contains("h100-box");

    host.succeed(host.runOf("sgl-router"));
    until(() -> host.runs().size() == 2, first, second);
    // Between its arms the first comparison keeps the host.
    assertThat(host.runs()).extracting(RunRef::comparison).containsOnly("first");
    assertThat(second.getStatus().phase).isEqualTo("Queued");

    host.succeed(host.runOf("dynamo-kv"));
    until(() -> "Succeeded".equals(first.getStatus().phase), first);
    until(() -> host.runs().stream().anyMatch(r -> r.comparison().equals("second")), second);
    assertThat(second.getStatus().queuePosition).isNull();
    assertThat(second.getStatus().phase).isNotEqualTo("Queued");
  }

  /**
   * The queue lives in memory. A comparison whose next run id is recorded was given the host's
   * turn (ids are only recorded in turn); an operator started again between recording the id and
   * submitting the run must not hand the host to a later comparison that happens to be reconciled
   * first, which would split the first comparison's arms by another's runs.
   */
  @Test
  void aRecordedRunKeepsTheHostsTurnAcrossARestart() throws Exception {
    RouterComparison first = comparison("first", "2026-12-01T10:00:00Z", "direct");
    RouterComparison second = comparison("second", "2026-12-01T10:00:05Z", "direct");
    reconcile(first);
    assertThat(first.getStatus().arms.get(0).runId).as("the run id is recorded").isNotNull();
    assertThat(host.runs()).as("not submitted yet").isEmpty();

    reconciler.close();
    reconciler = ComparisonFixture.reconciler(client, host, true, Duration.ofMillis(100));
    reconcile(second, first, second);
    assertThat(host.runs()).extracting(RunRef::comparison).containsExactly("first");
    assertThat(second.getStatus().phase).isEqualTo("Queued");
    assertThat(second.getStatus().message).contains("behind bench/first");
  }

  @Test
  void slurmQueuesJobsItself() throws Exception {
    RouterComparison first = comparison("first", "2026-12-01T10:00:00Z", "slurm");
    RouterComparison second = comparison("second", "2026-12-01T10:00:05Z", "slurm");
    reconcile(first, second, first, second);
    assertThat(host.runs()).extracting(RunRef::comparison).containsExactlyInAnyOrder("first", "second");
  }
}
