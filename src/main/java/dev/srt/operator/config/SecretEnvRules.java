package dev.srt.operator.config;

import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.SecretEnvVar;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rules of {@code spec.secretEnv} on both kinds: each entry names a valid, unreserved variable
 * once (across the GpuCluster and the comparison), no plain env map sets it too (one variable, one
 * value, and no doubt which one a process sees), and it references a Secret key by name. Values are
 * never seen here: they are read only when a run is submitted.
 */
public final class SecretEnvRules {
  /** At most this many secret variables per object (the CRDs' maxItems). */
  public static final int MAX_ENTRIES = 32;
  /** Longest variable name (the CRDs' maxLength). */
  public static final int MAX_NAME_LENGTH = 128;

  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  /** A Secret's name: a DNS subdomain. */
  private static final Pattern SECRET_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  /** A key of a Secret's data. */
  private static final Pattern SECRET_KEY = Pattern.compile("[-._a-zA-Z0-9]+");

  private SecretEnvRules() {}

  /** The rules of a GpuCluster's {@code spec.secretEnv}. */
  public static void cluster(List<Problem> out, GpuClusterSpec s) {
    entries(out, "spec.secretEnv", s.secretEnv);
    Map<String, String> plain = new LinkedHashMap<>();
    putKeys(plain, s.env, "spec.env");
    conflicts(out, "spec.secretEnv", s.secretEnv, plain, null);
  }

  /**
   * The rules of a comparison's {@code spec.secretEnv}; with its {@code cluster} (may be null), also
   * that no name is the cluster's too.
   */
  public static void comparison(List<Problem> out, RouterComparisonSpec spec, GpuCluster cluster) {
    entries(out, "spec.secretEnv", spec.secretEnv);
    Map<String, String> plain = comparisonEnvKeys(spec);
    GpuClusterSpec c = cluster == null ? null : cluster.getSpec();
    String clusterName = cluster == null || cluster.getMetadata() == null ? "" : " " + cluster.getMetadata().getName();
    Map<String, String> clusterNames = new HashMap<>();
    if (c != null) {
      putKeys(plain, c.env, "the GpuCluster" + clusterName + "'s spec.env");
      names(c.secretEnv).forEach(n -> clusterNames.put(n, "the GpuCluster" + clusterName + "'s spec.secretEnv"));
    }
    conflicts(out, "spec.secretEnv", spec.secretEnv, plain, clusterNames);
    if (c != null) {
      // The cluster's secret names against this comparison's plain env maps, reported where the comparison sets them.
      Map<String, String> comparisonPlain = comparisonEnvKeys(spec);
      for (String n : names(c.secretEnv)) {
        String where = comparisonPlain.get(n);
        if (where != null) {
          out.add(Problem.error(FieldPath.field(where, n), "is also a secretEnv of the GpuCluster" + clusterName + "; give it one value"));
        }
      }
    }
  }

  private static void entries(List<Problem> out, String p, List<SecretEnvVar> list) {
    if (list == null) {
      return;
    }
    if (list.size() > MAX_ENTRIES) {
      out.add(Problem.error(p, "at most " + MAX_ENTRIES + " entries; found " + list.size()));
    }
    Map<String, Integer> first = new HashMap<>();
    for (int i = 0; i < list.size(); i++) {
      String e = FieldPath.index(p, i);
      SecretEnvVar v = list.get(i);
      if (v == null) {
        out.add(Problem.error(e, "is empty"));
        continue;
      }
      name(out, e + ".name", v.name);
      if (v.name != null && !v.name.isBlank()) {
        Integer earlier = first.putIfAbsent(v.name, i);
        if (earlier != null) {
          out.add(Problem.error(e + ".name", "duplicate secretEnv name " + v.name + " (also " + FieldPath.index(p, earlier) + ")"));
        }
      }
      if (v.secretKeyRef == null) {
        out.add(Problem.error(e + ".secretKeyRef", "is required: the Secret and key that hold the value"));
        continue;
      }
      String ref = e + ".secretKeyRef";
      if (blank(v.secretKeyRef.name)) {
        out.add(Problem.error(ref + ".name", "is required"));
      } else if (v.secretKeyRef.name.length() > 253 || !SECRET_NAME.matcher(v.secretKeyRef.name).matches()) {
        out.add(Problem.error(ref + ".name", "is not a Secret name (lower-case letters, digits, '-' and '.'; at most 253 characters)"));
      }
      if (blank(v.secretKeyRef.key)) {
        out.add(Problem.error(ref + ".key", "is required"));
      } else if (v.secretKeyRef.key.length() > 253 || !SECRET_KEY.matcher(v.secretKeyRef.key).matches()) {
        out.add(Problem.error(ref + ".key", "is not a Secret key (letters, digits, '-', '_' and '.'; at most 253 characters)"));
      }
    }
  }

  private static void name(List<Problem> out, String p, String name) {
    if (blank(name)) {
      out.add(Problem.error(p, "is required"));
    } else if (name.length() > MAX_NAME_LENGTH) {
      out.add(Problem.error(p, "is longer than " + MAX_NAME_LENGTH + " characters"));
    } else if (!ENV_NAME.matcher(name).matches()) {
      out.add(Problem.error(p, "is not a valid environment variable name (letters, digits and '_', not starting with a digit)"));
    } else {
      String reason = ReservedEnvNames.reason(name);
      if (reason != null) {
        out.add(Problem.error(p, "is reserved: " + reason));
      }
    }
  }

  /** A secret name also set by a plain env map or by the other object's secretEnv. */
  private static void conflicts(List<Problem> out, String p, List<SecretEnvVar> list, Map<String, String> plain,
      Map<String, String> otherSecrets) {
    if (list == null) {
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      SecretEnvVar v = list.get(i);
      if (v == null || blank(v.name)) {
        continue;
      }
      String where = plain.get(v.name);
      if (where != null) {
        out.add(Problem.error(FieldPath.index(p, i) + ".name", v.name + " is also set in " + where + "; give it one value"));
      }
      if (otherSecrets != null && otherSecrets.containsKey(v.name)) {
        out.add(Problem.error(FieldPath.index(p, i) + ".name", "duplicate secretEnv name " + v.name + ": also in " + otherSecrets.get(v.name)));
      }
    }
  }

  /** Every plain env key of a comparison, with the map that sets it (the first one). */
  private static Map<String, String> comparisonEnvKeys(RouterComparisonSpec spec) {
    Map<String, String> keys = new LinkedHashMap<>();
    if (spec.backend != null) {
      putKeys(keys, spec.backend.env, "spec.backend.env");
    }
    if (spec.workload != null) {
      putKeys(keys, spec.workload.env, "spec.workload.env");
    }
    if (spec.arms != null) {
      for (int i = 0; i < spec.arms.size(); i++) {
        ArmSpec arm = spec.arms.get(i);
        if (arm != null && arm.frontend != null) {
          putKeys(keys, arm.frontend.env, FieldPath.index("spec.arms", i) + ".frontend.env");
        }
      }
    }
    return keys;
  }

  private static void putKeys(Map<String, String> into, Map<String, String> env, String where) {
    if (env != null) {
      env.keySet().forEach(k -> into.putIfAbsent(k, where));
    }
  }

  private static List<String> names(List<SecretEnvVar> list) {
    return list == null ? List.of() : list.stream().filter(v -> v != null && !blank(v.name)).map(v -> v.name).toList();
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
