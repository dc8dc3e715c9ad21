package dev.srt.operator.render;

import dev.srt.operator.plan.RunEventType;
import dev.srt.operator.base.Shell;
import dev.srt.operator.plan.BuildStage;
import dev.srt.operator.plan.FactCapture;
import dev.srt.operator.plan.Gate;
import dev.srt.operator.plan.Gates;
import dev.srt.operator.plan.Hashes;
import dev.srt.operator.plan.Ladder;
import dev.srt.operator.api.LoadSpec;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.Role;
import dev.srt.operator.plan.RunPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Everything after the header, identical in shape for both script kinds: settings, the shared
 * library, build stages, processes, readiness gates in order, the benchmark and its results. The
 * {@link Launcher} is the only part that differs between Slurm and direct.
 */
final class ScriptBody {
  private final RunPlan plan;
  private final Launcher launcher;
  private final Words words;
  private final ScriptText out;

  private ScriptBody(RunPlan plan, ScriptText out) {
    this.plan = plan;
    this.out = out;
    this.launcher = Launcher.of(plan);
    this.words = new Words(plan.mode() == Mode.SLURM);
  }

  /** Writes the body to {@code out}, which refuses it beyond its bound. */
  static void render(RunPlan plan, String runDirExpression, ScriptText out) {
    new ScriptBody(plan, out).write(runDirExpression);
  }

  private void write(String runDirExpression) {
    line("set -Eeuo pipefail");
    line("# Job control: every background process gets its own process group, so it can be stopped whole.");
    line("set -m");
    line("");
    assign("SRT_COMPARISON", plan.comparison());
    assign("SRT_ARM", plan.arm());
    assign("SRT_MODE", plan.mode().id());
    line("RUN_DIR=" + runDirExpression);
    line("SRT_RUN_ID=\"${SRT_RUN_ID:-$(basename \"$RUN_DIR\")}\"");
    line("export SRT_RUN_ID");
    assign("SRT_PYTHON", plan.settings().python());
    assign("SRT_HEALTH_TIMEOUT", String.valueOf(plan.settings().healthTimeoutSeconds()));
    assign("SRT_HEALTH_INTERVAL", String.valueOf(plan.settings().healthIntervalSeconds()));
    line("cd \"$RUN_DIR\"");
    line("# Submitted over SSH, bash would read ~/.bashrc in every shell it starts (and, e.g., activate");
    line("# another Python): the run has no SSH client.");
    line("unset SSH_CLIENT SSH2_CLIENT SSH_CONNECTION");
    SecretEnvSource.source(plan, this::line);
    if (!plan.path().isEmpty()) {
      line("export PATH=" + plan.path().stream().map(words::word).collect(Collectors.joining(":")) + ":\"$PATH\"");
    }
    line("");
    out.append(BashLibrary.text());
    if (plan.processes().stream().anyMatch(p -> p.startAfter() != null)) {
      line("");
      line("read -r -d '' SRT_SIDECAR_SUPERVISOR <<'SRT_SIDECAR_SUPERVISOR_EOF' || true");
      out.append(BashLibrary.sidecarSupervisor());
      line("SRT_SIDECAR_SUPERVISOR_EOF");
    }
    line("");
    if (plan.mode() == Mode.SLURM) {
      line("# Node addresses of the allocation, in order (workers' URLs use them).");
      line("mapfile -t SRT_NODES < <(scontrol show hostnames \"${SLURM_JOB_NODELIST:?run this script with sbatch}\")");
      line("SRT_NODE_ADDR=()");
      line("for srt_node in \"${SRT_NODES[@]}\"; do SRT_NODE_ADDR+=(\"$(srt_node_addr \"$srt_node\")\"); done");
      line("");
    }
    if (plan.container() != null && "docker".equals(plan.container().runtime())) {
      returnOwnership();
    }
    // After the node addresses: cluster env values may use {{node:N}}.
    plan.env().forEach((k, v) -> line("export " + k + "=" + words.word(v)));
    line("srt_begin");
    SecretEnvSource.require(plan, this::line);
    if (plan.mode() == Mode.DIRECT) {
      // Slurm queues jobs itself; a direct host is shared through one lease under workDir.
      line("srt_take_host_lease " + Shell.quote(plan.settings().workDir() + "/host.lease"));
    }
    // The platform's name ({{host_tag}}); with a container the image's Python builds the wheels, so the image names it.
    String pythonTag = plan.container() == null ? "" : "image-" + Hashes.sha256(plan.container().image()).substring(0, 12);
    line("SRT_HOST_TAG=\"$(srt_host_tag " + words.word(pythonTag) + ")\"");
    line("export SRT_HOST_TAG");
    preflight();
    builds();
    processes();
    gates();
    benchmark();
  }

  /**
   * Docker containers run as the image's user, root for most images: what they wrote in the run
   * directory and the build caches (Dynamo's install, discovery files, results, wheels) would be
   * root's, and this user could neither delete nor rebuild them. On exit one more container of
   * the image hands them back.
   */
  private void returnOwnership() {
    List<String> dirs = new ArrayList<>(List.of("{{run_dir}}"));
    for (BuildStage stage : plan.builds()) {
      // A stage's cache, and the cargo target directory the sgl-router build keeps under workDir.
      Stream.of(stage.cacheDir(), stage.env().get("CARGO_TARGET_DIR")).filter(Objects::nonNull).forEach(dirs::add);
    }
    List<String> argv = new ArrayList<>(List.of("timeout", "120", "docker", "run", "--rm", "--user", "0", "--entrypoint", "chown"));
    launcher.mounts(List.of()).forEach(m -> argv.addAll(List.of("--volume", m)));
    argv.add(plan.container().image());
    argv.add("-R");
    List<String> operands = new ArrayList<>(List.of("--"));
    operands.addAll(dirs);
    line("srt_after_run() {");
    line("  [ \"$(id -u)\" -ne 0 ] || return 0");
    line("  " + words.join(argv) + " \"$(id -u):$(id -g)\" " + words.join(operands) + " >/dev/null 2>&1 || true");
    line("}");
  }

  /**
   * The programs the run needs, before anything is built: a missing etcd fails the run at once,
   * not after a Dynamo build. With a container they are looked for in it, as that is where they run.
   */
  private void preflight() {
    if (plan.preflight() == null || plan.preflight().isEmpty()) {
      return;
    }
    line("");
    for (RunPlan.Preflight pf : plan.preflight()) {
      String check = plan.container() == null ? "" : " " + words.join(launcher.preflight(pf));
      if (!check.isEmpty()) {
        // The check is bash text for the container's shell, which expands its "$1".
        line("# shellcheck disable=SC2016");
      }
      line("srt_preflight " + words.word(pf.program()) + " " + words.word(pf.field()) + check);
    }
  }

  private void builds() {
    if (plan.builds().isEmpty()) {
      return;
    }
    line("");
    line("srt_phase " + RunEventType.Phase.BUILDING.wire());
    for (BuildStage stage : plan.builds()) {
      String fn = "srt_stage_" + stage.name().replace('-', '_');
      line(fn + "() {");
      stage.env().forEach((k, v) -> line("  export " + k + "=" + words.word(v)));
      // Each step checks its own status: set -e does not apply inside a function whose caller tests it.
      for (List<String> step : stage.steps()) {
        line("  " + words.join(step) + " || return");
      }
      line("}");
      String runner = plan.container() == null ? fn : inContainer(stage, fn);
      String stamp = "";
      if (stage.stamp() != null) {
        line(fn + "_stamp() {");
        line("  " + words.join(stage.stamp()));
        line("}");
        stamp = " " + fn + "_stamp";
      }
      line("srt_stage " + words.word(stage.name()) + " " + (stage.cacheDir() == null ? "''" : words.word(stage.cacheDir())) + " " + runner + stamp);
    }
  }

  /**
   * With a container runtime a whole stage runs in one container of the image: the build tools and
   * the Python that builds and installs the wheels are the image's, not the host's. The host keeps
   * the cache lock and the completion marker.
   */
  private String inContainer(BuildStage stage, String fn) {
    String runner = fn + "_in_container";
    Map<String, String> env = new LinkedHashMap<>();
    env.put("RUN_DIR", "{{run_dir}}");
    env.put("SRT_RUN_ID", "{{run_id}}");
    env.put("SRT_PYTHON", plan.settings().python());
    env.put("SRT_HOST_TAG", "{{host_tag}}");
    // The launcher puts the command last: the function's text follows as the word after -c.
    List<String> launch = launcher.build(stage.name(), env, List.of("bash", "--norc", "--noprofile", "-c"));
    line(runner + "() {");
    line("  " + words.join(launch) + " \"$(srt_stage_source " + fn + ")\"");
    line("}");
    return runner;
  }

  private void processes() {
    line("");
    line("srt_phase " + RunEventType.Phase.STARTING.wire());
    List<ProcessSpec> serving = plan.processes().stream().filter(p -> p.role() != Role.BENCHMARK).toList();
    if (plan.mode() == Mode.DIRECT) {
      // One host: every fixed port of the run must be free before anything starts.
      List<String> ports = serving.stream().flatMap(p -> p.ports().values().stream()).distinct().sorted()
          .map(String::valueOf).toList();
      line("srt_wait_ports_free " + String.join(" ", ports));
    }
    start(null);
  }

  /**
   * Starts the serving processes that wait for gate {@code gate} (null: those that wait for none),
   * in plan order, each coupled group once.
   */
  private void start(String gate) {
    List<ProcessSpec> serving = plan.processes().stream().filter(p -> p.role() != Role.BENCHMARK).toList();
    List<String> startedGroups = new ArrayList<>();
    for (ProcessSpec p : serving) {
      if (!Objects.equals(p.afterGate(), gate)) {
        continue;
      }
      if (p.group() == null) {
        line("srt_start " + words.word(p.name()) + " " + p.role().id() + " " + words.word(p.log()) + " " + words.join(launcher.launch(runnable(p))));
      } else if (!startedGroups.contains(p.group())) {
        startedGroups.add(p.group());
        line(coupledStart(p.group(), serving.stream().filter(q -> p.group().equals(q.group())).toList()));
      }
    }
  }

  /**
   * An engine and its sidecar, run by the shared supervisor on the worker's node. Both commands
   * reach it as argv words (the engine's preceded by their count), so their values, placeholders
   * resolved by this script included, are never parsed by a shell again.
   */
  private String coupledStart(String group, List<ProcessSpec> members) {
    ProcessSpec engine = members.stream().filter(m -> m.role() == Role.ENGINE).findFirst().orElseThrow();
    ProcessSpec sidecar = members.stream().filter(m -> m.role() == Role.SIDECAR).findFirst().orElseThrow();
    String grpcPort = sidecar.startAfter().url().substring(sidecar.startAfter().url().lastIndexOf(':') + 1);
    List<String> engineArgv = Launcher.withEnv(engine.env(), engine.argv());
    List<String> supervisor = new ArrayList<>(List.of("srt-sidecar-supervisor", group, grpcPort,
        String.valueOf(plan.settings().sidecarStartupTimeoutSeconds()), engine.log(), sidecar.log(),
        String.valueOf(engineArgv.size())));
    supervisor.addAll(engineArgv);
    supervisor.addAll(Launcher.withEnv(sidecar.env(), sidecar.argv()));
    List<String> launch = launcher.wrap(group, engine.node(), engine.gpus(), Map.of(), List.of("bash", "--norc", "--noprofile", "-c"));
    return "srt_start " + words.word(group) + " worker " + words.word("logs/" + group + ".log") + " " + words.join(launch)
        + " \"$SRT_SIDECAR_SUPERVISOR\" " + words.join(supervisor);
  }

  private void gates() {
    for (Gate gate : plan.gates()) {
      line("");
      line("srt_gate " + gate.name() + (gate.timeoutSeconds() == null ? "" : " " + gate.timeoutSeconds()));
      for (Gate.Check c : gate.checks()) {
        var probe = c.probe();
        switch (probe.kind()) {
          case CHAT -> line("srt_canary " + words.word(probe.url()) + " " + words.word(probe.model()));
          case HTTP_STATUS -> check(c, String.valueOf(probe.status()));
          case DYNAMO_INSTANCES, DYNAMO_PREFILL_INSTANCES -> check(c, String.valueOf(probe.count()));
          case JSON_TRUE -> check(c, probe.field());
          case TCP -> check(c, "");
        }
      }
      if (Gates.ROUTER_READY.equals(gate.name())) {
        line("srt_router_ready " + words.word(router().endpoint().url()));
      }
      line("srt_gate_passed " + gate.name());
      start(gate.name());
    }
    line("srt_phase " + RunEventType.Phase.READY.wire());
  }

  private void check(Gate.Check c, String arg) {
    line("srt_wait " + words.word(c.target()) + " " + c.role().id() + " " + c.probe().kind().wire() + " " + words.word(c.probe().url())
        + (arg.isEmpty() ? "" : " " + words.word(arg)));
  }

  /**
   * The run's facts, once every gate has passed and before the benchmark: one step per node (in
   * the run's container, where the engines' Python is), then the collector on this host.
   */
  private void facts() {
    FactCapture f = plan.factCapture();
    if (f == null) {
      return;
    }
    line("");
    for (int node = 0; node < f.nodes(); node++) {
      List<String> launch = launcher.wrap(factsStep(node), node, gpusOn(plan, node), Map.of(), List.of(plan.settings().python(), "-c"));
      line("srt_facts_node " + node + " " + words.join(launch) + " \"$SRT_FACTS_PY\" " + words.join(factsNodeArgs(plan, node)));
    }
    line("srt_facts " + words.join(FactArguments.of(f)));
  }

  /** The name of node {@code node}'s facts step (a Slurm step, a container). */
  static String factsStep(int node) {
    return "facts-node-" + node;
  }

  /** The facts program's words on node {@code node}: its output file, the node, the distributions to ask. */
  static List<String> factsNodeArgs(RunPlan plan, int node) {
    FactCapture f = plan.factCapture();
    List<String> args = new ArrayList<>(List.of("node", "facts/node-" + node + ".json", String.valueOf(node)));
    args.addAll(f.packages());
    String tool = f.workload().versionPackage();
    if (node == 0 && tool != null && !f.packages().contains(tool)) {
      args.add(tool);
    }
    return args;
  }

  /** Every GPU of {@code node} the run's workers use: a container sees them, so nvidia-smi does. */
  static List<Integer> gpusOn(RunPlan plan, int node) {
    return plan.topology().workers().stream()
        .filter(w -> w.node() == node || w.followerNodes().contains(node))
        .flatMap(w -> w.gpus().stream()).distinct().sorted().toList();
  }

  private void benchmark() {
    facts();
    List<String> metricsUrls = new ArrayList<>();
    metricsUrls.add(router().endpoint().metricsUrl());
    plan.workerProcesses().stream().filter(p -> p.endpoint() != null && p.endpoint().metricsUrl() != null)
        .forEach(p -> metricsUrls.add(p.endpoint().metricsUrl()));
    line("");
    List<ProcessSpec> benchmarks = plan.processes(Role.BENCHMARK);
    Ladder ladder = plan.ladder();
    if (ladder == null) {
      scrape(plan.settings().resultsDir() + "/metrics-before.txt", metricsUrls);
      line("srt_phase " + RunEventType.Phase.BENCHMARKING.wire());
      budget();
      runBenchmark(benchmarks.get(0), 0);
      scrape(plan.settings().resultsDir() + "/metrics-after.txt", metricsUrls);
      line("srt_report_results " + words.word(plan.settings().resultsDir()));
      return;
    }
    // The engines and the router stay up from level to level: they load the model once.
    line("srt_phase " + RunEventType.Phase.BENCHMARKING.wire());
    budget();
    int count = ladder.levels().size();
    for (int i = 0; i < count; i++) {
      Ladder.Level level = ladder.levels().get(i);
      if (i > 0 && ladder.drainSeconds() > 0) {
        line("srt_drain " + ladder.drainSeconds());
      }
      String args = level.index() + " " + count + " " + words.word(LoadSpec.text(level.load())) + " "
          + words.word(ladder.label(level.load())) + " " + words.word(level.resultsDir());
      line("srt_level_started " + args);
      scrape(level.resultsDir() + "/metrics-before.txt", metricsUrls);
      runBenchmark(benchmarks.get(i), i);
      scrape(level.resultsDir() + "/metrics-after.txt", metricsUrls);
      line("srt_level_finished " + args);
    }
  }

  /** Engine and router counters around a measurement, for its cache hit rate and load spread. */
  private void scrape(String file, List<String> metricsUrls) {
    if (plan.settings().scrapeMetrics()) {
      line("srt_scrape " + words.word(file) + " " + words.join(metricsUrls));
    }
  }

  /**
   * The benchmarking of the run ends within spec.execution.maxDuration of here: the levels' own
   * deadlines are cut to what remains of it (plan/BenchmarkDeadlines).
   */
  private void budget() {
    line("srt_benchmark_budget " + plan.benchmarkDeadlines().maxSeconds());
  }

  /** Benchmark {@code index} (from 0), stopped at its deadline if it has not ended. */
  private void runBenchmark(ProcessSpec bench, int index) {
    if (isBashText(bench.argv())) {
      // A custom workload command is bash text: its shell expands the ${...} it is given.
      line("# shellcheck disable=SC2016");
    }
    line("srt_run_benchmark " + plan.benchmarkDeadlines().at(index) + " " + words.word(bench.log()) + " "
        + words.join(launcher.launch(runnable(bench))));
  }

  private static boolean isBashText(List<String> argv) {
    return argv.size() >= 3 && argv.get(0).equals("bash") && argv.get(1).equals("-c");
  }

  private ProcessSpec runnable(ProcessSpec p) {
    return runnable(p, words);
  }

  /**
   * {@code p} as it is started. The text of a {@code bash -c} process is parsed by its own shell,
   * so its placeholders must not be expanded into it here: they become references to environment
   * variables that the process is given (see {@link Words#code}).
   */
  static ProcessSpec runnable(ProcessSpec p, Words words) {
    if (!isBashText(p.argv())) {
      return p;
    }
    Words.Code code = words.code(p.argv().get(2));
    List<String> argv = new ArrayList<>(p.argv());
    argv.set(2, code.text());
    Map<String, String> env = new LinkedHashMap<>(code.env());
    env.putAll(p.env());
    return new ProcessSpec(p.name(), p.role(), p.node(), argv, env, p.ports(), p.gpus(), p.log(), p.probe(), p.group(), p.startAfter(),
        p.afterGate(), p.endpoint());
  }

  private ProcessSpec router() {
    return plan.processes(Role.ROUTER).get(0);
  }

  /**
   * {@code NAME="value"}: always quoted, as a bare {@code SRT_COMPARISON=cmp} reads to shellcheck
   * like a command run with an assignment (SC2209) whatever the name happens to be.
   */
  private void assign(String name, String value) {
    String word = words.word(value);
    line(name + "=" + (Shell.quote(value).equals(value) && word.equals(value) ? "\"" + value + "\"" : word));
  }

  private void line(String text) {
    out.append(text).append('\n');
  }
}
