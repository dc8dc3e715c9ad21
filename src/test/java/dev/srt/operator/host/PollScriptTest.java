package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PollScriptTest {

  @Test
  void inputIsNulFramedFieldsPerRun() {
    byte[] input = PollScript.input(List.of(
        new PollScript.Row(0, "/w/a b\n'c'", "r1", null, 10),
        new PollScript.Row(1, "/w/d", "r2", "77", -1)));
    assertThat(new String(input, StandardCharsets.UTF_8))
        .isEqualTo("0\0/w/a b\n'c'\0r1\0\00010\0" + "1\0/w/d\0r2\00077\0-1\0");
    assertThatThrownBy(() -> PollScript.input(List.of(new PollScript.Row(0, "/w/\0", "r", null, 0))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void outputFactsAreDecodedPerRunAndNoiseIsIgnored() throws Exception {
    var facts = PollScript.parse("Welcome to the cluster!\nF 0 pid MTIz\nF 1 events \nF 0 events e30K\nEND\n");
    assertThat(new String(facts.get(0).get("pid"), StandardCharsets.UTF_8)).isEqualTo("123");
    assertThat(new String(facts.get(0).get("events"), StandardCharsets.UTF_8)).isEqualTo("{}\n");
    assertThat(facts.get(1).get("events")).isEmpty();
  }

  @Test
  void damagedOrIncompleteOutputIsAnError() {
    assertThatThrownBy(() -> PollScript.parse("F 0 pid MTIz\n"))
        .isInstanceOfSatisfying(HostException.class, e -> assertThat(e.kind()).isEqualTo(HostException.Kind.IO));
    assertThatThrownBy(() -> PollScript.parse("F 0 pid !!!\nEND\n"))
        .isInstanceOfSatisfying(HostException.class, e -> assertThat(e.kind()).isEqualTo(HostException.Kind.IO));
  }
}
