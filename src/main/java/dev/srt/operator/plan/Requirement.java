package dev.srt.operator.plan;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One thing a host must have before a run can start there, as {@code srt-operator check} and the
 * operator's {@code PrerequisitesMet} condition look for it: a program, a Python package, a Slurm
 * partition, GPUs, the model, disk, free ports. {@link #key()} identifies it among the
 * requirements of several arms; {@link #label()} is the check table's first column and
 * {@link #fix()} what to do when it is missing. Values are the plan's own (program names, paths);
 * the host layer quotes every one of them.
 */
public sealed interface Requirement {
  /** Identifies the requirement: two arms that need cargo need one check. */
  String key();

  /** What is required, as the check's table says it. */
  String label();

  /** What to do when it is missing. */
  String fix();

  /** Missing, it is reported but does not fail the check (sacct: finished jobs are found without it). */
  default boolean optional() {
    return false;
  }

  /** A program on the run's PATH ({@code type -P}), or an executable path. */
  record Program(String name, String fix, boolean optional) implements Requirement {
    public Program(String name, String fix) {
      this(name, fix, false);
    }

    @Override
    public String key() {
      return "program " + name;
    }

    @Override
    public String label() {
      return name.contains("/") ? name + " (executable)" : name + " (on PATH)";
    }
  }

  /** The interpreter the runs use ({@code spec.python}). */
  record Python(String python) implements Requirement {
    @Override
    public String key() {
      return "python " + python;
    }

    @Override
    public String label() {
      return python;
    }

    @Override
    public String fix() {
      return "install Python 3 on the host, or set the GpuCluster's spec.python to an interpreter that has it";
    }
  }

  /** A package the run's processes import ({@code python -c 'import MODULE'}); found: its version. */
  record PythonImport(String python, String module, String fix) implements Requirement {
    @Override
    public String key() {
      return "import " + python + " " + module;
    }

    @Override
    public String label() {
      return python + ": import " + module;
    }
  }

  /** A tool a build runs as {@code python -m MODULE} (pip, maturin); found: its {@code --version}. */
  record PythonTool(String python, String module, String fix) implements Requirement {
    @Override
    public String key() {
      return "python -m " + python + " " + module;
    }

    @Override
    public String label() {
      return python + " -m " + module;
    }
  }

  /** A Slurm partition ({@code sinfo -p}); null: the cluster's default partition. */
  record SlurmPartition(String partition) implements Requirement {
    @Override
    public String key() {
      return "partition " + partition;
    }

    @Override
    public String label() {
      return partition == null ? "Slurm default partition" : "Slurm partition " + partition;
    }

    @Override
    public String fix() {
      return partition == null ? "set the GpuCluster's spec.slurm.partition (the cluster has no default partition)"
          : "set the GpuCluster's spec.slurm.partition to a partition sinfo lists";
    }
  }

  /**
   * Slurm accepts the job of a run ({@code sbatch --test-only}): its partition, account, node
   * count, GPUs per node and time limit.
   */
  record SlurmJob(String partition, String account, int nodes, int gpusPerNode, boolean gres, String timeLimit)
      implements Requirement {
    /** The sbatch options of the test submission, as the run's job asks for them. */
    public List<String> options() {
      List<String> out = new java.util.ArrayList<>();
      if (partition != null) {
        out.add("--partition=" + partition);
      }
      if (account != null) {
        out.add("--account=" + account);
      }
      out.add("--nodes=" + nodes);
      if (gres && gpusPerNode > 0) {
        out.add("--gres=gpu:" + gpusPerNode);
      }
      if (timeLimit != null) {
        out.add("--time=" + timeLimit);
      }
      return out;
    }

    @Override
    public String key() {
      return "sbatch " + options();
    }

    @Override
    public String label() {
      return "sbatch --test-only " + String.join(" ", options());
    }

    @Override
    public String fix() {
      return "make the job fit: the GpuCluster's spec.slurm.partition" + (account == null ? "" : " and spec.slurm.account")
          + ", spec.slurm.timeLimit, and the comparison's spec.resources against the partition's nodes and GPUs";
    }
  }

  /**
   * GPUs per node: {@code nvidia-smi -L} on a direct host, the partition's GPU gres on Slurm
   * ({@code partition} null with {@code slurm}: the default partition).
   */
  record Gpus(int perNode, int nodes, boolean slurm, String partition) implements Requirement {
    @Override
    public String key() {
      return "gpus";
    }

    @Override
    public String label() {
      return slurm
          ? nodes + " node(s) with >= " + perNode + " GPUs in " + (partition == null ? "the default partition" : "partition " + partition)
          : ">= " + perNode + " GPUs (nvidia-smi -L)";
    }

    @Override
    public String fix() {
      return slurm ? "choose a partition with such nodes (spec.slurm.partition), or fewer GPUs per worker or node (the comparison's "
          + "spec.resources, the GpuCluster's spec.gpusPerNode)"
          : "run on a host with that many GPUs visible to nvidia-smi, or plan for fewer (spec.resources, spec.gpusPerNode)";
    }
  }

  /** The GPU model the GpuCluster names ({@code spec.gpuType}), matched against the GPUs' names. */
  record GpuType(String type, boolean slurm, String partition) implements Requirement {
    @Override
    public String key() {
      return "gpu type";
    }

    @Override
    public String label() {
      return "GPU type " + type;
    }

    @Override
    public String fix() {
      return "correct the GpuCluster's spec.gpuType, or run where the GPUs are " + type;
    }
  }

  /** The model directory of the engines, with its config.json and tokenizer.json. */
  record ModelDir(String path) implements Requirement {
    public static final List<String> FILES = List.of("config.json", "tokenizer.json");

    @Override
    public String key() {
      return "model " + path;
    }

    @Override
    public String label() {
      return "model " + path + " (" + String.join(", ", FILES) + ")";
    }

    @Override
    public String fix() {
      return "download the model to " + path + " on the host (huggingface-cli download MODEL --local-dir " + path
          + "), or set the comparison's spec.model.path to where it is";
    }
  }

  /** Free space in the file system of {@code dir} (the work directory): logs, results, builds. */
  record FreeDisk(String dir, long gib) implements Requirement {
    @Override
    public String key() {
      return "disk " + dir;
    }

    @Override
    public String label() {
      return ">= " + gib + " GiB free in " + dir;
    }

    @Override
    public String fix() {
      return "free space there, or set the GpuCluster's spec.workDir to a larger file system";
    }
  }

  /**
   * The run's fixed ports are free on a direct host, unless a run holds the host's lease
   * ({@code lease}): that run's ports are its own and free when it ends. Looked for as the run
   * itself does, by binding them with {@code python}.
   */
  record PortsFree(String python, List<Integer> ports, String lease) implements Requirement {
    public PortsFree {
      ports = List.copyOf(new java.util.TreeSet<>(ports));
    }

    @Override
    public String key() {
      return "ports";
    }

    @Override
    public String label() {
      return "ports free: " + ports.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    @Override
    public String fix() {
      return "stop what listens there (ss -ltnp), or move the comparison's ports (spec.infra, spec.dynamo.sidecarPort, "
          + "the frontend's and workers' ports)";
    }
  }

  /** The container runtime of the GpuCluster: docker, or pyxis's {@code srun --container-image}. */
  record ContainerRuntime(String runtime) implements Requirement {
    @Override
    public String key() {
      return "container " + runtime;
    }

    @Override
    public String label() {
      return "pyxis".equals(runtime) ? "srun --container-image (pyxis)" : runtime + " (on PATH)";
    }

    @Override
    public String fix() {
      return "pyxis".equals(runtime) ? "install the pyxis SPANK plugin on the cluster, or set container.runtime: none"
          : "install " + runtime + " on the host, or set the GpuCluster's container.runtime: none";
    }
  }
}
