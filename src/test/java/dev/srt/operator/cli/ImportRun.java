package dev.srt.operator.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;

/**
 * {@code srt-operator import} run in the test JVM with an environment of the test's (so that it can
 * hold secrets), and a recipe to start from: one Slurm arm with every kind of field the import maps.
 */
final class ImportRun {
  /** A recipe of srtctl's: Slurm settings, directives, srun options, mounts, environment, engine flags, a custom benchmark. */
  static final String RECIPE = """
      name: gateway
      model: {path: /models/Qwen3-32B-FP8, container: lmsysorg/sglang:dev}
      resources: {gpu_type: h100, gpus_per_node: 8, agg_nodes: 1, agg_workers: 2, gpus_per_agg: 4}
      slurm: {account: llm, partition: batch, time_limit: "02:00:00"}
      sbatch_directives: {exclusive: "", comment: bench}
      srun_options: {mpi: pmix}
      container_mounts: {/data: /data}
      environment: {HF_HOME: /scratch/hf}
      backend:
        type: sglang
        kv_events_config: {aggregated: true}
        sglang_config:
          aggregated: {served-model-name: Qwen/Qwen3-32B-FP8, tensor-parallel-size: 4, page-size: 64}
        aggregated_environment: {NCCL_DEBUG: WARN}
      health_check: {max_attempts: 60, interval_seconds: 5}
      benchmark:
        type: custom
        command: aiperf profile --url "$SRT_FRONTEND_URL" --output-artifact-dir "$AIPERF_ARTIFACT_DIR" --ui none
        env: {AIPERF_LOG: info}
      frontend:
        type: sglang
        args: {policy: cache_aware}
        env: {RUST_LOG: info}
      """;

  record Result(int code, String out, String err) {
    /** Everything the import said or wrote. */
    String all(Path... written) throws IOException {
      StringBuilder b = new StringBuilder(out).append(err);
      for (Path p : written) {
        if (Files.exists(p)) {
          b.append(Files.readString(p));
        }
      }
      return b.toString();
    }
  }

  private ImportRun() {}

  static Path write(Path dir, String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  /** {@code import ARGS} with {@code environment} as the process's environment. */
  static Result run(Map<String, String> environment, String... args) {
    ImportCommand command = new ImportCommand();
    command.environment = environment::get;
    ValidateCommandTest.Run r = ValidateCommandTest.capture(() -> new CommandLine(command).execute(args));
    return new Result(r.code(), r.out(), r.err());
  }
}
