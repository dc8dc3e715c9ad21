package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.plan.Examples;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The examples' rendered scripts (the three arms, and the two Dynamo arms of the prefill/decode
 * example as {@code disagg-<arm>}, the Model Gateway arm of examples/gateway-vs-dynamo.yaml, the cache-aware arm of the load ladder
 * of examples/router-capacity.yaml, and arm 2 with NATS planes), committed under src/test/resources/golden so reviewers see
 * every change to them. After reviewing a change, refresh with
 * {@code mvn test -Dtest=GoldenScriptsTest -Dgolden.update=true}.
 */
class GoldenScriptsTest {
  static final Path GOLDEN = Path.of("src/test/resources/golden");

  @TestFactory
  Stream<DynamicTest> scriptsMatchTheGoldenFiles() {
    boolean update = Boolean.getBoolean("golden.update");
    List<DynamicTest> tests = new ArrayList<>();
    Map<String, Path> sets = Map.of("", Examples.COMPARISON, "disagg-", Examples.DISAGG);
    for (String prefix : List.of("", "disagg-")) {
      List<String> arms = prefix.isEmpty() ? List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy") : List.of("dynamo-kv", "dynamo-kv-policy");
      for (String arm : arms) {
        for (Mode mode : Mode.values()) {
          tests.add(DynamicTest.dynamicTest(prefix + arm + " " + mode.id(), () -> {
            compare(update, prefix + arm, Examples.plan(sets.get(prefix), arm, mode));
          }));
        }
      }
    }
    // The Model Gateway arm over eight TP1 workers.
    for (Mode mode : Mode.values()) {
      tests.add(DynamicTest.dynamicTest("sgl-model-gateway " + mode.id(), () ->
          compare(update, "sgl-model-gateway", Examples.plan(Examples.GATEWAY, "sgl-model-gateway", mode))));
    }
    // A load ladder: engines and router once, the benchmark once per level.
    for (Mode mode : Mode.values()) {
      tests.add(DynamicTest.dynamicTest("router-capacity " + mode.id(), () ->
          compare(update, "router-capacity", Examples.plan(Examples.CAPACITY, "cache-aware", mode))));
    }
    // Arm 2 with both Dynamo planes on NATS: nats-server starts beside etcd.
    String nats = Examples.exampleYaml().replace("    eventPlane: zmq\n    requestPlane: tcp\n", "    eventPlane: nats\n    requestPlane: nats\n");
    for (Mode mode : Mode.values()) {
      tests.add(DynamicTest.dynamicTest("dynamo-kv-nats " + mode.id(), () -> {
        RunPlan plan = Planner.plan(Examples.parse(nats).comparisons().get(0),
            Examples.cluster(mode == Mode.SLURM ? Examples.SLURM_CLUSTER : Examples.DIRECT_CLUSTER), "dynamo-kv", mode);
        assertThat(plan.processes()).extracting(p -> p.name()).contains("nats-server");
        compare(update, "dynamo-kv-nats", plan);
      }));
    }
    return tests.stream();
  }

  private static void compare(boolean update, String name, RunPlan plan) throws java.io.IOException {
    String script = Scripts.render(plan);
    Path golden = GOLDEN.resolve(name + "." + Scripts.fileName(plan));
    if (update) {
      Files.createDirectories(GOLDEN);
      Files.writeString(golden, script);
    }
    assertThat(golden).as("missing golden file; run with -Dgolden.update=true").exists();
    assertThat(script).as("rendered %s differs from %s; review, then refresh with -Dgolden.update=true", name, golden)
        .isEqualTo(Files.readString(golden));
  }
}
