package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** Every command answers --help, and every option of every command is described there. */
class CliHelpTest {
  @Test
  void everyOptionOfEveryCommandIsDocumented() {
    CommandLine cli = Main.commandLine();
    assertThat(cli.getSubcommands()).hasSize(Main.SUBCOMMANDS.size());
    for (CommandLine sub : cli.getSubcommands().values()) {
      CommandSpec spec = sub.getCommandSpec();
      if (spec.name().equals("emulate")) {
        continue; // emulated programs take their real counterparts' flags
      }
      for (OptionSpec option : spec.options()) {
        assertThat(String.join(" ", option.description())).as(spec.name() + " " + option.longestName()).isNotBlank();
      }
    }
  }

  @Test
  void aNamedSubcommandIsBuiltAloneAndTheUsageStillListsEveryOne() {
    assertThat(Main.commandLine("validate", "-f", "x.yaml").getSubcommands()).containsOnlyKeys("validate");
    assertThat(Main.commandLine("--help").getSubcommands()).containsKeys("validate", "apply", "operator", "emulate");
    assertThat(Main.commandLine("valdate").getSubcommands()).hasSize(Main.SUBCOMMANDS.size());
  }

  @Test
  void operatorHelpListsItsFlags() {
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    int code;
    try {
      code = Main.run("operator", "--help");
    } finally {
      System.setOut(out);
    }
    assertThat(code).isZero();
    assertThat(captured.toString(StandardCharsets.UTF_8)).contains("--namespaces", "--leader-election", "--leader-election-namespace",
        "--metrics-port", "--probe-port", "--kubeconfig", "--cluster-probe-interval", "--starting-poll-interval");
  }
}
