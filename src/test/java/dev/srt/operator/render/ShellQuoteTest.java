package dev.srt.operator.render;

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
}
