package dev.srt.operator.api;

import io.fabric8.generator.annotation.Default;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "(has(self.transport) && self.transport == 'local') || has(self.ssh)", message = "transport: ssh needs the ssh block", fieldPath = ".ssh")
@ValidationRule(value = "!has(self.slurm) || self.mode == 'slurm'", message = "slurm settings are only allowed with mode: slurm", fieldPath = ".slurm")
@ValidationRule(value = "self.workDir.startsWith('/')", message = "must be an absolute host path", fieldPath = ".workDir")
@ValidationRule(value = "!has(self.pollInterval) || self.pollInterval.matches('^([0-9]+(ms|s|m|h))+$')", message = "must be a duration such as 5s", fieldPath = ".pollInterval")
@ValidationRule(value = "!has(self.container) || !has(self.container.runtime) || self.container.runtime == 'none' || (self.container.runtime == 'pyxis' && self.mode == 'slurm') || (self.container.runtime == 'docker' && self.mode == 'direct')",
    message = "container.runtime pyxis needs mode: slurm, docker needs mode: direct", fieldPath = ".container.runtime")
@ValidationRule(value = "!has(self.path) || self.path.all(p, p.startsWith('/'))", message = "every entry must be an absolute host path", fieldPath = ".path")
@ValidationRule(value = "!has(self.secretEnv) || self.secretEnv.all(a, self.secretEnv.exists_one(b, b.name == a.name))",
    message = "secretEnv names must be unique", fieldPath = ".secretEnv")
@ValidationRule(value = "!has(self.secretEnv) || !has(self.env) || self.secretEnv.all(s, !(s.name in self.env))",
    message = "a secretEnv name must not also be set in env", fieldPath = ".secretEnv")
public class GpuClusterSpec {
  /**
   * slurm: submit each arm with sbatch on a login node. direct: run each arm as a detached bash
   * script on one GPU host.
   */
  @Required
  @Size(max = Limits.MAX_WORD)
  @OneOf(Mode.class)
  public String mode;

  /** {@link #mode}, parsed; null when it names no mode (the validator says so). */
  @com.fasterxml.jackson.annotation.JsonIgnore
  public Mode mode() {
    return Mode.of(mode);
  }

  /**
   * ssh (default): reach the host over SSH. local: run on the machine the operator or CLI runs on.
   * The operator refuses local unless it was started with --allow-local-transport: scripts would
   * run inside the operator's own pod, with its ServiceAccount.
   */
  @Size(max = Limits.MAX_WORD)
  @OneOf(TransportKind.class)
  @Default("ssh")
  public String transport;

  /** SSH connection; required with transport: ssh. */
  public SshSpec ssh;

  /**
   * Absolute directory on the host under which run directories
   * <namespace>/<comparison>/<arm>/<runId>/ and build caches live.
   */
  @Required
  @Size(max = Limits.MAX_PATH)
  public String workDir;

  /** GPUs per node, at most 16. Default 8. */
  @Min(1)
  @Max(Limits.MAX_GPUS_PER_NODE)
  @Default("8")
  public Integer gpusPerNode;

  /** GPU model, informational (e.g. h100). */
  @Size(max = Limits.MAX_WORD)
  public String gpuType;

  /** Interpreter used for python -m modules on the host. Default python3. */
  @Size(max = Limits.MAX_PATH)
  @Default("python3")
  public String python;

  /** Directories prepended to PATH in every rendered script. */
  @Size(max = Limits.MAX_ITEMS)
  public List<@Size(max = Limits.MAX_PATH) String> path = new ArrayList<>();

  /** Environment exported by every rendered script. */
  @Size(max = Limits.MAX_ENV)
  @ValidationRule(value = Limits.KEYS_BOUNDED, message = Limits.KEYS_BOUNDED_MESSAGE)
  public Map<String, @Size(max = Limits.MAX_TEXT) String> env = new LinkedHashMap<>();

  /**
   * Environment variables of every run whose values come from Secrets in the GpuCluster's
   * namespace (e.g. HF_TOKEN). The operator reads them when it submits a run and writes them to
   * the run directory's secret.env (mode 0600), which the script sources: the values never appear
   * in the spec, the script, a ConfigMap, the status or a command line. The operator needs get on
   * these Secrets.
   */
  @Size(max = 32)
  public List<SecretEnvVar> secretEnv;

  /** Slurm settings; only with mode: slurm. */
  public SlurmSpec slurm;

  /**
   * Container runtime wrapping the processes: none (default), pyxis (slurm) or docker (direct).
   */
  public ContainerSpec container;

  /**
   * etcd and nats-server for Dynamo arms: their executables (default on PATH, checked before
   * anything is built) and ports (defaults 2379, 2380, 4222 and 8222; move them on a shared host).
   */
  public InfraSpec infra;

  /** How often running arms are observed, e.g. 5s. Default 5s (slower once an arm is stable). */
  @Size(max = Limits.MAX_WORD)
  @Default("5s")
  public String pollInterval;

  /**
   * Lets RouterComparisons on this cluster use workload.tool: custom, a shell command of the
   * comparison's author run on the host as the SSH user. Default false: the operator refuses such
   * comparisons (the CLI, run by that user on their own account, does not ask).
   */
  @Default("false")
  public Boolean allowCustomWorkloads;

  /** {@link #infra}, or the defaults. */
  @JsonIgnore
  public InfraSpec infraOrDefault() {
    return infra == null ? new InfraSpec() : infra;
  }

  @JsonIgnore
  public boolean isLocal() {
    return "local".equals(transport);
  }
}
