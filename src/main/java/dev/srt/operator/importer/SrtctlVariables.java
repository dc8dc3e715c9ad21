package dev.srt.operator.importer;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.srt.operator.config.Problem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * srtctl's own settings in a recipe's {@code environment}: {@code SRTCTL_*} variables that srtctl
 * reads to place what it starts (the container, the SGLang checkout, the etcd and NATS of Dynamo
 * arms), never the engines' environment. None of them reaches a process of an arm: each is mapped
 * to where srt-operator keeps that setting, ignored with its reason, or refused; a name that is not
 * in the list is refused, naming it, rather than copied.
 *
 * <p>The list is what srtctl reads from a recipe at NVIDIA/srt-slurm {@code c88ef73}:
 * {@code src/srtctl/render/direct_plan.py} ({@code _DIRECT_RUNTIME_ENV}, {@code _direct_port} for
 * the three ports, {@code _REMOVED_DIRECT_ENV} for the overrides it refuses),
 * {@code runtime_scripts/dynamo_wheels.py} ({@code SRTCTL_COMPUTE_ARCH}),
 * {@code templates/job_script_minimal.j2} ({@code SRTCTL_PREFETCH_AI_DYNAMO},
 * {@code SRTCTL_SETUP_SCRIPT}) and {@code core/schema.py} ({@code SRTCTL_NSYS_BIN}).
 */
final class SrtctlVariables {
  static final String PREFIX = "SRTCTL_";
  static final String ETCD_PORT = "SRTCTL_ETCD_PORT";
  static final String ETCD_PEER_PORT = "SRTCTL_ETCD_PEER_PORT";
  static final String NATS_PORT = "SRTCTL_NATS_PORT";
  static final String LOCAL_IMAGE = "SRTCTL_LOCAL_CONTAINER_IMAGE";
  static final String SGLANG_SOURCE = "SRTCTL_SGLANG_SOURCE";
  /**
   * The ports of the etcd and NATS srtctl starts for Dynamo arms, and the GpuCluster's
   * {@code spec.infra} fields they become; only the Dynamo arms' values count.
   */
  static final Map<String, String> INFRA_PORTS = infraPorts();
  /** srtctl's default etcd client port; the peer port defaults to the client port + 1. */
  static final int SRTCTL_ETCD_CLIENT_DEFAULT = 2379;
  static final int SRTCTL_NATS_DEFAULT = 4222;

  /** The names srtctl reads that have no counterpart in srt-operator, each with why it is ignored. */
  private static final Map<String, String> IGNORED = Map.of(
      "SRTCTL_COMPUTE_ARCH", "srtctl picks its prebuilt Dynamo wheel by it; srt-operator installs Dynamo as spec.dynamo says",
      "SRTCTL_PREFETCH_AI_DYNAMO", "srtctl prefetches its Dynamo wheels with it; srt-operator installs Dynamo as spec.dynamo says",
      "SRTCTL_SETUP_SCRIPT", "no setup script runs before the arms; do what it does on the host or in the image",
      "SRTCTL_NSYS_BIN", "profiling (nsys, torch) is not run");
  /** The overrides srtctl itself refuses ("--bash no longer supports direct runtime overrides"), with what replaces them. */
  private static final Map<String, String> REFUSED = Map.of(
      "SRTCTL_ETCD_BINARY", "set the GpuCluster's spec.infra.etcd instead",
      "SRTCTL_NATS_BINARY", "set the GpuCluster's spec.infra.natsServer instead",
      "SRTCTL_RUTER_PYTHON", "srt-operator runs the benchmark with the host's python3 (spec.workload.tool: aiperf runs AIPerf itself)",
      "SRTCTL_TACHOMETER", "srt-operator scrapes the router's and workers' /metrics itself (observability.enabled)");

  private SrtctlVariables() {}

  private static Map<String, String> infraPorts() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(ETCD_PORT, "etcdClientPort");
    m.put(ETCD_PEER_PORT, "etcdPeerPort");
    m.put(NATS_PORT, "natsPort");
    return java.util.Collections.unmodifiableMap(m);
  }

  /** Whether {@code name} is one of srtctl's own variables: it configures srtctl, never a process. */
  static boolean isSrtctl(String name) {
    return name.startsWith(PREFIX);
  }

  /** Whether a recipe path is one of the infra ports, whose differences only the Dynamo arms decide. */
  static boolean dynamoOnly(String path) {
    return path.startsWith("environment.") && INFRA_PORTS.containsKey(path.substring("environment.".length()));
  }

  /**
   * One {@code environment.SRTCTL_*} entry of the (first) recipe, everything but the infra ports,
   * which {@link #infraPorts(List, List, Draft)} maps from the Dynamo arms' recipes.
   */
  static void map(Recipe.Leaf l, Draft d) {
    String name = l.key();
    if (l.secret() != null) {
      d.error(l, "configures srtctl itself: it must be a plain value, not a secret");
    } else if (INFRA_PORTS.containsKey(name)) {
      return;
    } else if (name.equals(LOCAL_IMAGE)) {
      Draft.set(d.cluster, "container", "image", l.value());
    } else if (name.equals(SGLANG_SOURCE)) {
      d.ignore(l, "srtctl's direct path installs SGLang from this checkout; srt-operator runs the host's SGLang "
          + "(a sgl-router arm builds the router from its frontend.source)");
    } else if (IGNORED.containsKey(name)) {
      d.ignore(l, IGNORED.get(name));
    } else if (REFUSED.containsKey(name)) {
      d.error(l, "srtctl itself no longer reads it (--bash refuses it as a removed runtime override): " + REFUSED.get(name));
    } else {
      d.error(l, name + " is not a variable srtctl reads from a recipe, so the import cannot tell where it belongs; "
          + "srtctl's own variables it maps: " + String.join(", ", INFRA_PORTS.keySet()) + ", " + LOCAL_IMAGE + ", " + SGLANG_SOURCE
          + " (and it ignores " + String.join(", ", new java.util.TreeSet<>(IGNORED.keySet())) + "); "
          + "an engine variable needs a name without the SRTCTL_ prefix");
    }
  }

  /**
   * The etcd and NATS ports: srtctl starts etcd and NATS for Dynamo arms only, so only their
   * recipes' values count. Those must agree (one GpuCluster, one {@code spec.infra}; unset is
   * srtctl's default), and become the skeleton's {@code spec.infra}; another arm's value has no use
   * and is ignored. As in srtctl, a client port without a peer port puts the peer port next to it.
   */
  static void infraPorts(List<Recipe> recipes, List<Recipe> dynamo, Draft d) {
    Map<String, Integer> taken = new LinkedHashMap<>();
    for (Map.Entry<String, String> port : INFRA_PORTS.entrySet()) {
      String path = "environment." + port.getKey();
      recipes.stream().filter(r -> !dynamo.contains(r) && r.get(path) != null).forEach(r -> d.ignore(r.get(path),
          "the arm's router (frontend.type: " + ArmFields.srtctlType(r) + ") runs without etcd and NATS: srtctl reads it for Dynamo arms only"));
      if (dynamo.isEmpty()) {
        continue;
      }
      if (dynamo.stream().map(r -> r.get(path) == null ? null : r.get(path).value().asText().trim()).distinct().count() > 1) {
        d.problems.add(Problem.error(path, Fairness.values(dynamo, path) + ": the Dynamo arms share the one etcd and NATS of the "
            + "GpuCluster (spec.infra." + port.getValue() + "), so their recipes must agree (unset is srtctl's default, "
            + defaultOf(port.getKey()) + ")"));
        continue;
      }
      Recipe.Leaf l = dynamo.get(0).get(path);
      if (l == null) {
        continue;
      }
      if (l.secret() != null) {
        d.error(l, "configures srtctl itself: it must be a plain value, not a secret");
        continue;
      }
      Integer value = port(l.value().asText());
      if (value == null) {
        d.error(l, "must be a port number (1 to 65535), not " + l.shown());
      } else {
        taken.put(port.getKey(), value);
        Draft.set(d.cluster, "infra", port.getValue(), IntNode.valueOf(value));
      }
    }
    if (taken.containsKey(ETCD_PORT) && !taken.containsKey(ETCD_PEER_PORT)
        && dynamo.stream().allMatch(r -> r.get("environment." + ETCD_PEER_PORT) == null)) {
      taken.put(ETCD_PEER_PORT, taken.get(ETCD_PORT) + 1);
      Draft.set(d.cluster, "infra", INFRA_PORTS.get(ETCD_PEER_PORT), IntNode.valueOf(taken.get(ETCD_PEER_PORT)));
      d.notes.add("GpuCluster spec.infra.etcdPeerPort: " + taken.get(ETCD_PEER_PORT) + ", next to " + ETCD_PORT + " "
          + taken.get(ETCD_PORT) + ", as srtctl places the peer port when " + ETCD_PEER_PORT + " is unset");
    }
    if (!taken.isEmpty()) {
      List<String> set = taken.entrySet().stream().map(e -> INFRA_PORTS.get(e.getKey()) + ": " + e.getValue()).toList();
      d.notes.add("the Dynamo arms' etcd and NATS ports are the GpuCluster's spec.infra (" + String.join(", ", set)
          + "): written with --cluster-out; set them in your GpuCluster otherwise");
    }
  }

  private static String defaultOf(String name) {
    return switch (name) {
      case ETCD_PORT -> Integer.toString(SRTCTL_ETCD_CLIENT_DEFAULT);
      case ETCD_PEER_PORT -> "the client port + 1";
      default -> Integer.toString(SRTCTL_NATS_DEFAULT);
    };
  }

  private static Integer port(String text) {
    try {
      int p = Integer.parseInt(Objects.requireNonNull(text).trim());
      return p >= 1 && p <= 65535 ? p : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
