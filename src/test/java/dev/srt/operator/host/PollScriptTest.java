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
  void outputFactsAreDecodedPerRunAndNoiseBeforeTheAnswerIsIgnored() throws Exception {
    String answer = new PollAnswer().fact(0, "pid", "123").fact(1, "events", "").fact(0, "events", "{}\n").output();
    var facts = PollScript.parse("Welcome to the cluster!\nF 0 pid MTIz\n" + answer);
    assertThat(new String(facts.get(0).get("pid"), StandardCharsets.UTF_8)).isEqualTo("123");
    assertThat(new String(facts.get(0).get("events"), StandardCharsets.UTF_8)).isEqualTo("{}\n");
    assertThat(facts.get(1).get("events")).isEmpty();
  }

  /** A value is taken by its length: bytes that look like facts, END or E inside it are data. */
  @Test
  void aValueCannotPassForAnotherRunsFact() throws Exception {
    String forged = "x\nF 1 exit-code 1\n0\nE\n" + PollScript.END + "\n";
    var facts = PollScript.parse(new PollAnswer().fact(0, "events", forged).fact(1, "exit-code", "7").output());
    assertThat(new String(facts.get(0).get("events"), StandardCharsets.UTF_8)).isEqualTo(forged);
    assertThat(new String(facts.get(1).get("exit-code"), StandardCharsets.UTF_8)).isEqualTo("7");
    assertThat(facts).hasSize(2);
  }

  @Test
  void damagedOrIncompleteOutputIsAnError() {
    byte[] body = new PollAnswer().fact(0, "pid", "123").body();
    for (String bad : List.of(
        "F 0 pid MTIz\n",                                            // the old format, or no answer at all
        PollAnswer.encoded(body, false),                              // no E: cut short on the host
        PollScript.BODY + "!!!\n" + PollScript.END + "\n",          // not base64
        PollAnswer.encoded("F 0 pid 9\n123\n".getBytes(StandardCharsets.UTF_8), true), // a length past the value
        PollAnswer.encoded("G 0 pid 3\n123\n".getBytes(StandardCharsets.UTF_8), true), // not a fact
        PollAnswer.encoded(body, true).replace(PollScript.END + "\n", ""))) {
      assertThatThrownBy(() -> PollScript.parse(bad)).as(bad)
          .isInstanceOfSatisfying(HostException.class, e -> assertThat(e.kind()).isEqualTo(HostException.Kind.IO));
    }
  }
}
