package dev.srt.operator.cli;

import dev.srt.operator.emulator.AiPerf;
import dev.srt.operator.emulator.BenchServing;
import dev.srt.operator.emulator.BuildTools;
import dev.srt.operator.emulator.EmulatedModelFiles;
import dev.srt.operator.emulator.EmulatedRouters;
import dev.srt.operator.emulator.DynamoSidecar;
import dev.srt.operator.emulator.EmulatedProcess;
import dev.srt.operator.emulator.EmulatorState;
import dev.srt.operator.emulator.EtcdServer;
import dev.srt.operator.emulator.JavaLauncher;
import dev.srt.operator.emulator.NatsServer;
import dev.srt.operator.emulator.ProcessLifecycle;
import dev.srt.operator.emulator.SglangWorker;
import dev.srt.operator.emulator.ShimInstaller;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * {@code srt-operator emulate}: the processes of an arm without GPUs, network or the real
 * software. The program subcommands take the real programs' arguments unparsed (picocli cannot
 * accept argparse's prefixes and unknown flags), and their own parsers skip what they do not use.
 */
@Command(
    name = "emulate",
    mixinStandardHelpOptions = true,
    description = {
      "Runs one program of the emulated GPU host: the HTTP surfaces of the processes an arm runs, on 127.0.0.1 only.",
      "See docs/emulator.md. `emulate install --dir DIR` writes the shims that make rendered scripts use them."
    },
    subcommands = {
      EmulateCommand.Worker.class,
      EmulateCommand.Router.class,
      EmulateCommand.Sidecar.class,
      EmulateCommand.Etcd.class,
      EmulateCommand.Nats.class,
      EmulateCommand.Bench.class,
      EmulateCommand.AiPerfProfile.class,
      EmulateCommand.Tool.class,
      EmulateCommand.Venv.class,
      EmulateCommand.Install.class,
      EmulateCommand.ModelFiles.class,
    })
public final class EmulateCommand implements Runnable {
  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** Runs a long-lived program; argument errors exit 2 as argparse and clap do. */
  static int serve(String program, Supplier<EmulatedProcess> make) {
    EmulatedProcess p;
    try {
      p = make.get();
    } catch (IllegalArgumentException e) {
      return refused(program, e);
    }
    return ProcessLifecycle.run(program, p);
  }

  /** An argument error: exit 2 as argparse and clap do, or the real program's own status ({@code ArgParser.UsageError}). */
  static int refused(String program, IllegalArgumentException e) {
    System.err.println(program + ": error: " + e.getMessage());
    return e instanceof dev.srt.operator.emulator.ArgParser.UsageError u ? u.status() : 2;
  }

  /** Raw arguments of an emulated program. */
  abstract static class Program implements Callable<Integer> {
    @Unmatched List<String> args = new ArrayList<>();

    final Map<String, String> env = System.getenv();
  }

  @Command(name = "sglang-worker", description = "python3 -m sglang.launch_server (an SGLang engine).")
  static final class Worker extends Program {
    @Override
    public Integer call() {
      return serve("sglang.launch_server", () -> new SglangWorker(SglangWorker.Options.parse(args, env, System.err)));
    }
  }

  @Command(name = "router", description = "router KIND ARGS...: the router of a frontend.type (sgl-router, dynamo, "
      + "sgl-model-gateway), as the emulated host's sgl-router, python3 -m dynamo.frontend ... start it.")
  static final class Router extends Program {
    @Override
    public Integer call() {
      EmulatedRouters.Router router = args.isEmpty() ? null : EmulatedRouters.of(args.get(0)).orElse(null);
      if (router == null) {
        System.err.println("emulate router: the first argument is a router kind: "
            + String.join(", ", EmulatedRouters.ALL.stream().map(EmulatedRouters.Router::kind).toList()));
        return 2;
      }
      List<String> rest = args.subList(1, args.size());
      if (router.versionLine() != null && (rest.equals(List.of("--version")) || rest.equals(List.of("-V")))) {
        System.out.println(router.versionLine());
        return 0;
      }
      return serve(router.program(), () -> router.factory().make(rest, env, System.err));
    }
  }

  @Command(name = "dynamo-sidecar", description = "python3 -m dynamo.sglang.sidecar (arms 2 and 3).")
  static final class Sidecar extends Program {
    @Override
    public Integer call() {
      return serve("dynamo.sglang.sidecar", () -> new DynamoSidecar(DynamoSidecar.Options.parse(args, env, System.err), env, System.err));
    }
  }

  @Command(name = "etcd", description = "etcd (one member, keys in memory): /health and the v3 JSON gateway.")
  static final class Etcd extends Program {
    @Override
    public Integer call() {
      return EtcdServer.main(args, System.out, System.err);
    }
  }

  @Command(name = "nats-server", description = "nats-server: the client port's INFO/PING, the JetStream account request and the monitoring port.")
  static final class Nats extends Program {
    @Override
    public Integer call() {
      return NatsServer.main(args, env, System.out, System.err);
    }
  }

  @Command(name = "bench-serving", description = "python3 -m sglang.bench_serving over /v1/chat/completions.")
  static final class Bench extends Program {
    @Override
    public Integer call() throws Exception {
      BenchServing.Options opts;
      try {
        opts = BenchServing.Options.parse(args, env, System.err);
      } catch (IllegalArgumentException e) {
        System.err.println("bench_serving: error: " + e.getMessage());
        return 2;
      }
      return new BenchServing(opts, System.out, System.err).run();
    }
  }

  @Command(name = "aiperf", description = "aiperf profile over /v1/chat/completions (synthetic prompts or a Mooncake trace).")
  static final class AiPerfProfile extends Program {
    @Override
    public Integer call() throws Exception {
      AiPerf.Options opts;
      try {
        opts = AiPerf.Options.parse(args, env, System.err);
      } catch (IllegalArgumentException e) {
        return refused("aiperf", e);
      }
      return new AiPerf(opts, System.out, System.err).run();
    }
  }

  @Command(name = "tool", description = "Offline build tools: tool cargo|git|maturin|pip ARGS...")
  static final class Tool extends Program {
    @Override
    public Integer call() {
      if (args.isEmpty()) {
        System.err.println("emulate tool: name a tool: cargo, git, maturin or pip");
        return 2;
      }
      BuildTools.Context ctx = new BuildTools.Context(Path.of("").toAbsolutePath(), env, EmulatorState.forTools(env),
          () -> JavaLauncher.current(null), System.out, System.err);
      return BuildTools.run(args.get(0), args.subList(1, args.size()), ctx);
    }
  }

  @Command(name = "venv", description = "python3 -m venv through the python shim: the new environment's interpreters become shims too.")
  static final class Venv extends Program {
    @Override
    public Integer call() throws Exception {
      String real = env.get("SRT_EMULATOR_REAL_PYTHON");
      if (real == null || real.isBlank()) {
        System.err.println("emulate venv: SRT_EMULATOR_REAL_PYTHON (set by the python shim) names no interpreter");
        return 1;
      }
      return ShimInstaller.virtualenv(real, args, JavaLauncher.current(null), EmulatorState.forTools(env).dir(),
          Path.of("").toAbsolutePath());
    }
  }

  @Command(name = "install", description = "Writes the emulated host's executables (python3, cargo, git, pip, nvidia-smi ...) into DIR.")
  static final class Install implements Callable<Integer> {
    @Option(names = "--dir", required = true, description = "Directory for the shims; put it first on PATH.")
    Path dir;

    @Option(names = "--state", description = "State directory (tool-calls.jsonl, installed packages). Default: DIR/../state.")
    Path state;

    @Option(names = "--jar", description = "The srt-operator jar the shims run. Default: the running jar.")
    Path jar;

    @Override
    public Integer call() throws Exception {
      Path d = dir.toAbsolutePath().normalize();
      Path s = state != null ? state : d.resolveSibling("state");
      ShimInstaller installer = ShimInstaller.forPath(JavaLauncher.current(jar), d, s, System.getenv().getOrDefault("PATH", ""));
      for (Path p : installer.install(d)) {
        System.out.println(p);
      }
      System.err.println("emulated GPU host ready: export PATH=" + d + ":$PATH  (state: " + s.toAbsolutePath().normalize() + ")");
      return 0;
    }
  }

  @Command(name = "model-files", description = "Writes the emulated model's tokenizer.json, tokenizer_config.json and config.json "
      + "into DIR (no weights): what real clients such as aiperf load with --tokenizer DIR.")
  static final class ModelFiles implements Callable<Integer> {
    @Option(names = "--dir", required = true, description = "The model directory; created if missing, its other files left alone.")
    Path dir;

    @Override
    public Integer call() throws Exception {
      EmulatedModelFiles.write(dir);
      return 0;
    }
  }
}
