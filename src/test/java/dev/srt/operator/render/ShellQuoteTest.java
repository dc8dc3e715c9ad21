package dev.srt.operator.render;

import dev.srt.operator.base.Shell;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShellQuoteTest {
  @Test
  void safeWordsStayBare() {
    assertThat(Shell.quote("python3")).isEqualTo("python3");
    assertThat(Shell.quote("--model-path=/models/Qwen3-32B-FP8")).isEqualTo("--model-path=/models/Qwen3-32B-FP8");
  }

  @Test
  void everythingElseIsSingleQuoted() {
    assertThat(Shell.quote("")).isEqualTo("''");
    assertThat(Shell.quote("a b")).isEqualTo("'a b'");
    assertThat(Shell.quote("$(rm -rf /)")).isEqualTo("'$(rm -rf /)'");
    assertThat(Shell.quote("it's")).isEqualTo("'it'\\''s'");
    assertThat(Shell.join(List.of("echo", "*", "`id`"))).isEqualTo("echo '*' '`id`'");
  }

  @Test
  void nullIsRejected() {
    assertThatThrownBy(() -> Shell.quote(null)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void placeholdersExpandOnlyWhereTheyMean() {
    Words slurm = new Words(true);
    Words direct = new Words(false);
    assertThat(slurm.word("http://{{node:1}}:6100")).isEqualTo("http://\"${SRT_NODE_ADDR[1]}\":6100");
    assertThat(direct.word("http://{{node:1}}:6100")).isEqualTo("'http://{{node:1}}:6100'");
    assertThat(direct.word("srt-{{run_id}}-x")).isEqualTo("srt-\"${SRT_RUN_ID}\"-x");
    assertThat(direct.word("{{run_dir}}:{{run_dir}}")).isEqualTo("\"${RUN_DIR}\":\"${RUN_DIR}\"");
    assertThat(slurm.word("a b {{node:0}}")).isEqualTo("'a b '\"${SRT_NODE_ADDR[0]}\"");
  }

  @Test
  void placeholdersInBashTextBecomeEnvironmentReferences() {
    // bash -c text is parsed by its own shell: a value expanded into it would be parsed twice.
    Words.Code code = new Words(true).code("cp out.json {{run_dir}}/results/ && echo {{run_id}} {{node:1}} {{host_tag}} '{{x}}'");
    assertThat(code.text()).isEqualTo("cp out.json \"${RUN_DIR}\"/results/ && echo \"${SRT_RUN_ID}\" \"${SRT_NODE_ADDR_1}\" \"${SRT_HOST_TAG}\" '{{x}}'");
    assertThat(code.env()).containsExactly(java.util.Map.entry("RUN_DIR", "{{run_dir}}"), java.util.Map.entry("SRT_RUN_ID", "{{run_id}}"),
        java.util.Map.entry("SRT_NODE_ADDR_1", "{{node:1}}"), java.util.Map.entry("SRT_HOST_TAG", "{{host_tag}}"));
    // In a direct script {{node:N}} stays literal, as everywhere else.
    assertThat(new Words(false).code("echo {{node:0}}").text()).isEqualTo("echo {{node:0}}");
  }

  @Test
  void aCustomWorkloadGetsItsPlaceholdersAsEnvironment() throws Exception {
    String benchServing = "    tool: bench-serving\n    args: {backend: sglang-oai-chat, dataset-name: generated-shared-prefix, num-prompts: 1024}\n";
    assertThat(dev.srt.operator.plan.Examples.exampleYaml()).contains(benchServing);
    String yaml = dev.srt.operator.plan.Examples.exampleYaml().replace(benchServing, "    tool: custom\n    command: cp out.json {{run_dir}}/results/\n");
    var loaded = dev.srt.operator.plan.Examples.parse(yaml);
    var plan = dev.srt.operator.plan.Planner.plan(loaded.comparisons().get(0), dev.srt.operator.plan.Examples.cluster(
        dev.srt.operator.plan.Examples.DIRECT_CLUSTER), "sgl-router", dev.srt.operator.api.Mode.DIRECT);
    assertThat(Scripts.render(plan).lines().filter(l -> l.startsWith("srt_run_benchmark "))).singleElement().asString()
        .startsWith("srt_run_benchmark 86400 logs/benchmark.log env RUN_DIR=\"${RUN_DIR}\" SRT_FRONTEND_URL=")
        .endsWith(" bash -c 'cp out.json \"${RUN_DIR}\"/results/'");
  }
}
