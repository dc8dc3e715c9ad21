package dev.srt.operator.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The Kubernetes client of a command: the in-cluster config or current kubeconfig context, or {@code --kubeconfig FILE}. */
final class KubeClients {
  /**
   * Fabric8 warns on every use of a v1alpha1 kind; that is what srt.dev is, and a command's output
   * is no place for a library's log line (errors are told by {@link KubeErrors}).
   */
  private static final String VERSION_WARNING_LOGGER =
      "org.slf4j.simpleLogger.log.io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils";

  private KubeClients() {}

  private static void quietVersionWarning() {
    if (System.getProperty(VERSION_WARNING_LOGGER) == null) {
      System.setProperty(VERSION_WARNING_LOGGER, "error");
    }
  }

  static KubernetesClient connect(Path kubeconfig) throws IOException {
    quietVersionWarning();
    return kubeconfig == null ? new KubernetesClientBuilder().build()
        : new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
  }

  /** As {@link #connect}, for a command that reads once: an unreachable API server fails at once instead of being retried for a minute. */
  static KubernetesClient connectOnce(Path kubeconfig) throws IOException {
    quietVersionWarning();
    Config config = kubeconfig == null ? Config.autoConfigure(null) : Config.fromKubeconfig(Files.readString(kubeconfig));
    config.setRequestRetryBackoffLimit(0);
    config.setConnectionTimeout(10_000);
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}
