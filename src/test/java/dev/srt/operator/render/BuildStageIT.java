package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failing step of a cached build stage fails the run and leaves no completion marker; a missing infra executable fails it before any build. */
class BuildStageIT {
  @TempDir Path dir;

  @Test
  void aFailingEarlyStepFailsTheStageAndIsNotCached() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path git = bin.resolve("git");
    Files.writeString(git, "#!/usr/bin/env bash\necho \"git: cannot reach $*\" >&2\nexit 128\n");
    Files.setPosixFilePermissions(git, PosixFilePermissions.fromString("rwxr-xr-x"));
    // The arm's etcd, which the preflight looks for before the build.
    Path etcd = bin.resolve("etcd");
    Files.writeString(etcd, "#!/usr/bin/env bash\nexit 0\n");
    Files.setPosixFilePermissions(etcd, PosixFilePermissions.fromString("rwxr-xr-x"));
    // The host has no network: `pip install maturin` succeeds without one here, as if cached.
    Path python = bin.resolve("python3");
    String real = Bash.run(null, 10, List.of("bash", "-c", "command -v python3")).output().strip();
    Files.writeString(python, "#!/usr/bin/env bash\nif [ \"${1:-} ${2:-}\" = \"-m pip\" ]; then exit 0; fi\nexec " + real + " \"$@\"\n");
    Files.setPosixFilePermissions(python, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path work = dir.resolve("work");
    RunPlan plan = plan("workDir: %s, path: [%s]".formatted(work, bin));
    Path runDir = runDynamoKv(plan);
    String events = Files.readString(runDir.resolve("events.jsonl"));
    assertThat(events).contains("\"reason\":\"BuildFailed\"").contains("\"status\":\"failed\"")
        .doesNotContain("\"stage\":\"dynamo-install\"").doesNotContain("process-started");
    // The cache directory's name ends in the host tag the script computed: look for any marker.
    assertThat(plan.builds().get(0).cacheDir()).startsWith(work.resolve("cache/dynamo").toString());
    try (var files = Files.walk(work.resolve("cache"))) {
      assertThat(files.map(f -> f.getFileName().toString())).doesNotContain(".complete").contains("dynamo");
    }
    assertThat(Files.readString(runDir.resolve("logs/dynamo-build.log"))).contains("git: cannot reach clone");
  }

  @Test
  void aMissingInfraExecutableFailsTheRunBeforeAnyBuild() throws Exception {
    Path runDir = runDynamoKv(plan("workDir: %s, infra: {etcd: %s}".formatted(dir.resolve("work"), dir.resolve("no/such/etcd"))));
    String events = Files.readString(runDir.resolve("events.jsonl"));
    assertThat(events).contains("\"reason\":\"PreflightFailed\"", dir.resolve("no/such/etcd") + " is not an executable",
        "set spec.infra.etcd of the GpuCluster to its path").doesNotContain("stage-started").doesNotContain("process-started");
  }

  /** Arm dynamo-kv of the example on a local direct cluster with these spec fields. */
  private static RunPlan plan(String clusterFields) {
    String yaml = Examples.exampleYaml() + "\n---\n" + """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: h100-box}
        spec: {mode: direct, transport: local, %s}
        """.formatted(clusterFields);
    LoadedResources r = Examples.parse(yaml);
    return Planner.plan(r.comparisons().get(0), r.clusters().get(0), "dynamo-kv", Mode.DIRECT);
  }

  /** Runs the plan's script in a run directory of its own, which it returns; the run must fail. */
  private Path runDynamoKv(RunPlan plan) throws Exception {
    Path runDir = Files.createDirectories(dir.resolve("run"));
    Files.writeString(runDir.resolve("run.sh"), Scripts.render(plan));
    Bash.Result result = Bash.run(runDir, 60, List.of("bash", runDir.resolve("run.sh").toString()));
    assertThat(result.code()).as(result.output()).isEqualTo(1);
    return runDir;
  }
}
