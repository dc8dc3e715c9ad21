package dev.srt.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.plan.Examples;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.Planner;
import dev.srt.operator.plan.RunPlan;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A direct run waits for its fixed ports, and fails with PortsInUse when one stays taken. */
class PortsInUseIT {
  @TempDir Path dir;

  @Test
  void aPortThatStaysTakenFailsTheRunBeforeAnythingStarts() throws Exception {
    String yaml = Examples.exampleYaml().replace("      source: /src/sglang/experimental/sgl-router\n", "")
        + "\n---\n" + """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: h100-box}
        spec: {mode: direct, transport: local, workDir: %s, env: {SRT_PORT_WAIT: "2"}}
        """.formatted(dir.resolve("work"));
    // Without frontend.source the script has no build stage to get past first; validation refuses such a
    // direct-host arm (it would run the PATH's sgl-router), so the spec is read without it: the port check is the point.
    LoadedResources r = LoadedResources.parse("inline.yaml", yaml);
    assertThat(r.problems()).filteredOn(dev.srt.operator.config.Problem::isError).singleElement()
        .satisfies(p -> assertThat(p.path()).isEqualTo("spec.arms[0].frontend.source"));
    RunPlan plan = Planner.plan(r.comparisons().get(0), r.clusters().get(0), "sgl-router", Mode.DIRECT);
    Path runDir = Files.createDirectories(dir.resolve("run"));
    Files.writeString(runDir.resolve("run.sh"), Scripts.render(plan));
    try (ServerSocket taken = new ServerSocket()) {
      taken.setReuseAddress(true);
      taken.bind(new InetSocketAddress(6132));
      Bash.Result result = Bash.run(runDir, 60, List.of("bash", runDir.resolve("run.sh").toString()));
      assertThat(result.code()).as(result.output()).isEqualTo(1);
    }
    String events = Files.readString(runDir.resolve("events.jsonl"));
    assertThat(events).contains("\"reason\":\"PortsInUse\"").contains("port(s) 6132").doesNotContain("process-started");
  }
}
