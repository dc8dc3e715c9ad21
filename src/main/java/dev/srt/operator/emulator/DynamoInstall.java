package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether {@code import dynamo} would work on the emulated host, and which worker-selection policy
 * types the installed runtime wheel links. {@code python3 -m dynamo.*} needs both distributions:
 * {@code ai-dynamo} (the Python package) and {@code ai-dynamo-runtime} (the Rust bindings).
 */
public record DynamoInstall(String version, List<String> policyTypes) {
  public static final String PYTHON_PACKAGE = "ai-dynamo";
  public static final String RUNTIME = "ai-dynamo-runtime";

  /** What every runtime wheel registers, with or without a linked catalog. */
  public static final List<String> BUILTIN_POLICY_TYPES = List.of(
      "dynamo-default-cost-fn",
      "dynamo-two-tier-cost-fn",
      "dynamo-round-robin",
      "dynamo-random",
      "dynamo-power-of-two-choices",
      "dynamo-least-loaded");

  /** Thrown with the message Python prints when the module cannot be imported. */
  public static final class NotInstalled extends Exception {
    NotInstalled(String message) {
      super(message);
    }
  }

  /**
   * Without {@code SRT_EMULATOR_STATE} (tests, manual runs) Dynamo counts as installed with the
   * builtin policies; with it, only what the emulated pip recorded there or in a {@code --target}
   * directory on PYTHONPATH.
   */
  public static DynamoInstall find(Map<String, String> env, String module) throws NotInstalled {
    Optional<EmulatorState> state = EmulatorState.fromEnv(env);
    if (state.isEmpty()) {
      return new DynamoInstall("emulated", BUILTIN_POLICY_TYPES);
    }
    // pip --target directories on PYTHONPATH come first, as Python searches them first.
    ObjectNode pkgs = Json.object();
    for (String entry : env.getOrDefault("PYTHONPATH", "").split(":")) {
      if (!entry.isEmpty() && Files.isRegularFile(Path.of(entry, EmulatorState.PACKAGES))) {
        new EmulatorState(Path.of(entry)).packages().properties().forEach(e -> pkgs.putIfAbsent(e.getKey(), e.getValue()));
      }
    }
    state.get().packages().properties().forEach(e -> pkgs.putIfAbsent(e.getKey(), e.getValue()));
    String missing = !pkgs.has(PYTHON_PACKAGE) ? "dynamo" : !pkgs.has(RUNTIME) ? "dynamo._core" : null;
    if (missing != null) {
      throw new NotInstalled("python3: Error while finding module specification for '" + module
          + "' (ModuleNotFoundError: No module named '" + missing + "')");
    }
    JsonNode runtime = pkgs.get(RUNTIME);
    List<String> types = new ArrayList<>();
    runtime.path("policy_types").forEach(t -> types.add(t.asText()));
    return new DynamoInstall(runtime.path("version").asText("unknown"), types.isEmpty() ? BUILTIN_POLICY_TYPES : types);
  }
}
