package dev.srt.operator.cli;

import dev.srt.operator.host.SecretEnvFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of the specs' secret variables for {@code apply}: each one declared in a
 * {@code secretEnv} must be named by {@code --secret-env NAME}, and its value is the CLI process's
 * own environment variable NAME. So a token goes from the user's shell to the run directory's
 * secret.env without ever being in a file of the spec, a command line or the output.
 */
final class SecretEnvValues {
  private SecretEnvValues() {}

  /**
   * @param declared the secret variables' names of the GpuCluster and the comparison, in order
   * @param given the names passed with {@code --secret-env}
   * @param environment this process's environment
   * @throws ApplyCommand.UsageError naming every declared name not given, every given name not
   *     declared and every given name not set in the environment (never a value)
   */
  static SecretEnvFile of(List<String> declared, List<String> given, Map<String, String> environment)
      throws ApplyCommand.UsageError {
    List<String> problems = new ArrayList<>();
    for (String name : given) {
      if (!declared.contains(name)) {
        problems.add("--secret-env " + name + ": no spec.secretEnv entry of the comparison or the GpuCluster declares " + name
            + (declared.isEmpty() ? "" : " (declared: " + String.join(", ", declared) + ")"));
      } else if (!environment.containsKey(name)) {
        problems.add("--secret-env " + name + ": the environment variable " + name + " is not set in this shell");
      }
    }
    for (String name : declared) {
      if (!given.contains(name)) {
        problems.add("spec.secretEnv declares " + name + ": pass --secret-env " + name
            + " to take its value from this shell's environment variable " + name);
      }
    }
    if (!problems.isEmpty()) {
      throw new ApplyCommand.UsageError(String.join("\n  ", problems) + "\nnothing was submitted");
    }
    Map<String, String> values = new LinkedHashMap<>();
    declared.forEach(name -> values.put(name, environment.get(name)));
    try {
      return SecretEnvFile.of(values);
    } catch (IllegalArgumentException e) {
      throw new ApplyCommand.UsageError(e.getMessage() + "; nothing was submitted");
    }
  }
}
