package dev.srt.operator.cli;

import dev.srt.operator.config.Echo;
import dev.srt.operator.importer.RecipeImport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(mixinStandardHelpOptions = true, name = "import", description = {
    "Reads srtctl recipes, one per arm, and writes one RouterComparison, to --out-file FILE or to stdout.",
    "The recipes must agree on everything but routing (name, frontend, dynamo): any other difference refuses the import,",
    "listing each field with its values and FILE:LINE.",
    "$NAME and $${NAME} in recipe values are resolved only for the names given with --env NAME (their values are then",
    "written into the comparison); any other reference refuses the import. A name that looks secret (KEY, TOKEN, SECRET,",
    "PASSWORD, CREDENTIAL) is never resolved: an environment entry of one becomes a spec.secretEnv reference. The",
    "benchmark command is kept as written (its variables are the run's shell's) and the variables it uses are listed.",
    "What is written is validated as validate would; if it is not valid, nothing is written and the exit code is 1.",
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

  @Option(names = "--env", paramLabel = "NAME",
      description = "Resolve $NAME and $${NAME} in recipe values from this environment (repeatable); not for secrets.")
  List<String> env = new ArrayList<>();

  @Option(names = "--trace-dir", paramLabel = "DIR",
      description = "The GPU host's directory holding srtctl's benchmark traces (mooncake-router's <workload>_trace.jsonl).")
  String traceDir;

  /** Where --env values come from: this process's environment (a test gives its own). */
  Function<String, String> environment = System::getenv;

  @Override
  public Integer call() {
    Map<String, String> given = new LinkedHashMap<>();
    env.forEach(n -> given.put(n, environment.apply(n)));
    RecipeImport.Result r = RecipeImport.run(recipes, name, given, clusterOut != null, traceDir);
    // Every line names files and recipe values: escaped, so that none can add a line or move the cursor.
    r.ignored().forEach(l -> System.err.println(Echo.escape(l)));
    r.notes().forEach(n -> System.err.println("note: " + Echo.escape(n)));
    r.problems().forEach(p -> System.err.println(Echo.escape(p.toString())));
    if (r.refused()) {
      long n = r.problems().stream().filter(p -> p.isError() && !p.path().isEmpty()).count();
      System.err.println("import refused" + (n == 0 ? "" : ": " + n + " problem" + (n == 1 ? "" : "s")) + "; nothing written");
      return 1;
    }
    String yaml = provenance() + r.comparisonYaml();
    try {
      // Never through a link or into a FIFO: a regular file or nothing is replaced, atomically.
      if (output == null) {
        System.out.print(yaml);
      } else {
        OutputFiles.write(output, yaml);
      }
      if (clusterOut != null) {
        OutputFiles.write(clusterOut, r.clusterYaml());
      }
    } catch (IOException e) {
      System.err.println("cannot write: " + Echo.escape(e.getMessage()));
      return 1;
    }
    return 0;
  }

  /**
   * Where the comparison came from, so that a reader edits the recipes and imports again. A file
   * name is escaped: YAML ends a comment at any line break (CR, NEL, U+2028 as well as LF), and
   * what followed would be read as YAML.
   */
  private String provenance() {
    StringBuilder b = new StringBuilder("# Imported by `srt-operator import` from srtctl recipes, one per arm:\n");
    recipes.forEach(p -> b.append("#   ").append(Echo.escape(p.toString())).append('\n'));
    return b.toString();
  }
}
