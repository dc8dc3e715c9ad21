package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.config.LoadedResources;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A RouterComparison submits nothing while its host lacks what its plans need
 * ({@code PrerequisitesMet} False, naming it), and submits once a check finds it.
 */
class PrerequisitesGateTest {
  static final String NS = "bench";

  MockApiServer api;
  KubernetesClient client;
  FakeHosts.State host;
  RouterComparisonReconciler reconciler;
  RouterComparison rc;

  @BeforeEach
  void setUp() throws Exception {
    api = new MockApiServer();
    client = api.client;
    host = new FakeHosts.State();
    reconciler = new RouterComparisonReconciler(client, new FakeHosts(host), new ClusterPolicy(true), new EventRecorder(client),
        Clock.systemUTC(), Duration.ofMillis(200), new SimpleMeterRegistry()) {
      @Override
      protected void writeStatus(RouterComparison target, io.javaoperatorsdk.operator.api.reconciler.Context<RouterComparison> context,
          RouterComparisonStatus status) {
        target.setStatus(Mappers.json().convertValue(status, RouterComparisonStatus.class));
      }
    };
    LoadedResources r = LoadedResources.parse("test.yaml", Files.readString(Path.of("examples/router-comparison.yaml")) + "\n---\n" + """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: h100-box}
        spec: {mode: slurm, transport: local, workDir: /work, gpusPerNode: 8}
        """);
    GpuCluster cluster = r.clusters().get(0);
    cluster.getMetadata().setNamespace(NS);
    client.resource(cluster).create();
    rc = r.comparisons().get(0);
    rc.getMetadata().setNamespace(NS);
    rc.getMetadata().setUid("uid-1");
    rc.getMetadata().setGeneration(1L);
  }

  @AfterEach
  void tearDown() {
    reconciler.close();
    api.close();
  }

  private Condition prerequisites() {
    reconciler.reconcile(rc, null);
    return Conditions.find(rc.getStatus().conditions, PrerequisiteCondition.TYPE);
  }

  private ArmStatus arm(String name) {
    return rc.getStatus().arms.stream().filter(a -> a.name.equals(name)).findFirst().orElseThrow();
  }

  @Test
  void nothingIsSubmittedUntilTheHostHasWhatThePlansNeed() {
    host.missing = Set.of("cargo (on PATH)");
    Condition first = prerequisites();
    assertThat(first.getStatus()).isEqualTo(Conditions.UNKNOWN);
    assertThat(first.getReason()).isEqualTo("Checking");
    await().atMost(Duration.ofSeconds(10)).until(() -> Conditions.FALSE.equals(prerequisites().getStatus()));
    Condition missing = prerequisites();
    assertThat(missing.getReason()).isEqualTo("ProgramMissing");
    assertThat(missing.getMessage()).contains("1 missing on fake host: cargo (on PATH): not found on PATH (needed by sgl-router, "
        + "dynamo-kv, dynamo-kv-policy; fix: install Rust on the host");
    for (int i = 0; i < 3; i++) {
      reconciler.reconcile(rc, null);
    }
    assertThat(host.submitCalls).hasValue(0);
    assertThat(rc.getStatus().arms).allSatisfy(a -> assertThat(a.runId).as("no run id is recorded").isNull());
    assertThat(rc.getStatus().phase).isEqualTo("Pending");
    assertThat(rc.getStatus().message).startsWith("waiting for the host's prerequisites: 1 missing on fake host: cargo");
    assertThat(host.checkCalls).as("checked once, not every reconcile").hasValue(1);

    // The host gets cargo and the spec changes: checked again, then the first arm is submitted.
    host.missing = Set.of();
    rc.getSpec().workload.env = new java.util.HashMap<>(java.util.Map.of("BENCH_NOTE", "cargo installed"));
    rc.getMetadata().setGeneration(2L);
    assertThat(prerequisites().getStatus()).as("a changed spec is checked again").isEqualTo(Conditions.UNKNOWN);
    await().atMost(Duration.ofSeconds(10)).until(() -> Conditions.TRUE.equals(prerequisites().getStatus()));
    assertThat(prerequisites().getMessage()).matches("all \\d+ requirements met on fake host");
    // The submit runs off the reconcile thread; the reconcile its end wakes records the job.
    await().atMost(Duration.ofSeconds(10)).until(() -> {
      reconciler.reconcile(rc, null);
      return arm("sgl-router").jobId != null;
    });
    assertThat(host.submitCalls).hasValue(1);
    assertThat(host.checkCalls).hasValue(2);
  }
}
