package dev.srt.operator.emulator;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The emulated router of each router kind ({@code frontend.type}): the program a run starts and
 * what answers it. The emulated host's shims are made from this table ({@link ShimInstaller}), and
 * {@code srt-operator emulate router <kind>} runs its entry. {@code EmulatedRouterKindsTest} keeps
 * it equal to the registry of kinds and to the program each kind declares, so a new kind is one
 * emulator class and one line here.
 */
public final class EmulatedRouters {
  private EmulatedRouters() {}

  /** Makes the emulated router from the program's arguments and environment; bad arguments throw IllegalArgumentException. */
  @FunctionalInterface
  public interface Factory {
    EmulatedProcess make(List<String> args, Map<String, String> env, PrintStream err);
  }

  /**
   * One kind's router: {@code program} is a binary on PATH or, when {@code pythonModule}, the
   * module of {@code python3 -m}; {@code versionLine} what {@code --version} prints (null: the
   * program has no such flag).
   */
  public record Router(String kind, String program, boolean pythonModule, String versionLine, Factory factory) {}

  public static final List<Router> ALL = List.of(
      new Router("sgl-router", "sgl-router", false, SglRouter.VERSION_LINE,
          (args, env, err) -> new SglRouter(SglRouter.Options.parse(args, err))),
      new Router("dynamo", "dynamo.frontend", true, null,
          (args, env, err) -> new DynamoFrontend(DynamoFrontend.Options.parse(args, env, err), env, err)),
      new Router("sgl-model-gateway", "sglang_router.launch_router", true, null,
          (args, env, err) -> new SglModelGateway(SglModelGateway.Options.parse(args, err), env)));

  public static Optional<Router> of(String kind) {
    return ALL.stream().filter(r -> r.kind().equals(kind)).findFirst();
  }
}
