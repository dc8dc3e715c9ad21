package dev.srt.operator.emulator;

import dev.srt.operator.base.Shell;
import dev.srt.operator.host.HostCheck;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Writes the executables that turn a laptop or CI machine into an emulated GPU host: with the
 * directory first on PATH, the scripts srt-operator renders run unchanged. {@code python3} and
 * {@code python} send the modules an arm runs to the emulator and everything else to the real
 * interpreter found at install time; {@code cargo}, {@code git}, {@code pip}, {@code maturin} are
 * the offline build tools; {@code nvidia-smi} lists eight H100s; {@code etcd} and
 * {@code nats-server} run the host's own when it has them, else stand-ins.
 */
public final class ShimInstaller {
  /** {@code python3 -m <module>} → {@code emulate <args>}. */
  static final Map<String, String> PYTHON_MODULES = pythonModules();
  /** Under the state: the metadata of what the emulated host comes with (sglang, torch, ...), last on PYTHONPATH. */
  static final String PREINSTALLED_DIR = "preinstalled";

  private final JavaLauncher launcher;
  private final Path stateDir;
  private final String realPython;
  private final String realGit;
  /** The pinned environment of real programs ({@link RealPrograms}), null without one. */
  private final Path realPrograms;

  public ShimInstaller(JavaLauncher launcher, Path stateDir, String realPython, String realGit) {
    this(launcher, stateDir, realPython, realGit, null);
  }

  public ShimInstaller(JavaLauncher launcher, Path stateDir, String realPython, String realGit, Path realPrograms) {
    this.launcher = launcher;
    this.stateDir = stateDir.toAbsolutePath().normalize();
    this.realPython = realPython;
    this.realGit = realGit;
    this.realPrograms = realPrograms;
  }

  private static Map<String, String> pythonModules() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("sglang.launch_server", "sglang-worker");
    m.put("dynamo.sglang.launch_server", "sglang-worker");
    m.put("sglang.bench_serving", "bench-serving");
    m.put("sglang.benchmark.serving", "bench-serving");
    m.put("aiperf", "aiperf");
    m.put("dynamo.sglang.sidecar", "dynamo-sidecar");
    m.put("maturin", "tool maturin");
    m.put("pip", "tool pip");
    EmulatedRouters.ALL.stream().filter(EmulatedRouters.Router::pythonModule).forEach(r -> m.put(r.program(), "router " + r.kind()));
    return m;
  }

  /** Installs into {@code dir}, finding the real python3 and git on {@code path} (minus {@code dir}). */
  public static ShimInstaller forPath(JavaLauncher launcher, Path dir, Path stateDir, String path) {
    Path self = dir.toAbsolutePath().normalize();
    String python = find("python3", path, self).map(ShimInstaller::resolveInterpreter).orElse(null);
    String git = find("git", path, self).map(Path::toString).orElse(null);
    return new ShimInstaller(launcher, stateDir, python, git, RealPrograms.environment().orElse(null));
  }

  static Optional<Path> find(String name, String path, Path exclude) {
    for (String d : path.split(File.pathSeparator)) {
      if (d.isEmpty()) {
        continue;
      }
      Path dir = Path.of(d).toAbsolutePath().normalize();
      Path candidate = dir.resolve(name);
      if (!dir.equals(exclude) && Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** The interpreter behind a launcher such as a pyenv shim, so the shim does not depend on it. */
  private static String resolveInterpreter(Path python) {
    try {
      Process p = new ProcessBuilder(python.toString(), "-c", "import sys; print(sys.executable)").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && !out.isEmpty() && Files.isExecutable(Path.of(out))) {
        return out;
      }
    } catch (IOException e) {
      // fall back to the launcher itself
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return python.toString();
  }

  public List<Path> install(Path dir) throws IOException {
    Files.createDirectories(dir);
    Map<String, String> shims = new LinkedHashMap<>();
    shims.put("python3", python());
    shims.put("python", python());
    shims.put("cargo", tool("cargo", "tool cargo", ""));
    shims.put("git", tool("git", "tool git", realGit == null ? "" : "export SRT_EMULATOR_REAL_GIT=" + Shell.quote(realGit) + "\n"));
    shims.put("pip", tool("pip", "tool pip", ""));
    shims.put("pip3", tool("pip3", "tool pip", ""));
    shims.put("maturin", tool("maturin", "tool maturin", ""));
    shims.put("aiperf", realOrStandIn(HostPrograms.of("aiperf").orElseThrow()));
    shims.put("dynamo-sglang-sidecar", tool("dynamo-sglang-sidecar", "dynamo-sidecar", ""));
    EmulatedRouters.ALL.stream().filter(r -> !r.pythonModule()).forEach(r -> shims.put(r.program(), tool(r.program(), "router " + r.kind(), "")));
    shims.put("etcd", infra("etcd"));
    shims.put("nats-server", infra("nats-server"));
    shims.put("nvidia-smi", NVIDIA_SMI);
    shims.put("rustc", header("rustc") + """
        if [[ "${1-}" == "--version" || "${1-}" == "-V" ]]; then
          echo "rustc 1.89.0 (emulated by srt-operator)"
          exit 0
        fi
        echo "rustc (emulated): only --version is emulated; cargo builds are" >&2
        exit 1
        """);
    // Says what this host is: the prerequisite check needs no model files here (host.HostCheck).
    shims.put(HostCheck.EMULATED_HOST, emulatedHost());
    shims.put("protoc", header("protoc") + """
        if [[ "${1-}" == "--version" ]]; then
          echo "libprotoc 3.21.12 (emulated by srt-operator)"
          exit 0
        fi
        echo "protoc (emulated): only --version is emulated" >&2
        exit 1
        """);
    write(dir, shims);
    Files.createDirectories(stateDir);
    writePreinstalled();
    EmulatedModelFiles.write(stateDir.resolve(MODEL_FILES_DIR));
    writeHubCache();
    writeHostPackages();
    return shims.keySet().stream().map(dir::resolve).toList();
  }

  /** The Python packages a GPU host for SGLang has installed: importable, with their versions. */
  static final Map<String, String> HOST_PACKAGES = Map.of(
      "sglang", SglangWorker.VERSION,
      "sglang_router", SglModelGateway.VERSION);

  /**
   * What {@code import torch} answers on the emulated host: only what a run's facts ask of it (its
   * CUDA runtime, cuDNN and NCCL versions), as the torch of a CUDA 12.8 build reports them.
   */
  static final String TORCH_STUB = """
      # torch as the srt-operator emulated GPU host has it installed: only the versions a run's facts ask.
      __version__ = "%s"
      class version:
          cuda = "12.8"
      class backends:
          class cudnn:
              @staticmethod
              def version():
                  return 91002
      class cuda:
          class nccl:
              @staticmethod
              def version():
                  return (2, 27, 3)
      """.formatted(DistInfo.PREINSTALLED.get("torch"));

  /** {@code <state>/host-site}: the host's installed packages, last on the emulated python's path. */
  private void writeHostPackages() throws IOException {
    for (Map.Entry<String, String> p : HOST_PACKAGES.entrySet()) {
      Path init = stateDir.resolve("host-site").resolve(p.getKey()).resolve("__init__.py");
      Files.createDirectories(init.getParent());
      Files.writeString(init, "# " + p.getKey() + " as the srt-operator emulated GPU host has it installed: its modules are emulated.\n"
          + "__version__ = \"" + p.getValue() + "\"\n");
    }
    Path torch = stateDir.resolve("host-site").resolve("torch").resolve("__init__.py");
    Files.createDirectories(torch.getParent());
    Files.writeString(torch, TORCH_STUB);
  }

  private String header(String name) {
    return "#!/usr/bin/env bash\n"
        + "# " + name + " on the srt-operator emulated GPU host (written by `srt-operator emulate install`).\n"
        + "if [[ -z \"${SRT_EMULATOR_STATE:-}\" ]]; then\n"
        + "  export SRT_EMULATOR_STATE=" + Shell.quote(stateDir.toString()) + "\n"
        + "fi\n";
  }

  private String tool(String name, String emulateArgs, String extra) {
    return header(name) + extra + "exec " + launcher.emulateCommand(emulateArgs.split(" ")) + " \"$@\"\n";
  }

  /** Set to 1 (or all), every shim runs its stand-in, even where the host has the real program; or a list of names. */
  public static final String STAND_INS_VAR = HostPrograms.STAND_INS_VAR;

  /**
   * etcd and nats-server: the host's own program when its PATH has one besides this shim (Debian's
   * {@code etcd-server} and {@code nats-server} packages), else the stand-in. Decided when the run
   * starts, on the host and with the run's PATH, so that a host without them still runs an arm.
   */
  private String infra(String name) {
    return header(name) + programFunctions() + """
        if real=$(srt_host_program NAME); then
          exec "$real" "$@"
        fi
        """.replace("NAME", name)
        + "exec " + launcher.emulateCommand(name) + " \"$@\"\n";
  }

  /** Under the state: the emulated model's own files (its tokenizer), for real programs that load them. */
  static final String MODEL_FILES_DIR = "model-files";
  /** Under the state: a Hugging Face hub cache holding the emulated model's files as {@link #MODEL_REPO}. */
  static final String HUB_CACHE_DIR = "hf-hub";
  /** The repository id the emulated model's tokenizer is cached under. */
  static final String MODEL_REPO = "srt-emulated/model";

  /**
   * A binary real program (aiperf): the host's own on PATH, else the pinned environment's, else its
   * stand-in. The emulated host has no model directory (its engines read no weights) nor a hub
   * cache with the served model, so a real program's {@code --tokenizer DIR} without a
   * {@code tokenizer.json}, or an {@code aiperf profile} without {@code --tokenizer}, is given the
   * emulated model's own files ({@link EmulatedModelFiles}), which the emulated engines tokenize
   * with, as a repository of a hub cache of the state's.
   */
  private String realOrStandIn(HostPrograms.Program program) {
    return header(program.name()) + programFunctions() + """
        if real=$(srt_real_program NAME); then
          args=("$@")
          tokenizer=""
          for ((i = 0; i < ${#args[@]}; i++)); do
            if [[ "${args[i]}" == --tokenizer && $((i + 1)) -lt ${#args[@]} ]]; then
              tokenizer=given
              if [[ ! -e "${args[i + 1]}/tokenizer.json" && ! -f "${args[i + 1]}" ]]; then
                args[i + 1]=MODEL_REPO
                tokenizer=emulated
              fi
            elif [[ "${args[i]}" == --tokenizer=* ]]; then
              tokenizer=given
              if [[ ! -e "${args[i]#--tokenizer=}/tokenizer.json" && ! -f "${args[i]#--tokenizer=}" ]]; then
                args[i]="--tokenizer=MODEL_REPO"
                tokenizer=emulated
              fi
            fi
          done
          # Without --tokenizer, AIPerf loads the served model's by name from the Hugging Face hub,
          # which this host has no copy of: it is the emulated model's own.
          if [[ -z "$tokenizer" && "${args[0]-}" == profile ]]; then
            args+=(--tokenizer MODEL_REPO)
            tokenizer=emulated
          fi
          # The emulated model is a repository of a hub cache of the state's, read offline: AIPerf 0.13.0's
          # trace decoding workers force offline mode, in which a tokenizer directory's path is refused.
          if [[ "$tokenizer" == emulated ]]; then
            export HF_HUB_CACHE="${SRT_EMULATOR_STATE}/STATE_HUB_DIR" HF_HUB_OFFLINE=1
          fi
          exec "$real" "${args[@]}"
        fi
        """.replace("NAME", program.name()).replace("MODEL_REPO", MODEL_REPO).replace("STATE_HUB_DIR", HUB_CACHE_DIR)
        + "exec " + launcher.emulateCommand(program.standIn().split(" ")) + " \"$@\"\n";
  }

  /**
   * The bash functions that decide, when a program starts, whether it runs for real: the
   * {@value HostPrograms#STAND_INS_VAR} switch first, then the host's own program on PATH (passing
   * over directories of emulator shims, this one's or another install's: they hold the emulated-host
   * marker, and two shims must not hand a call to each other), then the pinned environment. Only
   * the programs of {@link HostPrograms} that work with the rest of their arm are ever real.
   */
  private String programFunctions() {
    StringBuilder cases = new StringBuilder();
    for (HostPrograms.Program p : HostPrograms.ALL) {
      if (!p.realWhenInstalled()) {
        continue;
      }
      cases.append("    ").append(p.name()).append(") ");
      if (p.pythonModule()) {
        cases.append("if [[ -n \"$srt_real_env\" && -x \"$srt_real_env/bin/python\" ]]; then echo \"$srt_real_env/bin/python\"; return 0; fi ;;\n");
      } else {
        cases.append("srt_host_program \"$1\" && return 0\n      if [[ -n \"$srt_real_env\" && -x \"$srt_real_env/bin/$1\" ]]; then echo \"$srt_real_env/bin/$1\"; return 0; fi ;;\n");
      }
    }
    return "srt_real_env=" + Shell.quote(realPrograms == null ? "" : realPrograms.toString()) + "\n" + """
        # srt_stand_in NAME: whether NAME must run its stand-in (STAND_INS: 1, all, or a list of names)
        srt_stand_in() {
          case ",${STAND_INS:-}," in
            ,1,|,all,|*",$1,"*) return 0 ;;
          esac
          return 1
        }
        # srt_host_program NAME: prints the host's own NAME on PATH, outside emulator shim directories
        srt_host_program() {
          local d dirs
          srt_stand_in "$1" && return 1
          IFS=: read -r -a dirs <<<"${PATH}"
          for d in "${dirs[@]}"; do
            if [[ -n "$d" && -x "$d/$1" && ! -d "$d/$1" && ! -e "$d/MARKER" ]]; then
              echo "$d/$1"
              return 0
            fi
          done
          return 1
        }
        # srt_real_program NAME: prints what runs NAME for real (a module's interpreter), or fails
        srt_real_program() {
          srt_stand_in "$1" && return 1
          case "$1" in
        CASES  esac
          return 1
        }
        """.replace("STAND_INS", STAND_INS_VAR).replace("MARKER", HostCheck.EMULATED_HOST).replace("CASES", cases.toString());
  }

  /** {@code srt-emulated-host}: says what the host is; {@code programs} lists each program as real or emulated. */
  private String emulatedHost() {
    StringBuilder rows = new StringBuilder();
    for (HostPrograms.Program p : HostPrograms.ALL) {
      String version = realPrograms == null ? "" : HostPrograms.version(realPrograms, p.distribution()).orElse("");
      String standIn = DistInfo.PREINSTALLED.getOrDefault(p.distribution(), "");
      rows.append("  row ").append(Shell.quote(p.name())).append(' ').append(Shell.quote(p.role())).append(' ').append(Shell.quote(version)).append(' ')
          .append(Shell.quote(standIn)).append(' ').append(Shell.quote(p.standInWhy() == null ? "" : p.standInWhy())).append('\n');
    }
    return header(HostCheck.EMULATED_HOST) + programFunctions() + """
        # row NAME ROLE VERSION STAND_IN_VERSION WHY: one program, tab-separated: name, role, real|emulated,
        # version (- when unknown), and where the real program is or why the stand-in runs
        row() {
          local real
          if real=$(srt_real_program "$1"); then
            if [[ -n "$srt_real_env" && "$real" == "$srt_real_env"/* ]]; then
              printf '%s\t%s\treal\t%s\t%s\n' "$1" "$2" "$3" "$srt_real_env"
            else
              printf '%s\t%s\treal\t-\t%s\n' "$1" "$2" "$real"
            fi
          else
            printf '%s\t%s\temulated\t%s\t%s\n' "$1" "$2" "${4:--}" "${5:-stand-in: STAND_INS chose it, or no real program is installed}"
          fi
        }
        if [[ "${1-}" == "programs" ]]; then
        ROWS  exit 0
        fi
        echo "srt-operator emulated GPU host (state in ${SRT_EMULATOR_STATE})"
        """.replace("STAND_INS", STAND_INS_VAR).replace("ROWS", rows.toString());
  }

  /**
   * {@code <state>/hf-hub}: the emulated model's files as the hub cache holds a repository's
   * ({@code models--srt-emulated--model/refs/main} naming a snapshot directory of the files), the
   * snapshot named after the files' digest so that changed files make a new one.
   */
  private void writeHubCache() throws IOException {
    Path repo = stateDir.resolve(HUB_CACHE_DIR).resolve("models--" + MODEL_REPO.replace("/", "--"));
    java.security.MessageDigest sha;
    try {
      sha = java.security.MessageDigest.getInstance("SHA-256");
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    for (Map.Entry<String, byte[]> f : new java.util.TreeMap<>(EmulatedModelFiles.contents()).entrySet()) {
      sha.update(f.getKey().getBytes(StandardCharsets.UTF_8));
      sha.update(f.getValue());
    }
    String revision = java.util.HexFormat.of().formatHex(sha.digest()).substring(0, 40);
    EmulatedModelFiles.write(repo.resolve("snapshots").resolve(revision));
    Files.createDirectories(repo.resolve("refs"));
    Files.writeString(repo.resolve("refs/main"), revision);
  }

  /**
   * {@code <state>/preinstalled/<distribution>} and {@code preinstalled-real/<distribution>}: the
   * metadata of what the host comes with, at the stand-in's version and at the real program's, so
   * that {@code importlib.metadata} (a run's facts) reports the version of what actually runs.
   */
  private void writePreinstalled() throws IOException {
    for (Map.Entry<String, String> d : DistInfo.PREINSTALLED.entrySet()) {
      DistInfo.sync(stateDir.resolve(PREINSTALLED_DIR).resolve(d.getKey()), Map.of(d.getKey(), d.getValue()));
      Optional<String> real = realPrograms == null ? Optional.empty() : HostPrograms.version(realPrograms, d.getKey());
      DistInfo.sync(stateDir.resolve(PREINSTALLED_DIR + "-real").resolve(d.getKey()), Map.of(d.getKey(), real.orElse(d.getValue())));
    }
  }

  private String python() {
    Map<String, List<String>> modulesByTarget = new LinkedHashMap<>();
    PYTHON_MODULES.forEach((module, target) -> {
      if (HostPrograms.of(module).filter(p -> p.pythonModule() && p.realWhenInstalled()).isEmpty()) {
        modulesByTarget.computeIfAbsent(target, t -> new ArrayList<>()).add(module);
      }
    });
    StringBuilder cases = new StringBuilder();
    modulesByTarget.forEach((target, modules) -> cases.append("    ").append(String.join("|", modules))
        .append(") emulate ").append(target).append(" \"${args[@]:i+2}\" ;;\n"));
    for (HostPrograms.Program p : HostPrograms.ALL) {
      if (p.pythonModule() && p.realWhenInstalled()) {
        cases.append("    ").append(p.name()).append(") run_module ").append(p.name()).append(' ').append(p.standIn()).append(" ;;\n");
      }
    }
    if (realPython != null) {
      // a virtualenv's own interpreters would bypass these shims: make them shims too
      cases.append("    venv) export SRT_EMULATOR_REAL_PYTHON=").append(Shell.quote(realPython))
          .append("; emulate venv \"${args[@]:i+2}\" ;;\n");
    }
    // what the host comes with, at the version of what runs: the real program's where it runs for real
    StringBuilder preinstalled = new StringBuilder();
    for (String dist : DistInfo.PREINSTALLED.keySet().stream().sorted().toList()) {
      Optional<HostPrograms.Program> program = HostPrograms.ALL.stream()
          .filter(p -> p.distribution().equals(dist) && p.realWhenInstalled()).findFirst();
      String standIn = "${SRT_EMULATOR_STATE}/" + PREINSTALLED_DIR + "/" + dist;
      if (program.isPresent()) {
        preinstalled.append("if srt_real_program ").append(program.get().name()).append(" >/dev/null; then\n")
            .append("  PYTHONPATH=\"${PYTHONPATH}:${SRT_EMULATOR_STATE}/").append(PREINSTALLED_DIR).append("-real/").append(dist).append("\"\n")
            .append("else\n  PYTHONPATH=\"${PYTHONPATH}:").append(standIn).append("\"\nfi\n");
      } else {
        preinstalled.append("PYTHONPATH=\"${PYTHONPATH}:").append(standIn).append("\"\n");
      }
    }
    String fallback = realPython == null
        ? "echo \"python3: no real interpreter was found when the emulator shims were installed\" >&2\nexit 127\n"
        : "exec " + Shell.quote(realPython) + " \"$@\"\n";
    return header("python3") + programFunctions() + """
        # a real program runs with the caller's PYTHONPATH, not the emulator's
        srt_caller_pythonpath_set=${PYTHONPATH+set}
        srt_caller_pythonpath=${PYTHONPATH-}
        # The emulated modules get a stub site dir, so `import dynamo` works once the emulated pip installed it.
        export PYTHONPATH="${SRT_EMULATOR_STATE}/site${PYTHONPATH:+:${PYTHONPATH}}"
        # packages the emulated pip installed from source (pip install -e DIR) stay importable
        if [[ -f "${SRT_EMULATOR_STATE}/import-roots" ]]; then
          while IFS= read -r root; do
            PYTHONPATH="${PYTHONPATH}:${root}"
          done < "${SRT_EMULATOR_STATE}/import-roots"
        fi
        # what the host comes with: importlib.metadata finds sglang, torch, aiperf and sglang-router
        %s# what the host has installed comes last, as site-packages does: a source install shadows it
        PYTHONPATH="${PYTHONPATH}:${SRT_EMULATOR_STATE}/host-site"
        emulate() {
          exec %s "$@"
        }
        args=("$@")
        i=0
        # run_module MODULE STAND-IN...: the real program where it runs for real, else its stand-in
        run_module() {
          local real
          if real=$(srt_real_program "$1"); then
            if [[ -n "$srt_caller_pythonpath_set" ]]; then
              export PYTHONPATH="$srt_caller_pythonpath"
            else
              unset PYTHONPATH
            fi
            exec "$real" "${args[@]}"
          fi
          shift
          emulate "$@" "${args[@]:i+2}"
        }
        # interpreter switches that may precede -m
        while [[ "${args[i]-}" =~ ^-[uBEsIOq]+$ ]]; do
          i=$((i + 1))
        done
        if [[ "${args[i]-}" == "-m" ]]; then
          case "${args[i+1]-}" in
        %s  esac
        fi
        %s""".formatted(preinstalled, launcher.emulateCommand(), cases, fallback);
  }

  /**
   * {@code python3 -m venv ARGS}: creates the environment with the real interpreter, then moves
   * each of its {@code bin/python*} aside ({@code .srt-real-<name>}, still inside the environment,
   * so it keeps its site-packages) and puts shims in their place, plus pip shims. Scripts that run
   * everything through {@code .venv/bin/python} thus still reach the emulator.
   */
  public static int virtualenv(String realPython, List<String> args, JavaLauncher launcher, Path stateDir, Path cwd)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(realPython, "-m", "venv"));
    cmd.addAll(args);
    int code = new ProcessBuilder(cmd).directory(cwd.toFile()).inheritIO().start().waitFor();
    if (code != 0) {
      return code;
    }
    for (String d : new ArgParser("venv").withPositionals().value("--prompt").parse(args).positional()) {
      Path bin = cwd.resolve(d).resolve("bin").normalize();
      List<String> names;
      try (var files = Files.list(bin)) {
        names = files.map(f -> f.getFileName().toString()).sorted().toList();
      }
      List<String> pythons = names.stream().filter(n -> n.matches("python[0-9.]*")).toList();
      java.util.Set<String> pips = new java.util.TreeSet<>(List.of("pip", "pip3"));
      names.stream().filter(n -> n.matches("pip[0-9.]*")).forEach(pips::add);
      for (String name : pythons) {
        Files.move(bin.resolve(name), bin.resolve(".srt-real-" + name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
      String real = bin.resolve(".srt-real-" + (pythons.contains("python3") ? "python3" : pythons.get(0))).toString();
      ShimInstaller inVenv = new ShimInstaller(launcher, stateDir, real, null, RealPrograms.environment().orElse(null));
      Map<String, String> shims = new LinkedHashMap<>();
      pythons.forEach(n -> shims.put(n, inVenv.python()));
      for (String pip : pips) {
        shims.put(pip, inVenv.tool(pip, "tool pip", ""));
      }
      write(bin, shims);
    }
    return 0;
  }

  private static void write(Path dir, Map<String, String> shims) throws IOException {
    for (Map.Entry<String, String> s : shims.entrySet()) {
      Path f = dir.resolve(s.getKey());
      Files.deleteIfExists(f);
      Files.writeString(f, s.getValue());
      Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  /**
   * Eight H100s; the driver and CUDA version are {@code SRT_EMULATOR_NVIDIA_DRIVER} and
   * {@code SRT_EMULATOR_CUDA_VERSION}, or on one node {@code ..._<HOST>} (its short host name in
   * upper case, other characters as {@code _}: {@code SRT_EMULATOR_NVIDIA_DRIVER_SRT_NODE2}).
   */
  private static final String NVIDIA_SMI = """
      #!/usr/bin/env bash
      # nvidia-smi on the srt-operator emulated GPU host: eight H100s, always idle.
      name="NVIDIA H100 80GB HBM3"
      node=$(hostname -s 2>/dev/null || hostname)
      node=${node//[^A-Za-z0-9]/_}
      driver_var="SRT_EMULATOR_NVIDIA_DRIVER_${node^^}"
      cuda_var="SRT_EMULATOR_CUDA_VERSION_${node^^}"
      driver=${!driver_var:-${SRT_EMULATOR_NVIDIA_DRIVER:-570.86.15}}
      cuda=${!cuda_var:-${SRT_EMULATOR_CUDA_VERSION:-12.8}}
      uuid() { printf 'GPU-5e1c0a00-0000-4000-8000-%012d' "$1"; }
      query=""
      for arg in "$@"; do
        case "$arg" in
          -L|--list-gpus)
            for i in 0 1 2 3 4 5 6 7; do echo "GPU $i: $name (UUID: $(uuid "$i"))"; done
            exit 0 ;;
          --query-gpu=*) query="${arg#--query-gpu=}" ;;
        esac
      done
      if [[ -n "$query" ]]; then
        for i in 0 1 2 3 4 5 6 7; do
          line=""
          IFS=',' read -ra fields <<< "$query"
          for f in "${fields[@]}"; do
            case "${f// /}" in
              index) v="$i" ;;
              name) v="$name" ;;
              uuid) v="$(uuid "$i")" ;;
              memory.total) v="81559 MiB" ;;
              memory.used) v="0 MiB" ;;
              memory.free) v="81559 MiB" ;;
              utilization.gpu) v="0 %" ;;
              driver_version) v="$driver" ;;
              clocks.applications.graphics|clocks.max.graphics) v="1980 MHz" ;;
              clocks.applications.memory|clocks.max.memory) v="2619 MHz" ;;
              power.limit) v="700.00 W" ;;
              persistence_mode) v="Enabled" ;;
              ecc.mode.current) v="Enabled" ;;
              mig.mode.current) v="Disabled" ;;
              *) v="[N/A]" ;;
            esac
            line="${line:+$line, }$v"
          done
          echo "$line"
        done
        exit 0
      fi
      echo "+-----------------------------------------------------------------------------------------+"
      echo "| NVIDIA-SMI $driver (emulated by srt-operator)  Driver Version: $driver  CUDA Version: $cuda |"
      echo "+-----------------------------------------------------------------------------------------+"
      for i in 0 1 2 3 4 5 6 7; do printf '| %d  %-28s | 0MiB / 81559MiB | 0%%  Default |\\n' "$i" "$name"; done
      """;
}
