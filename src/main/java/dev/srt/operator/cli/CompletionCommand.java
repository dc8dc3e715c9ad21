package dev.srt.operator.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(mixinStandardHelpOptions = true, name = "completion", description = {
    "Prints a shell completion script for bash or zsh.",
    "Load it in the current shell with: source <(srt-operator completion bash); zsh (with compinit) takes the same",
    "script: source <(srt-operator completion zsh). It completes subcommands, options and their values."})
public final class CompletionCommand implements Callable<Integer> {
  /** The shells the script is written for. */
  enum Shell { bash, zsh }

  @Parameters(paramLabel = "SHELL", description = "bash or zsh.")
  Shell shell;

  @Override
  public Integer call() {
    String script = AutoComplete.bash("srt-operator", Main.fullCommandLine());
    // One script for both: picocli's loads zsh's compinit and bashcompinit itself when run by zsh.
    System.out.print(script);
    return 0;
  }
}
