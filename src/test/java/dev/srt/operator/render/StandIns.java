package dev.srt.operator.render;

import com.fasterxml.jackson.databind.JsonNode;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.RunPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Recording stand-ins for every external program a rendered script may start (python3, git,
 * cargo, srun, scontrol, docker, aiperf, nvidia-smi, a router binary, etcd, nats-server): each records its argv and
 * environment, then behaves just enough for the script to go on (probes pass, builds leave the
 * files the next step reads, an engine binds its gRPC port, servers stay up until stopped). With
 * them, a script runs from its first line to its last on any machine in about a second.
 */
final class StandIns {
  static final List<String> PROGRAMS = List.of("python3", "python", "git", "cargo", "srun", "scontrol", "sbatch", "docker", "aiperf",
      "nvidia-smi", "sgl-router", "pip", "maturin", "etcd", "nats-server");
  /** The run id every run gets (SRT_RUN_ID), and the one Slurm node (scontrol shows it, NodeAddr unknown). */
  static final String RUN_ID = "r5eed0001";
  static final String NODE = "srt-node-0";
  /** The wheel the stand-in maturin and pip wheel leave in their output directory. */
  static final String WHEEL = "standin-0-py3-none-any.whl";
  static final String PYTHON_CACHE_TAG = "cpython-standin";

  private static final String SCRIPT = """
      #!/bin/bash
      # srt-operator test stand-in: records argv and environment, then behaves minimally.
      prog=${0##*/}
      if [ -n "${SRT_STANDIN_RECORDS:-}" ]; then
        # One file per invocation (an exec'd stand-in keeps the pid: the time tells them apart).
        rec="$SRT_STANDIN_RECORDS/$BASHPID.${EPOCHREALTIME/[.,]/}.$RANDOM"
        printf '%%s\\0' "$0" "$@" >"$rec.argv"
        # The environment of the processes (probes, called with -c, have nothing to check in it).
        [ "${1:-}" = -c ] || env -0 >"$rec.env"
      fi
      serve() { exec sleep 600; }
      # Creates the wheel in the directory given after $1 (maturin -o, pip wheel -w).
      wheel_out() {
        local flag=$1 prev="" a
        shift
        for a in "$@"; do
          if [ "$prev" = "$flag" ]; then mkdir -p -- "$a" && : >"$a/%1$s"; fi
          prev=$a
        done
      }
      python_standin() {
        case "${1:-}" in
          -c)
            case "${2:-}" in *cache_tag*) echo %2$s; exit 0 ;; esac
            case "${3:-}" in
              summary) echo '{}' ;;
              # Honest about registration: a Dynamo worker counts once it (or its sidecar) has started,
              # so a run cannot pass its gate, finish and tear down before a sidecar was launched.
              dynamo-instances)
                [ -n "${SRT_STANDIN_RECORDS:-}" ] || { echo 1; exit 0; }
                n=0
                for rec in "$SRT_STANDIN_RECORDS"/*.argv; do
                  [ -e "$rec" ] || continue
                  if grep -qaxz -e dynamo.sglang -e dynamo.sglang.sidecar -- "$rec"; then n=$((n + 1)); fi
                done
                echo "$n"
                [ "$n" -ge "${5:-1}" ]; exit ;;
            esac
            exit 0 ;;
          -) cat >/dev/null; exit 0 ;;
          -m)
            case "${2:-}" in
              pip) [ "${3:-}" != wheel ] || wheel_out -w "$@"; exit 0 ;;
              maturin) wheel_out -o "$@"; exit 0 ;;
              sglang.bench_serving|sglang.benchmark.serving) exit 0 ;;
            esac ;;
        esac
        local prev="" port="" a
        for a in "$@"; do
          if [ "$prev" = --grpc-port ]; then port=$a; fi
          prev=$a
        done
        # An engine's gRPC port: bound here unless the test already listens on it.
        if [ -n "$port" ] && ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
          exec "$SRT_STANDIN_REAL_PYTHON" -c 'import socket, sys, time
      s = socket.socket()
      s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
      try:
          s.bind(("127.0.0.1", int(sys.argv[1])))
          s.listen(8)
      except OSError:
          pass
      time.sleep(600)' "$port"
        fi
        serve
      }
      case "$prog" in
        python3|python) python_standin "$@" ;;
        git)
          if [ "${1:-}" = clone ]; then
            dir=${!#}
            mkdir -p -- "$dir"
            if [ -f "${SRT_STANDIN_TREE:-}" ]; then
              while IFS= read -r -d '' f; do
                case "/$f/" in */../*) continue ;; esac
                mkdir -p -- "$dir/$(dirname -- "$f")" && printf 'standin\\n' >"$dir/$f"
              done <"$SRT_STANDIN_TREE"
            fi
          fi
          exit 0 ;;
        cargo)
          if [ -n "${CARGO_TARGET_DIR:-}" ]; then
            # Replaced whole (runs of other specs may be executing the binary).
            mkdir -p -- "$CARGO_TARGET_DIR/release" && cp -- "$0" "$CARGO_TARGET_DIR/release/.sgl-router.$$" \\
              && mv -f -- "$CARGO_TARGET_DIR/release/.sgl-router.$$" "$CARGO_TARGET_DIR/release/sgl-router"
          fi
          exit 0 ;;
        srun)
          while [ "$#" -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done
          exec "$@" ;;
        scontrol)
          if [ "${1:-} ${2:-}" = "show hostnames" ]; then echo %3$s; fi
          exit 0 ;;
        docker)
          [ "${1:-}" = run ] || exit 0
          shift
          workdir="" entry=""
          while [ "$#" -gt 0 ]; do
            case "$1" in
              --rm|--init) shift ;;
              --env) case "$2" in *=*) export "$2" ;; esac; shift 2 ;;
              --workdir) workdir=$2; shift 2 ;;
              --entrypoint) entry=$2; shift 2 ;;
              --*) shift 2 ;;
              *) break ;;
            esac
          done
          shift
          # The ownership hand-back (--entrypoint chown) has nothing to do here.
          [ -z "$entry" ] || exit 0
          if [ -n "$workdir" ]; then cd -- "$workdir" || exit 125; fi
          exec "$@" ;;
        aiperf|sbatch|nvidia-smi|pip|maturin) exit 0 ;;
        # Any other name: the interpreter a spec named (it is called with -c, -m or -), else a server.
        *) case "${1:-}" in -c|-m|-) python_standin "$@" ;; *) serve ;; esac ;;
      esac
      """.formatted(WHEEL, PYTHON_CACHE_TAG, NODE);

  final Path root;
  final Path bin;
  final Path markers;
  private final String realPython;
  private final String machine;
  private final String cpuFlags;

  private StandIns(Path root, Path bin, Path markers, String realPython, String machine, String cpuFlags) {
    this.root = root;
    this.bin = bin;
    this.markers = markers;
    this.realPython = realPython;
    this.machine = machine;
    this.cpuFlags = cpuFlags;
  }

  /** Installs the stand-ins under {@code root}/bin; payloads may touch files in {@code root}/markers. */
  static StandIns install(Path root) throws IOException, InterruptedException {
    Path bin = Files.createDirectories(root.resolve("bin"));
    for (String p : PROGRAMS) {
      executable(bin.resolve(p));
    }
    String realPython = sh("command -v python3").strip();
    // srt_host_tag's machine and CPU-flags parts, as the script computes them here.
    String machine = sh("uname -m").strip();
    String flags = sh("{ grep -m 1 -E '^(flags|Features)' /proc/cpuinfo 2>/dev/null || true; } | sha256sum | cut -c1-12").strip();
    return new StandIns(root, bin, Files.createDirectories(root.resolve("markers")), realPython, machine, flags);
  }

  /**
   * Writes the stand-in to {@code file} (a router binary, an interpreter under another name),
   * replacing it whole: a run of another spec may be executing it.
   */
  static void executable(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Path tmp = Files.createTempFile(file.getParent(), ".standin", "");
    Files.writeString(tmp, SCRIPT);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The host tag a run computes: machine, Python cache tag (an image's digest with a container), CPU flags. */
  String hostTag(RunPlan plan) {
    String python = plan.container() == null ? PYTHON_CACHE_TAG : "image-" + dev.srt.operator.plan.Hashes.sha256(plan.container().image()).substring(0, 12);
    return machine + "-" + python + "-" + cpuFlags;
  }

  boolean anyMarker() throws IOException {
    try (Stream<Path> s = Files.list(markers)) {
      return s.findAny().isPresent();
    }
  }

  List<String> markerNames() throws IOException {
    try (Stream<Path> s = Files.list(markers)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** One stand-in invocation: argv (argv[0] is the path it was run as) and environment. */
  record Invocation(List<String> argv, Map<String, String> env) {
    String program() {
      return argv.get(0).substring(argv.get(0).lastIndexOf('/') + 1);
    }

    List<String> args() {
      return argv.subList(1, argv.size());
    }
  }

  /** What one script run left behind. */
  record Run(int code, String output, List<Invocation> invocations, String finished) {}

  /**
   * Runs {@code script} in {@code runDir} with the stand-ins first on PATH ({@code extraBin}
   * before them, for stand-ins under names a spec chose) and a clean environment.
   */
  Run run(Path script, Path runDir, Mode mode, Path extraBin, Path tree, long timeoutSeconds) throws IOException, InterruptedException {
    Path records = Files.createDirectories(runDir.resolve(".records"));
    ProcessBuilder pb = new ProcessBuilder("bash", script.toString()).directory(runDir.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.clear();
    env.put("PATH", (extraBin == null ? "" : extraBin + ":") + bin + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    env.put("HOME", root.toString());
    env.put("LANG", "C.UTF-8");
    env.put("SRT_RUN_DIR", runDir.toString());
    env.put("SRT_RUN_ID", RUN_ID);
    env.put("SRT_STOP_GRACE", "2");
    env.put("SRT_STANDIN_RECORDS", records.toString());
    env.put("SRT_STANDIN_REAL_PYTHON", realPython);
    if (tree != null) {
      env.put("SRT_STANDIN_TREE", tree.toString());
    }
    if (mode == Mode.SLURM) {
      env.put("SLURM_JOB_NODELIST", NODE);
    }
    Process p = pb.start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + script);
    }
    return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), invocations(records), finished(runDir));
  }

  private static String finished(Path runDir) throws IOException {
    Path events = runDir.resolve("events.jsonl");
    if (!Files.exists(events)) {
      return null;
    }
    String status = null;
    for (String line : Files.readAllLines(events)) {
      JsonNode e = Mappers.json().readTree(line);
      if ("finished".equals(e.path("event").asText())) {
        status = e.path("status").asText();
      }
      if ("failed".equals(e.path("event").asText())) {
        status = "failed: " + e.path("reason").asText() + ": " + e.path("message").asText();
      }
    }
    return status;
  }

  private static List<Invocation> invocations(Path records) throws IOException {
    List<Invocation> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(records)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".argv")).sorted().toList()) {
        String base = file.toString().substring(0, file.toString().length() - ".argv".length());
        List<String> argv = split(Files.readString(file, StandardCharsets.UTF_8));
        Map<String, String> env = new LinkedHashMap<>();
        Path envFile = Path.of(base + ".env");
        for (String kv : Files.exists(envFile) ? split(Files.readString(envFile, StandardCharsets.UTF_8)) : List.<String>of()) {
          int eq = kv.indexOf('=');
          if (eq > 0) {
            env.put(kv.substring(0, eq), kv.substring(eq + 1));
          }
        }
        out.add(new Invocation(argv, env));
      }
    }
    return out;
  }

  private static List<String> split(String nulSeparated) {
    List<String> out = new ArrayList<>(List.of(nulSeparated.split("\0", -1)));
    out.remove(out.size() - 1);
    return out;
  }

  private static String sh(String command) throws IOException, InterruptedException {
    return Bash.run(null, 10, List.of("bash", "-c", command)).output();
  }
}
