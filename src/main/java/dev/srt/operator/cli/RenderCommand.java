package dev.srt.operator.cli;

import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.render.Scripts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(mixinStandardHelpOptions = true, name = "render", description = {
    "Writes each arm's script into a directory and prints what it wrote.",
    "The scripts are DIR/<arm>/job.sbatch (slurm) or DIR/<arm>/run.sh (direct). --mode renders for the other mode too",
    "(missing slurm settings take defaults), so both can be previewed from one file. Without a GpuCluster (--cluster",
    "FILE, or the one clusterRef names in the files), it renders for documented defaults and says which on stderr."})
public final class RenderCommand implements Callable<Integer> {
  @Option(names = {"-f", "--filename"}, required = true, arity = "1..*", paramLabel = "FILE", description = "YAML with the RouterComparison (and optionally its GpuCluster).")
  List<Path> files;

  @Option(names = "--arm", paramLabel = "NAME", description = "Only this arm.")
  String arm;

  @Option(names = "--mode", paramLabel = "slurm|direct", description = "Render for this mode instead of the cluster's.")
  String mode;

  @Option(names = "--cluster", paramLabel = "FILE", description = "GpuCluster to render for (instead of the one clusterRef names).")
  Path cluster;

  @Option(names = "--out-dir", required = true, paramLabel = "DIR", description = "Directory to write the scripts into.")
  Path output;

  @Override
  public Integer call() throws Exception {
    try {
      Inputs in = Inputs.load(files, cluster, mode == null ? null : Mode.parse(mode), System.err);
      for (String a : in.arms(arm, System.err)) {
        RunPlan plan = in.plan(a);
        Path file = output.resolve(a).resolve(Scripts.fileName(plan));
        Files.createDirectories(file.getParent());
        Files.writeString(file, Scripts.render(plan));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        System.out.println("wrote " + file);
      }
      return 0;
    } catch (Inputs.Invalid e) {
      return 1;
    }
  }
}
