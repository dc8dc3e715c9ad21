package dev.srt.operator.reconcile;

import dev.srt.operator.run.RunHost;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.jcraft.jsch.JSch;
import com.jcraft.jsch.KeyPair;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.GpuClusterStatus;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunRef;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, finding 7, "Deletion can hang": a comparison's cleanup needs its GpuCluster and the
 * cluster's Secret to cancel its jobs, and deleting a namespace deletes all of them at once. The
 * GpuCluster's finalizer holds it while runs use it, and an open connection outlives its Secret for
 * the cancellations of a cluster being deleted.
 */
class DeletionCannotHangTest {
  static final String NS = "bench";

  MockApiServer api;
  KubernetesClient client;
  FakeHosts.State host;
  RouterComparisonReconciler comparisons;
  GpuClusterReconciler clusters;
  RouterComparison rc;

  @BeforeEach
  void setUp() throws Exception {
    api = new MockApiServer();
    client = api.client;
    host = new FakeHosts.State();
    comparisons = new RouterComparisonReconciler(client, new FakeHosts(host), new ClusterPolicy(true), new EventRecorder(client),
        Clock.systemUTC(), Duration.ofMillis(200), new SimpleMeterRegistry(), Runnable::run) {
      @Override
      protected void writeStatus(RouterComparison target, Context<RouterComparison> context, RouterComparisonStatus status) {
        target.setStatus(Mappers.json().convertValue(status, RouterComparisonStatus.class));
        client.resources(RouterComparison.class).inNamespace(NS).withName(target.getMetadata().getName()).editStatus(r -> {
          r.setStatus(Mappers.json().convertValue(status, RouterComparisonStatus.class));
          return r;
        });
      }
    };
    clusters = new GpuClusterReconciler(client, new FakeHosts(host), new ClusterPolicy(true), Clock.systemUTC(),
        Duration.ofSeconds(30), new SimpleMeterRegistry()) {
      @Override
      protected void writeStatus(GpuCluster cluster, Context<GpuCluster> context, GpuClusterStatus status) {
        cluster.setStatus(status);
      }
    };
    String yaml = Files.readString(Path.of("examples/router-comparison.yaml")) + "\n---\n" + """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: h100-box}
        spec: {mode: slurm, transport: local, workDir: /work, gpusPerNode: 8}
        """;
    LoadedResources r = LoadedResources.parse("test.yaml", yaml);
    GpuCluster cluster = r.clusters().get(0);
    cluster.getMetadata().setNamespace(NS);
    client.resource(cluster).create();
    rc = r.comparisons().get(0);
    rc.getMetadata().setNamespace(NS);
    rc.getMetadata().setGeneration(1L);
    rc = client.resource(rc).create();
  }

  @AfterEach
  void tearDown() {
    comparisons.close();
    api.close();
  }

  GpuCluster cluster() {
    return client.resources(GpuCluster.class).inNamespace(NS).withName("h100-box").get();
  }

  @Test
  void theClusterWaitsWhileAComparisonHasARunOnIt() {
    comparisons.reconcile(rc, null);
    comparisons.reconcile(rc, null);
    RunRef run = host.runOf("sgl-router");
    assertThat(run).isNotNull();

    GpuCluster cluster = cluster();
    var control = clusters.cleanup(cluster, null);
    assertThat(control.isRemoveFinalizer()).isFalse();
    assertThat(control.getScheduleDelay()).contains(GpuClusterReconciler.IN_USE_RECHECK.toMillis());
    var inUse = Conditions.find(cluster.getStatus().conditions, GpuClusterReconciler.IN_USE);
    assertThat(inUse.getReason()).isEqualTo("RunsInFlight");
    assertThat(inUse.getMessage()).contains(rc.getMetadata().getName() + "/sgl-router (" + run.runId() + ")");

    // The namespace goes: the comparison's cleanup cancels through the cluster that is still there.
    assertThat(comparisons.cleanup(rc, null).isRemoveFinalizer()).isTrue();
    assertThat(host.cancelled).containsExactly(run);
    client.resource(rc).withGracePeriod(0).delete();
    assertThat(clusters.cleanup(cluster(), null).isRemoveFinalizer()).isTrue();
  }

  @Test
  void aGpuClusterReconcileThatThrowsShowsInItsStatusUntilOneWorks() {
    GpuCluster cluster = cluster();
    var control = clusters.updateErrorStatus(cluster, null, new IllegalStateException("informer cache not synced"));
    assertThat(control.getResource()).isPresent();
    var degraded = Conditions.find(cluster.getStatus().conditions, GpuClusterReconciler.DEGRADED);
    assertThat(degraded.getStatus()).isEqualTo("True");
    assertThat(degraded.getReason()).isEqualTo("ReconcileError");
    assertThat(degraded.getMessage()).contains("informer cache not synced");

    // The first reconcile of a cluster: no probe has answered yet.
    @SuppressWarnings("unchecked")
    Context<GpuCluster> noProbeYet = (Context<GpuCluster>) java.lang.reflect.Proxy.newProxyInstance(Context.class.getClassLoader(),
        new Class<?>[] {Context.class}, (proxy, method, args) -> method.getName().equals("getSecondaryResource")
            ? java.util.Optional.empty() : null);
    clusters.reconcile(cluster, noProbeYet);
    assertThat(Conditions.find(cluster.getStatus().conditions, GpuClusterReconciler.DEGRADED)).isNull();
  }

  @Test
  void aRecordedRunIdHoldsTheClusterTooAndFinishedRunsDoNot() {
    RouterComparison withRecord = new RouterComparison();
    withRecord.setMetadata(rc.getMetadata());
    withRecord.setSpec(rc.getSpec());
    withRecord.setStatus(new RouterComparisonStatus());
    withRecord.getStatus().arms = List.of(arm("a", "Pending", "r00000001"), arm("b", "Succeeded", "r00000002"),
        arm("c", "Pending", null), arm("d", "Benchmarking", "r00000004"));
    assertThat(GpuClusterReconciler.runsOn("h100-box", List.of(withRecord)))
        .containsExactly(rc.getMetadata().getName() + "/a (r00000001)", rc.getMetadata().getName() + "/d (r00000004)");
    assertThat(GpuClusterReconciler.runsOn("other-cluster", List.of(withRecord))).isEmpty();
  }

  @Test
  void aComparisonStartsNothingNewOnAClusterBeingDeleted() {
    GpuCluster cluster = cluster();
    cluster.getMetadata().setFinalizers(List.of(GpuClusterReconciler.FINALIZER));
    client.resource(cluster).update();
    client.resource(cluster()).delete();
    assertThat(cluster().getMetadata().getDeletionTimestamp()).isNotNull();

    comparisons.reconcile(rc, null);
    comparisons.reconcile(rc, null);
    assertThat(host.submitCalls.get()).isZero();
    var reachable = Conditions.find(rc.getStatus().conditions, StatusAggregator.CLUSTER_REACHABLE);
    assertThat(reachable.getReason()).isEqualTo("ClusterDeleting");
  }

  @Test
  void anOpenConnectionOutlivesItsSecretOnlyWhileTheClusterIsBeingDeleted() throws Exception {
    ByteArrayOutputStream key = new ByteArrayOutputStream();
    KeyPair.genKeyPair(new JSch(), KeyPair.RSA, 2048).writePrivateKey(key);
    client.resource(new SecretBuilder().withNewMetadata().withName("ssh-key").withNamespace(NS).endMetadata()
        .withData(Map.of("id", Base64.getEncoder().encodeToString(key.toByteArray()))).build()).create();
    GpuCluster ssh = LoadedResources.parse("c.yaml", """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: login, namespace: bench, generation: 1}
        spec:
          mode: slurm
          workDir: /work
          ssh: {host: 127.0.0.1, user: u, privateKeySecretRef: {name: ssh-key, key: id}, insecureSkipHostKeyVerification: true}
        """).clusters().get(0);
    // No Secret cache, so the deletion is seen at once (the operator's cache sees it within its TTL).
    try (ClusterConnections connections = new ClusterConnections(client, new SimpleMeterRegistry(), Duration.ZERO)) {
      RunHost open = connections.forCluster(ssh);
      client.secrets().inNamespace(NS).withName("ssh-key").delete();

      assertThatThrownBy(() -> connections.forCluster(ssh)).isInstanceOf(HostException.class).hasMessageContaining("ssh-key");
      ssh.getMetadata().setDeletionTimestamp(Instant.now().toString());
      assertThat(connections.forCluster(ssh)).isSameAs(open);
    }
  }

  static ArmStatus arm(String name, String phase, String runId) {
    ArmStatus a = new ArmStatus();
    a.name = name;
    a.phase = phase;
    a.runId = runId;
    return a;
  }
}
