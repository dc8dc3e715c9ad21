package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.base.Mappers;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl against the Fabric8 CRUD mock API server (given the discovery documents the
 * mock lacks) and the operator with a fake host: {@code kubectl apply} starts a comparison, the
 * CRD's printer-column JSON paths, evaluated by kubectl, show its progress, and {@code kubectl
 * delete} runs the finalizer. (The mock cannot render server-side tables, so the columns are asked
 * for with {@code -o custom-columns} built from the CRD.)
 */
class KubectlIT {
  static final String NS = "bench";

  @TempDir Path dir;
  MockApiServer api;
  KubernetesMockServer server;
  KubernetesClient client;
  SrtOperator operator;
  FakeHosts.State host = new FakeHosts.State();
  Path kubeconfig;

  @BeforeEach
  void start() throws Exception {
    Assumptions.assumeTrue(new ProcessBuilder("kubectl", "version", "--client").start().waitFor() == 0 || "1".equals(System.getenv("SRT_E2E_REQUIRED")),
        "kubectl is not installed");
    api = new MockApiServer();
    server = api.server;
    client = api.client;
    discovery();
    kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, api.kubeconfig(NS));
    operator = new SrtOperator(client, new FakeHosts(host), new SimpleMeterRegistry(),
        new SrtOperator.Settings(Set.of(), null, Duration.ofSeconds(5), Duration.ofMillis(200), new ClusterPolicy(true)));
    operator.start();
  }

  @AfterEach
  void stop() {
    if (operator != null) {
      operator.close();
    }
    if (api != null) {
      api.close();
    }
  }

  /** What kube-apiserver serves for discovery, which kubectl needs before anything else. */
  void discovery() {
    Map<String, String> docs = new HashMap<>();
    docs.put("/version", "{\"major\":\"1\",\"minor\":\"32\",\"gitVersion\":\"v1.32.0\"}");
    docs.put("/api", "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":[]}");
    docs.put("/apis", "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":["
        + "{\"name\":\"srt.dev\",\"versions\":[{\"groupVersion\":\"srt.dev/v1alpha1\",\"version\":\"v1alpha1\"}],"
        + "\"preferredVersion\":{\"groupVersion\":\"srt.dev/v1alpha1\",\"version\":\"v1alpha1\"}}]}");
    docs.put("/api/v1", "{\"kind\":\"APIResourceList\",\"groupVersion\":\"v1\",\"resources\":["
        + "{\"name\":\"namespaces\",\"singularName\":\"namespace\",\"namespaced\":false,\"kind\":\"Namespace\",\"verbs\":[\"get\",\"list\"]}]}");
    docs.put("/apis/srt.dev/v1alpha1", "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\"srt.dev/v1alpha1\",\"resources\":["
        + resource("routercomparisons", "routercomparison", "RouterComparison", "rcmp") + ","
        + resource("gpuclusters", "gpucluster", "GpuCluster", "gpuc") + "]}");
    docs.forEach((path, json) -> {
      for (String p : List.of(path, path + "?timeout=32s")) {
        server.expect().get().withPath(p).andReturn(200, json).withHeader("Content-Type", "application/json").always();
      }
    });
  }

  static String resource(String plural, String singular, String kind, String shortName) {
    return "{\"name\":\"" + plural + "\",\"singularName\":\"" + singular + "\",\"namespaced\":true,\"kind\":\"" + kind
        + "\",\"verbs\":[\"create\",\"delete\",\"get\",\"list\",\"patch\",\"update\",\"watch\"],\"shortNames\":[\"" + shortName
        + "\"],\"categories\":[\"srt\"]}";
  }

  String kubectl(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", cmd) + "\n" + out).isZero();
    return out;
  }

  /** -o custom-columns from the CRD's own printer columns (name and JSON path). */
  static String printerColumns() throws Exception {
    JsonNode crd = Mappers.yaml().readTree(Path.of("target/classes/META-INF/fabric8/routercomparisons.srt.dev-v1.yml").toFile());
    List<String> columns = new ArrayList<>(List.of("NAME:.metadata.name"));
    for (JsonNode c : crd.path("spec").path("versions").get(0).path("additionalPrinterColumns")) {
      if (c.path("priority").asInt() == 0 && !c.path("name").asText().equals("Age")) {
        columns.add(c.path("name").asText().toUpperCase() + ":" + c.path("jsonPath").asText());
      }
    }
    return "custom-columns=" + String.join(",", columns);
  }

  @Test
  void applyGetAndDeleteWithKubectl() throws Exception {
    Path cluster = dir.resolve("cluster.yaml");
    Files.writeString(cluster, """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: h100-box}
        spec: {mode: slurm, transport: local, workDir: /work, gpusPerNode: 8}
        """);
    assertThat(kubectl("apply", "--validate=false", "-f", cluster.toString(), "-f", "examples/router-comparison.yaml"))
        .contains("routercomparison.srt.dev/qwen3-32b-routers created").contains("gpucluster.srt.dev/h100-box created");
    await().atMost(Duration.ofSeconds(30)).until(() -> host.runOf("sgl-router") != null);
    host.emit(host.runOf("sgl-router"), "phase", "phase", "starting");
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(kubectl("get", "rcmp", "qwen3-32b-routers", "-o", "jsonpath={.status.arms[0].phase}")).isEqualTo("Starting"));

    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      String table = kubectl("get", "routercomparisons", "-o", printerColumns());
      assertThat(table.lines().toList()).hasSize(2);
      assertThat(table.lines().toList().get(0).split("\\s+")).containsExactly("NAME", "CLUSTER", "PHASE", "ARMS", "RUNS", "CURRENT", "CAPACITY", "READY");
      assertThat(table.lines().toList().get(1).split("\\s+")).containsExactly("qwen3-32b-routers", "h100-box", "Running", "0/3", "0/3", "sgl-router", "<none>", "False");
    });
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
        kubectl("get", "gpuc", "h100-box", "-o", "jsonpath={.status.conditions[?(@.type==\"Reachable\")].status}")).isEqualTo("True"));

    kubectl("delete", "routercomparison", "qwen3-32b-routers", "--wait=false");
    await().atMost(Duration.ofSeconds(30)).until(() ->
        client.resources(RouterComparison.class).inNamespace(NS).withName("qwen3-32b-routers").get() == null);
    assertThat(host.cancelled).contains(host.runOf("sgl-router"));
  }
}
