package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.testinfra.PrivateSshd;
import dev.srt.operator.testinfra.TestCluster;
import dev.srt.operator.testinfra.TestComparison;
import dev.srt.operator.testinfra.TestHosts;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operator through a bastion of the test's own ({@link PrivateSshd#bastion}) to the test sshd that
 * only the bastion resolves, with a passphrase-protected key whose passphrase is in the Secret:
 * the GpuCluster is Reachable with its prerequisites met, Unreachable naming the jump host while
 * the bastion is down, Reachable again when it is back. And a comparison on a host without cargo
 * (the bastion itself, a stock PATH): PrerequisitesMet False naming cargo, nothing submitted, until
 * the cluster's path gets a cargo; then its run is submitted.
 */
class BastionPrerequisitesIT {
  static final String NS = "bastion";

  private TestHosts.SshTarget ssh;
  private TestHosts.Bastion shared;
  private PrivateSshd bastion;
  private EmulatedSlurmHost emulated;
  private Path bin;
  private Path rustBin;
  private MockApiServer api;
  private KubernetesClient client;
  private SrtOperator operator;

  @BeforeEach
  void start() throws Exception {
    ssh = TestHosts.ssh();
    shared = TestHosts.bastion();
    assertThat(EmulatedSlurmHost.JAR).as("the shaded jar (mvn package) runs the emulator").exists();
    bastion = PrivateSshd.bastion(shared);
    bastion.start();
    emulated = EmulatedSlurmHost.install("srt-bastion-");
    bin = emulated.emulatorBin();
    rustBin = Files.createDirectories(emulated.base.resolve("rust/bin"));
    for (String tool : List.of("cargo", "rustc")) {
      Files.move(bin.resolve(tool), rustBin.resolve(tool));
    }
    api = new MockApiServer();
    client = api.client;
    secret("login-ssh", Map.of("id_ed25519", Files.readAllBytes(shared.passphraseKey()),
        "passphrase", shared.passphrase().getBytes(StandardCharsets.UTF_8), "known_hosts", Files.readAllBytes(bastion.knownHosts())));
    secret("bastion-ssh", Map.of("id_ed25519", Files.readAllBytes(ssh.keyFile()), "known_hosts", Files.readAllBytes(bastion.knownHosts())));
    operator = new SrtOperator(client, new ClusterConnections(client, new SimpleMeterRegistry()), new SimpleMeterRegistry(),
        new SrtOperator.Settings(Set.of(), null, Duration.ofSeconds(1), Duration.ofMillis(500), new ClusterPolicy(false)));
    operator.start();
  }

  @AfterEach
  void stop() throws Exception {
    try {
      if (operator != null) {
        operator.close();
      }
    } finally {
      if (api != null) {
        api.close();
      }
      if (bastion != null) {
        bastion.close();
      }
      if (emulated != null) {
        emulated.remove();
      }
    }
  }

  private void secret(String name, Map<String, byte[]> data) {
    Map<String, String> encoded = new java.util.LinkedHashMap<>();
    data.forEach((k, v) -> encoded.put(k, EmulatedSlurmHost.b64(v)));
    client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
        .withData(encoded).build()).create();
  }

  private GpuCluster create(TestCluster cluster, String name) {
    String yaml = cluster.mode("direct").workDir(emulated.base.resolve("work-" + name)).connectTimeout("3s")
        .env("SRT_EMULATOR_STATE", emulated.base.resolve("emulator/state")).yaml();
    LoadedResources r = LoadedResources.parse(name + ".yaml", yaml);
    assertThat(r.problems()).as(yaml).isEmpty();
    GpuCluster c = r.clusters().get(0);
    c.getMetadata().setNamespace(NS);
    return client.resource(c).create();
  }

  private Condition clusterCondition(String cluster, String type) {
    GpuCluster c = client.resources(GpuCluster.class).inNamespace(NS).withName(cluster).get();
    return c == null || c.getStatus() == null ? null : Conditions.find(c.getStatus().conditions, type);
  }

  private Condition awaitCluster(String cluster, String type, String status, Duration atMost) {
    await().atMost(atMost).pollInterval(Duration.ofMillis(100)).until(() -> {
      Condition c = clusterCondition(cluster, type);
      return c != null && status.equals(c.getStatus());
    });
    return clusterCondition(cluster, type);
  }

  private RouterComparison comparison(String name) {
    return client.resources(RouterComparison.class).inNamespace(NS).withName(name).get();
  }

  private Condition comparisonCondition(String name) {
    RouterComparison rc = comparison(name);
    return rc == null || rc.getStatus() == null ? null : Conditions.find(rc.getStatus().conditions, PrerequisiteCondition.TYPE);
  }

  private ArmStatus arm(String name) {
    RouterComparison rc = comparison(name);
    return rc == null || rc.getStatus() == null || rc.getStatus().arms == null || rc.getStatus().arms.isEmpty() ? null
        : rc.getStatus().arms.get(0);
  }

  @Test
  void theClusterBehindTheBastionIsUnreachableWhileItIsDownAndRecovers() throws Exception {
    create(TestCluster.named("behind-bastion", new TestHosts.SshTarget(shared.target(), ssh.port(), ssh.user(), ssh.keyFile(),
        bastion.knownHosts())).keyFromSecret("login-ssh").passphraseFromSecret().jump(bastion.host(), bastion.port())
        .path(List.of(bin, rustBin)), "behind-bastion");
    String via = "ssh://root@" + shared.target() + ":" + ssh.port() + " via ssh://root@" + bastion.host() + ":" + bastion.port();
    assertThat(awaitCluster("behind-bastion", GpuClusterReconciler.REACHABLE, Conditions.TRUE, Duration.ofSeconds(30)).getMessage())
        .isEqualTo(via + " answered");
    Condition met = awaitCluster("behind-bastion", PrerequisiteCondition.TYPE, Conditions.TRUE, Duration.ofSeconds(30));
    assertThat(met.getReason()).isEqualTo("Met");
    assertThat(met.getMessage()).matches("all \\d+ requirements met on " + java.util.regex.Pattern.quote(via));

    bastion.stop();
    Condition down = awaitCluster("behind-bastion", GpuClusterReconciler.REACHABLE, Conditions.FALSE, Duration.ofSeconds(15));
    assertThat(down.getReason()).isEqualTo("Unreachable");
    assertThat(down.getMessage()).startsWith("jump host ssh://root@" + bastion.host() + ":" + bastion.port() + ": cannot connect");

    bastion.start();
    awaitCluster("behind-bastion", GpuClusterReconciler.REACHABLE, Conditions.TRUE, Duration.ofSeconds(30));
    GpuCluster c = client.resources(GpuCluster.class).inNamespace(NS).withName("behind-bastion").get();
    assertThat(c.getStatus().toString() + client.v1().events().inNamespace(NS).list().getItems())
        .doesNotContain(shared.passphrase()).doesNotContain("PRIVATE KEY");
  }

  @Test
  void nothingIsSubmittedToAHostWithoutCargoUntilItHasOne() throws Exception {
    TestHosts.SshTarget onBastion = new TestHosts.SshTarget(bastion.host(), bastion.port(), ssh.user(), ssh.keyFile(), bastion.knownHosts());
    create(TestCluster.named("no-rust", onBastion).keyFromSecret("bastion-ssh").path(List.of(bin)), "no-rust");
    RouterComparison needsCargo = LoadedResources.parse("needs-cargo.yaml", TestComparison.oneRouterArm("needs-cargo", "no-rust"))
        .comparisons().get(0);
    needsCargo.getMetadata().setNamespace(NS);
    client.resource(needsCargo).create();

    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> comparisonCondition("needs-cargo") != null && Conditions.FALSE.equals(comparisonCondition("needs-cargo").getStatus()));
    Condition missing = comparisonCondition("needs-cargo");
    assertThat(missing.getReason()).isEqualTo("ProgramMissing");
    assertThat(missing.getMessage()).contains("cargo (on PATH): not found on PATH (needed by sgl-router; fix: install Rust on the host")
        .contains("rustc (on PATH): not found on PATH");
    // What every run needs is there: the cluster itself is fine.
    assertThat(awaitCluster("no-rust", PrerequisiteCondition.TYPE, Conditions.TRUE, Duration.ofSeconds(30)).getReason()).isEqualTo("Met");
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4))
        .until(() -> arm("needs-cargo") != null && arm("needs-cargo").runId == null && "Pending".equals(arm("needs-cargo").phase));
    assertThat(comparison("needs-cargo").getStatus().message).startsWith("waiting for the host's prerequisites: 2 missing on ssh://root@");
    assertThat(emulated.base.resolve("work-no-rust/" + NS)).as("nothing of a run on the host").doesNotExist();

    // The cluster gets a cargo: checked again, and the arm's run is submitted.
    client.resources(GpuCluster.class).inNamespace(NS).withName("no-rust").edit(c -> {
      c.getSpec().path = new ArrayList<>(List.of(bin.toString(), rustBin.toString()));
      return c;
    });
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> arm("needs-cargo") != null && arm("needs-cargo").jobId != null);
    assertThat(comparisonCondition("needs-cargo").getStatus()).isEqualTo(Conditions.TRUE);
    String runId = arm("needs-cargo").runId;
    client.resource(comparison("needs-cargo")).delete();
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> comparison("needs-cargo") == null);
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(OperatorOnTestHost.live(runId)).isEmpty());
  }
}
