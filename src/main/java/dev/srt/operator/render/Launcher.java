package dev.srt.operator.render;

import dev.srt.operator.plan.ProcessSpec;
import dev.srt.operator.plan.RunPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a process is started: as is on a direct host (optionally in a docker container), or as a
 * Slurm step on its node with srun (optionally in a pyxis container). The result is an argv that
 * the bash library's {@code srt_start} runs in its own process group.
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

  /** The argv that runs {@code command} (with {@code env}) on node {@code node}. */
  abstract List<String> wrap(String name, int node, List<Integer> gpus, Map<String, String> env, List<String> command);

  List<String> launch(ProcessSpec p) {
    return wrap(p.name(), p.node(), p.gpus(), p.env(), p.argv());
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

  /** Host directories a container needs at the same paths: the run, the work dir, the model. */
  protected List<String> mounts() {
    List<String> mounts = new ArrayList<>(List.of("{{run_dir}}:{{run_dir}}", plan.settings().workDir() + ":" + plan.settings().workDir()));
    plan.container().mounts().forEach(mounts::add);
    return mounts;
  }

  static final class Direct extends Launcher {
    Direct(RunPlan plan) {
      super(plan);
    }

    @Override
    List<String> wrap(String name, int node, List<Integer> gpus, Map<String, String> env, List<String> command) {
      if (plan.container() == null) {
        return withEnv(env, command);
      }
      List<String> out = new ArrayList<>(List.of("docker", "run", "--rm", "--name", "srt-{{run_id}}-" + name,
          "--label", "dev.srt.run={{run_id}}", "--network", "host", "--ipc", "host", "--init",
          "--workdir", "{{run_dir}}"));
      if (gpus != null) {
        out.addAll(List.of("--gpus", "\"device=" + String.join(",", gpus.stream().map(String::valueOf).toList()) + "\""));
      }
      mounts().forEach(m -> out.addAll(List.of("--volume", m)));
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
    List<String> wrap(String name, int node, List<Integer> gpus, Map<String, String> env, List<String> command) {
      List<String> out = new ArrayList<>(List.of("srun", "--overlap", "--nodes=1", "--ntasks=1", "--relative=" + node,
          "--job-name=" + name));
      plan.slurm().srunOptions().forEach((k, v) -> out.add(v.isEmpty() ? "--" + k : "--" + k + "=" + v));
      if (plan.container() != null) {
        out.add("--container-image=" + plan.container().image());
        // One named container per run and node, so installs made by earlier steps are visible.
        out.add("--container-name=srt-{{run_id}}");
        out.add("--container-mounts=" + String.join(",", mounts()));
        out.add("--container-workdir={{run_dir}}");
        out.add("--no-container-mount-home");
      }
      out.addAll(withEnv(env, command));
      return out;
    }
  }
}
