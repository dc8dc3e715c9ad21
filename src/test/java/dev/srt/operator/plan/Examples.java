package dev.srt.operator.plan;

import dev.srt.operator.api.Mode;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import java.nio.file.Path;
import java.util.List;

/** Loads the repository's example files (and inline YAML) for tests, failing on any error. */
public final class Examples {
  public static final Path COMPARISON = Path.of("examples/router-comparison.yaml");
  /** Both Dynamo arms over one prefill and one decode worker. */
  public static final Path DISAGG = Path.of("examples/router-comparison-disagg.yaml");
  /** SGLang Model Gateway vs Dynamo KV over eight TP1 workers. */
  public static final Path GATEWAY = Path.of("examples/gateway-vs-dynamo.yaml");
  /** Two sgl-router policies over a concurrency ladder with an SLO. */
  public static final Path CAPACITY = Path.of("examples/router-capacity.yaml");
  public static final Path SLURM_CLUSTER = Path.of("examples/gpu-cluster-slurm.yaml");
  public static final Path DIRECT_CLUSTER = Path.of("examples/gpu-cluster-direct.yaml");

  private Examples() {}

  public static LoadedResources load(Path... files) {
    LoadedResources r = LoadedResources.load(List.of(files));
    List<Problem> errors = r.problems().stream().filter(Problem::isError).toList();
    if (!errors.isEmpty()) {
      throw new AssertionError("example has errors: " + errors);
    }
    return r;
  }

  public static RouterComparison comparison() {
    return load(COMPARISON).comparisons().get(0);
  }

  public static GpuCluster cluster(Path file) {
    return load(file).clusters().get(0);
  }

  public static RunPlan plan(String arm, Mode mode) {
    return plan(COMPARISON, arm, mode);
  }

  /** Arm {@code arm} of the comparison in {@code file} on the example cluster of {@code mode}. */
  public static RunPlan plan(Path file, String arm, Mode mode) {
    return Planner.plan(load(file).comparisons().get(0), cluster(mode == Mode.SLURM ? SLURM_CLUSTER : DIRECT_CLUSTER), arm, mode);
  }

  /** Parses YAML text that must be valid. */
  public static LoadedResources parse(String yaml) {
    LoadedResources r = LoadedResources.parse("inline.yaml", yaml);
    List<Problem> errors = r.problems().stream().filter(Problem::isError).toList();
    if (!errors.isEmpty()) {
      throw new AssertionError("inline YAML has errors: " + errors);
    }
    return r;
  }

  /** The example comparison with {@code edit} applied to its YAML text (a simple replacement). */
  public static String exampleYaml() {
    try {
      return java.nio.file.Files.readString(COMPARISON);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
