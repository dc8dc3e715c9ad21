package dev.srt.operator.render;

import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.Role;
import dev.srt.operator.plan.RunPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a process or a build stage is started: as is on a direct host (optionally in a docker
 * container), or as a Slurm step on its node with srun (optionally in a pyxis container). The
 * result is an argv that the bash library runs in its own process group.
 */
abstract class Launcher {
  protected final RunPlan plan;

  Launcher(RunPlan plan) {
    this.plan = plan;
  }

  static Launcher of(RunPlan plan) {
    return switch (plan.mode()) {
      case SLURM -> new Srun(plan);
      case DIRECT -> new Direct(plan);
    };
  }

  /**
   * The argv that runs {@code command} (with {@code env}) on node {@code node}; in a container,
   * {@code extraMounts} are mounted next to the run's mounts, and {@code build} marks a build
   * stage (which installs into the container's Python).
   */
  abstract List<String> wrap(String name, int node, List<Integer> gpus, Map<String, String> env, List<String> command,
      List<String> extraMounts, boolean build);

  List<String> wrap(String name, int node, List<Integer> gpus, Map<String, String> env, List<String> command) {
    return wrap(name, node, gpus, env, command, List.of(), false);
  }

  /**
   * The router reads the arm's own inputs (a prebuilt binary); workers never do, so theirs stay
   * identical. An infra service runs the cluster's executable, mounted when it is a host path.
   */
  List<String> launch(ProcessSpec p) {
    List<String> mounts = p.role() == Role.ROUTER ? buildMounts() : p.role() == Role.INFRA ? executableMount(p.argv().get(0)) : List.of();
    return wrap(p.name(), p.node(), p.gpus(), p.env(), p.argv(), mounts, false);
  }

  /** The check that {@code pf}'s program is an executable where the run's processes run (its container). */
  List<String> preflight(RunPlan.Preflight pf) {
    return wrap("preflight-" + pf.program().replaceAll(".*/", ""), pf.node(), null, Map.of(),
        List.of("bash", "--norc", "--noprofile", "-c", "type -P -- \"$1\" >/dev/null", "srt-preflight", pf.program()),
        executableMount(pf.program()), false);
  }

  private List<String> executableMount(String program) {
    return plan.container() != null && program.startsWith("/") ? List.of(program + ":" + program) : List.of();
  }

  /** A build stage's command on the first node, with the arm's inputs mounted. */
  List<String> build(String stage, Map<String, String> env, List<String> command) {
    return wrap("build-" + stage, 0, null, env, command, buildMounts(), true);
  }

  private List<String> buildMounts() {
    return plan.container() == null ? List.of() : plan.container().buildMounts();
  }

  /** {@code env K=V ... argv}: the process's own environment on top of the script's. */
  static List<String> withEnv(Map<String, String> env, List<String> argv) {
    if (env.isEmpty()) {
      return argv;
    }
    List<String> out = new ArrayList<>();
    out.add("env");
    env.forEach((k, v) -> out.add(k + "=" + v));
    out.addAll(argv);
    return out;
  }

  /** Host directories a container of this run needs at the same paths (the run, the work dir, the model), and {@code extra}. */
  List<String> mounts(List<String> extra) {
    List<String> mounts = new ArrayList<>(List.of("{{run_dir}}:{{run_dir}}", plan.settings().workDir() + ":" + plan.settings().workDir()));
    mounts.addAll(plan.container().mounts());
    extra.stream().filter(m -> !mounts.contains(m)).forEach(mounts::add);
    return mounts;
  }

  static final class Direct extends Launcher {
    Direct(RunPlan plan) {
      super(plan);
    }

    @Override
    List<String> wrap(String name, int node, List<Integer> gpus, Map<String, String> env, List<String> command,
        List<String> extraMounts, boolean build) {
      if (plan.container() == null) {
        return withEnv(env, command);
      }
      List<String> out = new ArrayList<>(List.of("docker", "run", "--rm", "--name", "srt-{{run_id}}-" + name,
          "--label", "dev.srt.run={{run_id}}", "--network", "host", "--ipc", "host", "--init",
          "--workdir", "{{run_dir}}"));
      if (gpus != null) {
        out.addAll(List.of("--gpus", "\"device=" + String.join(",", gpus.stream().map(String::valueOf).toList()) + "\""));
      }
      mounts(extraMounts).forEach(m -> out.addAll(List.of("--volume", m)));
      // The script's exported environment (the cluster's env) does not cross into a container by itself.
      plan.env().keySet().stream().filter(k -> !env.containsKey(k)).forEach(k -> out.addAll(List.of("--env", k)));
      // Nor do the secret variables; by name only, so docker reads each value from its own environment, never argv.
      plan.secretEnv().stream().filter(k -> !env.containsKey(k)).forEach(k -> out.addAll(List.of("--env", k)));
      // --gpus renumbers the selected devices from 0 inside the container.
      env.forEach((k, v) -> {
        if (!k.equals("CUDA_VISIBLE_DEVICES")) {
          out.addAll(List.of("--env", k + "=" + v));
        }
      });
      out.add(plan.container().image());
      out.addAll(command);
      return out;
    }
  }

  static final class Srun extends Launcher {
    Srun(RunPlan plan) {
      super(plan);
    }

    @Override
    List<String> wrap(String name, int node, List<Integer> gpus, Map<String, String> env, List<String> command,
        List<String> extraMounts, boolean build) {
      List<String> out = new ArrayList<>(List.of("srun", "--overlap", "--nodes=1", "--ntasks=1", "--relative=" + node,
          "--job-name=" + name));
      plan.slurm().srunOptions().forEach((k, v) -> out.add(v.isEmpty() ? "--" + k : "--" + k + "=" + v));
      if (plan.container() != null) {
        out.add("--container-image=" + plan.container().image());
        // One named container per run and node, so installs made by earlier steps are visible.
        out.add("--container-name=srt-{{run_id}}");
        out.add("--container-mounts=" + String.join(",", mounts(extraMounts)));
        out.add("--container-workdir={{run_dir}}");
        out.add("--no-container-mount-home");
        if (build) {
          // The source build installs its build tool (maturin) into the image's Python: root in the container.
          out.add("--container-remap-root");
        }
      }
      out.addAll(withEnv(env, command));
      return out;
    }
  }
}
