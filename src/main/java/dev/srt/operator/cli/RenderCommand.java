package dev.srt.operator.cli;

import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.RunPlan;
import dev.srt.operator.render.Scripts;
import dev.srt.operator.config.Echo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(mixinStandardHelpOptions = true, name = "render", description = {
    "Writes each arm's script into a directory and prints what it wrote.",
    "The scripts are DIR/<arm>/job.sbatch (slurm) or DIR/<arm>/run.sh (direct). --mode renders for the other mode too",
    "(missing slurm settings take defaults), so both can be previewed from one file. Without a GpuCluster (--cluster",
    "FILE, or the one clusterRef names in the files), it renders for documented defaults and says which on stderr."})
public final class RenderCommand implements Callable<Integer> {
  @Mixin ComparisonOptions input;

  @Mixin ArmOption only;

  @Option(names = "--mode", paramLabel = "slurm|direct", description = "Render for this mode instead of the cluster's.")
  String mode;

  @Option(names = "--out-dir", required = true, paramLabel = "DIR", description = "Directory to write the scripts into.")
  Path output;

  @Override
  public Integer call() throws Exception {
    try {
      Inputs in = input.load(mode == null ? null : Mode.parse(mode), System.err);
      for (String a : only.of(in, System.err)) {
        RunPlan plan = in.plan(a);
        // DIR and DIR/<arm> must be directories, not links to one; the script replaces a regular file only, atomically.
        OutputFiles.directory(output);
        Path file = OutputFiles.directory(output.resolve(a)).resolve(Scripts.fileName(plan));
        OutputFiles.write(file, Scripts.render(plan).getBytes(StandardCharsets.UTF_8), PosixFilePermissions.fromString("rwxr-xr-x"));
        System.out.println(Echo.escape("wrote " + file));
      }
      return 0;
    } catch (Inputs.Invalid e) {
      return 1;
    } catch (IOException e) {
      System.err.println(Echo.escape("render: " + e.getMessage()));
      return 1;
    }
  }
}
