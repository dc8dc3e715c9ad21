package dev.srt.operator.cli;

import dev.srt.operator.api.Api;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(mixinStandardHelpOptions = true, name = "version", description = "Prints the version and the API version it serves.")
public final class VersionCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    System.out.println("srt-operator " + version() + " (API " + Api.API_VERSION + ")");
    return 0;
  }

  public static String version() {
    String v = VersionCommand.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  /** Lets {@code --version} print the same line. */
  public static final class Provider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"srt-operator " + version() + " (API " + Api.API_VERSION + ")"};
    }
  }
}
