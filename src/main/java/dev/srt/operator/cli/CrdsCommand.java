package dev.srt.operator.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(mixinStandardHelpOptions = true, name = "crds", description = "Prints the CustomResourceDefinitions (kubectl apply -f - installs them).")
public final class CrdsCommand implements Callable<Integer> {
  /** The generated CRDs, as packaged in the jar by the build. */
  public static final List<String> RESOURCES = List.of(
      "META-INF/fabric8/gpuclusters.srt.dev-v1.yml",
      "META-INF/fabric8/routercomparisons.srt.dev-v1.yml");

  @Override
  public Integer call() throws IOException {
    System.out.print(allCrds());
    return 0;
  }

  public static String allCrds() throws IOException {
    StringBuilder out = new StringBuilder();
    for (String r : RESOURCES) {
      try (InputStream in = CrdsCommand.class.getClassLoader().getResourceAsStream(r)) {
        if (in == null) {
          throw new IOException("missing " + r + " in the jar");
        }
        if (out.length() > 0) {
          out.append("---\n");
        }
        out.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    return out.toString();
  }
}
