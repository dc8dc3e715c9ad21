package dev.srt.operator.bench;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.render.Scripts;
import java.nio.file.Path;
import java.util.List;

/**
 * Validate, plan and render every arm of the example in both modes, many times: the operator does
 * this on every submission and the CLI on every command. Prints the mean per arm and the heap used.
 * Target (bench/README.md): under 5 ms per arm after warm-up.
 */
public final class RenderBenchmark {
  private RenderBenchmark() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    LoadedResources loaded = LoadedResources.load(List.of(Path.of("examples/router-comparison.yaml"), Path.of("examples/gpu-cluster-slurm.yaml")));
    RouterComparison rc = loaded.comparisons().get(0);
    GpuCluster cluster = loaded.clusters().get(0);
    long bytes = 0;
    for (int warm = 0; warm < rounds / 4; warm++) {
      bytes += once(rc, cluster);
    }
    long start = System.nanoTime();
    for (int i = 0; i < rounds; i++) {
      bytes += once(rc, cluster);
    }
    double perArm = (System.nanoTime() - start) / 1e6 / rounds / (rc.getSpec().arms.size() * 2);
    Runtime rt = Runtime.getRuntime();
    System.out.printf("render: %.3f ms per arm and mode (validate + plan + render), %d rounds, %d MiB heap used%n",
        perArm, rounds, (rt.totalMemory() - rt.freeMemory()) >> 20);
    System.out.println(bytes > 0 ? "ok" : "no output");
    if (perArm > 5.0) {
      System.out.println("ABOVE TARGET (5 ms)");
      System.exit(1);
    }
  }

  private static long once(RouterComparison rc, GpuCluster cluster) {
    long bytes = 0;
    dev.srt.operator.config.Validator.validate(rc, cluster);
    for (var arm : rc.getSpec().arms) {
      for (Mode mode : Mode.values()) {
        bytes += Scripts.render(Planner.plan(rc, cluster, arm.name, mode)).length();
      }
    }
    return bytes;
  }
}
