package dev.srt.operator.cli;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import dev.srt.operator.config.Validator;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The one comparison a command works on, and the cluster it runs on: {@code --cluster FILE}, or
 * the GpuCluster its clusterRef names in the same files, or documented defaults. Problems are
 * printed as {@code FILE:LINE: PATH: message}; on an error nothing else happens.
 */
record Inputs(RouterComparison comparison, GpuCluster cluster, Mode mode) {

  /** Thrown after the reason was printed; the command exits with 1. */
  static final class Invalid extends Exception {
    private static final long serialVersionUID = 1L;

    Invalid() {
      super(null, null, false, false);
    }
  }

  static Inputs load(List<Path> files, Path clusterFile, Mode mode, PrintStream err) throws Invalid {
    LoadedResources loaded = LoadedResources.load(files, clusterFile);
    noteSkipped(loaded, err);
    loaded.problems().forEach(err::println);
    if (loaded.hasErrors()) {
      throw new Invalid();
    }
    if (loaded.comparisons().size() != 1) {
      err.println(loaded.comparisons().isEmpty() ? "no RouterComparison in " + files
          : "found " + loaded.comparisons().size() + " RouterComparisons; give one per command");
      throw new Invalid();
    }
    RouterComparison rc = loaded.comparisons().get(0);
    GpuCluster cluster = loaded.clusterFor(rc).orElse(null);
    if (mode != null) {
      // The requested mode may have rules the cluster's own mode does not (one host for direct).
      List<Problem> modeErrors = Validator.validate(rc, cluster, mode).stream().filter(Problem::isError)
          .filter(p -> !loaded.problems().stream().anyMatch(q -> q.path().equals(p.path()) && q.message().equals(p.message())))
          .toList();
      if (!modeErrors.isEmpty()) {
        modeErrors.forEach(p -> err.println("--mode " + mode.id() + ": " + p.describe()));
        throw new Invalid();
      }
    }
    if (cluster == null) {
      err.println("note: GpuCluster " + rc.getSpec().clusterRef.name + " is not in the files (--cluster FILE); using defaults: "
          + "8 GPUs per node, " + Planner.DEFAULT_PYTHON + ", work dir " + Planner.DEFAULT_WORK_DIR
          + (mode == null ? ", mode slurm" : ""));
    }
    return new Inputs(rc, cluster, mode);
  }

  /** One line for the objects of other kinds the files hold (a bundle's Secret, Namespace, ...), if any. */
  static void noteSkipped(LoadedResources loaded, PrintStream err) {
    if (!loaded.skipped().isEmpty()) {
      err.println("note: skipped " + loaded.skipped().size() + " object" + (loaded.skipped().size() == 1 ? "" : "s")
          + " srt-operator does not read: " + String.join(", ", loaded.skipped()));
    }
  }

  /** The arms to work on: all, or the one named. */
  List<String> arms(String only, PrintStream err) throws Invalid {
    List<String> names = comparison.getSpec().arms.stream().map(a -> a.name).toList();
    if (only == null) {
      return names;
    }
    if (!names.contains(only)) {
      err.println("no arm named " + only + "; arms: " + String.join(", ", names));
      throw new Invalid();
    }
    return List.of(only);
  }

  /**
   * The cluster, which the command needs ({@code need}, e.g. "apply needs the GpuCluster to run
   * on"); no defaults stand in for a host to reach.
   */
  GpuCluster requireCluster(String need) throws ApplyCommand.UsageError {
    if (cluster == null) {
      throw new ApplyCommand.UsageError(need + ": give --cluster FILE, or add the GpuCluster " + comparison.getSpec().clusterRef.name
          + " to the -f files");
    }
    return cluster;
  }

  RunPlan plan(String arm) {
    return Planner.plan(comparison, cluster, arm, mode);
  }

}
