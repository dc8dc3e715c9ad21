package dev.srt.operator.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code srt-operator}: one subcommand per verb. */
@Command(
    name = "srt-operator",
    mixinStandardHelpOptions = true,
    versionProvider = VersionCommand.Provider.class,
    description = "Declarative, observable LLM router comparisons on Slurm and bare GPU hosts.",
    subcommands = {
      ValidateCommand.class,
      PlanCommand.class,
      RenderCommand.class,
      DiffCommand.class,
      ApplyCommand.class,
      ReportCommand.class,
      LogsCommand.class,
      OperatorCommand.class,
      CrdsCommand.class,
      VersionCommand.class,
      EmulateCommand.class,
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the CLI and returns its exit code (tests call this instead of main). */
  public static int run(String... args) {
    return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
  }
}
