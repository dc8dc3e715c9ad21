package dev.srt.operator.reconcile;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.api.RouterComparisonStatus;
import dev.srt.operator.base.Mappers;
import dev.srt.operator.config.LoadedResources;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * What the reconciler tests share: a comparison reconciler over the fake host whose status writes
 * go into the object the test holds, and a comparison with its GpuCluster in the mock API server.
 */
final class ComparisonFixture {
  private ComparisonFixture() {}

  /** A reconciler whose {@code writeStatus} sets the status on the object reconciled (no API call). */
  static RouterComparisonReconciler reconciler(KubernetesClient client, FakeHosts.State host, boolean allowLocalTransport,
      Duration startingPoll) {
    return reconciler(client, host, allowLocalTransport, startingPoll, Runnable::run);
  }

  /** The same, its host calls on {@code hostCalls} (null: the operator's own pool). */
  static RouterComparisonReconciler reconciler(KubernetesClient client, FakeHosts.State host, boolean allowLocalTransport,
      Duration startingPoll, java.util.concurrent.Executor hostCalls) {
    return new RouterComparisonReconciler(client, new FakeHosts(host), new ClusterPolicy(allowLocalTransport),
        new EventRecorder(client), Clock.systemUTC(), startingPoll, new SimpleMeterRegistry(), hostCalls) {
      @Override
      protected void writeStatus(RouterComparison target, Context<RouterComparison> context, RouterComparisonStatus status) {
        target.setStatus(Mappers.json().convertValue(status, RouterComparisonStatus.class));
      }
    };
  }

  /** The GpuCluster of the reconciler tests: Slurm through the local transport. */
  static final String SLURM_LOCAL = "{mode: slurm, transport: local, workDir: /work, gpusPerNode: 8}";

  /** The example comparison's text. */
  static String example() {
    try {
      return Files.readString(Path.of("examples/router-comparison.yaml"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The comparison of {@code comparisonYaml} in namespace {@code ns} (uid {@code uid-<name>},
   * generation 1, not created in the API), after creating a GpuCluster {@code h100-box} with
   * {@code clusterSpec} there unless one exists.
   */
  static RouterComparison comparison(KubernetesClient client, String ns, String comparisonYaml, String clusterSpec) {
    LoadedResources r = LoadedResources.parse("test.yaml", comparisonYaml + "\n---\n" + """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: h100-box}
        spec: %s
        """.formatted(clusterSpec));
    if (client.resources(GpuCluster.class).inNamespace(ns).withName("h100-box").get() == null) {
      GpuCluster cluster = r.clusters().get(0);
      cluster.getMetadata().setNamespace(ns);
      client.resource(cluster).create();
    }
    RouterComparison rc = r.comparisons().get(0);
    rc.getMetadata().setNamespace(ns);
    rc.getMetadata().setUid("uid-" + rc.getMetadata().getName());
    rc.getMetadata().setGeneration(1L);
    return rc;
  }
}
