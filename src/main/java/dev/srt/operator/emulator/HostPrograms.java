package dev.srt.operator.emulator;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The programs an arm starts that the emulated host can run for real, from the pinned environment
 * ({@link RealPrograms}) or the host's PATH, in place of their stand-ins. A program is real only
 * where it works with the rest of its arm; {@code standInWhy} says why one never is yet. The shims
 * ({@link ShimInstaller}) dispatch by this table and {@code srt-emulated-host programs} prints it,
 * which a run's facts record.
 */
public final class HostPrograms {
  private HostPrograms() {}

  /** Set to {@code 1} (or {@code all}), every program runs its stand-in; or a comma-separated list of program names. */
  public static final String STAND_INS_VAR = "SRT_EMULATOR_STAND_INS";

  /**
   * One program. {@code name}: the module of {@code python3 -m}, or a binary's name
   * ({@code pythonModule} false); {@code distribution}: whose version is the program's;
   * {@code role}: router, workload or engine (a router program's facts are routing facts);
   * {@code standIn}: the {@code emulate} arguments of its stand-in; {@code standInWhy}: null when the
   * real program runs wherever installed, else why the stand-in always runs.
   */
  public record Program(String name, boolean pythonModule, String distribution, String role, String standIn, String standInWhy) {
    public boolean realWhenInstalled() {
      return standInWhy == null;
    }
  }

  public static final List<Program> ALL = List.of(
      new Program("aiperf", false, "aiperf", "workload", "aiperf", null),
      new Program("sglang_router.launch_router", true, "sglang-router", "router", "router sgl-model-gateway", null),
      new Program("dynamo.frontend", true, "ai-dynamo", "router", "router dynamo",
          "it discovers workers only through real Dynamo sidecars, and the sidecars still run as stand-ins"),
      new Program("dynamo.sglang.sidecar", true, "ai-dynamo", "router", "dynamo-sidecar",
          "it runs over the emulated engine's gRPC service (RealDynamoSidecarIT), but needs a real tokenizer in the model"
              + " directory and the real frontend beside it, which the arms' scripts do not give it yet"));

  /**
   * One line for a person: which programs run for real (with their versions) and which as
   * stand-ins, given the environment and the {@value #STAND_INS_VAR} value the runs will see.
   */
  public static String describe(Optional<Path> env, String standIns) {
    java.util.Set<String> chosen = new java.util.HashSet<>(List.of((standIns == null ? "" : standIns).split(",")));
    boolean all = chosen.contains("1") || chosen.contains("all");
    List<String> real = new java.util.ArrayList<>();
    List<String> standInNames = new java.util.ArrayList<>(List.of("the SGLang engines (no GPU)"));
    for (Program p : ALL) {
      if (env.isPresent() && p.realWhenInstalled() && !all && !chosen.contains(p.name())) {
        real.add(p.name() + " " + version(env.get(), p.distribution()).orElse("(version unknown)"));
      } else {
        standInNames.add(p.name());
      }
    }
    return (real.isEmpty() ? "no real programs" : "real " + String.join(", ", real)) + "; stand-ins: " + String.join(", ", standInNames)
        + (env.isEmpty() ? " (no real-programs environment: bash .ci/install-real-programs.sh adds it)" : "");
  }

  public static Optional<Program> of(String name) {
    return ALL.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** The version of {@code distribution} installed in the environment {@code env}, from its dist-info directory. */
  static Optional<String> version(Path env, String distribution) {
    String wanted = distribution.replaceAll("[-_.]+", "_").toLowerCase(java.util.Locale.ROOT);
    try (DirectoryStream<Path> libs = Files.newDirectoryStream(env.resolve("lib"), "python3*")) {
      for (Path lib : libs) {
        try (DirectoryStream<Path> infos = Files.newDirectoryStream(lib.resolve("site-packages"), "*.dist-info")) {
          for (Path info : infos) {
            String n = info.getFileName().toString();
            int dash = n.lastIndexOf('-', n.length() - ".dist-info".length());
            if (dash > 0 && n.substring(0, dash).toLowerCase(java.util.Locale.ROOT).equals(wanted)) {
              return Optional.of(n.substring(dash + 1, n.length() - ".dist-info".length()));
            }
          }
        }
      }
    } catch (IOException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }
}
