package dev.srt.operator.reconcile;

import static dev.srt.operator.reconcile.OperatorEndToEndIT.processesOf;
import static dev.srt.operator.reconcile.OperatorEndToEndIT.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.emulator.ListenAddress;
import dev.srt.operator.testinfra.PrivateSshd;
import dev.srt.operator.testinfra.TestHosts;
import io.fabric8.kubernetes.api.model.Condition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The way to the cluster fails mid-run while its Slurm job runs on: the sshd stops for a minute,
 * or the GpuCluster's SSH Secret is deleted or its key replaced by one the host refuses. The
 * comparison says so in {@code ClusterReachable} (with a reason that says what to fix), the
 * operator carries on at its cadence without a storm of failed reconciles, and when the way is
 * back the same run goes on: no second job, no second run. Against an sshd of the test's own
 * ({@link PrivateSshd}) and the {@code multinode} partition, whose nodes have loopbacks of their
 * own: the tests wait out the outage beside the other integration tests (docs/testing.md).
 */
@Execution(ExecutionMode.CONCURRENT)
@ResourceLock(TestHosts.MULTINODE_PARTITION)
class ClusterFaultsIT {
  static final String NAME = "cluster-faults";
  /** How long the sshd stays down (the figure). */
  static final Duration OUTAGE = Duration.ofSeconds(60);
  /** Two polls (500 ms each) plus the reconcile and status write they trigger, on a busy 2-core machine. */
  static final Duration TWO_POLLS = Duration.ofSeconds(4);
  /** The emulated servers listen on their node's address, where the gates probe them (as in MultiNodeSlurmIT). */
  static final Map<String, String> NODE_LISTEN = Map.of(ListenAddress.VAR, "node");

  TestHosts.SshTarget shared;
  PrivateSshd sshd;
  TestHosts.SshTarget target;
  InJvmOperator op;
  Path wrongKeyDir;

  String partition;

  @BeforeEach
  void start() throws Exception {
    partition = TestHosts.requireMultiNodeSlurm().name();
    shared = TestHosts.ssh();
    sshd = PrivateSshd.of(shared);
    sshd.start();
    target = sshd.target(shared);
    op = new InJvmOperator(target);
  }

  @AfterEach
  void stop() throws Exception {
    try {
      if (op != null) {
        RouterComparison rc = op.rc(NAME);
        if (rc != null) {
          // Whatever the test left, the operator cancels on delete (the way to the host restored).
          sshd.start();
          op.client.secrets().inNamespace(InJvmOperator.NS).resource(InJvmOperator.keySecret(shared.keyFile(), target.knownHostsFile()))
              .createOr(r -> r.update());
          op.client.resource(rc).delete();
          await().atMost(Duration.ofSeconds(60)).until(() -> op.rc(NAME) == null);
        }
        op.close();
      }
    } finally {
      if (sshd != null) {
        sshd.close();
      }
      if (wrongKeyDir != null) {
        run(List.of("rm", "-rf", wrongKeyDir.toString()));
      }
    }
  }

  static String comparison(String healthTimeout) {
    return InJvmOperator.comparison(NAME, healthTimeout, InJvmOperator.sglRouterArm("sgl-router", "cache_aware"));
  }

  @Test
  void sshdDownForAMinuteThenTheSameRunCompletes() throws Exception {
    op.apply(target, partition, NODE_LISTEN, comparison("2m"));
    ArmStatus running = awaitArm(a -> List.of("Starting", "Ready", "Benchmarking").contains(a.phase) && a.jobId != null);
    assertThat(reachable().getStatus()).isEqualTo("True");

    sshd.stop();
    await().atMost(TWO_POLLS).pollInterval(Duration.ofMillis(100)).until(() -> "False".equals(reachable().getStatus()));
    assertThat(reachable().getReason()).isEqualTo("Unreachable");
    assertThat(reachable().getMessage()).contains("127.0.0.1:" + sshd.port());
    assertThat(op.events(EventReason.ClusterUnreachable)).hasSize(1);
    // The job runs on without us; the comparison says the cluster is unreachable all along.
    await().during(OUTAGE).atMost(OUTAGE.plusSeconds(10)).pollInterval(Duration.ofSeconds(1))
        .until(() -> "False".equals(reachable().getStatus()) && running.runId.equals(op.arm(NAME, "sgl-router").runId));
    assertThat(op.operator.healthy()).isTrue();

    sshd.start();
    await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> "True".equals(reachable().getStatus()));
    await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
      RouterComparison rc = op.rc(NAME);
      assertThat(Conditions.isTrue(rc.getStatus().conditions, "Complete")).as("%s", op.client.getKubernetesSerialization().asYaml(rc.getStatus())).isTrue();
    });
    ArmStatus done = op.arm(NAME, "sgl-router");
    assertThat(done.phase).as(done.message).isEqualTo("Succeeded");
    assertThat(done.runId).isEqualTo(running.runId);
    assertThat(done.jobId).isEqualTo(running.jobId);
    assertThat(done.runs).hasSize(1);
    assertThat(op.events(EventReason.Submitted)).hasSize(1);
    assertThat(op.events(EventReason.ReconcileFailed)).isEmpty();
    assertThat(slurmJobsOf(running.runId)).isEqualTo("1");
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(run(List.of("squeue", "--states=all", "-h", "-j", running.jobId, "-o", "%T")).strip()).isEqualTo("COMPLETED"));
    assertThat(processesOf(running.runId)).isEmpty();
  }

  @Test
  void secretDeletedOrKeyRotatedMidRunIsAClearConditionAndRecovers() throws Exception {
    // Engines that never become healthy keep the run in Starting for the whole test.
    op.apply(target, partition, Map.of(ListenAddress.VAR, "node", "SRT_EMULATOR_STARTUP_DELAY_MS", "600000"), comparison("5m"));
    ArmStatus running = awaitArm(a -> "Starting".equals(a.phase) && a.jobId != null);
    String key = Files.readString(shared.keyFile());

    op.client.secrets().inNamespace(InJvmOperator.NS).withName(InJvmOperator.SECRET).delete();
    awaitUnreachable("SecretNotFound", "Secret " + InJvmOperator.SECRET + " not found in namespace " + InJvmOperator.NS, key);
    restoreAndAwaitReachable(running);

    wrongKeyDir = Files.createTempDirectory(Path.of("/tmp"), "srt-wrong-key-");
    Path wrongKey = wrongKeyDir.resolve("id_ed25519");
    run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "not-authorized", "-f", wrongKey.toString()));
    op.client.secrets().inNamespace(InJvmOperator.NS).resource(InJvmOperator.keySecret(wrongKey, target.knownHostsFile())).update();
    awaitUnreachable("AuthFailed", "the private key of Secret " + InJvmOperator.SECRET + ", key id_ed25519", Files.readString(wrongKey));
    restoreAndAwaitReachable(running);

    // No crash loop: no reconcile failed, and the one run is still the arm's.
    assertThat(op.events(EventReason.ReconcileFailed)).isEmpty();
    assertThat(op.operator.healthy()).isTrue();
    assertThat(op.events(EventReason.Submitted)).hasSize(1);
    assertThat(slurmJobsOf(running.runId)).isEqualTo("1");
    assertThat(run(List.of("squeue", "--states=all", "-h", "-j", running.jobId, "-o", "%T")).strip()).isEqualTo("RUNNING");

    op.client.resource(op.rc(NAME)).delete();
    await().atMost(Duration.ofSeconds(60)).until(() -> op.rc(NAME) == null);
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      assertThat(run(List.of("squeue", "--states=all", "-h", "-j", running.jobId, "-o", "%T")).strip()).isEqualTo("CANCELLED");
      assertThat(processesOf(running.runId)).isEmpty();
    });
  }

  /**
   * ClusterReachable False with {@code reason}, its message containing {@code naming} and none of
   * the key; the GpuCluster (probed every 10 s, Secrets read at most every 10 s) says so too.
   */
  void awaitUnreachable(String reason, String naming, String key) {
    java.util.Set<String> seen = new java.util.LinkedHashSet<>();
    await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
      Condition c = reachable();
      seen.add(c.getReason() + ": " + c.getMessage());
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isEqualTo(reason);
      assertThat(c.getMessage()).contains(naming);
    });
    String keyBody = key.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
    assertThat(op.client.resources(RouterComparison.class).inNamespace(InJvmOperator.NS).withName(NAME).get().toString()
        + op.events()).doesNotContain(keyBody).doesNotContain("PRIVATE KEY");
    // The connection the changed Secret replaced is no news of the cluster: no "transport is closed" on the way.
    assertThat(seen).noneSatisfy(m -> assertThat(m).contains("closed"));
    // One Event per reason and comparison: it tells of the first way the cluster was lost since it
    // was last reachable.
    assertThat(op.events(EventReason.ClusterUnreachable)).singleElement().asString().doesNotContain(keyBody);
  }

  void restoreAndAwaitReachable(ArmStatus running) throws Exception {
    op.client.secrets().inNamespace(InJvmOperator.NS).resource(InJvmOperator.keySecret(shared.keyFile(), target.knownHostsFile()))
        .createOr(r -> r.update());
    await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(250)).until(() -> "True".equals(reachable().getStatus()));
    ArmStatus now = op.arm(NAME, "sgl-router");
    assertThat(now.runId).isEqualTo(running.runId);
    assertThat(now.phase).isEqualTo("Starting");
  }

  ArmStatus awaitArm(java.util.function.Predicate<ArmStatus> state) {
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
      ArmStatus a = op.arm(NAME, "sgl-router");
      return a != null && state.test(a);
    });
    return op.arm(NAME, "sgl-router");
  }

  Condition reachable() {
    RouterComparison rc = op.rc(NAME);
    Condition c = rc == null || rc.getStatus() == null ? null : Conditions.find(rc.getStatus().conditions, StatusAggregator.CLUSTER_REACHABLE);
    return c == null ? new Condition() : c;
  }

  /** How many Slurm jobs carry the run id in their name. */
  static String slurmJobsOf(String runId) throws Exception {
    return run(List.of("bash", "-c", "squeue --states=all -h -o '%i %j' | grep -c -- \"$1\" || true", "_", runId)).strip();
  }
}
