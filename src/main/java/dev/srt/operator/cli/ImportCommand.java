package dev.srt.operator.cli;

import dev.srt.operator.importer.RecipeImport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(mixinStandardHelpOptions = true, name = "import", description = {
    "Reads srtctl recipes, one per arm, and writes one RouterComparison.",
    "It goes to --out-file FILE, or to stdout. The recipes must agree on everything but routing (name, frontend, dynamo):",
    "any other difference refuses the import,",
    "listing each field with its values and FILE:LINE. $NAME and ${NAME} are resolved from this environment.",
    "Fields that are not carried over are listed on stderr with the reason; see docs/import.md."})
public final class ImportCommand implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "RECIPE", description = "srtctl recipe YAML, one per arm, in arm order.")
  List<Path> recipes;

  @Option(names = "--out-file", paramLabel = "FILE", description = "Write the RouterComparison here instead of stdout.")
  Path output;

  @Option(names = "--name", paramLabel = "NAME", description = "The comparison's name. Default: the recipes' directory name.")
  String name;

  @Option(names = "--cluster-out", paramLabel = "FILE",
      description = "Also write a GpuCluster skeleton (GPU type and count, container image, etcd/NATS ports) to fill in.")
  Path clusterOut;

  @Override
  public Integer call() {
    RecipeImport.Result r = RecipeImport.run(recipes, name, System.getenv());
    r.ignored().forEach(System.err::println);
    r.notes().forEach(n -> System.err.println("note: " + n));
    r.problems().forEach(System.err::println);
    if (r.refused()) {
      long n = r.problems().stream().filter(p -> p.isError() && !p.path().isEmpty()).count();
      System.err.println("import refused" + (n == 0 ? "" : ": " + n + " problem" + (n == 1 ? "" : "s")));
      return 1;
    }
    String yaml = provenance() + r.comparisonYaml();
    try {
      if (output == null) {
        System.out.print(yaml);
      } else {
        Files.writeString(output, yaml);
      }
      if (clusterOut != null) {
        Files.writeString(clusterOut, r.clusterYaml());
      }
    } catch (IOException e) {
      System.err.println("cannot write: " + e.getMessage());
      return 1;
    }
    return 0;
  }

  /** Where the comparison came from, so that a reader edits the recipes and imports again. */
  private String provenance() {
    StringBuilder b = new StringBuilder("# Imported by `srt-operator import` from srtctl recipes, one per arm:\n");
    recipes.forEach(p -> b.append("#   ").append(p.toString().replace('\n', ' ')).append('\n'));
    return b.toString();
  }
}
