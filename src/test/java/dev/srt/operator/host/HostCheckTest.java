package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.plan.Prerequisites;
import dev.srt.operator.plan.Requirement;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The prerequisite check: its script run on this machine, and its verdicts from what hosts answer. */
class HostCheckTest {
  private static Prerequisites.Needed need(Requirement r) {
    return new Prerequisites.Needed(r, List.of("arm"));
  }

  private static HostCheck.Finding judge(Requirement r, String... lines) {
    return HostCheck.parse(List.of(need(r)), String.join("\n", lines)).findings().get(0);
  }

  @Test
  void theScriptLooksForEachRequirementWithTheClustersPathAndEnv(@TempDir Path dir) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin with space"));
    Path tool = bin.resolve("only-here");
    Files.writeString(tool, "#!/bin/sh\n");
    tool.toFile().setExecutable(true);
    Path model = Files.createDirectories(dir.resolve("model"));
    Files.writeString(model.resolve("config.json"), "{}");
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(0));
      int busy = taken.getLocalPort();
      List<Prerequisites.Needed> needed = List.of(
          need(new Requirement.Program("only-here", "fix")),
          need(new Requirement.Program("srt-no-such-program", "install it")),
          need(new Requirement.PythonImport("python3", "json", "fix")),
          need(new Requirement.PythonImport("python3", "srt_no_such_module", "fix")),
          need(new Requirement.ModelDir(model.toString())),
          need(new Requirement.FreeDisk(dir.resolve("not/yet/made").toString(), 0)),
          need(new Requirement.PortsFree("python3", List.of(busy), dir.resolve("host.lease").toString())),
          need(new Requirement.Python("python3")));
      HostCheck.Report r;
      try (LocalTransport local = new LocalTransport()) {
        r = HostCheck.run(local, needed, List.of(bin.toString()), Map.of("SRT_CHECK_NOTE", "it's $(not run)"));
      }
      assertThat(r.findings()).extracting(HostCheck.Finding::ok).containsExactly(true, false, true, false, false, true, false, true);
      assertThat(r.findings().get(0).found()).isEqualTo(tool.toString());
      assertThat(r.findings().get(1).found()).isEqualTo("not found on PATH");
      assertThat(r.findings().get(3).found()).isEqualTo("ModuleNotFoundError: No module named 'srt_no_such_module'");
      assertThat(r.findings().get(4).found()).isEqualTo("no tokenizer.json");
      assertThat(r.findings().get(5).found()).matches("[0-9.]+ GiB free on /.*");
      assertThat(r.findings().get(6).found()).isEqualTo("in use: " + busy);
      assertThat(r.findings().get(7).found()).startsWith("Python 3.");
      assertThat(r.met()).isFalse();
      assertThat(r.summary()).startsWith("srt-no-such-program (on PATH): not found on PATH; python3: import srt_no_such_module: ");
    }
  }

  @Test
  void aRunHoldingTheLeaseOwnsItsPorts() {
    assertThat(judge(new Requirement.PortsFree("python3", List.of(8000), "/w/host.lease"), "@0 lease held").ok()).isTrue();
    assertThat(judge(new Requirement.PortsFree("python3", List.of(8000, 8001), "/w/host.lease"), "@0 busy ").found())
        .isEqualTo("all 2 free");
  }

  @Test
  void gpusAreCountedFromNvidiaSmiOrTheSlurmGres() {
    Requirement direct = new Requirement.Gpus(8, 1, false, null);
    String[] eight = new String[9];
    for (int i = 0; i < 8; i++) {
      eight[i] = "@0 gpu GPU " + i + ": NVIDIA H100 80GB HBM3 (UUID: GPU-" + i + ")";
    }
    eight[8] = "@0 done";
    assertThat(judge(direct, eight)).extracting(HostCheck.Finding::ok, HostCheck.Finding::found)
        .containsExactly(true, "8 GPU(s): NVIDIA H100 80GB HBM3");
    assertThat(judge(direct, "@0 gpu GPU 0: NVIDIA A10 (UUID: x)", "@0 done").ok()).isFalse();
    assertThat(judge(direct, "@0 absent").found()).isEqualTo("nvidia-smi not found on PATH");
    assertThat(judge(new Requirement.GpuType("h100", false, null), eight).ok()).isTrue();
    assertThat(judge(new Requirement.GpuType("a100", false, null), eight).ok()).isFalse();

    Requirement twoNodes = new Requirement.Gpus(8, 2, true, "multinode");
    assertThat(judge(twoNodes, "@0 node srt-node1 gpu:8", "@0 node srt-node2 gpu:h100:8(S:0-1)", "@0 done"))
        .extracting(HostCheck.Finding::ok, HostCheck.Finding::found).containsExactly(true, "2 of 2 node(s) with >= 8 GPUs (most: 8)");
    assertThat(judge(twoNodes, "@0 node n1 gpu:a:4,gpu:b:4", "@0 node n2 gpu:4", "@0 done").found())
        .isEqualTo("1 of 2 node(s) with >= 8 GPUs (most: 8)");
    assertThat(judge(new Requirement.GpuType("h100", true, null), "@0 gres gpu:8", "@0 done").found())
        .startsWith("not reported");
  }

  @Test
  void slurmPartitionsAndJobs() {
    assertThat(judge(new Requirement.SlurmPartition("debug"), "@0 partition debug* up 1"))
        .extracting(HostCheck.Finding::ok, HostCheck.Finding::found).containsExactly(true, "debug: up, 1 node(s)");
    assertThat(judge(new Requirement.SlurmPartition("gpu"), "@0 partition ").found()).isEqualTo("no such partition");
    assertThat(judge(new Requirement.SlurmPartition(null), "@0 default ").found()).isEqualTo("no default partition");
    Requirement job = new Requirement.SlurmJob("debug", "llm", 1, 8, true, "01:00:00");
    assertThat(job.label()).isEqualTo("sbatch --test-only --partition=debug --account=llm --nodes=1 --gres=gpu:8 --time=01:00:00");
    assertThat(judge(job, "@0 rc 1", "@0 out sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified"))
        .extracting(HostCheck.Finding::ok, HostCheck.Finding::found)
        .containsExactly(false, "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified");
  }

  @Test
  void anEmulatedHostNeedsNoModelFilesAndMissingAnswersAreMissing() {
    assertThat(judge(new Requirement.ModelDir("/models/m"), "@0 emulated").ok()).isTrue();
    assertThat(judge(new Requirement.ModelDir("/models/m"), "@0 nodir").found()).isEqualTo("no such directory");
    assertThat(judge(new Requirement.Program("cargo", "fix"), "garbage", "@x path /y").found()).isEqualTo("no answer from the host");
    HostCheck.Report optional = HostCheck.parse(List.of(need(new Requirement.Program("sacct", "fix", true))), "@0 absent");
    assertThat(optional.met()).as("an optional requirement does not fail the check").isTrue();
  }
}
