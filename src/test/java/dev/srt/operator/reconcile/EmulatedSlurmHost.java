package dev.srt.operator.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.testinfra.TestCluster;
import dev.srt.operator.testinfra.TestHosts;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The test Slurm as the operator reaches it: over the test sshd, with the SSH key and known_hosts
 * in a Secret, and the emulator's shims (installed from the packaged jar into a temporary directory
 * under /tmp, which every Slurm node sees) on the GpuCluster's {@code path}.
 */
final class EmulatedSlurmHost {
  static final Path JAR = Path.of("target/srt-operator.jar").toAbsolutePath();

  /** The temporary directory: {@code emulator/bin}, {@code emulator/state}, {@code work}, the test's own files. */
  final Path base;

  private EmulatedSlurmHost(Path base) {
    this.base = base;
  }

  /** Installs the shims into a new directory {@code /tmp/<prefix>…}. */
  static EmulatedSlurmHost install(String prefix) throws Exception {
    Path base = Files.createTempDirectory(Path.of("/tmp"), prefix);
    run(List.of("java", "-jar", JAR.toString(), "emulate", "install", "--dir", base.resolve("emulator/bin").toString(),
        "--state", base.resolve("emulator/state").toString()));
    return new EmulatedSlurmHost(base);
  }

  Path emulatorBin() {
    return base.resolve("emulator/bin");
  }

  /** The Secret {@code name} in {@code namespace}, with keys {@code id_ed25519} and {@code known_hosts} of the test sshd's client. */
  static void createSshSecret(KubernetesClient client, String namespace, String name) throws Exception {
    TestHosts.SshTarget ssh = TestHosts.ssh();
    client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .withData(Map.of("id_ed25519", b64(Files.readAllBytes(ssh.keyFile())), "known_hosts", b64(Files.readAllBytes(ssh.knownHostsFile()))))
        .build()).create();
  }

  /**
   * A GpuCluster {@code name} in Slurm mode on the test partition, keys from Secret {@code secret},
   * work directory {@code <base>/work}, the directories {@code before} and then the emulator's
   * shims first on {@code path}.
   */
  String clusterYaml(String name, String secret, List<Path> before, String pollInterval) {
    return TestCluster.named(name, TestHosts.ssh()).keyFromSecret(secret).workDir(base.resolve("work")).path(before).path(emulatorBin())
        .env("SRT_EMULATOR_STATE", base.resolve("emulator/state")).partition(TestHosts.slurmPartition()).timeLimit("00:15:00")
        .pollInterval(pollInterval).yaml();
  }

  /** Creates the GpuClusters and RouterComparisons of {@code yaml} (which must be valid) in {@code namespace}. */
  static void create(KubernetesClient client, String namespace, String file, String yaml) {
    LoadedResources r = LoadedResources.parse(file, yaml);
    assertThat(r.hasErrors()).as(r.problems().toString()).isFalse();
    for (HasMetadata resource : Stream.concat(r.clusters().stream(), r.comparisons().stream()).toList()) {
      resource.getMetadata().setNamespace(namespace);
      client.resource(resource).create();
    }
  }

  /** Removes the directory, unless SRT_KEEP_E2E is set (to look at the run directories after a failure). */
  void remove() throws Exception {
    if (System.getenv("SRT_KEEP_E2E") == null) {
      run(List.of("rm", "-rf", base.toString()));
    }
  }

  /** Runs a command here (the test machine is the Slurm host too) and returns its output. */
  static String run(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(60, TimeUnit.SECONDS);
    return out;
  }

  static String b64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }
}
