package dev.srt.operator.config;

import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.PolicyCatalogSpec;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.SlurmSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules that keep a spec from running anything it did not declare, beyond quoting (which the
 * renderer does for every value): reserved environment names, the work directory's characters
 * (it is part of every path the scripts and the host layer use), git URLs and other values that a
 * program could read as an option, and {@code #SBATCH} values, which sbatch itself splits on
 * whitespace before any shell runs. Messages never echo the offending value.
 */
public final class ShellSafetyRules {
  private static final Pattern WORK_DIR = Pattern.compile("/[A-Za-z0-9._/+-]*");
  private static final Pattern INTERPRETER = Pattern.compile("[A-Za-z0-9._/+][A-Za-z0-9._/+-]*");
  /** https://host[:port]/path and ssh://[user@]host[:port]/path; the host starts with a letter or digit. */
  private static final Pattern GIT_URL = Pattern.compile(
      "(https|ssh)://([A-Za-z0-9_][A-Za-z0-9._~-]*@)?[A-Za-z0-9][A-Za-z0-9.-]*(:[0-9]{1,5})?(/[A-Za-z0-9._~%+=@/-]*)?");
  /** scp-like [user@]host:path (no '/' before the ':', which is how git tells it from a path). */
  private static final Pattern GIT_SCP = Pattern.compile("([A-Za-z0-9_][A-Za-z0-9._-]*@)?[A-Za-z0-9][A-Za-z0-9.-]*:[A-Za-z0-9._~%+=@/][A-Za-z0-9._~%+=@/-]*");
  private static final Pattern GIT_PATH = Pattern.compile("/[A-Za-z0-9._~%+=@/-]*");
  private static final Pattern VERSION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.+!_-]*");
  private static final Pattern CARGO_FEATURE = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_+./-]*");
  private static final Pattern IMAGE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/:@#+-]*");
  /**
   * A value of an {@code #SBATCH} line or an srun option: printable ASCII without whitespace,
   * quotes, backslash or '#' (sbatch splits directive lines on whitespace and reads quotes and
   * comments itself), and without '$', '`' and ';'.
   */
  private static final Pattern SLURM_VALUE = Pattern.compile("[A-Za-z0-9._,:=@/+%^*&|!~?<>()\\[\\]{}-]*");
  private static final Pattern MOUNT_PATH = Pattern.compile("/[A-Za-z0-9._+@/-]*");
  private static final Pattern MOUNT_OPTIONS = Pattern.compile("[A-Za-z0-9+]+");
  private static final Pattern NODE_PLACEHOLDER = Pattern.compile("\\{\\{node:[0-9]+}}");
  private static final Set<String> NUMERIC_KNOBS = Set.of("SRT_PORT_WAIT", "SRT_STOP_GRACE");

  private ShellSafetyRules() {}

  /** The rules of a comparison. */
  public static List<Problem> check(RouterComparison rc) {
    List<Problem> out = new ArrayList<>();
    RouterComparisonSpec spec = rc.getSpec();
    if (spec == null) {
      return out;
    }
    if (spec.model != null && spec.model.servedModelName != null && spec.model.servedModelName.startsWith("-")) {
      out.add(Problem.error("spec.model.servedModelName", "must not start with '-': programs would read it as an option"));
    }
    if (spec.backend != null) {
      env(out, "spec.backend.env", spec.backend.env);
    }
    if (spec.workload != null) {
      env(out, "spec.workload.env", spec.workload.env);
    }
    if (spec.dynamo != null) {
      if (spec.dynamo.version != null && !VERSION.matcher(spec.dynamo.version).matches()) {
        out.add(Problem.error("spec.dynamo.version", "must be a version such as 0.6.1 (letters, digits, '.', '+', '!', '_' and '-')"));
      }
      if (spec.dynamo.source != null) {
        gitUrl(out, "spec.dynamo.source.git", spec.dynamo.source.git);
      }
    }
    if (spec.arms != null) {
      for (int i = 0; i < spec.arms.size(); i++) {
        arm(out, "spec.arms[" + i + "]", spec.arms.get(i));
      }
    }
    return out;
  }

  private static void arm(List<Problem> out, String p, ArmSpec arm) {
    if (arm == null) {
      return;
    }
    if (arm.frontend != null) {
      env(out, p + ".frontend.env", arm.frontend.env);
    }
    PolicyCatalogSpec catalog = arm.dynamo == null ? null : arm.dynamo.policyCatalog;
    if (catalog != null) {
      gitUrl(out, p + ".dynamo.policyCatalog.git", catalog.git);
      if (catalog.features != null) {
        for (int j = 0; j < catalog.features.size(); j++) {
          String f = catalog.features.get(j);
          if (f == null || !CARGO_FEATURE.matcher(f).matches()) {
            out.add(Problem.error(p + ".dynamo.policyCatalog.features[" + j + "]",
                "must be a cargo feature name (letters, digits, '_', '-', '+', '.' and '/'; not starting with '-')"));
          }
        }
      }
    }
  }

  /** The rules of a cluster. */
  public static List<Problem> check(GpuCluster cluster) {
    List<Problem> out = new ArrayList<>();
    GpuClusterSpec s = cluster.getSpec();
    if (s == null) {
      return out;
    }
    if (s.workDir != null && s.workDir.startsWith("/") && (!WORK_DIR.matcher(s.workDir).matches() || hasDotDot(s.workDir))) {
      out.add(Problem.error("spec.workDir", "must be an absolute path of letters, digits, '.', '_', '/', '+' and '-', "
          + "without '..': it is part of every path the scripts use"));
    }
    if (s.python != null && !s.python.isBlank() && !INTERPRETER.matcher(s.python).matches()) {
      out.add(Problem.error("spec.python", "must be an interpreter name or path of letters, digits, '.', '_', '/', '+' and '-', "
          + "not starting with '-'"));
    }
    env(out, "spec.env", s.env);
    placeholdersKnownInTime(out, s);
    if (s.slurm != null) {
      slurm(out, s.slurm);
    }
    if (s.container != null) {
      if (s.container.image != null && !s.container.image.isBlank() && !IMAGE.matcher(s.container.image).matches()) {
        out.add(Problem.error("spec.container.image", "must be an image reference (letters, digits and . _ / : @ # + -, "
            + "starting with a letter or digit)"));
      }
      if (s.container.mounts != null) {
        for (int i = 0; i < s.container.mounts.size(); i++) {
          String m = s.container.mounts.get(i);
          if (m != null && m.startsWith("-")) {
            out.add(Problem.error("spec.container.mounts[" + i + "]", "must not start with '-': it would be read as an option"));
          } else if (m != null && !mount(m)) {
            out.add(Problem.error("spec.container.mounts[" + i + "]", "must be host-path[:container-path[:options]]: absolute paths of "
                + "letters, digits and . _ + @ / - (placeholders allowed), without '..', neither of them / itself (the host's root "
                + "in a container is the whole host), options of letters, digits and '+'"));
          }
        }
      }
    }
    return out;
  }

  /**
   * A bind mount as both runtimes read it: docker's {@code --volume src[:dst[:options]]} and
   * pyxis's comma-separated {@code --container-mounts} (so no ',' and no ':' inside a path).
   */
  private static boolean mount(String m) {
    String[] parts = NODE_PLACEHOLDER.matcher(m.replace("{{run_dir}}", "/run").replace("{{run_id}}", "x").replace("{{host_tag}}", "x"))
        .replaceAll("x").split(":", -1);
    if (parts.length > 3 || (parts.length == 3 && !MOUNT_OPTIONS.matcher(parts[2]).matches())) {
      return false;
    }
    for (int i = 0; i < Math.min(parts.length, 2); i++) {
      if (!MOUNT_PATH.matcher(parts[i]).matches() || hasDotDot(parts[i]) || parts[i].replaceAll("/+$", "").isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /**
   * A script exports the cluster's PATH before it knows the node addresses, and PATH and env
   * before it knows the host tag: a placeholder for either would stop it (set -u).
   */
  private static void placeholdersKnownInTime(List<Problem> out, GpuClusterSpec s) {
    if (s.path != null) {
      for (int i = 0; i < s.path.size(); i++) {
        String entry = s.path.get(i);
        if (entry != null && (entry.contains("{{host_tag}}") || NODE_PLACEHOLDER.matcher(entry).find())) {
          out.add(Problem.error("spec.path[" + i + "]", "cannot use {{host_tag}} or {{node:N}}: PATH is set before they are known"));
        }
      }
    }
    if (s.env != null) {
      s.env.forEach((name, value) -> {
        if (value != null && value.contains("{{host_tag}}")) {
          out.add(Problem.error(FieldPath.field("spec.env", name), "cannot use {{host_tag}}: the environment is exported before it is known"));
        }
      });
    }
  }

  private static void slurm(List<Problem> out, SlurmSpec s) {
    slurmValue(out, "spec.slurm.partition", s.partition);
    slurmValue(out, "spec.slurm.account", s.account);
    if (s.sbatchDirectives != null) {
      s.sbatchDirectives.forEach((k, v) -> slurmValue(out, FieldPath.field("spec.slurm.sbatchDirectives", k), v));
    }
    if (s.srunOptions != null) {
      s.srunOptions.forEach((k, v) -> slurmValue(out, FieldPath.field("spec.slurm.srunOptions", k), v));
    }
  }

  private static void slurmValue(List<Problem> out, String p, String value) {
    if (value != null && !SLURM_VALUE.matcher(value).matches()) {
      out.add(Problem.error(p, "must be one word of printable ASCII without whitespace, quotes, '\\', '#', '$', '`' or ';' "
          + "(sbatch splits #SBATCH lines on whitespace)"));
    }
  }

  /** Reserved names ({@link ReservedEnvNames}) and the values of srt-operator's numeric knobs. */
  private static void env(List<Problem> out, String p, Map<String, String> env) {
    if (env == null) {
      return;
    }
    env.forEach((name, value) -> {
      String reason = ReservedEnvNames.reason(name);
      if (reason != null) {
        out.add(Problem.error(FieldPath.field(p, name), "is reserved: " + reason));
      } else if (NUMERIC_KNOBS.contains(name) && value != null && !value.matches("[0-9]{1,6}")) {
        out.add(Problem.error(FieldPath.field(p, name), "must be a whole number of seconds"));
      }
    });
  }

  /** https://, ssh://, scp-like user@host:path, or an absolute path; never an option or a transport such as ext::. */
  private static void gitUrl(List<Problem> out, String p, String url) {
    if (url == null) {
      return;
    }
    boolean ok = url.contains("://") ? GIT_URL.matcher(url).matches()
        : url.startsWith("/") ? GIT_PATH.matcher(url).matches() && !hasDotDot(url)
        : GIT_SCP.matcher(url).matches();
    if (!ok) {
      out.add(Problem.error(p, "must be an https:// or ssh:// URL, user@host:path or an absolute path "
          + "(letters, digits and . _ ~ % + = @ / -; no other transport)"));
    }
  }

  private static boolean hasDotDot(String path) {
    return List.of(path.split("/")).contains("..");
  }
}
