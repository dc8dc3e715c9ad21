package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.Api;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.host.RunRef;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The real JOSDK operator in this JVM against the Fabric8 CRUD mock API server (the one accepted
 * stand-in: no kube-apiserver can be had here; it ignores CRD schemas and CEL, which is why the
 * operator validates in Java too), with a fake GPU host whose failures are switched on by the test.
 */
class OperatorMockIT {
  static final String NS = "bench";
  static final Duration WAIT = Duration.ofSeconds(30);

  MockApiServer api;
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  KubernetesClient client;
  FakeHosts.State host;
  SrtOperator operator;

  @BeforeEach
  void start() throws Exception {
    api = new MockApiServer();
    client = api.client;
    host = new FakeHosts.State();
    operator = startOperator();
  }

  SrtOperator startOperator() {
    SrtOperator op = new SrtOperator(client, new FakeHosts(host), registry,
        new SrtOperator.Settings(Set.of(), null, Duration.ofSeconds(5), Duration.ofMillis(200), new ClusterPolicy(true)));
    op.start();
    return op;
  }

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.close();
    }
    api.close();
  }

  void apply(String yaml) {
    LoadedResources r = LoadedResources.parse("test.yaml", yaml);
    for (GpuCluster c : r.clusters()) {
      c.getMetadata().setNamespace(NS);
      client.resource(c).create();
    }
    for (RouterComparison rc : r.comparisons()) {
      rc.getMetadata().setNamespace(NS);
      client.resource(rc).create();
    }
  }

  static String exampleWithLocalCluster() throws Exception {
    return Files.readString(Path.of("examples/router-comparison.yaml")) + "\n---\n" + """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: h100-box}
        spec: {mode: slurm, transport: local, workDir: /work, gpusPerNode: 8, pollInterval: 1s}
        """;
  }

  RouterComparison rc() {
    return client.resources(RouterComparison.class).inNamespace(NS).withName("qwen3-32b-routers").get();
  }

  /** Changes the comparison as a user would, beside the operator's status writes. */
  void change(java.util.function.Consumer<RouterComparison> edit) {
    UserEdits.change(client, NS, "qwen3-32b-routers", WAIT, edit);
  }

  ArmStatus arm(String name) {
    RouterComparison rc = rc();
    if (rc == null || rc.getStatus() == null) {
      return null;
    }
    return rc.getStatus().arms.stream().filter(a -> a.name.equals(name)).findFirst().orElse(null);
  }

  String condition(String type) {
    RouterComparison rc = rc();
    if (rc == null || rc.getStatus() == null) {
      return null;
    }
    var c = Conditions.find(rc.getStatus().conditions, type);
    return c == null ? null : c.getStatus();
  }

  List<String> eventReasons() {
    return client.v1().events().inNamespace(NS).list().getItems().stream().map(Event::getReason).toList();
  }

  @Test
  void runsEveryArmToSuccessWithConditionsAndEvents() throws Exception {
    apply(exampleWithLocalCluster());
    for (String arm : List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy")) {
      await().atMost(WAIT).until(() -> host.runOf(arm) != null);
      RunRef run = host.runOf(arm);
      await().atMost(WAIT).until(() -> arm(arm) != null && "Submitted".equals(arm(arm).phase));
      // Only one arm runs at a time: the GPUs are shared.
      assertThat(host.runs().stream().filter(r -> !host.jobStatus.get(r).terminal())).hasSize(1);
      host.emit(run, "phase", "phase", "starting");
      host.emit(run, "endpoint-ready", "name", "worker-0", "role", "worker", "url", "http://127.0.0.1:6100");
      await().atMost(WAIT).until(() -> arm(arm).workers.ready == 1 && "Starting".equals(arm(arm).phase));
      assertThat(condition("Ready")).isEqualTo("False");
      host.emit(run, "endpoint-ready", "name", "worker-1", "role", "worker", "url", "http://127.0.0.1:6132");
      host.emit(run, "endpoint-ready", "name", "router", "role", "router", "url", "http://127.0.0.1:8000");
      host.emit(run, "phase", "phase", "ready");
      await().atMost(WAIT).until(() -> "True".equals(condition("Ready")));
      assertThat(arm(arm).workers.ready).isEqualTo(2);
      assertThat(arm(arm).router.ready).isTrue();
      assertThat(rc().getStatus().currentArm).isEqualTo(arm);
      host.emit(run, "phase", "phase", "benchmarking");
      host.emit(run, "result", "file", "results/bench-serving.jsonl");
      host.writeResults(run, "request_throughput", "150.5", "mean_ttft_ms", "390.2", "engine_cache_hit_rate",
          String.valueOf(0.1 + 0.2 * List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy").indexOf(arm)));
      host.emit(run, "finished", "status", "succeeded", "code", "0");
      await().atMost(WAIT).until(() -> "Succeeded".equals(arm(arm).phase));
    }
    await().atMost(WAIT).until(() -> "True".equals(condition("Complete")));
    RouterComparison rc = rc();
    assertThat(rc.getStatus().phase).isEqualTo("Succeeded");
    assertThat(rc.getStatus().armsSummary).isEqualTo("3/3");
    assertThat(rc.getStatus().observedGeneration).isEqualTo(rc.getMetadata().getGeneration());
    assertThat(rc.getStatus().arms).allSatisfy(a -> {
      assertThat(a.workers.ready).isEqualTo(2);
      assertThat(a.router.ready).isTrue();
      assertThat(a.resultFiles).contains("results/bench-serving.jsonl");
      assertThat(a.scriptHash).startsWith("sha256:");
    });
    assertThat(host.submitCalls.get()).isEqualTo(3);
    await().atMost(WAIT).untilAsserted(() -> assertThat(eventReasons()).contains("Submitted", "WorkersReady", "RouterReady", "Succeeded"));
    // An arm's Succeeded event carries its headline results.
    await().atMost(WAIT).untilAsserted(() -> assertThat(client.v1().events().inNamespace(NS).list().getItems())
        .filteredOn(e -> "Succeeded".equals(e.getReason())).extracting(Event::getMessage)
        .contains("arm dynamo-kv-policy: succeeded: 150.5 req/s, mean TTFT 390 ms, engine cache hit 50.0%"));
    // Each run's script is kept in a ConfigMap owned by the comparison.
    var cms = client.configMaps().inNamespace(NS).withLabel(ScriptConfigMaps.COMPARISON_LABEL, "qwen3-32b-routers").list().getItems();
    assertThat(cms).hasSize(3);
    assertThat(cms).allSatisfy(cm -> assertThat(cm.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getUid()).isEqualTo(rc.getMetadata().getUid())));
    assertThat(cms.get(0).getData()).hasEntrySatisfying(cms.get(0).getData().keySet().stream().filter(k -> !k.equals("plan.json"))
        .findFirst().orElseThrow(), script -> assertThat(script).startsWith("#!/bin/bash"));

    // The results are gauges on the operator's /metrics too.
    assertThat(registry.find("srt_arm_engine_cache_hit_ratio").tags("comparison", "qwen3-32b-routers", "arm", "dynamo-kv-policy")
        .gauge()).isNotNull().extracting(g -> g.value()).isEqualTo(0.5);
    assertThat(registry.find("srt_arm_ttft_seconds").tags("arm", "dynamo-kv-policy", "stat", "mean").gauge().value())
        .isCloseTo(0.3902, org.assertj.core.data.Offset.offset(1e-9));
    // `srt-operator report --kube` prints the comparison's table from this status.
    java.nio.file.Path kubeconfig = java.nio.file.Files.createTempFile("kubeconfig", ".yaml");
    java.nio.file.Files.writeString(kubeconfig, api.kubeconfig(NS));
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    java.io.PrintStream stdout = System.out;
    int code;
    try {
      System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
      code = dev.srt.operator.cli.Main.run("report", "--kube", "qwen3-32b-routers", "--kubeconfig", kubeconfig.toString());
    } finally {
      System.setOut(stdout);
      java.nio.file.Files.deleteIfExists(kubeconfig);
    }
    String table = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(code).as(table).isZero();
    assertThat(table).contains("3/3 arms succeeded");
    assertThat(table.lines().filter(l -> l.strip().startsWith("dynamo-kv-policy ") && !l.contains("req/s"))).singleElement()
        .satisfies(l -> assertThat(l.strip().split("\\s+")).startsWith("dynamo-kv-policy", "1/1", "Succeeded", "150.50").contains("50.0%"));
    // each arm against the first: same throughput and TTFT, five times sgl-router's 10 % cache hits; one run
    // each is not enough for a verdict
    assertThat(table).contains("dynamo-kv-policy  req/s +0.0% not-comparable · p99 TTFT - not-comparable")
        .contains("cache hit +400.0% not-comparable");
  }

  @Test
  void invalidSpecSubmitsNothing() throws Exception {
    apply(exampleWithLocalCluster().replace("hash: 4dca1626b2708383514fcd65ac816ba7429c05a4", "hash: 4dca16"));
    await().atMost(WAIT).until(() -> "False".equals(condition("SpecValid")));
    assertThat(rc().getStatus().phase).isEqualTo("Invalid");
    assertThat(Conditions.find(rc().getStatus().conditions, "SpecValid").getMessage()).contains("spec.dynamo.hash");
    await().atMost(WAIT).untilAsserted(() -> assertThat(eventReasons()).contains("SpecInvalid"));
    assertThat(host.submitCalls.get()).isZero();
    assertThat(host.runs()).isEmpty();
  }

  @Test
  void restartedOperatorFindsTheJobInsteadOfSubmittingAgain() throws Exception {
    apply(exampleWithLocalCluster());
    await().atMost(WAIT).until(() -> arm("sgl-router") != null && arm("sgl-router").jobId != null);
    String job = arm("sgl-router").jobId;
    operator.close();
    operator = startOperator();
    RunRef run = host.runOf("sgl-router");
    host.emit(run, "phase", "phase", "starting");
    await().atMost(WAIT).until(() -> "Starting".equals(arm("sgl-router").phase));
    assertThat(arm("sgl-router").jobId).isEqualTo(job);
    assertThat(host.runs()).hasSize(1);
  }

  @Test
  void runIdIsRecordedBeforeSubmitSoARetriedSubmitFindsTheJob() throws Exception {
    host.unreachable = true;
    apply(exampleWithLocalCluster());
    await().atMost(WAIT).until(() -> arm("sgl-router") != null && arm("sgl-router").runId != null);
    String runId = arm("sgl-router").runId;
    await().atMost(WAIT).until(() -> "False".equals(condition("ClusterReachable")));
    host.unreachable = false;
    await().atMost(WAIT).until(() -> arm("sgl-router").jobId != null);
    assertThat(arm("sgl-router").runId).isEqualTo(runId);
    assertThat(host.runs()).extracting(RunRef::runId).containsExactly(runId);
  }

  @Test
  void deletionCancelsTheRunningJobAndRemovesTheFinalizer() throws Exception {
    apply(exampleWithLocalCluster());
    await().atMost(WAIT).until(() -> arm("sgl-router") != null && arm("sgl-router").jobId != null);
    RunRef run = host.runOf("sgl-router");
    assertThat(rc().getMetadata().getFinalizers()).contains(Api.FINALIZER);
    client.resource(rc()).delete();
    await().atMost(WAIT).until(() -> rc() == null);
    assertThat(host.cancelled).contains(run);
  }

  @Test
  void deletionWaitsWhileTheHostIsUnreachable() throws Exception {
    apply(exampleWithLocalCluster());
    await().atMost(WAIT).until(() -> arm("sgl-router") != null && arm("sgl-router").jobId != null);
    host.unreachable = true;
    client.resource(rc()).delete();
    await().atMost(WAIT).until(() -> "True".equals(condition("Degraded")));
    assertThat(rc()).isNotNull();
    assertThat(Conditions.find(rc().getStatus().conditions, "Degraded").getReason()).isEqualTo("CancelPending");
    host.unreachable = false;
    await().atMost(WAIT).until(() -> rc() == null);
    assertThat(host.cancelled).contains(host.runOf("sgl-router"));
  }

  @Test
  void suspendCancelsAndHoldsThenRerunStartsAgain() throws Exception {
    apply(exampleWithLocalCluster());
    await().atMost(WAIT).until(() -> arm("sgl-router") != null && arm("sgl-router").jobId != null);
    RunRef first = host.runOf("sgl-router");
    change(rc -> rc.getSpec().suspend = true);
    await().atMost(WAIT).until(() -> "Suspended".equals(rc().getStatus().phase));
    assertThat(host.cancelled).contains(first);
    int submitted = host.runs().size();
    change(rc -> rc.getSpec().suspend = false);
    await().atMost(WAIT).until(() -> host.runs().size() == submitted + 1);
    RunRef second = host.runOf("sgl-router");
    assertThat(second.runId()).isNotEqualTo(first.runId());
    host.succeed(second);
    await().atMost(WAIT).until(() -> "Succeeded".equals(arm("sgl-router").phase));
    change(rc -> rc.getMetadata().setAnnotations(Map.of(Api.RERUN_ANNOTATION, "again-1")));
    await().atMost(WAIT).until(() -> host.runs().stream().filter(r -> r.arm().equals("sgl-router")).count() == 3);

    // A rerun of a run in flight: its cancel ends after the reconcile that saw the rerun, and the
    // run still ends because of the rerun, and says so.
    RunRef third = host.runOf("sgl-router");
    await().atMost(WAIT).until(() -> third.runId().equals(arm("sgl-router").runId) && arm("sgl-router").jobId != null);
    change(rc -> rc.getMetadata().setAnnotations(Map.of(Api.RERUN_ANNOTATION, "again-2")));
    await().atMost(WAIT).until(() -> host.runs().stream().filter(r -> r.arm().equals("sgl-router")).count() == 4);
    assertThat(host.cancelled).contains(third);
    await().atMost(WAIT).untilAsserted(() -> assertThat(client.v1().events().inNamespace(NS).list().getItems())
        .extracting(Event::getMessage)
        .contains("arm sgl-router: run " + third.runId() + " cancelled (RerunRequested): a rerun was requested"));
  }

  @Test
  void sharedFieldChangeRerunsEveryArmAndAnAddedArmRunsAlone() throws Exception {
    apply(exampleWithLocalCluster());
    for (String arm : List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy")) {
      await().atMost(WAIT).until(() -> host.runOf(arm) != null);
      host.succeed(host.runOf(arm));
      await().atMost(WAIT).until(() -> "Succeeded".equals(arm(arm).phase));
    }
    change(rc -> {
      var extra = client.getKubernetesSerialization().convertValue(rc.getSpec().arms.get(1), dev.srt.operator.api.ArmSpec.class);
      extra.name = "dynamo-rr";
      extra.frontend.args = new java.util.LinkedHashMap<>(Map.of("router-mode", "round-robin"));
      rc.getSpec().arms.add(extra);
    });
    await().atMost(WAIT).until(() -> host.runOf("dynamo-rr") != null);
    host.succeed(host.runOf("dynamo-rr"));
    await().atMost(WAIT).until(() -> "True".equals(condition("Complete")));
    assertThat(host.runs()).hasSize(4);
    change(rc -> rc.getSpec().workload.seed = 7);
    await().atMost(WAIT).until(() -> host.runs().size() == 5);
    assertThat(arm("dynamo-kv").phase).isEqualTo("Pending");
  }
}
