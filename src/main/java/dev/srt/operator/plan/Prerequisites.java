package dev.srt.operator.plan;

import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.Mode;
import dev.srt.operator.config.Validator;
import dev.srt.operator.plan.frontends.DynamoInstall;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a host must have, derived from the GpuCluster and from the plans of a comparison's arms,
 * and only that: the Slurm commands in Slurm mode, the programs and Python packages the plans'
 * processes and build steps run, etcd and nats-server where a plan starts them, the model
 * directories the engines load, the GPUs per node the topology uses, disk for the work
 * directory, and on a direct host the ports of the port table. Pure.
 *
 * <p>With a container, the processes and builds run inside the image: what they run is not
 * looked for on the host, only the runtime, the model (mounted from the host) and the resources.
 */
public final class Prerequisites {
  /** Who needs what: a requirement and the GpuCluster or the arms that need it. */
  public record Needed(Requirement requirement, List<String> neededBy) {}

  /** Who the cluster's own requirements are needed by. */
  public static final String CLUSTER = "GpuCluster";
  /** Free space any run needs for its logs and results. */
  static final long RUN_GIB = 1;
  /** Free space a Rust build needs (the cargo target directory of a router or of Dynamo's bindings). */
  static final long BUILD_GIB = 20;

  /** Programs every host has, or the run's own library defines: nothing to look for. */
  private static final Set<String> BASE = Set.of("bash", "sh", "env", "rm", "mkdir", "cp", "mv", "cat", "true");
  private static final Map<String, String> FIXES = Map.of(
      "cargo", "install Rust on the host (rustup), or put its bin directory (e.g. ~/.cargo/bin) on the GpuCluster's spec.path",
      "rustc", "install Rust on the host (rustup), or put its bin directory (e.g. ~/.cargo/bin) on the GpuCluster's spec.path",
      "git", "install git on the host, or put it on the GpuCluster's spec.path",
      "aiperf", "pip install aiperf on the host (its aiperf command on PATH)",
      "sgl-router", "install sgl-router on the host, or give the arm's frontend.binary or frontend.source");
  private static final String SLURM_FIX = "run against a Slurm login node whose PATH has the Slurm commands, or put them on the "
      + "GpuCluster's spec.path";
  private static final Map<String, String> MODULE_FIXES = Map.of(
      "sglang", "install SGLang into PYTHON (pip install \"sglang[all]\"), or set the GpuCluster's spec.python to the "
          + "interpreter that has it",
      "dynamo", "install Dynamo into PYTHON (pip install ai-dynamo), or let the arm install it (spec.dynamo.version, hash or wheel)",
      "sglang_router", "install the SGLang Model Gateway into PYTHON (pip install sglang-router)");

  private final Map<String, Needed> needed = new LinkedHashMap<>();

  private Prerequisites() {}

  /** What every run on the cluster needs: the GpuCluster's {@code PrerequisitesMet}. */
  public static List<Needed> ofCluster(GpuClusterSpec cluster) {
    Prerequisites p = new Prerequisites();
    p.cluster(cluster);
    return p.list();
  }

  /** What the runs of {@code plans} on {@code cluster} need, the cluster's own requirements first. */
  public static List<Needed> of(GpuClusterSpec cluster, List<RunPlan> plans) {
    Prerequisites p = new Prerequisites();
    p.cluster(cluster);
    plans.forEach(p::plan);
    return p.list();
  }

  private List<Needed> list() {
    return List.copyOf(needed.values());
  }

  private void cluster(GpuClusterSpec c) {
    boolean slurm = c.mode() == Mode.SLURM;
    String partition = slurm && c.slurm != null ? c.slurm.partition : null;
    if (slurm) {
      for (String command : List.of("sbatch", "squeue", "scancel", "sinfo")) {
        add(new Requirement.Program(command, SLURM_FIX), CLUSTER);
      }
      add(new Requirement.Program("sacct", "optional: with Slurm accounting, sacct finds jobs squeue has forgotten", true), CLUSTER);
      add(new Requirement.SlurmPartition(partition), CLUSTER);
    }
    add(new Requirement.Gpus(c.gpusPerNode == null ? Validator.gpusPerNode(null) : c.gpusPerNode, 1, slurm, partition), CLUSTER);
    if (c.gpuType != null && !c.gpuType.isBlank()) {
      add(new Requirement.GpuType(c.gpuType, slurm, partition), CLUSTER);
    }
    String runtime = c.container == null || c.container.runtime == null ? "none" : c.container.runtime;
    if (!"none".equals(runtime)) {
      add(new Requirement.ContainerRuntime(runtime), CLUSTER);
    } else {
      add(new Requirement.Python(c.python != null ? c.python : Planner.DEFAULT_PYTHON), CLUSTER);
    }
    add(new Requirement.FreeDisk(c.workDir != null ? c.workDir : Planner.DEFAULT_WORK_DIR, RUN_GIB), CLUSTER);
  }

  private void plan(RunPlan plan) {
    String arm = plan.arm();
    boolean slurm = plan.mode() == Mode.SLURM;
    String partition = plan.slurm() == null ? null : plan.slurm().partition();
    add(new Requirement.Gpus(plan.topology().gpusUsedPerNode(), plan.topology().nodes(), slurm, partition), arm);
    if (plan.slurm() != null) {
      RunPlan.SlurmPlan s = plan.slurm();
      add(new Requirement.SlurmJob(s.partition(), s.account(), s.nodes(), s.gpusPerNode(), s.gres(), s.timeLimit()), arm);
    }
    for (ProcessSpec p : plan.processes()) {
      if (p.role() == Role.ENGINE || p.role() == Role.WORKER) {
        String model = valueOf(p.argv(), "--model-path");
        if (model != null) {
          add(new Requirement.ModelDir(model), arm);
        }
      }
    }
    boolean builds = plan.builds().stream().flatMap(b -> b.steps().stream()).anyMatch(this::buildsRust);
    add(new Requirement.FreeDisk(plan.settings().workDir(), builds ? BUILD_GIB : RUN_GIB), arm);
    if (plan.mode() == Mode.DIRECT) {
      List<Integer> ports = plan.processes().stream().flatMap(p -> p.ports().values().stream()).toList();
      add(new Requirement.PortsFree(plan.settings().python(), ports, plan.settings().workDir() + "/host.lease"), arm);
    }
    if (plan.container() != null) {
      return; // what the processes and builds run is in the image
    }
    // First: its fix names the field that names the program.
    for (RunPlan.Preflight pre : plan.preflight()) {
      add(new Requirement.Program(pre.program(), "install it on the host, or set " + pre.field() + " of the GpuCluster to its path"),
          arm);
    }
    String python = plan.settings().python();
    boolean installsDynamo = plan.builds().stream().anyMatch(b -> b.name().equals(DynamoInstall.INSTALL_STAGE));
    for (BuildStage stage : plan.builds()) {
      boolean maturinInstalled = false;
      for (List<String> step : stage.steps()) {
        maturinInstalled |= installs(step, python, "maturin");
        command(step, plan, python, installsDynamo, maturinInstalled, arm);
      }
    }
    for (ProcessSpec p : plan.processes()) {
      command(p.argv(), plan, python, installsDynamo, false, arm);
    }
  }

  /** What one command line needs: its program, or the Python module it runs. */
  private void command(List<String> argv, RunPlan plan, String python, boolean installsDynamo, boolean maturinInstalled, String arm) {
    if (argv.isEmpty()) {
      return;
    }
    String first = argv.get(0);
    if (first.equals("srt_in_dir") && argv.size() > 2) {
      command(argv.subList(2, argv.size()), plan, python, installsDynamo, maturinInstalled, arm);
      return;
    }
    if (first.equals("srt_pip_install_wheels") && argv.size() > 1) {
      add(pythonTool(argv.get(1), "pip"), arm);
      return;
    }
    if (first.startsWith("srt_") || BASE.contains(first) || builtByTheRun(first, plan)) {
      return;
    }
    if (first.equals(python) && argv.size() > 2 && argv.get(1).equals("-m")) {
      String module = argv.get(2);
      if (module.equals("pip")) {
        add(pythonTool(python, "pip"), arm);
      } else if (module.equals("maturin")) {
        add(maturinInstalled ? pythonTool(python, "pip") : pythonTool(python, "maturin"), arm);
        rust(arm);
      } else {
        String top = module.split("\\.", 2)[0];
        if (!(top.equals("dynamo") && installsDynamo)) {
          String fix = MODULE_FIXES.getOrDefault(top, "install " + top + " into PYTHON (pip install " + top + ")");
          add(new Requirement.PythonImport(python, top, fix.replace("PYTHON", python)), arm);
        }
      }
      return;
    }
    add(new Requirement.Program(first, FIXES.getOrDefault(first, first.contains("/")
        ? "put an executable at " + first + " on the host, or change the field that names it"
        : "install " + first + " on the host, or put its directory on the GpuCluster's spec.path")), arm);
    if (first.equals("cargo")) {
      rust(arm);
    }
  }

  private void rust(String arm) {
    add(new Requirement.Program("cargo", FIXES.get("cargo")), arm);
    add(new Requirement.Program("rustc", FIXES.get("rustc")), arm);
  }

  private static Requirement pythonTool(String python, String module) {
    return new Requirement.PythonTool(python, module, "pip".equals(module)
        ? "install pip for " + python + " (" + python + " -m ensurepip, or apt install python3-pip)"
        : "install " + module + " into " + python + " (pip install " + module + ")");
  }

  /** {@code python -m pip install ... MODULE}: the step installs it, so it need not be there. */
  private static boolean installs(List<String> step, String python, String module) {
    return step.size() > 4 && step.get(0).equals(python) && step.get(1).equals("-m") && step.get(2).equals("pip")
        && step.get(3).equals("install") && step.contains(module);
  }

  private boolean buildsRust(List<String> step) {
    return step.contains("cargo") || step.contains("maturin");
  }

  /** A program under the work directory's cache was built by a stage of the run (a router from source). */
  private static boolean builtByTheRun(String program, RunPlan plan) {
    return plan.builds().stream().anyMatch(b -> b.cacheDir() != null && program.startsWith(b.cacheDir() + "/"))
        || program.startsWith(plan.settings().workDir() + "/cache/");
  }

  private static String valueOf(List<String> argv, String flag) {
    int i = argv.indexOf(flag);
    return i >= 0 && i + 1 < argv.size() ? argv.get(i + 1) : null;
  }

  private void add(Requirement r, String by) {
    Needed before = needed.get(r.key());
    if (before == null) {
      needed.put(r.key(), new Needed(r, List.of(by)));
      return;
    }
    List<String> who = new ArrayList<>(before.neededBy());
    if (!who.contains(by)) {
      who.add(by);
    }
    needed.put(r.key(), new Needed(merge(before.requirement(), r), List.copyOf(who)));
  }

  /** Two arms' needs of one kind: the larger count, the union of ports. */
  private static Requirement merge(Requirement a, Requirement b) {
    if (a instanceof Requirement.Gpus x && b instanceof Requirement.Gpus y) {
      return new Requirement.Gpus(Math.max(x.perNode(), y.perNode()), Math.max(x.nodes(), y.nodes()), x.slurm(), x.partition());
    }
    if (a instanceof Requirement.FreeDisk x && b instanceof Requirement.FreeDisk y) {
      return new Requirement.FreeDisk(x.dir(), Math.max(x.gib(), y.gib()));
    }
    if (a instanceof Requirement.PortsFree x && b instanceof Requirement.PortsFree y) {
      Set<Integer> ports = new TreeSet<>(x.ports());
      ports.addAll(y.ports());
      return new Requirement.PortsFree(x.python(), List.copyOf(ports), x.lease());
    }
    return a;
  }
}
