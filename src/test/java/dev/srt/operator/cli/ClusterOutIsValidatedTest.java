package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, hole 5, "{@code --cluster-out} writes hostile recipe fields unvalidated": a multi-line
 * partition, a {@code /:/host} container mount and {@code export=ALL,BASH_ENV=...} were written as
 * they came, while docs/import.md said what is written is validated. Everything the import writes
 * is validated by the rules of {@code validate} (the comparison against its GpuCluster); if it is
 * not valid the import exits 1 and writes nothing.
 */
class ClusterOutIsValidatedTest {
  @TempDir Path dir;

  @Test
  void theIssuesReproIsRefusedAndNothingIsWritten() throws Exception {
    Path recipe = ImportRun.write(dir, "arm.yaml", ImportRun.RECIPE
        .replace("partition: batch", "partition: \"batch\\n#SBATCH --chdir=/\"")
        .replace("container_mounts: {/data: /data}", "container_mounts: {/: /host}")
        .replace("sbatch_directives: {exclusive: \"\", comment: bench}", "sbatch_directives: {export: \"ALL,BASH_ENV=/tmp/evil.sh\"}"));
    Path out = dir.resolve("comparison.yaml");
    Path cluster = dir.resolve("cluster.yaml");
    ImportRun.Result r = ImportRun.run(Map.of(), recipe.toString(), "--out-file", out.toString(), "--cluster-out", cluster.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(out).doesNotExist();
    assertThat(cluster).doesNotExist();
    assertThat(r.err()).contains(
        "spec.slurm.partition: must be a single line without control characters (in the imported GpuCluster)",
        "spec.container.mounts[0]: must be host-path[:container-path[:options]]",
        "spec.slurm.sbatchDirectives.export: --export is not for the spec to set",
        "import refused: ", "nothing written");
  }

  @Test
  void whatItWritesIsWhatValidateAccepts() throws Exception {
    Path out = dir.resolve("comparison.yaml");
    Path cluster = dir.resolve("cluster.yaml");
    ImportRun.Result r = ImportRun.run(Map.of(), ImportRun.write(dir, "arm.yaml", ImportRun.RECIPE).toString(), "--out-file", out.toString(),
        "--cluster-out", cluster.toString());
    assertThat(r.code()).as(r.err()).isZero();
    LoadedResources loaded = LoadedResources.load(List.of(out), cluster);
    assertThat(loaded.problems()).filteredOn(Problem::isError).isEmpty();
    assertThat(loaded.clusters()).singleElement().satisfies(c -> {
      assertThat(c.getSpec().transport).isEqualTo("ssh");
      assertThat(c.getSpec().ssh.privateKeySecretRef.name).isEqualTo("h100-cluster-ssh");
    });
  }

  /** A comparison that does not fit its own cluster skeleton is refused too (validated against it). */
  @Test
  void theComparisonIsValidatedAgainstTheClusterItIsWrittenWith() throws Exception {
    Path recipe = ImportRun.write(dir, "arm.yaml", ImportRun.RECIPE.replace("gpus_per_node: 8", "gpus_per_node: 4"));
    ImportRun.Result r = ImportRun.run(Map.of(), recipe.toString(), "--out-file", dir.resolve("c.yaml").toString(), "--cluster-out",
        dir.resolve("k.yaml").toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("spec.resources: aggWorkers x gpusPerWorker = 8 GPUs, more than aggNodes x gpusPerNode = 4 "
        + "(in the imported RouterComparison)");
  }
}
