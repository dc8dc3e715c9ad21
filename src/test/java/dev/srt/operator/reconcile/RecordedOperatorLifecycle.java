package dev.srt.operator.reconcile;

import dev.srt.operator.run.RunHost;
import static org.awaitility.Awaitility.await;

import com.jcraft.jsch.JSch;
import com.jcraft.jsch.KeyPair;
import dev.srt.operator.api.Api;
import dev.srt.operator.api.ArmStatus;
import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.api.RouterComparison;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.host.HostException;
import dev.srt.operator.host.RunRef;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceRule;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectRulesReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The real operator (both reconcilers, JOSDK, leader election) through a comparison's whole life
 * against the CRUD mock API server, recording every request its Kubernetes client sends:
 * {@code RbacMatchesCodeTest} compares them with what the RBAC manifests grant.
 *
 * <p>The GpuCluster uses SSH with its key and {@code known_hosts} in a Secret, read by the real
 * {@link ClusterConnections}; the runs themselves go to {@link FakeHosts}. The life: the first
 * submit fails (so the script ConfigMap of the retried submit already exists), every arm runs to
 * success with events, a rerun repeats the {@code Submitted} events (a repeat is a patch), and the
 * comparison is deleted while a run is in flight (cleanup cancels it and removes the finalizer),
 * then the GpuCluster.
 */
public final class RecordedOperatorLifecycle {
  public static final String NAMESPACE = "bench";
  public static final String LEASE_NAMESPACE = "srt-operator-system";
  static final Duration WAIT = Duration.ofSeconds(30);
  static final String COMPARISON = "qwen3-32b-routers";
  static final String CLUSTER = "h100-box";
  static final String SECRET = "h100-box-ssh";

  /** One HTTP request of the operator's client. */
  public record Request(String method, String path, String query) {
    @Override
    public String toString() {
      return method + " " + path + (query == null ? "" : "?" + query);
    }
  }

  private final MockApiServer api = new MockApiServer();
  private final KubernetesClient client = api.client;
  private final FakeHosts.State host = new FakeHosts.State();
  private final List<Request> requests = java.util.Collections.synchronizedList(new ArrayList<>());

  private RecordedOperatorLifecycle() {}

  /**
   * Runs the life and returns the operator's requests, in order.
   *
   * @param watchedNamespaces {@code --namespaces} (empty: all namespaces)
   * @param leaseRules what the API server answers when the operator asks what it may do in the
   *     lease namespace (JOSDK refuses to elect without create, update and get on leases)
   */
  public static List<Request> run(Set<String> watchedNamespaces, List<ResourceRule> leaseRules) throws Exception {
    RecordedOperatorLifecycle life = new RecordedOperatorLifecycle();
    try {
      life.live(watchedNamespaces, leaseRules);
      synchronized (life.requests) {
        return List.copyOf(life.requests);
      }
    } finally {
      life.api.close();
    }
  }

  private void live(Set<String> watchedNamespaces, List<ResourceRule> leaseRules) throws Exception {
    SelfSubjectRulesReview review = new SelfSubjectRulesReviewBuilder().withNewSpec().withNamespace(LEASE_NAMESPACE).endSpec()
        .withNewStatus().withResourceRules(leaseRules).withIncomplete(false).endStatus().build();
    api.server.expect().post().withPath("/apis/authorization.k8s.io/v1/selfsubjectrulesreviews")
        .andReturn(201, review).always();
    Interceptor recorder = new Interceptor() {
      @Override
      public void before(BasicBuilder builder, HttpRequest request, Interceptor.RequestTags tags) {
        requests.add(new Request(request.method(), request.uri().getRawPath(), request.uri().getRawQuery()));
      }
    };
    SimpleMeterRegistry metrics = new SimpleMeterRegistry();
    try (KubernetesClient operatorClient = new KubernetesClientBuilder().withConfig(client.getConfiguration())
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("rbac-recorder", recorder)).build()) {
      Hosts hosts = new SecretReadingHosts(new ClusterConnections(operatorClient, metrics), new FakeHosts(host));
      SrtOperator operator = new SrtOperator(operatorClient, hosts, metrics,
          new SrtOperator.Settings(watchedNamespaces, LEASE_NAMESPACE, Duration.ofSeconds(2), Duration.ofMillis(200),
              new ClusterPolicy(false)));
      try {
        operator.start();
        comparisonLife();
      } finally {
        operator.close();
      }
    }
  }

  private void comparisonLife() throws Exception {
    createClusterWithSecret();
    host.unreachable = true;
    RouterComparison created = comparison();
    client.resource(created).create();
    await().atMost(WAIT).until(() -> host.submitCalls.get() > 0 && "False".equals(condition("ClusterReachable")));
    host.unreachable = false;
    // Any change wakes the reconciler at once (it is not generation-aware): the retried submit
    // stores the script in the ConfigMap the failed one created.
    touch("retry");
    for (String arm : List.of("sgl-router", "dynamo-kv", "dynamo-kv-policy")) {
      await().atMost(WAIT).until(() -> host.runOf(arm) != null);
      RunRef run = host.runOf(arm);
      host.succeed(run);
      await().atMost(WAIT).until(() -> "Succeeded".equals(phase(arm)));
    }
    await().atMost(WAIT).until(() -> "True".equals(condition("Complete")));

    UserEdits.change(client, NAMESPACE, COMPARISON, WAIT, rc -> rc.getMetadata().setAnnotations(Map.of(Api.RERUN_ANNOTATION, "again")));
    await().atMost(WAIT).until(() -> host.runs().size() == 4 && arm("sgl-router") != null && arm("sgl-router").jobId != null
        && host.runOf("sgl-router").equals(new RunRef(NAMESPACE, COMPARISON, "sgl-router", arm("sgl-router").runId)));
    RunRef inFlight = host.runOf("sgl-router");
    await().atMost(WAIT).until(() -> client.v1().events().inNamespace(NAMESPACE).list().getItems().stream()
        .anyMatch(e -> "Submitted".equals(e.getReason()) && e.getMessage().contains(inFlight.runId())));

    client.resource(rc()).delete();
    await().atMost(WAIT).until(() -> rc() == null);
    if (!host.cancelled.contains(inFlight)) {
      throw new AssertionError("deleting the comparison did not cancel " + inFlight);
    }
    client.resources(GpuCluster.class).inNamespace(NAMESPACE).withName(CLUSTER).delete();
    await().atMost(WAIT).until(() -> client.resources(GpuCluster.class).inNamespace(NAMESPACE).withName(CLUSTER).get() == null);
  }

  private void createClusterWithSecret() throws Exception {
    KeyPair key = KeyPair.genKeyPair(new JSch(), KeyPair.RSA, 2048);
    ByteArrayOutputStream privateKey = new ByteArrayOutputStream();
    key.writePrivateKey(privateKey);
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort(); // closed again: the fake host does the work, nothing connects
    }
    String knownHosts = "[127.0.0.1]:" + port + " ssh-rsa " + Base64.getEncoder().encodeToString(key.getPublicKeyBlob()) + "\n";
    key.dispose();
    client.resource(new SecretBuilder().withNewMetadata().withName(SECRET).withNamespace(NAMESPACE).endMetadata()
        .withData(Map.of("id_rsa", Base64.getEncoder().encodeToString(privateKey.toByteArray()),
            "known_hosts", Base64.getEncoder().encodeToString(knownHosts.getBytes(StandardCharsets.US_ASCII))))
        .build()).create();
    LoadedResources r = LoadedResources.parse("cluster.yaml", """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: %s}
        spec:
          mode: slurm
          transport: ssh
          ssh:
            host: 127.0.0.1
            port: %d
            user: bench
            privateKeySecretRef: {name: %s, key: id_rsa}
            knownHostsSecretRef: {name: %s, key: known_hosts}
          workDir: /work
          gpusPerNode: 8
          pollInterval: 1s
        """.formatted(CLUSTER, port, SECRET, SECRET));
    if (r.hasErrors()) {
      throw new AssertionError(r.problems().toString());
    }
    GpuCluster cluster = r.clusters().get(0);
    cluster.getMetadata().setNamespace(NAMESPACE);
    client.resource(cluster).create();
  }

  private static RouterComparison comparison() throws Exception {
    LoadedResources r = LoadedResources.parse("comparison.yaml", Files.readString(Path.of("examples/router-comparison.yaml")));
    RouterComparison rc = r.comparisons().get(0);
    rc.getMetadata().setNamespace(NAMESPACE);
    return rc;
  }

  private void touch(String value) {
    UserEdits.change(client, NAMESPACE, COMPARISON, WAIT, rc -> rc.getMetadata().setAnnotations(Map.of("test.srt.dev/touch", value)));
  }

  private RouterComparison rc() {
    return client.resources(RouterComparison.class).inNamespace(NAMESPACE).withName(COMPARISON).get();
  }

  private ArmStatus arm(String name) {
    RouterComparison rc = rc();
    return rc == null || rc.getStatus() == null ? null
        : rc.getStatus().arms.stream().filter(a -> a.name.equals(name)).findFirst().orElse(null);
  }

  private String phase(String arm) {
    ArmStatus a = arm(arm);
    return a == null ? null : a.phase;
  }

  private String condition(String type) {
    RouterComparison rc = rc();
    if (rc == null || rc.getStatus() == null) {
      return null;
    }
    var c = Conditions.find(rc.getStatus().conditions, type);
    return c == null ? null : c.getStatus();
  }

  /** Reads the cluster's Secrets as the operator does (the real code), then runs on the fake host. */
  private record SecretReadingHosts(ClusterConnections connections, FakeHosts fake) implements Hosts {
    @Override
    public RunHost forCluster(GpuCluster cluster) throws HostException {
      connections.forCluster(cluster);
      return fake.forCluster(cluster);
    }

    @Override
    public void close() {
      connections.close();
      fake.close();
    }
  }
}
