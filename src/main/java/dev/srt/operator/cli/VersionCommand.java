package dev.srt.operator.cli;

import dev.srt.operator.api.Api;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(mixinStandardHelpOptions = true, name = "version", description = {
    "Prints the version, the git commit and time of the build, the JDK and the API version.",
    "-o json|yaml prints {version, gitCommit, buildTime, jdk, apiVersion}."})
public final class VersionCommand implements Callable<Integer> {
  @Mixin OutputFormat output;

  @Override
  public Integer call() {
    OutputFormat.Format format = output.orElse(null, OutputFormat.Format.JSON, OutputFormat.Format.YAML);
    if (format != null) {
      System.out.print(OutputFormat.write(info(), format));
    } else {
      info().forEach((k, v) -> System.out.printf("%-11s %s%n", k + ":", v));
    }
    return 0;
  }

  public static String version() {
    String v = VersionCommand.class.getPackage().getImplementationVersion();
    return v != null ? v : build().getProperty("version", "dev");
  }

  /** What the build recorded (build.properties): the git commit ("-dirty" with uncommitted changes) and the build time. */
  static Properties build() {
    Properties p = new Properties();
    try (InputStream in = VersionCommand.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // a jar without it says "unknown"
    }
    return p;
  }

  static Map<String, String> info() {
    Properties build = build();
    Map<String, String> info = new LinkedHashMap<>();
    info.put("version", version());
    info.put("gitCommit", build.getProperty("commit", "unknown"));
    info.put("buildTime", build.getProperty("buildTime", "unknown"));
    info.put("jdk", System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")");
    info.put("apiVersion", Api.API_VERSION);
    return info;
  }

  /** Lets {@code --version} print one line with the same facts. */
  public static final class Provider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      Map<String, String> i = info();
      return new String[] {"srt-operator " + i.get("version") + " (commit " + i.get("gitCommit") + ", built " + i.get("buildTime")
          + ", JDK " + i.get("jdk") + ", API " + i.get("apiVersion") + ")"};
    }
  }
}
