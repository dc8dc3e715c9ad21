package dev.srt.operator.cli;

import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code --arm NAME}: only this arm of the comparison. */
final class ArmOption {
  @Option(names = "--arm", paramLabel = "NAME", description = "Only this arm.")
  String arm;

  /** The arms of {@code in} to work on: all, or the one named. */
  List<String> of(Inputs in, PrintStream err) throws Inputs.Invalid {
    return in.arms(arm, err);
  }
}
