package dev.srt.operator.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Environment variable names a spec may not set, in any of its env maps. Each one either makes a
 * shell, the dynamic loader or git run code of its choosing (bash expands {@code BASH_ENV} and
 * {@code PS4}, so their values run even without a file), changes how the scripts parse and find
 * commands, or is one the scripts, Slurm or srt-operator set themselves. The list is documented
 * in docs/config-reference.md ("Reserved environment names"); keep the two in step.
 */
public final class ReservedEnvNames {
  private static final String SHELL_RUNS_IT = "bash expands or runs it in every shell of the run";
  private static final String SHELL_PARSING = "it changes how bash splits words and finds commands";
  private static final String BASH_OWN = "it is one of bash's own variables";
  private static final String LOADER = "the dynamic loader reads it: it chooses code every program of the run loads";
  private static final String GIT = "git runs a program it names, or takes settings from it, in the build stages";
  private static final String SCRIPT_OWN = "the run's scripts set it themselves";
  private static final String SSH = "it makes bash read ~/.bashrc in every shell it starts";

  private static final Map<String, String> NAMES = exactNames();

  /** Reserved prefixes, each with its reason (no two overlap). */
  private static final Map<String, String> PREFIXES = namePrefixes();

  /** srt-operator's own knobs, which the scripts read (as numbers only) or the emulated host uses. */
  private static final Set<String> ALLOWED = Set.of("SRT_PORT_WAIT", "SRT_STOP_GRACE");
  private static final String ALLOWED_PREFIX = "SRT_EMULATOR_";

  private ReservedEnvNames() {}

  private static Map<String, String> exactNames() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String n : List.of("BASH_ENV", "ENV", "PS1", "PS2", "PS3", "PS4", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS")) {
      m.put(n, SHELL_RUNS_IT);
    }
    for (String n : List.of("IFS", "PATH", "CDPATH", "GLOBIGNORE", "EXECIGNORE", "POSIXLY_CORRECT", "FUNCNEST", "TMOUT")) {
      m.put(n, SHELL_PARSING);
    }
    for (String n : List.of("PWD", "OLDPWD", "SHLVL", "UID", "EUID", "PPID", "GROUPS", "RANDOM", "SRANDOM", "SECONDS",
        "LINENO", "OPTIND", "OPTARG", "OPTERR", "REPLY", "DIRSTACK", "PIPESTATUS", "FUNCNAME", "EPOCHSECONDS",
        "EPOCHREALTIME", "HISTCMD", "HISTFILE", "INPUTRC")) {
      m.put(n, BASH_OWN);
    }
    m.put("HOME", "the run's tools (git, pip, cargo) read their configuration from it; set tool-specific variables such as HF_HOME instead");
    for (String n : List.of("GIT_SSH", "GIT_SSH_COMMAND", "GIT_PROXY_COMMAND", "GIT_EXEC_PATH", "GIT_ASKPASS", "GIT_TEMPLATE_DIR",
        "GIT_EXTERNAL_DIFF", "GIT_DIR", "GIT_WORK_TREE")) {
      m.put(n, GIT);
    }
    for (String n : List.of("SSH_CLIENT", "SSH2_CLIENT", "SSH_CONNECTION")) {
      m.put(n, SSH);
    }
    m.put("RUN_DIR", SCRIPT_OWN);
    m.put("AIPERF_ARTIFACT_DIR", SCRIPT_OWN + " (a custom workload's AIPerf writes there, and the results are read from there)");
    m.put("CUDA_VISIBLE_DEVICES", "srt-operator gives each worker its GPUs (and Slurm sets it in a job): "
        + "another value would put workers on other GPUs than the topology says");
    return Map.copyOf(m);
  }

  private static Map<String, String> namePrefixes() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("BASH_", "bash owns these names (BASH_ENV, BASH_FUNC_*, BASH_XTRACEFD, ...)");
    m.put("LD_", LOADER);
    m.put("GIT_CONFIG", GIT);
    m.put("SRT_", SCRIPT_OWN + " (srt-operator's names; only SRT_PORT_WAIT, SRT_STOP_GRACE and SRT_EMULATOR_* may be set)");
    m.put("SLURM_", "Slurm sets it in a job, and srun reads it as an option; use spec.slurm.srunOptions");
    m.put("SRUN_", "srun reads it as an option; use spec.slurm.srunOptions");
    return Map.copyOf(m);
  }

  /** Why {@code name} may not be set, or null when it may. */
  public static String reason(String name) {
    if (name == null || ALLOWED.contains(name) || name.startsWith(ALLOWED_PREFIX)) {
      return null;
    }
    String exact = NAMES.get(name);
    if (exact != null) {
      return exact;
    }
    return PREFIXES.entrySet().stream().filter(e -> name.startsWith(e.getKey())).map(Map.Entry::getValue).findFirst().orElse(null);
  }

  /** The reserved names (exact). */
  public static Set<String> names() {
    return NAMES.keySet();
  }

  /** The reserved prefixes. */
  public static Set<String> prefixes() {
    return PREFIXES.keySet();
  }
}
