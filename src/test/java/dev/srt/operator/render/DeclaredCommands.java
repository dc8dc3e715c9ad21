package dev.srt.operator.render;

import dev.srt.operator.plan.BuildStage;
import dev.srt.operator.plan.Gate;
import dev.srt.operator.api.Mode;
import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.Role;
import dev.srt.operator.plan.RunPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every command line a plan declares, as the stand-ins record it: the processes (and their srun or
 * docker wrappers), the build steps (and the programs the library's build helpers run), the
 * probes of every gate, the node lookup, with the run-time placeholders resolved to the values of
 * the run. A recorded command that is not one of these is an undeclared command.
 */
final class DeclaredCommands {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{(node:([0-9]+)|run_dir|run_id|host_tag)}}");
  private static final String PROBE_PY = probeText();
  /** Stands for one word of the script's own text (the supervisor program, a stage's function source). */
  static final String SCRIPT_TEXT = "<script text>";

  private final RunPlan plan;
  private final String runDir;
  private final String hostTag;
  private final Launcher launcher;
  private final Words words;
  private final List<List<String>> declared = new ArrayList<>();
  /** Programs the plan runs, each with the environment it declares for it (resolved). */
  private final Map<List<String>, Map<String, String>> programs = new LinkedHashMap<>();

  DeclaredCommands(RunPlan plan, String runDir, String hostTag) {
    this.plan = plan;
    this.runDir = runDir;
    this.hostTag = hostTag;
    this.launcher = Launcher.of(plan);
    this.words = new Words(plan.mode() == Mode.SLURM);
    processes();
    preflight();
    builds();
    probes();
    if (plan.mode() == Mode.SLURM) {
      add(List.of("scontrol", "show", "hostnames", StandIns.NODE));
      add(List.of("scontrol", "show", "node", StandIns.NODE));
    }
  }

  private void processes() {
    List<String> groups = new ArrayList<>();
    for (ProcessSpec p : plan.processes()) {
      if (p.group() == null) {
        ProcessSpec r = ScriptBody.runnable(p, words);
        add(launcher.launch(r));
        program(r);
      } else if (!groups.contains(p.group())) {
        groups.add(p.group());
        List<ProcessSpec> members = plan.processes().stream().filter(q -> p.group().equals(q.group())).toList();
        ProcessSpec engine = members.stream().filter(m -> m.role() == Role.ENGINE).findFirst().orElseThrow();
        ProcessSpec sidecar = members.stream().filter(m -> m.role() == Role.SIDECAR).findFirst().orElseThrow();
        String url = sidecar.startAfter().url();
        List<String> engineArgv = Launcher.withEnv(engine.env(), engine.argv());
        // The supervisor's argv: NAME GRPC_PORT TIMEOUT ENGINE_LOG SIDECAR_LOG ENGINE_ARGC ENGINE_ARGV... SIDECAR_ARGV...
        List<String> command = new ArrayList<>(List.of("bash", "--norc", "--noprofile", "-c", SCRIPT_TEXT, "srt-sidecar-supervisor",
            p.group(), url.substring(url.lastIndexOf(':') + 1), String.valueOf(plan.settings().sidecarStartupTimeoutSeconds()),
            engine.log(), sidecar.log(), String.valueOf(engineArgv.size())));
        command.addAll(engineArgv);
        command.addAll(Launcher.withEnv(sidecar.env(), sidecar.argv()));
        add(launcher.wrap(p.group(), engine.node(), engine.gpus(), Map.of(), command));
        program(engine);
        program(sidecar);
      }
    }
  }

  /** With a container, each program is looked for in it (a launched check); without, by the script itself. */
  private void preflight() {
    if (plan.container() != null && plan.preflight() != null) {
      plan.preflight().forEach(pf -> add(launcher.preflight(pf)));
    }
  }

  private void program(ProcessSpec p) {
    List<String> argv = resolve(p.argv());
    add(argv);
    Map<String, String> env = new LinkedHashMap<>();
    plan.env().forEach((k, v) -> env.put(k, resolve(v)));
    p.env().forEach((k, v) -> env.put(k, resolve(v)));
    if (plan.container() != null && "docker".equals(plan.container().runtime())) {
      // --gpus renumbers the devices inside the container; the variable is not passed.
      env.remove("CUDA_VISIBLE_DEVICES");
    }
    programs.put(argv, env);
  }

  private void builds() {
    String python = plan.settings().python();
    for (BuildStage stage : plan.builds()) {
      for (List<String> step : stage.steps()) {
        switch (step.get(0)) {
          case "srt_in_dir" -> add(step.subList(2, step.size()));
          case "srt_set_toml_dependency" -> add(List.of(python, "-", step.get(1), step.get(2), step.get(3)));
          case "srt_pip_install_wheels" -> add(List.of(step.get(1), "-m", "pip", "install", "--no-deps", "--target", step.get(3), "--",
              step.get(2) + "/" + StandIns.WHEEL));
          case "srt_copy_tree", "srt_require_file", "srt_tree_digest" -> { }
          default -> add(step);
        }
      }
      if (plan.container() != null) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("RUN_DIR", "{{run_dir}}");
        env.put("SRT_RUN_ID", "{{run_id}}");
        env.put("SRT_PYTHON", python);
        env.put("SRT_HOST_TAG", "{{host_tag}}");
        add(launcher.build(stage.name(), env, List.of("bash", "--norc", "--noprofile", "-c", SCRIPT_TEXT)));
      }
    }
    if (plan.container() != null && "docker".equals(plan.container().runtime())) {
      // The ownership hand-back on exit (only when the script does not run as root).
      List<String> chown = new ArrayList<>(List.of("docker", "run", "--rm", "--user", "0", "--entrypoint", "chown"));
      launcher.mounts(List.of()).forEach(m -> chown.addAll(List.of("--volume", m)));
      chown.addAll(List.of(plan.container().image(), "-R", SCRIPT_TEXT, "--", "{{run_dir}}"));
      for (BuildStage stage : plan.builds()) {
        java.util.stream.Stream.of(stage.cacheDir(), stage.env().get("CARGO_TARGET_DIR")).filter(Objects::nonNull).forEach(chown::add);
      }
      add(chown);
    }
  }

  private void probes() {
    String python = plan.settings().python();
    if (plan.container() == null) {
      add(List.of(python, "-c", "import sys; print(sys.implementation.cache_tag)"));
    }
    if (plan.mode() == Mode.DIRECT) {
      List<String> ports = new ArrayList<>(List.of(python, "-c", PROBE_PY, "ports-free"));
      plan.processes().stream().filter(p -> p.role() != Role.BENCHMARK).flatMap(p -> p.ports().values().stream()).distinct().sorted()
          .forEach(port -> ports.add(String.valueOf(port)));
      add(ports);
    }
    for (Gate gate : plan.gates()) {
      for (Gate.Check c : gate.checks()) {
        var probe = c.probe();
        String arg = switch (probe.kind()) {
          case CHAT -> null;
          case HTTP_STATUS -> String.valueOf(probe.status());
          case DYNAMO_INSTANCES, DYNAMO_PREFILL_INSTANCES -> String.valueOf(probe.count());
          case JSON_TRUE -> probe.field();
          case TCP -> "";
        };
        add(probe.kind() == dev.srt.operator.plan.Probe.Kind.CHAT
            ? List.of(python, "-c", PROBE_PY, "chat", probe.url(), probe.model(), "logs/canary.json")
            : List.of(python, "-c", PROBE_PY, probe.kind().wire(), probe.url(), arg));
      }
    }
    List<String> metrics = new ArrayList<>();
    String router = plan.processes(Role.ROUTER).get(0).probe().url().replaceFirst("/(readyz|health)$", "");
    metrics.add(router + "/metrics");
    plan.workerProcesses().stream().filter(p -> p.probe() != null).forEach(p -> metrics.add(p.probe().url().replaceFirst("/health$", "/metrics")));
    // around the benchmark, or around each level of a load ladder
    List<String> resultsDirs = plan.ladder() == null ? List.of(plan.settings().resultsDir())
        : plan.ladder().levels().stream().map(dev.srt.operator.plan.Ladder.Level::resultsDir).toList();
    for (String dir : resultsDirs) {
      for (String file : List.of("metrics-before.txt", "metrics-after.txt")) {
        List<String> scrape = new ArrayList<>(List.of(python, "-c", PROBE_PY, "scrape", dir + "/" + file));
        scrape.addAll(metrics);
        add(scrape);
      }
    }
    add(List.of(python, "-c", PROBE_PY, "summary", plan.settings().resultsDir()));
    facts(python);
  }

  /** The facts program: each node's step (and, through srun or docker, the program in it), then the collector. */
  private void facts(String python) {
    if (plan.factCapture() == null) {
      return;
    }
    for (int node = 0; node < plan.factCapture().nodes(); node++) {
      List<String> program = new ArrayList<>(List.of(python, "-c", SCRIPT_TEXT));
      program.addAll(ScriptBody.factsNodeArgs(plan, node));
      add(program);
      add(launcher.wrap(ScriptBody.factsStep(node), node, ScriptBody.gpusOn(plan, node), Map.of(), program));
    }
    List<String> collect = new ArrayList<>(List.of(python, "-c", SCRIPT_TEXT, "collect", "facts.json"));
    collect.addAll(FactArguments.of(plan.factCapture()));
    add(collect);
  }

  private void add(List<String> argv) {
    declared.add(resolve(argv));
  }

  /** The declared command line that {@code recorded} (argv[0] as run) is, or null. */
  List<String> match(StandIns.Invocation recorded) {
    for (List<String> d : declared) {
      if (d.size() != recorded.argv().size()) {
        continue;
      }
      String program = d.get(0);
      boolean same = program.contains("/") ? program.equals(recorded.argv().get(0)) : program.equals(recorded.program());
      for (int i = 1; same && i < d.size(); i++) {
        same = d.get(i) == SCRIPT_TEXT || d.get(i).equals(recorded.argv().get(i));
      }
      if (same) {
        return d;
      }
    }
    return null;
  }

  /** The environment the plan declares for the program {@code argv} (a declared command), or null if it is not a process. */
  Map<String, String> envOf(List<String> argv) {
    return programs.get(argv);
  }

  /** The programs of the plan's processes (resolved argv): each must have run. */
  List<List<String>> programs() {
    return List.copyOf(programs.keySet());
  }

  List<String> resolve(List<String> argv) {
    List<String> out = new ArrayList<>();
    for (String w : argv) {
      // Identity: the marker for a word of the script's own text survives resolution.
      out.add(w == SCRIPT_TEXT ? SCRIPT_TEXT : resolve(w));
    }
    return out;
  }

  String resolve(String value) {
    Matcher m = PLACEHOLDER.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String v = switch (m.group(1)) {
        case "run_dir" -> runDir;
        case "run_id" -> StandIns.RUN_ID;
        case "host_tag" -> hostTag;
        default -> plan.mode() == Mode.SLURM ? StandIns.NODE : m.group();
      };
      m.appendReplacement(out, Matcher.quoteReplacement(v));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** SRT_PROBE_PY as the script holds it: the heredoc's text (read strips the last newline). */
  private static String probeText() {
    String lib = BashLibrary.text();
    int start = lib.indexOf("<<'PY' || true\n") + "<<'PY' || true\n".length();
    return lib.substring(start, lib.indexOf("\nPY\n", start));
  }
}
