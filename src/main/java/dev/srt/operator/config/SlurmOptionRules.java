package dev.srt.operator.config;

import dev.srt.operator.api.SlurmSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rules of a GpuCluster's {@code spec.slurm.sbatchDirectives} and {@code srunOptions} beyond
 * their characters ({@link ShellSafetyRules}): an option srt-operator sets itself, or one that would
 * take the run's environment, files or programs out of the rules every other field follows, is
 * refused, by its name or any prefix of it that sbatch and srun would expand (getopt_long takes an
 * unambiguous prefix of a long option); and a value passes the rules of the rest of the spec: no
 * reserved environment name ({@link ReservedEnvNames}) in a {@code NAME=value} part, and a path is
 * absolute, without {@code ..}.
 */
final class SlurmOptionRules {
  static final String SBATCH = "sbatch";
  static final String SRUN = "srun";

  private static final String ENVIRONMENT = "the processes' environment comes from env and secretEnv, whose names are checked "
      + "(an export list could set BASH_ENV or LD_PRELOAD)";
  private static final String LOGS = "srt-operator writes the job's output to logs/script.log in the run directory and each "
      + "process's to its own log there";
  private static final String RUN_DIRECTORY = "every step runs in the run directory";
  private static final String NAMES = "srt-operator names the job srt-<comparison>-<arm> and each step after its process: "
      + "that is how a run's job and processes are found";
  private static final String TOPOLOGY = "srt-operator sets it from spec.resources and the GpuCluster's fields (partition, "
      + "account, timeLimit, gres)";
  private static final String PROGRAMS = "Slurm would run a program the plan does not declare";
  private static final String CONTAINER = "srt-operator sets the container from spec.container";

  /** The sbatch options a spec may not set, each with the reason. */
  static final Map<String, String> SBATCH_MANAGED = sbatch();
  /** The srun options a spec may not set, each with the reason. */
  static final Map<String, String> SRUN_MANAGED = srun();

  private static final Pattern ASSIGNMENT = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=.*");

  private SlurmOptionRules() {}

  private static Map<String, String> sbatch() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String o : List.of("export", "export-file", "get-user-env")) {
      m.put(o, ENVIRONMENT);
    }
    for (String o : List.of("output", "error", "input", "open-mode")) {
      m.put(o, LOGS);
    }
    m.put("chdir", RUN_DIRECTORY);
    m.put("job-name", NAMES);
    for (String o : List.of("nodes", "ntasks-per-node", "time", "partition", "account", "gres")) {
      m.put(o, TOPOLOGY);
    }
    for (String o : List.of("wrap", "container")) {
      m.put(o, PROGRAMS);
    }
    containerOptions(m);
    return Map.copyOf(m);
  }

  private static Map<String, String> srun() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("export", ENVIRONMENT);
    for (String o : List.of("output", "error", "input", "open-mode")) {
      m.put(o, LOGS);
    }
    m.put("chdir", RUN_DIRECTORY);
    m.put("job-name", NAMES);
    for (String o : List.of("nodes", "ntasks", "relative", "overlap", "jobid")) {
      m.put(o, TOPOLOGY);
    }
    for (String o : List.of("prolog", "epilog", "task-prolog", "task-epilog", "multi-prog", "bcast", "container")) {
      m.put(o, PROGRAMS);
    }
    containerOptions(m);
    return Map.copyOf(m);
  }

  /** pyxis's options: the image, its mounts, its working directory and user are spec.container's. */
  private static void containerOptions(Map<String, String> m) {
    for (String o : List.of("container-image", "container-mounts", "container-workdir", "container-name", "container-save",
        "container-mount-home", "no-container-mount-home", "container-remap-root", "no-container-remap-root",
        "container-entrypoint", "no-container-entrypoint", "container-writable", "container-readonly")) {
      m.put(o, CONTAINER);
    }
  }

  static void check(List<Problem> out, SlurmSpec s) {
    options(out, "spec.slurm.sbatchDirectives", s.sbatchDirectives, SBATCH, SBATCH_MANAGED);
    options(out, "spec.slurm.srunOptions", s.srunOptions, SRUN, SRUN_MANAGED);
  }

  private static void options(List<Problem> out, String p, Map<String, String> options, String program, Map<String, String> managed) {
    if (options == null) {
      return;
    }
    options.forEach((key, value) -> {
      if (!Rules.FLAG_NAME.matcher(key).matches()) {
        return; // not an option name at all (Rules.directives)
      }
      String fp = FieldPath.field(p, key);
      String refused = managedOption(program, key, managed);
      if (refused != null) {
        String prefix = refused.equals(key) ? "" : "--" + key + " is a prefix of --" + refused + ", which " + program
            + " takes it for when no other option starts with it (getopt expands an unambiguous prefix); ";
        out.add(Problem.error(fp, prefix + "--" + refused + " is not for the spec to set: " + managed.get(refused)));
        return;
      }
      value(out, fp, key, value);
    });
  }

  /**
   * The managed option {@code key} selects or may select: itself, or one it is a prefix of (when
   * it is not itself an option sbatch or srun knows by that whole name); null when none.
   */
  private static String managedOption(String program, String key, Map<String, String> managed) {
    FlagVocabulary.Match m = FlagVocabulary.match(program, "--" + key);
    if (m.kind() == FlagVocabulary.Match.Kind.EXACT) {
      String option = m.option().substring(2);
      return managed.containsKey(option) ? option : null;
    }
    return managed.keySet().stream().filter(o -> o.startsWith(key)).sorted().findFirst().orElse(null);
  }

  /** A value: no reserved environment name assigned in it, and its paths absolute without '..'. */
  private static void value(List<Problem> out, String p, String key, String value) {
    if (value == null) {
      return;
    }
    for (String part : value.split("[,]")) {
      var assignment = ASSIGNMENT.matcher(part);
      String name = assignment.matches() ? assignment.group(1) : key.equals("container-env") ? part : null;
      String reason = name == null ? null : ReservedEnvNames.reason(name);
      if (reason != null) {
        out.add(Problem.error(p, "names " + name + ", which is reserved: " + reason));
        return;
      }
      for (String word : part.split("[:=]")) {
        if (word.contains("/") && (!word.startsWith("/") || List.of(word.split("/")).contains(".."))) {
          out.add(Problem.error(p, "a path in an option must be absolute, without '..'"));
          return;
        }
      }
    }
  }
}
