package dev.srt.operator.cli;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.emulator.EmulatorState;
import dev.srt.operator.emulator.JavaLauncher;
import dev.srt.operator.emulator.ShimInstaller;
import dev.srt.operator.host.HostException;
import dev.srt.operator.reconcile.ClusterPreparer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A local GpuCluster annotated {@code srt.dev/emulated-host: "true"} is this machine turned into an
 * emulated GPU host (docs/emulator.md): the emulator's shims live in {@code <workDir>/emulator/bin}
 * (state in {@code <workDir>/emulator/state}) and come first on the cluster's {@code path}, so the
 * rendered scripts find the emulated python3, cargo, git and nvidia-smi. The change is made to a
 * copy in memory; the YAML says only what the host is.
 */
final class EmulatedHost {
  static final String ANNOTATION = "srt.dev/emulated-host";
  /** The jar the shims run, for callers that do not run from the jar (tests); default: the running jar. */
  static final String JAR_PROPERTY = "srt.operator.jar";

  private EmulatedHost() {}

  static boolean isEmulated(GpuCluster cluster) {
    if (cluster == null || cluster.getSpec() == null || !cluster.getSpec().isLocal() || cluster.getMetadata() == null) {
      return false;
    }
    Map<String, String> annotations = cluster.getMetadata().getAnnotations();
    return annotations != null && "true".equals(annotations.get(ANNOTATION));
  }

  static Path binDir(GpuCluster cluster) {
    return Path.of(cluster.getSpec().workDir, "emulator", "bin");
  }

  static Path stateDir(GpuCluster cluster) {
    return Path.of(cluster.getSpec().workDir, "emulator", "state");
  }

  /** A copy of {@code cluster} whose {@code path} starts with the shim directory. */
  static GpuCluster withShimsOnPath(GpuCluster cluster) {
    GpuCluster copy = Mappers.json().convertValue(cluster, GpuCluster.class);
    String bin = binDir(cluster).toString();
    List<String> path = new ArrayList<>();
    path.add(bin);
    if (copy.getSpec().path != null) {
      copy.getSpec().path.stream().filter(p -> !p.equals(bin)).forEach(path::add);
    }
    copy.getSpec().path = path;
    return copy;
  }

  /**
   * The operator's view of emulated clusters: shims installed once per work directory for the life
   * of the process (they run this jar, which does not change under a running operator), then the
   * copy with the shims on its path; other clusters pass unchanged.
   */
  static ClusterPreparer operatorPreparer() {
    Set<Path> installed = ConcurrentHashMap.newKeySet();
    return cluster -> {
      if (!isEmulated(cluster)) {
        return cluster;
      }
      Path bin = binDir(cluster);
      if (!installed.contains(bin)) {
        try {
          install(cluster);
        } catch (IOException | RuntimeException e) {
          throw new HostException(HostException.Kind.COMMAND_FAILED, "cannot install the emulated host's shims in " + bin + ": " + e.getMessage());
        }
        installed.add(bin);
      }
      return withShimsOnPath(cluster);
    };
  }

  /** Installs the shims for {@code cluster}, running this jar (or {@link #JAR_PROPERTY}). */
  static void install(GpuCluster cluster) throws IOException {
    String jar = System.getProperty(JAR_PROPERTY);
    install(binDir(cluster), stateDir(cluster), JavaLauncher.current(jar == null || jar.isBlank() ? null : Path.of(jar)));
  }

  /**
   * Writes the shims into {@code bin} and prepares the state: the host comes with maturin
   * installed, as a GPU host that builds Dynamo from source must (the build stages run
   * {@code python3 -m maturin build} without installing it).
   */
  static void install(Path bin, Path state, JavaLauncher launcher) throws IOException {
    ShimInstaller.forPath(launcher, bin, state, System.getenv().getOrDefault("PATH", "")).install(bin);
    new EmulatorState(state).updatePackages(packages -> {
      if (!packages.has("maturin")) {
        packages.putObject("maturin").put("name", "maturin").put("version", "1.9.4").put("source", "emulated host");
      }
    });
  }
}
