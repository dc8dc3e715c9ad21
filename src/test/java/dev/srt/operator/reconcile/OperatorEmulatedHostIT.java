package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.base.Mappers;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator honours {@code srt.dev/emulated-host} as {@code apply} does: started from the jar
 * with {@code --allow-local-transport} against the CRUD mock API server, the two examples applied
 * unmodified run every arm to the end on this machine's emulated GPU host, and a two-level sweep
 * puts each level's results, each arm's capacity and the verdicts on capacity into status.
 */
class OperatorEmulatedHostIT {
  @TempDir Path dir;
  MockApiServer api;
  KubernetesClient client;
  Process operator;

  @BeforeEach
  void start() throws Exception {
    api = new MockApiServer();
    client = api.client;
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, api.kubeconfig("default"));
    operator = new ProcessBuilder("java", "-jar", "target/srt-operator.jar", "operator", "--kubeconfig", kubeconfig.toString(),
        "--metrics-port", "0", "--probe-port", "0", "--namespaces", "default", "--starting-poll-interval", "500ms",
        "--allow-local-transport")
        .redirectErrorStream(true).redirectOutput(dir.resolve("operator.log").toFile()).start();
  }

  @AfterEach
  void stop() throws Exception {
    try {
      if (operator != null && operator.isAlive()) {
        operator.destroy();
        if (!operator.waitFor(30, TimeUnit.SECONDS)) {
          operator.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      }
    } finally {
      api.close();
    }
  }

  <T> T load(String file, Class<T> type) throws Exception {
    try (InputStream in = Files.newInputStream(Path.of(file))) {
      return client.getKubernetesSerialization().unmarshal(in, type);
    }
  }

  /** The example comparison renamed, with only its sgl-router arm and a quarter of its prompt groups. */
  RouterComparison oneArm(String name) throws Exception {
    RouterComparison rc = load("examples/router-comparison.yaml", RouterComparison.class);
    rc.getMetadata().setName(name);
    rc.getSpec().arms.removeIf(a -> !a.name.equals("sgl-router"));
    rc.getSpec().workload.args.put("gsp-num-groups", 16);
    return rc;
  }

  RouterComparison get(String name) {
    return client.resources(RouterComparison.class).inNamespace("default").withName(name).get();
  }

  /** Timestamps of the events named {@code event} in the comparison's only run. */
  List<Instant> times(RouterComparison rc, String event) throws Exception {
    Path events = Path.of(rc.getStatus().arms.get(0).runDir, "events.jsonl");
    List<Instant> out = new ArrayList<>();
    for (String line : Files.readAllLines(events)) {
      JsonNode e = Mappers.json().readTree(line);
      if (event.equals(e.path("event").asText())) {
        out.add(Instant.parse(e.path("ts").asText()));
      }
    }
    return out;
  }

  @Test
  void twoComparisonsOnOneDirectHostRunOneAfterTheOther() throws Exception {
    client.resource(load("examples/local-emulated-cluster.yaml", GpuCluster.class)).inNamespace("default").create();
    client.resource(oneArm("first")).inNamespace("default").create();
    await().atMost(Duration.ofSeconds(30)).until(() -> get("first").getStatus() != null && get("first").getStatus().arms.get(0).runId != null);
    client.resource(oneArm("second")).inNamespace("default").create();
    try {
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() ->
          get("second").getStatus() != null && "Queued".equals(get("second").getStatus().phase));
      assertThat(get("second").getStatus().queuePosition).isEqualTo(1);
      assertThat(get("second").getStatus().message).contains("behind default/first");
      await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1)).until(() ->
          Conditions.isTrue(get("second").getStatus().conditions, StatusAggregator.COMPLETE));
    } catch (RuntimeException e) {
      System.out.println("---- operator log\n" + Files.readString(dir.resolve("operator.log")));
      throw e;
    }
    RouterComparison first = get("first");
    RouterComparison second = get("second");
    assertThat(first.getStatus().phase).isEqualTo("Succeeded");
    // Host intervals, first process started to finished, never overlap.
    assertThat(times(second, "process-started").get(0)).isAfterOrEqualTo(times(first, "finished").get(0));
  }

  @Test
  void aTwoLevelSweepPutsEveryLevelAndEachArmsCapacityIntoStatus() throws Exception {
    client.resource(load("examples/local-emulated-cluster.yaml", GpuCluster.class)).inNamespace("default").create();
    RouterComparison rc = load("examples/router-capacity.yaml", RouterComparison.class);
    rc.getSpec().workload.load.levels = List.of(8.0, 96.0);
    rc.getSpec().workload.args.put("gsp-num-groups", 16);
    rc.getSpec().execution.repetitions = 2;
    client.resource(rc).inNamespace("default").create();
    String name = rc.getMetadata().getName();
    try {
      await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1)).until(() -> {
        RouterComparison now = get(name);
        return now.getStatus() != null && (Conditions.isTrue(now.getStatus().conditions, StatusAggregator.COMPLETE)
            || "Failed".equals(now.getStatus().phase));
      });
    } catch (RuntimeException e) {
      System.out.println("---- operator log\n" + Files.readString(dir.resolve("operator.log")));
      throw e;
    }
    RouterComparison done = get(name);
    assertThat(done.getStatus().phase).as(done.getStatus().message).isEqualTo("Succeeded");
    assertThat(done.getStatus().arms).hasSize(2).allSatisfy(a -> {
      assertThat(a.runs).as(a.name + " runs").hasSize(2).allSatisfy(r -> {
        assertThat(r.phase).isEqualTo("Succeeded");
        assertThat(r.levelTable.rows).as(a.name + " run " + r.runId + " levels").hasSize(2);
        assertThat(Path.of(r.runDir, "results/level-2/bench-serving.jsonl")).isNotEmptyFile();
      });
      assertThat(a.levelSummaries).extracting(l -> l.load).containsExactly(8.0, 96.0);
      assertThat(a.levelSummaries).allSatisfy(l -> assertThat(l.means.get("request_throughput")).isPositive());
      assertThat(a.capacity).as(a.name + " capacity").isNotNull();
      assertThat(a.capacity.unit).isEqualTo("concurrency");
    });
    assertThat(done.getStatus().capacitySummary).contains("round-robin", "cache-aware");
    assertThat(done.getStatus().verdicts).anySatisfy(v -> {
      assertThat(v.metric).isEqualTo("capacity");
      assertThat(v.arm).isEqualTo("cache-aware");
      assertThat(v.level).isNull();
    });
    assertThat(done.getStatus().verdicts).filteredOn(v -> v.level != null).extracting(v -> v.level).containsOnly(8.0, 96.0);
  }

  @Test
  void theExamplesRunUnmodifiedOnTheEmulatedHost() throws Exception {
    client.resource(load("examples/local-emulated-cluster.yaml", GpuCluster.class)).inNamespace("default").create();
    RouterComparison rc = client.resource(load("examples/router-comparison.yaml", RouterComparison.class)).inNamespace("default").create();
    String name = rc.getMetadata().getName();
    try {
      await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1)).until(() -> {
        RouterComparison now = client.resources(RouterComparison.class).inNamespace("default").withName(name).get();
        return now.getStatus() != null && (Conditions.isTrue(now.getStatus().conditions, StatusAggregator.COMPLETE)
            || "Failed".equals(now.getStatus().phase));
      });
    } catch (RuntimeException e) {
      System.out.println("---- operator log\n" + Files.readString(dir.resolve("operator.log")));
      throw e;
    }
    RouterComparison done = client.resources(RouterComparison.class).inNamespace("default").withName(name).get();
    assertThat(done.getStatus().phase).as(done.getStatus().message).isEqualTo("Succeeded");
    assertThat(done.getStatus().arms).hasSize(3).allSatisfy(a -> {
      assertThat(a.phase).isEqualTo("Succeeded");
      assertThat(a.results.requestThroughput).isNotNull();
      assertThat(a.runDir).startsWith("/tmp/srt-emulated-host/default/" + name + "/");
    });
  }
}
