package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.srt.operator.api.GpuCluster;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code srt-operator operator} as a process: probes, metrics, leader election, a clean stop. */
class OperatorProcessIT {
  @TempDir Path dir;
  MockApiServer api;
  KubernetesClient client;
  Process operator;
  final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    api = new MockApiServer();
    client = api.client;
    // JOSDK checks that it may use Leases before electing a leader; the mock cannot answer that.
    api.server.expect().post().withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews").andReturn(201, """
        {"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","metadata":{},"spec":{"namespace":"srt-system"},
         "status":{"incomplete":false,"nonResourceRules":[],"resourceRules":[
           {"apiGroups":["coordination.k8s.io"],"resources":["leases"],"verbs":["get","list","watch","create","update","patch"]}]}}
        """).always();
  }

  @AfterEach
  void stop() throws Exception {
    if (operator != null && operator.isAlive()) {
      operator.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    Path log = dir.resolve("operator.log");
    if (Files.exists(log)) {
      System.out.println("---- operator log\n" + Files.readString(log));
    }
    api.close();
  }

  int get(int port, String path) {
    try {
      return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (Exception e) {
      return -1;
    }
  }

  String body(int port, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  @Test
  void servesProbesAndMetricsTakesTheLeaseAndStopsOnTerm() throws Exception {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, api.kubeconfig("default"));
    int metrics = freePort();
    int probes = freePort();
    operator = new ProcessBuilder("java", "-jar", "target/srt-operator.jar", "operator", "--kubeconfig", kubeconfig.toString(),
        "--metrics-port", String.valueOf(metrics), "--probe-port", String.valueOf(probes),
        "--leader-election", "--leader-election-namespace", "srt-system", "--namespaces", "bench", "--allow-local-transport")
        .redirectErrorStream(true).redirectOutput(dir.resolve("operator.log").toFile()).start();

    await().atMost(Duration.ofSeconds(60)).until(() -> get(probes, "/readyz") == 200);
    assertThat(get(probes, "/healthz")).isEqualTo(200);
    await().atMost(Duration.ofSeconds(30)).until(() ->
        client.leases().inNamespace("srt-system").withName("srt-operator").get() != null);

    GpuCluster cluster = client.getKubernetesSerialization().unmarshal("""
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: box, namespace: bench}
        spec: {mode: direct, transport: local, workDir: /tmp/srt-operator-process-it}
        """, GpuCluster.class);
    client.resource(cluster).create();
    await().atMost(Duration.ofSeconds(60)).until(() -> {
      GpuCluster c = client.resources(GpuCluster.class).inNamespace("bench").withName("box").get();
      return c.getStatus() != null && Conditions.isTrue(c.getStatus().conditions, "Reachable");
    });
    String scrape = body(metrics, "/metrics");
    assertThat(scrape).contains("srt_reconciles_total{kind=\"GpuCluster\"}").contains("srt_host_exec_seconds").contains("srt_arms");
    // The JVM's and the process's own series, and JOSDK's timer of the reconcile that just ran.
    assertThat(scrape).containsPattern("(?m)^jvm_memory_used_bytes\\{area=\"heap\",.*\\} [0-9.E+]+$")
        .containsPattern("(?m)^process_cpu_usage [0-9.E+-]+$")
        .contains("jvm_gc_", "jvm_threads_live_threads", "jvm_classes_loaded_classes", "process_uptime_seconds", "process_files_open_files")
        .containsPattern("(?m)^operator_sdk_controllers_execution_reconcile_seconds_count\\{.*controller=\"gpucluster\".*\\} [1-9]")
        .containsPattern("(?m)^operator_sdk_reconciliations_started_total\\{.*\\} [1-9]");

    operator.destroy();
    assertThat(operator.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(Files.readString(dir.resolve("operator.log"))).contains("running in bench");
  }

  static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
