package dev.srt.operator.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.emulator.JavaLauncher;
import dev.srt.operator.testinfra.TestCluster;
import dev.srt.operator.testinfra.TestHosts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * This machine as an emulated GPU host behind the test sshd, for the end-to-end ITs: the
 * emulator's shims in a temporary directory under /tmp (which every test Slurm node sees),
 * GpuClusters that reach it over SSH with those shims first on {@code path}, and arms run with a
 * time limit.
 */
final class SshEmulatedHost {
  private static final Path JAR = Path.of("target/srt-operator.jar").toAbsolutePath();

  private final Path base;

  private SshEmulatedHost(Path base) {
    this.base = base;
  }

  /** Installs the shims of the packaged jar into a new directory {@code /tmp/<prefix>…}. */
  static SshEmulatedHost install(String prefix) throws IOException {
    assertThat(JAR).as("the shaded jar (mvn package runs before the integration tests)").exists();
    Path base = Files.createTempDirectory(Path.of("/tmp"), prefix);
    EmulatedHost.install(base.resolve("emulator/bin"), base.resolve("emulator/state"),
        new JavaLauncher(Path.of(System.getProperty("java.home"), "bin", "java"), JAR));
    return new SshEmulatedHost(base);
  }

  /** The temporary directory: shims, work directories, the test's own files. */
  Path base() {
    return base;
  }

  /** Removes the temporary directory (a null host, when installing failed, is ignored). */
  static void remove(SshEmulatedHost host) throws IOException {
    if (host == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(host.base)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /**
   * A GpuCluster on the test sshd with these shims first on {@code path}, work directory
   * {@code <base>/work-<mode>}, 8 GPUs per node, a 500 ms poll, {@code env}, and in Slurm mode the
   * given partition.
   */
  GpuCluster cluster(String name, String mode, Map<String, String> env, String partition) {
    String yaml = TestCluster.named(name, TestHosts.ssh()).mode(mode).workDir(base.resolve("work-" + mode)).path(base.resolve("emulator/bin"))
        .env(env).partition(partition).timeLimit("00:15:00").yaml();
    LoadedResources loaded = LoadedResources.parse(name + ".yaml", yaml);
    assertThat(loaded.problems()).as(yaml).isEmpty();
    return loaded.clusters().get(0);
  }

  /**
   * Runs {@code arm} to its end with {@code listener}; a run still going after {@code timeout} is
   * stopped (cancelled) and fails the calling test.
   */
  static ArmRunner.Run runWithin(Duration timeout, ArmRunner runner, String arm, ArmRunner.Listener listener) {
    AtomicBoolean timedOut = new AtomicBoolean();
    Thread watchdog = new Thread(() -> {
      try {
        Thread.sleep(timeout.toMillis());
        timedOut.set(true);
        runner.stop();
      } catch (InterruptedException e) {
        // the run ended in time
      }
    }, "e2e-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
    try {
      ArmRunner.Run run = runner.run(arm, dev.srt.operator.run.Runs.newRunId(), listener);
      assertThat(run).as("the run of " + arm + " was not started").isNotNull();
      assertThat(run.hostError).as("host error").isNull();
      assertThat(timedOut).as(arm + " did not end within " + timeout + " (" + run.status.message + ")").isFalse();
      return run;
    } finally {
      watchdog.interrupt();
    }
  }
}
