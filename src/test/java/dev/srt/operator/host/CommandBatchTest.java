package dev.srt.operator.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommandBatchTest {
  @Test
  void eachCommandGetsItsOwnStdinAndGivesItsOwnExitStatusAndOutput() throws Exception {
    List<CommandBatch.Command> commands = List.of(
        new CommandBatch.Command("cat; echo ' é'", "first\nline".getBytes(StandardCharsets.UTF_8)),
        new CommandBatch.Command("echo 'R 0 0 oAA== e' ; echo oops >&2; exit 3", null),
        new CommandBatch.Command("wc -c", new byte[] {0, 1, 2, '\n'}));
    try (LocalTransport local = new LocalTransport()) {
      ExecResult batch = local.exec(CommandBatch.SCRIPT, CommandBatch.input(commands), Duration.ofSeconds(20));
      assertThat(batch.exitCode()).isZero();
      List<ExecResult> results = CommandBatch.parse(batch.stdout(), 3);
      assertThat(results.get(0)).isEqualTo(new ExecResult(0, "first\nline é\n", ""));
      // A command's output that looks like an answer stays inside its own answer.
      assertThat(results.get(1)).isEqualTo(new ExecResult(3, "R 0 0 oAA== e\n", "oops\n"));
      assertThat(results.get(2).stdout().strip()).isEqualTo("4");
    }
  }

  /** A command that exits without reading its stdin (a submission that finds its job) leaves the next one's intact. */
  @Test
  void aCommandThatReadsNoneOfItsStdinDoesNotShiftTheNext() throws Exception {
    byte[] large = "x".repeat(300_000).getBytes(StandardCharsets.US_ASCII);
    List<CommandBatch.Command> commands = List.of(new CommandBatch.Command("exit 0", large),
        new CommandBatch.Command("cat", "next".getBytes(StandardCharsets.UTF_8)));
    try (LocalTransport local = new LocalTransport()) {
      ExecResult batch = local.exec(CommandBatch.SCRIPT, CommandBatch.input(commands), Duration.ofSeconds(20));
      assertThat(CommandBatch.parse(batch.stdout(), 2)).containsExactly(new ExecResult(0, "", ""), new ExecResult(0, "next", ""));
    }
  }

  @Test
  void aBatchCutShortHasNoAnswerForTheRest() {
    assertThat(CommandBatch.parse("R 0 0 oeWVz e\n", 2)).containsExactly(new ExecResult(0, "yes", ""), null);
  }
}
