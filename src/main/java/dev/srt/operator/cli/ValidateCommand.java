package dev.srt.operator.cli;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(mixinStandardHelpOptions = true, 
    name = "validate",
    description = {
      "Checks RouterComparison and GpuCluster YAML (multi-document files, as used with kubectl apply).",
      "Prints one line per problem as FILE:LINE: PATH: message; exits 0 when all are valid, 1 otherwise."
    })
public final class ValidateCommand implements Callable<Integer> {
  @Option(names = {"-f", "--filename"}, required = true, arity = "1..*", paramLabel = "FILE",
      description = "YAML files to check (repeatable).")
  List<Path> files;

  @Override
  public Integer call() {
    LoadedResources loaded = LoadedResources.load(files);
    for (Problem p : loaded.problems()) {
      (p.isError() ? System.out : System.err).println(p);
    }
    if (loaded.hasErrors()) {
      long n = loaded.problems().stream().filter(Problem::isError).count();
      System.err.println(n + " problem" + (n == 1 ? "" : "s") + " found");
      return 1;
    }
    for (RouterComparison rc : loaded.comparisons()) {
      System.out.println("valid: RouterComparison " + rc.getMetadata().getName() + " (" + rc.getSpec().arms.size() + " arms)");
    }
    for (GpuCluster c : loaded.clusters()) {
      System.out.println("valid: GpuCluster " + c.getMetadata().getName() + " (" + c.getSpec().mode + ")");
    }
    return 0;
  }
}
