package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.cli.OperatorCommand;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, finding 1, "Code in the operator's pod": a GpuCluster with {@code transport: local} makes
 * the operator run scripts inside its own pod, whose ServiceAccount reads Secrets. The operator
 * refuses such a cluster unless started with {@code --allow-local-transport}, and refuses custom
 * workloads on clusters that do not allow them.
 */
class CodeInTheOperatorsPodTest {
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
  }

  @AfterEach
  void tearDown() {
    if (reconciler != null) {
      reconciler.close();
    }
    api.close();
  }

  RouterComparisonReconciler reconciler(boolean allowLocal) {
    reconciler = ComparisonFixture.reconciler(client, host, allowLocal, Duration.ofMillis(200));
    return reconciler;
  }

  RouterComparison setUpObjects(String comparisonYaml, String clusterSpec) {
    return ComparisonFixture.comparison(client, NS, comparisonYaml, clusterSpec);
  }

  static String example() {
    return ComparisonFixture.example();
  }

  @Test
  void aLocalClusterIsRefusedWithoutTheSwitchAndNothingRuns() throws Exception {
    RouterComparison rc = setUpObjects(example(), "{mode: direct, transport: local, workDir: /work}");
    RouterComparisonReconciler r = reconciler(false);
    for (int i = 0; i < 3; i++) {
      r.reconcile(rc, null);
    }
    var reachable = Conditions.find(rc.getStatus().conditions, StatusAggregator.CLUSTER_REACHABLE);
    assertThat(reachable.getStatus()).isEqualTo(Conditions.FALSE);
    assertThat(reachable.getReason()).isEqualTo("LocalTransportNotAllowed");
    assertThat(reachable.getMessage()).contains("--allow-local-transport");
    assertThat(host.submitCalls.get()).isZero();
    assertThat(rc.getStatus().arms).allSatisfy(a -> assertThat(a.runId).isNull());
  }

  @Test
  void theSwitchLetsALocalClusterRun() throws Exception {
    RouterComparison rc = setUpObjects(example(), "{mode: direct, transport: local, workDir: /work}");
    RouterComparisonReconciler r = reconciler(true);
    r.reconcile(rc, null);
    r.reconcile(rc, null);
    assertThat(host.submitCalls.get()).isEqualTo(1);
  }

  @Test
  void theClusterProbeShowsTheRefusalWithoutTouchingTheHost() throws Exception {
    setUpObjects(example(), "{mode: direct, transport: local, workDir: /work}");
    GpuCluster cluster = client.resources(GpuCluster.class).inNamespace(NS).withName("h100-box").get();
    var refused = new GpuClusterReconciler(client, new FakeHosts(host), new ClusterPolicy(false), Clock.systemUTC(),
        Duration.ofSeconds(30), new SimpleMeterRegistry()).probe(cluster).iterator().next();
    assertThat(refused.reachable()).isFalse();
    assertThat(refused.reason()).isEqualTo(dev.srt.operator.api.ConditionReason.LocalTransportNotAllowed);
    var allowed = new GpuClusterReconciler(client, new FakeHosts(host), new ClusterPolicy(true), Clock.systemUTC(),
        Duration.ofSeconds(30), new SimpleMeterRegistry()).probe(cluster).iterator().next();
    assertThat(allowed.reachable()).isTrue();
  }

  @Test
  void aCustomWorkloadNeedsTheClustersConsent() throws Exception {
    String custom = Files.readString(Path.of("src/test/resources/fixtures/valid/workload-custom.yaml"));
    RouterComparison rc = setUpObjects(custom, "{mode: slurm, transport: local, workDir: /work, gpusPerNode: 8}");
    rc.getSpec().suspend = false;
    RouterComparisonReconciler r = reconciler(true);
    r.reconcile(rc, null);
    r.reconcile(rc, null);
    var valid = Conditions.find(rc.getStatus().conditions, StatusAggregator.SPEC_VALID);
    assertThat(valid.getStatus()).isEqualTo(Conditions.FALSE);
    assertThat(valid.getMessage()).contains("spec.workload.tool").contains("allowCustomWorkloads");
    assertThat(host.submitCalls.get()).isZero();

    GpuCluster cluster = client.resources(GpuCluster.class).inNamespace(NS).withName("h100-box").get();
    cluster.getSpec().allowCustomWorkloads = true;
    client.resource(cluster).update();
    r.reconcile(rc, null);
    r.reconcile(rc, null);
    assertThat(Conditions.find(rc.getStatus().conditions, StatusAggregator.SPEC_VALID).getStatus()).isEqualTo(Conditions.TRUE);
    assertThat(host.submitCalls.get()).isEqualTo(1);
  }

  @Test
  void theOperatorCommandDefaultsToRefusingAndTheInstallsNeverAllow() throws Exception {
    var cmd = new picocli.CommandLine(new OperatorCommand());
    cmd.parseArgs();
    assertThat(cmd.getCommandSpec().findOption("--allow-local-transport").<Boolean>getValue()).isFalse();
    assertThat(SrtOperator.Settings.defaults().policy().allowLocalTransport()).isFalse();
    List<Path> installs;
    try (Stream<Path> files = Stream.concat(Files.walk(Path.of("manifests")), Files.walk(Path.of("operator")))) {
      // The CRDs' descriptions name the flag; only what starts the operator matters.
      installs = files.filter(Files::isRegularFile).filter(p -> !p.toString().contains("/crds/")).toList();
    }
    assertThat(installs).isNotEmpty();
    for (Path p : installs) {
      assertThat(Files.readString(p)).as(p.toString()).doesNotContain("allow-local-transport");
    }
  }
}
