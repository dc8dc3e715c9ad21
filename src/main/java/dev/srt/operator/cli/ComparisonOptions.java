package dev.srt.operator.cli;

import dev.srt.operator.api.Mode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** The options that name the one comparison a command works on and its cluster: {@code -f FILE...} and {@code --cluster FILE}. */
final class ComparisonOptions {
  /** What {@code --cluster} says in every command that takes it for the comparison's own cluster. */
  static final String CLUSTER = "The GpuCluster (instead of the one clusterRef names in the files).";

  @Option(names = {"-f", "--filename"}, required = true, arity = "1..*", paramLabel = "FILE",
      description = "YAML with the RouterComparison (and optionally its GpuCluster).")
  List<Path> files;

  @Option(names = "--cluster", paramLabel = "FILE", description = CLUSTER)
  Path cluster;

  /** The comparison and its cluster, planned for {@code mode} (null: the cluster's). */
  Inputs load(Mode mode, PrintStream err) throws Inputs.Invalid {
    return Inputs.load(files, cluster, mode, err);
  }
}
