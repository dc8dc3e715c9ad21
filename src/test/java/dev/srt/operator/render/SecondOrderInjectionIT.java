package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.config.Problem;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 8, finding 2: a run-time placeholder was expanded into a quoted command that the sidecar
 * supervisor parsed again ({@code bash -c "exec $ENGINE_CMD"}), so a quote in the work directory
 * plus {@code {{run_dir}}} in backend.env, sidecar.args or model.path ran code. The validator now
 * rejects such a work directory; and the scripts never parse a value twice, so even a run
 * directory full of shell syntax (here with validation bypassed) runs nothing it did not declare,
 * in both modes, with and without a container.
 */
class SecondOrderInjectionIT {
  @TempDir Path dir;

  private String yaml(Path marker, String workDir, String mode, String container) {
    return """
        apiVersion: srt.dev/v1alpha1
        kind: RouterComparison
        metadata: {name: second-order}
        spec:
          clusterRef: {name: box}
          model: {path: "/models{{run_dir}}/m"}
          resources: {aggNodes: 1, aggWorkers: 2, gpusPerWorker: 4}
          backend: {env: {X: "{{run_dir}}/t"}}
          dynamo: {version: 0.6.1}
          healthCheck: {timeout: 60s, interval: 1s}
          workload: {tool: custom, command: "printf '%%s' {{run_dir}} >results/run-dir.txt"}
          arms:
          - name: kv
            frontend: {type: dynamo}
            dynamo: {sidecar: {enabled: true, args: ["--custom-jinja-template", "{{run_dir}}/s"]}}
        ---
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: box}
        spec:
          mode: %s
          transport: local
          workDir: "%s"
          env: {TRACE_ROOT: "{{run_dir}}"}
        %s""".formatted(mode, workDir.replace("\\", "\\\\").replace("\"", "\\\""), container).replace("MARKER", marker.toString());
  }

  @Test
  void theReproIsRejectedAtTheWorkDirectory() {
    Path marker = dir.resolve("M");
    LoadedResources r = LoadedResources.parse("repro.yaml", yaml(marker, "/tmp/w'$(touch MARKER)'", "direct", ""));
    assertThat(r.problems()).filteredOn(Problem::isError).extracting(Problem::path).containsExactly("spec.workDir");
  }

  @TestFactory
  Stream<DynamicTest> aRunDirectoryFullOfShellSyntaxRunsNothingItDidNotDeclare() throws Exception {
    StandIns standIns = StandIns.install(dir);
    Path marker = standIns.markers.resolve("M");
    // What the finding's repro did to RUN_DIR: a quote, a command substitution, more quoting.
    String hostile = dir.resolve("w'$(touch MARKER)'\"`touch MARKER`\"").toString().replace("MARKER", marker.toString());
    return Stream.of(
            new Object[] {Mode.DIRECT, ""},
            new Object[] {Mode.SLURM, ""},
            new Object[] {Mode.DIRECT, "  container: {runtime: docker, image: \"lmsysorg/sglang:dev\"}\n"},
            new Object[] {Mode.SLURM, "  container: {runtime: pyxis, image: \"lmsysorg/sglang:dev\"}\n"})
        .map(c -> DynamicTest.dynamicTest(c[0] + (((String) c[1]).isEmpty() ? "" : " in a container"),
            () -> runsClean(standIns, hostile, (Mode) c[0], (String) c[1], marker)));
  }

  private void runsClean(StandIns standIns, String hostile, Mode mode, String container, Path marker) throws Exception {
    // Validation would stop this work directory; the point is what the renderer does with such text.
    LoadedResources r = LoadedResources.parse("second-order.yaml", yaml(marker, dir.resolve("work").toString(), mode.id(), container));
    assertThat(r.problems()).filteredOn(Problem::isError).isEmpty();
    RouterComparison rc = r.comparisons().get(0);
    GpuCluster cluster = r.clusters().get(0);
    RunPlan plan = Planner.plan(rc, cluster, "kv", mode);
    Path runDir = Files.createDirectories(Path.of(hostile, mode.id() + (container.isEmpty() ? "" : "-container")));
    Path script = runDir.resolve(Scripts.fileName(plan));
    Files.writeString(script, Scripts.render(plan));

    StandIns.Run run = standIns.run(script, runDir, mode, null, null, 120);

    assertThat(marker).as(run.output()).doesNotExist();
    assertThat(run.finished()).as(run.output()).isEqualTo("succeeded");
    String rd = runDir.toString();
    DeclaredCommands declared = new DeclaredCommands(plan, rd, standIns.hostTag(plan));
    assertThat(run.invocations()).as("every command is declared").allSatisfy(inv -> assertThat(declared.match(inv)).as("%s", inv.argv()).isNotNull());
    // The values reach the processes whole: env, sidecar args, model path, the custom command's text.
    assertThat(run.invocations()).anySatisfy(inv -> {
      assertThat(inv.args()).contains("sglang.launch_server", "/models" + rd + "/m");
      assertThat(inv.env()).containsEntry("X", rd + "/t").containsEntry("TRACE_ROOT", rd);
    });
    assertThat(run.invocations()).anySatisfy(inv -> assertThat(inv.args()).containsSequence("dynamo.sglang.sidecar")
        .containsSequence("--custom-jinja-template", rd + "/s"));
    assertThat(runDir.resolve("results/run-dir.txt")).hasContent(rd);
  }
}
