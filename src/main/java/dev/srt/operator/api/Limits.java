package dev.srt.operator.api;

/**
 * The upper bound of every count and size of both kinds. The CRD schema carries them (maximum,
 * maxLength, maxItems, maxProperties on the api fields), so the API server rejects an object
 * beyond them and can bound the cost of every CEL rule; {@code config/BoundsRules} checks the same
 * numbers for the CLI and for API servers that do not enforce the schema. They are compile-time
 * constants because annotations need them.
 *
 * <p>They are generous for real jobs (the largest known prefill/decode job uses 64 nodes) and small
 * enough that planning a run stays cheap: a plan has at most {@link #MAX_WORKERS} workers and
 * {@link #MAX_NODES} node processes, and every port of the port table stays unique and below 65536.
 */
public final class Limits {
  /** Arms of one comparison; they run one after another on the same GPUs. */
  public static final int MAX_ARMS = 8;
  /** Nodes of one run (aggNodes; prefillNodes and decodeNodes each). */
  public static final int MAX_NODES = 128;
  /**
   * Workers of one run (aggWorkers; prefillWorkers and decodeWorkers each). Worker i owns ports
   * base + i of four port ranges, which stay apart up to this count.
   */
  public static final int MAX_WORKERS = 256;
  /** GPUs of one node (GpuCluster spec.gpusPerNode). */
  public static final int MAX_GPUS_PER_NODE = 16;
  /** GPUs of one worker: a multi-node worker may span every node of a run. */
  public static final int MAX_GPUS_PER_WORKER = MAX_NODES * MAX_GPUS_PER_NODE;
  public static final int MIN_PORT = 1;
  public static final int MAX_PORT = 65535;
  /** The benchmark's seed: what numpy accepts, within a Java int. */
  public static final int MAX_SEED = Integer.MAX_VALUE;

  /** DNS labels: arm names and comparison names (they name jobs and run directories). */
  public static final int MAX_DNS_LABEL = 63;
  /** Kubernetes object names, Secret keys, host and user names, Slurm partitions and accounts. */
  public static final int MAX_NAME = 253;
  /** Enumerated values, versions, durations, Slurm times, cargo package and feature names. */
  public static final int MAX_WORD = 64;
  /** A full git commit. */
  public static final int COMMIT_LENGTH = 40;
  /** Absolute or relative host paths (Linux PATH_MAX). */
  public static final int MAX_PATH = 4096;
  /** A container bind mount: host:container[:options]. */
  public static final int MAX_MOUNT = 2 * MAX_PATH + MAX_WORD;
  /** Free text: environment and flag values, URLs, images, model names, topics. */
  public static final int MAX_TEXT = 4096;
  /** The custom workload's shell command, and a flag value given as a JSON map. */
  public static final int MAX_LONG_TEXT = 65536;
  /** Keys of maps: environment names, flag names, Slurm option names. */
  public static final int MAX_KEY = 256;

  /** Entries of an environment map. */
  public static final int MAX_ENV = 128;
  /** Keys of a flag map (args). */
  public static final int MAX_FLAGS = 256;
  /** Items of one list-valued flag (e.g. cuda-graph-bs: [1, 2, 4, ...]). */
  public static final int MAX_FLAG_VALUES = 1024;
  /** Extra arguments of a list (sidecar.args). */
  public static final int MAX_ARGS = 256;
  /** Jump hosts in front of a cluster's host (spec.ssh.proxyJump). */
  public static final int MAX_JUMPS = 8;
  /** An environment variable's name (secretEnv, the CLI's passphrase variables). */
  public static final int MAX_ENV_NAME = 128;

  /** Short lists and option maps: PATH entries, mounts, cargo features, sbatch directives, srun options. */
  public static final int MAX_ITEMS = 64;

  /**
   * The flag values of one comparison together (every flag map and the sidecar arguments, keys
   * included): the engine flags are written once per worker, so their size is multiplied by the
   * topology.
   */
  public static final int MAX_FLAG_TEXT = 128 * 1024;
  /**
   * The rendered script of one arm, in bytes: the operator renders in its own process, so a spec
   * beyond it is refused rather than rendered into an exhausted heap. Checked by rendering (and
   * counting), not estimated.
   */
  public static final int MAX_SCRIPT_BYTES = 8 * 1024 * 1024;

  /** CEL rule (on a map) that bounds the length of its keys, which no schema keyword can. */
  public static final String KEYS_BOUNDED = "self.all(k, size(k) <= " + MAX_KEY + ")";
  public static final String KEYS_BOUNDED_MESSAGE = "names must be at most " + MAX_KEY + " characters";

  private Limits() {}
}
