package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Offline stand-ins for the build and install tools the rendered stages call (cargo, git,
 * maturin, pip). Each does the part a test can observe (files appear, checks like cargo's fail
 * the same way) and appends one line to {@code <state>/tool-calls.jsonl}:
 * {@code {"ts", "tool", "argv", "cwd", "env", "exit"}}.
 */
public final class BuildTools {
  /** Environment variables that change what a build does; recorded with each call when set. */
  static final List<String> RECORDED_ENV = List.of(
      "CARGO_TARGET_DIR", "RUSTFLAGS", "RUSTUP_TOOLCHAIN", "CARGO_HOME", "VIRTUAL_ENV", "PIP_EXTRA_INDEX_URL");

  /** Where and for whom a tool runs; the launcher is only needed by cargo's stand-in binaries. */
  public record Context(Path cwd, Map<String, String> env, EmulatorState state, Supplier<JavaLauncher> launcher,
      PrintStream out, PrintStream err) {

    Path resolve(String path) {
      return cwd.resolve(path).normalize();
    }
  }

  /** A tool failing the way the real one would: this message on stderr and this exit status. */
  public static final class ToolFailure extends Exception {
    final int exitCode;

    public ToolFailure(int exitCode, String message) {
      super(message);
      this.exitCode = exitCode;
    }
  }

  private BuildTools() {}

  public static int run(String tool, List<String> argv, Context ctx) {
    int code;
    try {
      code = switch (tool) {
        case "cargo" -> new CargoTool(ctx).run(argv);
        case "git" -> new GitTool(ctx).run(argv);
        case "maturin" -> new MaturinTool(ctx).run(argv);
        case "pip" -> new PipTool(ctx).run(argv);
        default -> throw new ToolFailure(2, "emulate tool: unknown tool '" + tool + "' (cargo, git, maturin, pip)");
      };
    } catch (ToolFailure f) {
      ctx.err().println(f.getMessage());
      code = f.exitCode;
    } catch (Exception e) {
      ctx.err().println(tool + " (emulated): " + e);
      code = 1;
    }
    record(tool, argv, ctx, code);
    return code;
  }

  private static void record(String tool, List<String> argv, Context ctx, int code) {
    ObjectNode call = Json.object().put("ts", Instant.now().truncatedTo(ChronoUnit.MILLIS).toString()).put("tool", tool);
    ArrayNode args = call.putArray("argv");
    argv.forEach(args::add);
    call.put("cwd", ctx.cwd().toString());
    ObjectNode env = call.putObject("env");
    for (String k : RECORDED_ENV) {
      String v = ctx.env().get(k);
      if (v != null) {
        env.put(k, v);
      }
    }
    call.put("exit", code);
    ctx.state().appendToolCall(call);
  }
}
