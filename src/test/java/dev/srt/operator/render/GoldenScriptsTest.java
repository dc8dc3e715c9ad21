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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The examples' rendered scripts (the three arms, and the two Dynamo arms of the prefill/decode
 * example as {@code disagg-<arm>}, the Model Gateway arm of examples/gateway-vs-dynamo.yaml, the cache-aware arm of the load ladder
 * of examples/router-capacity.yaml, the same at request rates of known length to show each level's
 * deadline, and arm 2 with NATS planes), committed under src/test/resources/golden so reviewers see
 * every change to them. After reviewing a change, refresh with
 * {@code mvn test -Dtest=GoldenScriptsTest -Dgolden.update=true}.
 */
public class GoldenScriptsTest {
  static final Path GOLDEN = Path.of("src/test/resources/golden");

  /** One golden script: its name and the plan it is rendered from. */
  public record Golden(String name, Mode mode, java.util.concurrent.Callable<RunPlan> plan) {}

  public static List<Golden> goldens() {
    List<Golden> out = new ArrayList<>();
    Map<String, Path> sets = Map.of("", Examples.COMPARISON, "disagg-", Examples.DISAGG);
    for (String prefix : List.of("", "disagg-")) {
      List<String> arms = prefix.isEmpty() ? List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy") : List.of("dynamo-kv", "dynamo-kv-policy");
      for (String arm : arms) {
        for (Mode mode : Mode.values()) {
          out.add(new Golden(prefix + arm, mode, () -> Examples.plan(sets.get(prefix), arm, mode)));
        }
      }
    }
    for (Mode mode : Mode.values()) {
      // The Model Gateway arm over eight TP1 workers.
      out.add(new Golden("sgl-model-gateway", mode, () -> Examples.plan(Examples.GATEWAY, "sgl-model-gateway", mode)));
      // A load ladder: engines and router once, the benchmark once per level.
      out.add(new Golden("router-capacity", mode, () -> Examples.plan(Examples.CAPACITY, "cache-aware", mode)));
      // An open-loop ladder of known length: each level's deadline, the warm-up's level and the budget (spec.execution.maxDuration).
      if (mode == Mode.DIRECT) {
        out.add(new Golden("router-capacity-deadlines", mode, () -> Planner.plan(Examples.parse(timedLadder()).comparisons().get(0),
            Examples.cluster(Examples.DIRECT_CLUSTER), "cache-aware", mode)));
      }
      // Arm 2 with both Dynamo planes on NATS: nats-server starts beside etcd.
      out.add(new Golden("dynamo-kv-nats", mode, () -> {
        String nats = Examples.exampleYaml().replace("    eventPlane: zmq\n    requestPlane: tcp\n", "    eventPlane: nats\n    requestPlane: nats\n");
        RunPlan plan = Planner.plan(Examples.parse(nats).comparisons().get(0),
            Examples.cluster(mode == Mode.SLURM ? Examples.SLURM_CLUSTER : Examples.DIRECT_CLUSTER), "dynamo-kv", mode);
        assertThat(plan.processes()).extracting(p -> p.name()).contains("nats-server");
        return plan;
      }));
    }
    return out;
  }

  /** examples/router-capacity.yaml at request rates of 60 s a level, its benchmarking bound to 2h. */
  static String timedLadder() throws java.io.IOException {
    String yaml = Files.readString(Examples.CAPACITY);
    String timed = yaml.replace("dataset-name: generated-shared-prefix, gsp-num-groups: 32, gsp-prompts-per-group: 16", "dataset-name: random")
        .replace("      mode: concurrency\n      levels: [8, 16, 32, 48, 64, 96]\n",
            "      mode: request-rate\n      levels: [2, 4, 8, 16, 32, 64]\n      durationPerLevel: 60s\n")
        .replace("    warmupRequests: 32\n", "    warmupRequests: 32\n    maxDuration: 2h\n");
    assertThat(timed).contains("durationPerLevel: 60s").contains("maxDuration: 2h").contains("dataset-name: random");
    return timed;
  }

  @TestFactory
  Stream<DynamicTest> scriptsMatchTheGoldenFiles() {
    boolean update = Boolean.getBoolean("golden.update");
    return goldens().stream().map(g -> DynamicTest.dynamicTest(g.name() + " " + g.mode().id(), () -> compare(update, g.name(), g.plan().call())));
  }

  /** A router kind registered without a golden script in each mode fails here: reviewers see every kind's script. */
  @Test
  void everyRegisteredRouterKindHasAGoldenScriptInEachMode() throws Exception {
    Map<Mode, java.util.Set<String>> covered = new java.util.EnumMap<>(Mode.class);
    for (Golden g : goldens()) {
      covered.computeIfAbsent(g.mode(), m -> new java.util.TreeSet<>()).add(g.plan().call().frontend());
    }
    for (Mode mode : Mode.values()) {
      assertThat(covered.get(mode)).as(mode.id()).containsAll(dev.srt.operator.config.FrontendRules.all().keySet());
    }
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
