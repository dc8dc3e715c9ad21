package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RunRefTest {
  private static final String VALID = "[a-z0-9-]+";

  @Test
  void plainNamesAreUsedAsTheyAre() {
    RunRef run = new RunRef("default", "routers", "sgl-router", "r1a2b3c4d");
    assertThat(run.jobName()).isEqualTo("srt-default-routers-sgl-router-r1a2b3c4d");
    assertThat(run.marker()).isEqualTo("srt-operator:default/routers/sgl-router/r1a2b3c4d");
    assertThat(run.runDir("/scratch/srt")).isEqualTo("/scratch/srt/default/routers/sgl-router/r1a2b3c4d");
    assertThat(run.runDir("/scratch/srt//")).isEqualTo("/scratch/srt/default/routers/sgl-router/r1a2b3c4d");
  }

  @Test
  void namesWithOtherCharactersAreCleanedAndHashed() {
    RunRef dotted = new RunRef("default", "my.comparison", "Arm_1", "r1a2b3c4d");
    RunRef dashed = new RunRef("default", "my-comparison", "arm-1", "r1a2b3c4d");
    assertThat(dotted.jobName()).matches(VALID).startsWith("srt-default-my-comparison-arm-1-r1a2b3c4d-");
    assertThat(dotted.jobName()).isNotEqualTo(dashed.jobName());
    assertThat(dashed.jobName()).isEqualTo("srt-default-my-comparison-arm-1-r1a2b3c4d");
  }

  @Test
  void longNamesAreShortenedDeterministically() {
    String longName = "c".repeat(200);
    RunRef a = new RunRef("default", longName, "arm", "r00000001");
    RunRef b = new RunRef("default", longName, "arm", "r00000002");
    assertThat(a.jobName()).hasSize(RunRef.MAX_JOB_NAME).matches(VALID);
    assertThat(a.jobName()).isEqualTo(new RunRef("default", longName, "arm", "r00000001").jobName());
    assertThat(a.jobName()).isNotEqualTo(b.jobName());
  }

  @Test
  void aNameOfExactlyTheLimitIsKept() {
    String prefix = "srt-default-c-arm-";
    String runId = "r" + "0".repeat(RunRef.MAX_JOB_NAME - prefix.length() - 1);
    RunRef run = new RunRef("default", "c", "arm", runId);
    assertThat(run.jobName()).isEqualTo(prefix + runId).hasSize(RunRef.MAX_JOB_NAME);
  }

  @Test
  void hostileNamesStillGiveASafeJobName() {
    RunRef run = new RunRef("default", "c", "x'; rm -rf ~ #$(id)", "r1");
    assertThat(run.jobName()).matches(VALID);
    assertThat(run.marker()).isEqualTo("srt-operator:default/c/x'; rm -rf ~ #$(id)/r1");
  }

  @Test
  void partsThatAreNotDirectoryNamesAreRejected() {
    for (String bad : new String[] {"", ".", "..", "a/b", "a\nb", "a\rb", "a\0b"}) {
      assertThatThrownBy(() -> new RunRef("default", "c", bad, "r1")).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> new RunRef("default", "c", "arm", "r1").runDir("relative/dir"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void runDirectoryKnowsTheProtocolLayout() {
    RunRef run = new RunRef("default", "c", "arm", "r1");
    RunDirectory slurm = RunDirectory.of(run, "/w", RunDirectory.SLURM_SCRIPT);
    RunDirectory direct = RunDirectory.of(run, "/w", RunDirectory.DIRECT_SCRIPT);
    assertThat(slurm.script()).isEqualTo("/w/default/c/arm/r1/job.sbatch");
    assertThat(direct.script()).isEqualTo("/w/default/c/arm/r1/run.sh");
    assertThat(direct.events()).isEqualTo("/w/default/c/arm/r1/events.jsonl");
    assertThat(direct.scriptLog()).isEqualTo("/w/default/c/arm/r1/logs/script.log");
    assertThat(direct.results()).isEqualTo("/w/default/c/arm/r1/results");
    assertThat(slurm.jobId()).isEqualTo("/w/default/c/arm/r1/job-id");
    assertThat(direct.pid()).isEqualTo("/w/default/c/arm/r1/pid");
    assertThat(direct.pgid()).isEqualTo("/w/default/c/arm/r1/pgid");
    assertThat(direct.pgids()).isEqualTo("/w/default/c/arm/r1/pgids");
    assertThat(direct.exitCode()).isEqualTo("/w/default/c/arm/r1/exit-code");
  }
}
