package dev.srt.operator.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code srt-operator}: one subcommand per verb. */
@Command(
    name = "srt-operator",
    mixinStandardHelpOptions = true,
    versionProvider = VersionCommand.Provider.class,
    description = "Declarative, observable LLM router comparisons on Slurm and bare GPU hosts.")
public final class Main implements Runnable {
  /** Every subcommand, in the order of the usage help. */
  static final List<Class<?>> SUBCOMMANDS = List.of(
      ValidateCommand.class,
      PlanCommand.class,
      RenderCommand.class,
      DiffCommand.class,
      ImportCommand.class,
      CheckCommand.class,
      ApplyCommand.class,
      StatusCommand.class,
      WaitCommand.class,
      ReportCommand.class,
      LogsCommand.class,
      OperatorCommand.class,
      CrdsCommand.class,
      VersionCommand.class,
      CompletionCommand.class,
      EmulateCommand.class);

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
    return commandLine(args).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
  }

  /** The command line with every subcommand (what shell completion describes). */
  static CommandLine fullCommandLine() {
    CommandLine cli = new CommandLine(new Main());
    SUBCOMMANDS.forEach(cli::addSubcommand);
    return cli;
  }

  /**
   * The command line for these arguments: with only the subcommand they name, when they name one,
   * else with all. Picocli reflects over every registered command (its fields, their types, its
   * nested commands) before it parses anything, which took longer than {@code validate} itself.
   */
  static CommandLine commandLine(String... args) {
    CommandLine cli = new CommandLine(new Main());
    String first = args.length == 0 ? "" : args[0];
    List<Class<?>> named = SUBCOMMANDS.stream().filter(c -> c.getAnnotation(Command.class).name().equals(first)).toList();
    (named.isEmpty() ? SUBCOMMANDS : named).forEach(cli::addSubcommand);
    return cli;
  }
}
