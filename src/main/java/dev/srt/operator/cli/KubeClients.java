package dev.srt.operator.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The Kubernetes client of a command: the in-cluster config or current kubeconfig context, or {@code --kubeconfig FILE}. */
final class KubeClients {
  private KubeClients() {}

  static KubernetesClient connect(Path kubeconfig) throws IOException {
    return kubeconfig == null ? new KubernetesClientBuilder().build()
        : new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
  }
}
