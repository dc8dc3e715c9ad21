package dev.srt.operator.config;

import dev.srt.operator.base.Mappers;
import static dev.srt.operator.api.Limits.MAX_ARGS;
import static dev.srt.operator.api.Limits.MAX_ENV;
import static dev.srt.operator.api.Limits.MAX_FLAGS;
import static dev.srt.operator.api.Limits.MAX_FLAG_TEXT;
import static dev.srt.operator.api.Limits.MAX_FLAG_VALUES;
import static dev.srt.operator.api.Limits.MAX_GPUS_PER_NODE;
import static dev.srt.operator.api.Limits.MAX_GPUS_PER_WORKER;
import static dev.srt.operator.api.Limits.MAX_ITEMS;
import static dev.srt.operator.api.Limits.MAX_KEY;
import static dev.srt.operator.api.Limits.MAX_LONG_TEXT;
import static dev.srt.operator.api.Limits.MAX_MOUNT;
import static dev.srt.operator.api.Limits.MAX_NAME;
import static dev.srt.operator.api.Limits.MAX_NODES;
import static dev.srt.operator.api.Limits.MAX_PATH;
import static dev.srt.operator.api.Limits.MAX_PORT;
import static dev.srt.operator.api.Limits.MAX_SEED;
import static dev.srt.operator.api.Limits.MAX_TEXT;
import static dev.srt.operator.api.Limits.MAX_WORD;
import static dev.srt.operator.api.Limits.MAX_WORKERS;
import static dev.srt.operator.api.Limits.MIN_PORT;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.srt.operator.api.ArmSpec;
import dev.srt.operator.api.DynamoSpec;
import dev.srt.operator.api.FrontendSpec;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.GpuClusterSpec;
import dev.srt.operator.api.PolicyCatalogSpec;
import dev.srt.operator.api.ResourcesSpec;
import dev.srt.operator.api.RouterComparisonSpec;
import dev.srt.operator.api.SecretKeyRef;
import dev.srt.operator.api.Limits;
import dev.srt.operator.api.SshJumpSpec;
import dev.srt.operator.api.SshSpec;
import dev.srt.operator.api.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The bounds of {@link dev.srt.operator.api.Limits} on every count, size, string and port of both
 * kinds, each problem with its field path. The CRD schema carries the same numbers; these rules
 * hold where it is not enforced (the CLI, a mock API server), so that an object beyond them is
 * rejected before anything is planned: planning {@code aggWorkers: 160000000} would exhaust the
 * operator's memory and restart it forever.
 *
 * <p>Left to {@link Validator}: the fields whose own rule already bounds them (enumerated values,
 * DNS labels, 40-hex commits, the arm count, the SSH port).
 */
public final class BoundsRules {
  private BoundsRules() {}

  /** Bounds of a comparison; {@code cluster} (may be null) gives the GPUs per node of the port plan. */
  public static List<Problem> check(RouterComparisonSpec spec, GpuCluster cluster) {
    List<Problem> out = new ArrayList<>();
    if (spec.clusterRef != null) {
      text(out, "spec.clusterRef.name", spec.clusterRef.name, MAX_NAME);
    }
    if (spec.model != null) {
      text(out, "spec.model.path", spec.model.path, MAX_PATH);
      text(out, "spec.model.servedModelName", spec.model.servedModelName, MAX_TEXT);
      text(out, "spec.model.tokenizerPath", spec.model.tokenizerPath, MAX_PATH);
    }
    if (spec.resources != null) {
      resources(out, spec.resources);
    }
    if (spec.backend != null) {
      flags(out, "spec.backend.args", spec.backend.args);
      flags(out, "spec.backend.prefillArgs", spec.backend.prefillArgs);
      flags(out, "spec.backend.decodeArgs", spec.backend.decodeArgs);
      env(out, "spec.backend.env", spec.backend.env);
      if (spec.backend.kvEvents != null) {
        text(out, "spec.backend.kvEvents.topic", spec.backend.kvEvents.topic, MAX_TEXT);
      }
    }
    if (spec.dynamo != null) {
      dynamo(out, spec.dynamo, spec.resources, cluster);
    }
    if (spec.healthCheck != null) {
      text(out, "spec.healthCheck.timeout", spec.healthCheck.timeout, MAX_WORD);
      text(out, "spec.healthCheck.interval", spec.healthCheck.interval, MAX_WORD);
    }
    if (spec.workload != null) {
      workload(out, spec.workload);
    }
    if (spec.arms != null) {
      for (int i = 0; i < spec.arms.size(); i++) {
        if (spec.arms.get(i) != null) {
          arm(out, FieldPath.index("spec.arms", i), spec.arms.get(i));
        }
      }
    }
    flagText(out, spec);
    return out;
  }

  /**
   * All flag values of the comparison together, keys included ({@link dev.srt.operator.api.Limits#MAX_FLAG_TEXT}),
   * reported at the largest flag map.
   */
  private static void flagText(List<Problem> out, RouterComparisonSpec spec) {
    Map<String, Long> sizes = new java.util.LinkedHashMap<>();
    if (spec.backend != null) {
      sizes.put("spec.backend.args", flagText(spec.backend.args));
      sizes.put("spec.backend.prefillArgs", flagText(spec.backend.prefillArgs));
      sizes.put("spec.backend.decodeArgs", flagText(spec.backend.decodeArgs));
    }
    if (spec.workload != null) {
      sizes.put("spec.workload.args", flagText(spec.workload.args));
    }
    if (spec.arms != null) {
      for (int i = 0; i < spec.arms.size(); i++) {
        ArmSpec arm = spec.arms.get(i);
        if (arm != null && arm.frontend != null) {
          sizes.put(FieldPath.index("spec.arms", i) + ".frontend.args", flagText(arm.frontend.args));
        }
        if (arm != null && arm.dynamo != null && arm.dynamo.sidecar != null && arm.dynamo.sidecar.args != null) {
          sizes.put(FieldPath.index("spec.arms", i) + ".dynamo.sidecar.args",
              arm.dynamo.sidecar.args.stream().mapToLong(a -> a == null ? 0 : a.length()).sum());
        }
      }
    }
    long total = sizes.values().stream().mapToLong(Long::longValue).sum();
    if (total > MAX_FLAG_TEXT) {
      Map.Entry<String, Long> largest = sizes.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
      out.add(Problem.error(largest.getKey(), "the flag values of this comparison come to " + total + " characters, more than "
          + MAX_FLAG_TEXT + " in all (this map has " + largest.getValue() + "): engine flags are written once per worker"));
    }
  }

  /** A flag map's keys and values as they are written (a map value as its JSON). */
  private static long flagText(Map<String, Object> args) {
    if (args == null) {
      return 0;
    }
    long n = 0;
    for (Map.Entry<String, Object> e : args.entrySet()) {
      n += e.getKey().length();
      Object v = e.getValue();
      if (v instanceof List<?> items) {
        n += items.stream().mapToLong(item -> String.valueOf(item).length()).sum();
      } else if (v instanceof Map<?, ?>) {
        n += json(v).length();
      } else if (v != null) {
        n += String.valueOf(v).length();
      }
    }
    return n;
  }

  /** Bounds of a cluster. */
  public static List<Problem> check(GpuClusterSpec s) {
    List<Problem> out = new ArrayList<>();
    if (s.ssh != null) {
      ssh(out, s.ssh);
    }
    text(out, "spec.workDir", s.workDir, MAX_PATH);
    count(out, "spec.gpusPerNode", s.gpusPerNode, MAX_GPUS_PER_NODE, "GPUs per node");
    text(out, "spec.gpuType", s.gpuType, MAX_WORD);
    text(out, "spec.python", s.python, MAX_PATH);
    list(out, "spec.path", s.path, MAX_ITEMS, MAX_PATH);
    env(out, "spec.env", s.env);
    text(out, "spec.pollInterval", s.pollInterval, MAX_WORD);
    if (s.slurm != null) {
      text(out, "spec.slurm.partition", s.slurm.partition, MAX_NAME);
      text(out, "spec.slurm.account", s.slurm.account, MAX_NAME);
      text(out, "spec.slurm.timeLimit", s.slurm.timeLimit, MAX_WORD);
      map(out, "spec.slurm.sbatchDirectives", s.slurm.sbatchDirectives, MAX_ITEMS, MAX_TEXT);
      map(out, "spec.slurm.srunOptions", s.slurm.srunOptions, MAX_ITEMS, MAX_TEXT);
    }
    if (s.infra != null) {
      text(out, "spec.infra.etcd", s.infra.etcd, MAX_PATH);
      text(out, "spec.infra.natsServer", s.infra.natsServer, MAX_PATH);
    }
    if (s.container != null) {
      text(out, "spec.container.image", s.container.image, MAX_TEXT);
      list(out, "spec.container.mounts", s.container.mounts, MAX_ITEMS, MAX_MOUNT);
    }
    return out;
  }

  private static void resources(List<Problem> out, ResourcesSpec r) {
    String p = "spec.resources.";
    count(out, p + "aggNodes", r.aggNodes, MAX_NODES, "nodes of one run");
    count(out, p + "aggWorkers", r.aggWorkers, MAX_WORKERS, "workers of one run");
    count(out, p + "gpusPerWorker", r.gpusPerWorker, MAX_GPUS_PER_WORKER, "GPUs of one worker");
    count(out, p + "prefillNodes", r.prefillNodes, MAX_NODES, "nodes of one run");
    count(out, p + "decodeNodes", r.decodeNodes, MAX_NODES, "nodes of one run");
    count(out, p + "prefillWorkers", r.prefillWorkers, MAX_WORKERS, "workers of one run");
    count(out, p + "decodeWorkers", r.decodeWorkers, MAX_WORKERS, "workers of one run");
    count(out, p + "gpusPerPrefill", r.gpusPerPrefill, MAX_GPUS_PER_WORKER, "GPUs of one worker");
    count(out, p + "gpusPerDecode", r.gpusPerDecode, MAX_GPUS_PER_WORKER, "GPUs of one worker");
  }

  private static void dynamo(List<Problem> out, DynamoSpec d, ResourcesSpec r, GpuCluster cluster) {
    text(out, "spec.dynamo.version", d.version, MAX_WORD);
    text(out, "spec.dynamo.wheel", d.wheel, MAX_PATH);
    if (d.source != null) {
      text(out, "spec.dynamo.source.git", d.source.git, MAX_TEXT);
    }
    text(out, "spec.dynamo.sidecarStartupTimeout", d.sidecarStartupTimeout, MAX_WORD);
    if (d.sidecarPort != null && r != null) {
      sidecarPorts(out, d.sidecarPort, r, Validator.gpusPerNode(cluster));
    }
  }

  /**
   * The sidecar gRPC range is the one range of the port table a spec chooses: it must not meet the
   * others on a node. The out-of-range case is Validator's (and the CRD's) rule; the bounds of the
   * counts come first, so a topology beyond them is not examined.
   */
  private static void sidecarPorts(List<Problem> out, int base, ResourcesSpec r, int gpusPerNode) {
    if (gpusPerNode < 1 || gpusPerNode > MAX_GPUS_PER_NODE || !countsWithinBounds(r)) {
      return;
    }
    long workers = WorkerFit.totalWorkers(r);
    if (workers < 1 || workers > 2L * MAX_WORKERS || base < MIN_PORT || base + workers - 1 > MAX_PORT) {
      return;
    }
    List<PortTable.Block> fixed;
    if (r.disaggregated()) {
      if (r.prefillWorkers == null || r.decodeWorkers == null || (r.prefillNodes == null) != (r.decodeNodes == null)) {
        return;
      }
      DisaggregatedFit fit = DisaggregatedFit.of(r, gpusPerNode);
      fixed = PortTable.fixed(workers, fit.workersPerNode(), fit.prefillPerNode());
    } else if (r.aggWorkers != null) {
      fixed = PortTable.fixed(workers, Math.min(workers, WorkerFit.of(r, gpusPerNode).workersPerNode()));
    } else {
      return;
    }
    PortTable.Block sidecar = PortTable.sidecar(base, workers);
    for (PortTable.Block block : fixed) {
      if (sidecar.overlaps(block)) {
        out.add(Problem.error("spec.dynamo.sidecarPort", sidecar.purpose() + " " + sidecar.range()
            + " (sidecarPort + worker index) collide with the " + block.purpose() + " " + block.range()
            + " of the same hosts; choose a sidecarPort whose range avoids "
            + String.join(", ", fixed.stream().map(PortTable.Block::range).toList())));
        return;
      }
    }
  }

  /** Every count and GPU size of the topology within 1 and its limit (beyond them nothing is examined). */
  private static boolean countsWithinBounds(ResourcesSpec r) {
    return within(r.aggNodes, MAX_NODES) && within(r.aggWorkers, MAX_WORKERS) && within(r.gpusPerWorker, MAX_GPUS_PER_WORKER)
        && within(r.prefillNodes, MAX_NODES) && within(r.decodeNodes, MAX_NODES)
        && within(r.prefillWorkers, MAX_WORKERS) && within(r.decodeWorkers, MAX_WORKERS)
        && within(r.gpusPerPrefill, MAX_GPUS_PER_WORKER) && within(r.gpusPerDecode, MAX_GPUS_PER_WORKER);
  }

  private static boolean within(Integer value, int max) {
    return value == null || (value >= 1 && value <= max);
  }

  private static void workload(List<Problem> out, WorkloadSpec w) {
    flags(out, "spec.workload.args", w.args);
    text(out, "spec.workload.command", w.command, MAX_LONG_TEXT);
    if (w.seed != null && (w.seed < 0 || w.seed > MAX_SEED)) {
      out.add(Problem.error("spec.workload.seed", "must be between 0 and " + MAX_SEED + ", not " + w.seed));
    }
    env(out, "spec.workload.env", w.env);
  }

  private static void arm(List<Problem> out, String p, ArmSpec arm) {
    FrontendSpec f = arm.frontend;
    if (f != null) {
      text(out, p + ".frontend.source", f.source, MAX_PATH);
      text(out, p + ".frontend.binary", f.binary, MAX_PATH);
      flags(out, p + ".frontend.args", f.args);
      env(out, p + ".frontend.env", f.env);
    }
    if (arm.dynamo != null && arm.dynamo.sidecar != null) {
      list(out, p + ".dynamo.sidecar.args", arm.dynamo.sidecar.args, MAX_ARGS, MAX_TEXT);
    }
    if (arm.dynamo != null && arm.dynamo.policyCatalog != null) {
      PolicyCatalogSpec c = arm.dynamo.policyCatalog;
      String cp = p + ".dynamo.policyCatalog";
      text(out, cp + ".git", c.git, MAX_TEXT);
      text(out, cp + ".path", c.path, MAX_PATH);
      text(out, cp + ".crateSubdir", c.crateSubdir, MAX_PATH);
      text(out, cp + ".package", c.packageName, MAX_WORD);
      text(out, cp + ".config", c.config, MAX_PATH);
      list(out, cp + ".features", c.features, MAX_ITEMS, MAX_WORD);
    }
  }

  private static void ssh(List<Problem> out, SshSpec ssh) {
    text(out, "spec.ssh.host", ssh.host, MAX_NAME);
    text(out, "spec.ssh.user", ssh.user, MAX_NAME);
    keys(out, "spec.ssh", ssh.privateKeySecretRef, ssh.privateKeyPassphraseSecretRef, ssh.knownHostsSecretRef,
        ssh.privateKeyFile, ssh.privateKeyPassphraseEnv, ssh.knownHostsFile);
    text(out, "spec.ssh.connectTimeout", ssh.connectTimeout, MAX_WORD);
    if (ssh.proxyJump != null && size(out, "spec.ssh.proxyJump", ssh.proxyJump.size(), Limits.MAX_JUMPS, "jump hosts")) {
      for (int i = 0; i < ssh.proxyJump.size(); i++) {
        SshJumpSpec hop = ssh.proxyJump.get(i);
        String p = FieldPath.index("spec.ssh.proxyJump", i);
        if (hop != null) {
          text(out, p + ".host", hop.host, MAX_NAME);
          text(out, p + ".user", hop.user, MAX_NAME);
          keys(out, p, hop.privateKeySecretRef, hop.privateKeyPassphraseSecretRef, hop.knownHostsSecretRef,
              hop.privateKeyFile, hop.privateKeyPassphraseEnv, hop.knownHostsFile);
        }
      }
    }
  }

  /** The key, passphrase and known_hosts fields a target and a jump host share. */
  private static void keys(List<Problem> out, String p, SecretKeyRef key, SecretKeyRef passphrase, SecretKeyRef knownHosts,
      String keyFile, String passphraseEnv, String knownHostsFile) {
    secretRef(out, p + ".privateKeySecretRef", key);
    secretRef(out, p + ".privateKeyPassphraseSecretRef", passphrase);
    secretRef(out, p + ".knownHostsSecretRef", knownHosts);
    text(out, p + ".privateKeyFile", keyFile, MAX_PATH);
    text(out, p + ".privateKeyPassphraseEnv", passphraseEnv, Limits.MAX_ENV_NAME);
    text(out, p + ".knownHostsFile", knownHostsFile, MAX_PATH);
  }

  private static void secretRef(List<Problem> out, String p, SecretKeyRef ref) {
    if (ref != null) {
      text(out, p + ".name", ref.name, MAX_NAME);
      text(out, p + ".key", ref.key, MAX_NAME);
    }
  }

  // ---- the shapes ----------------------------------------------------------------------------

  private static void count(List<Problem> out, String p, Integer value, int max, String what) {
    if (value != null && value > max) {
      out.add(Problem.error(p, "must be at most " + max + " (" + what + "), not " + value));
    }
  }

  /** Counted in code points, as the API server counts maxLength. */
  private static void text(List<Problem> out, String p, String value, int max) {
    if (value == null || value.length() <= max) {
      return;
    }
    int length = value.codePointCount(0, value.length());
    if (length > max) {
      out.add(Problem.error(p, "must be at most " + max + " characters long, not " + length));
    }
  }

  private static boolean size(List<Problem> out, String p, int size, int max, String items) {
    if (size > max) {
      out.add(Problem.error(p, "at most " + max + " " + items + ", not " + size));
      return false;
    }
    return true;
  }

  private static void list(List<Problem> out, String p, List<String> values, int maxItems, int maxLength) {
    if (values == null || !size(out, p, values.size(), maxItems, "items")) {
      return;
    }
    for (int i = 0; i < values.size(); i++) {
      text(out, FieldPath.index(p, i), values.get(i), maxLength);
    }
  }

  private static void env(List<Problem> out, String p, Map<String, String> env) {
    map(out, p, env, MAX_ENV, MAX_TEXT);
  }

  private static void map(List<Problem> out, String p, Map<String, String> map, int maxEntries, int maxValue) {
    if (map == null || !size(out, p, map.size(), maxEntries, "entries")) {
      return;
    }
    for (Map.Entry<String, String> e : map.entrySet()) {
      if (key(out, p, e.getKey())) {
        text(out, FieldPath.field(p, e.getKey()), e.getValue(), maxValue);
      }
    }
  }

  /**
   * A flag map: its keys, and each value rendered as one word (a scalar), one word per item (a
   * list) or one JSON word (a map).
   */
  private static void flags(List<Problem> out, String p, Map<String, Object> args) {
    if (args == null || !size(out, p, args.size(), MAX_FLAGS, "flags")) {
      return;
    }
    for (Map.Entry<String, Object> e : args.entrySet()) {
      if (!key(out, p, e.getKey())) {
        continue;
      }
      String fp = FieldPath.field(p, e.getKey());
      Object v = e.getValue();
      if (v instanceof List<?> items) {
        if (size(out, fp, items.size(), MAX_FLAG_VALUES, "values")) {
          for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof String s) {
              text(out, FieldPath.index(fp, i), s, MAX_TEXT);
            }
          }
        }
      } else if (v instanceof Map<?, ?>) {
        text(out, fp, json(v), MAX_LONG_TEXT);
      } else if (v instanceof String s) {
        text(out, fp, s, MAX_TEXT);
      }
    }
  }

  /** A map key beyond its bound is reported at the map: the key itself would make a huge path. */
  private static boolean key(List<Problem> out, String p, String key) {
    int length = key.codePointCount(0, key.length());
    if (length > MAX_KEY) {
      out.add(Problem.error(p, "has a name of " + length + " characters; names are at most " + MAX_KEY + " characters long"));
      return false;
    }
    return true;
  }

  private static String json(Object value) {
    try {
      return Mappers.json().writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
