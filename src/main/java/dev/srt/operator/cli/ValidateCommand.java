package dev.srt.operator.cli;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.BenchmarkTime;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(mixinStandardHelpOptions = true, 
    name = "validate",
    description = {
      "Checks RouterComparison and GpuCluster YAML files.",
      "Files may hold several documents, as used with kubectl apply: objects of other kinds (a Secret, a Namespace, ...)",
      "are left alone, with one note: line. Prints one line per problem as FILE:LINE: PATH: message, or with -o json|yaml",
      "{valid, problems: [{file, line, path, severity, message}], resources: [{kind, name, detail, benchmarkTime}], skipped}.",
      "Under each valid RouterComparison: its estimated benchmark time per run, per arm and in total.",
      "Exits 0 when all are valid, 1 otherwise."
    })
public final class ValidateCommand implements Callable<Integer> {
  @Option(names = {"-f", "--filename"}, required = true, arity = "1..*", paramLabel = "FILE",
      description = "YAML files to check (repeatable).")
  List<Path> files;

  @Option(names = "--cluster", paramLabel = "FILE",
      description = "Check every RouterComparison against this GpuCluster (instead of the one its clusterRef names): its GPUs, mode and settings.")
  Path cluster;

  @Mixin OutputFormat output;

  @Override
  public Integer call() {
    OutputFormat.Format format = output.orElse(null, OutputFormat.Format.JSON, OutputFormat.Format.YAML);
    LoadedResources loaded = LoadedResources.load(files, cluster);
    if (format != null) {
      System.out.print(OutputFormat.write(asData(loaded), format));
      return loaded.hasErrors() ? 1 : 0;
    }
    Inputs.noteSkipped(loaded, System.err);
    for (Problem p : loaded.problems()) {
      (p.isError() ? System.out : System.err).println(p);
    }
    if (loaded.hasErrors()) {
      long n = loaded.problems().stream().filter(Problem::isError).count();
      System.err.println(n + " problem" + (n == 1 ? "" : "s") + " found");
      return 1;
    }
    for (RouterComparison rc : loaded.comparisons()) {
      System.out.println("valid: RouterComparison " + rc.getMetadata().getName() + " (" + rc.getSpec().arms.size() + " arms"
          + loaded.clusterFor(rc).map(c -> ", on GpuCluster " + c.getMetadata().getName()).orElse("") + ")");
      System.out.println("  " + benchmarkTime(rc));
    }
    for (GpuCluster c : loaded.clusters()) {
      System.out.println("valid: GpuCluster " + c.getMetadata().getName() + " (" + c.getSpec().mode + ")");
    }
    return 0;
  }

  /** How long the comparison's benchmarking is expected to take, per run, per arm and in all (issue 41, finding 3). */
  static String benchmarkTime(RouterComparison rc) {
    if (rc.getSpec() == null || rc.getSpec().arms == null) {
      return "estimated benchmark time: unknown (no spec)";
    }
    int repetitions = rc.getSpec().execution == null ? 1 : rc.getSpec().execution.repetitionsOrDefault();
    return BenchmarkTime.of(rc.getSpec()).describe(rc.getSpec().arms.size(), repetitions);
  }

  private static Map<String, Object> asData(LoadedResources loaded) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("valid", !loaded.hasErrors());
    out.put("problems", loaded.problems().stream().map(p -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("file", p.location() == null ? null : p.location().file());
      m.put("line", p.location() == null ? null : p.location().line());
      m.put("path", p.path());
      m.put("severity", p.severity().name().toLowerCase(java.util.Locale.ROOT));
      m.put("message", p.message());
      return m;
    }).toList());
    List<Map<String, Object>> resources = new java.util.ArrayList<>();
    loaded.comparisons().forEach(rc -> resources.add(Map.of("kind", "RouterComparison", "name", rc.getMetadata().getName(),
        "detail", rc.getSpec().arms.size() + " arms", "benchmarkTime", benchmarkTime(rc))));
    loaded.clusters().forEach(c -> resources.add(Map.of("kind", "GpuCluster", "name", c.getMetadata().getName(),
        "detail", String.valueOf(c.getSpec().mode))));
    out.put("resources", resources);
    out.put("skipped", loaded.skipped());
    return out;
  }
}
