package dev.srt.operator.reconcile;

import dev.srt.operator.run.RunHost;
import static org.assertj.core.api.Assertions.assertThat;

import dev.srt.operator.api.GpuCluster;
import dev.srt.operator.config.LoadedResources;
import dev.srt.operator.host.SshConfig;
import dev.srt.operator.host.SshEndpoint;
import dev.srt.operator.host.SshIdentity;
import java.nio.charset.StandardCharsets;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Connections per cluster without a lock shared between clusters, and Secrets read once per TTL. */
class ClusterConnectionsTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final ExecutorService threads = Executors.newFixedThreadPool(16);
  private final Map<String, AtomicInteger> gets = new ConcurrentHashMap<>();
  private final Map<String, String> versions = new ConcurrentHashMap<>();
  private final AtomicLong clock = new AtomicLong();

  @AfterEach
  void stop() {
    threads.shutdownNow();
  }

  private static GpuCluster cluster(String name) {
    return LoadedResources.parse("c.yaml", """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: %s, namespace: bench, generation: 1}
        spec:
          mode: slurm
          workDir: /work
          ssh: {host: 127.0.0.1, user: u, privateKeySecretRef: {name: key-%s, key: id}, knownHostsSecretRef: {name: hosts, key: kh}}
        """.formatted(name, name)).clusters().get(0);
  }

  /** A Secret API that counts its GETs; every Secret exists, at the version in {@code versions}. */
  private SecretCache secrets(Duration ttl) {
    return new SecretCache((ns, name) -> {
      gets.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
      return new SecretBuilder().withNewMetadata().withNamespace(ns).withName(name)
          .withResourceVersion(versions.getOrDefault(name, "1")).endMetadata().build();
    }, ttl, clock::get);
  }

  private static RunHost host(String name, AtomicInteger closed) {
    return (RunHost) Proxy.newProxyInstance(RunHost.class.getClassLoader(), new Class<?>[] {RunHost.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "close" -> {
            closed.incrementAndGet();
            yield null;
          }
          case "describe", "toString" -> name;
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  @Test
  void clustersOpenTheirConnectionsInParallel() throws Exception {
    int clusters = 8;
    // Every opening waits until all eight are opening at once: a lock shared between clusters
    // would let only one in, and the barrier would break.
    CyclicBarrier allOpening = new CyclicBarrier(clusters);
    ClusterConnections connections = new ClusterConnections(secrets(Duration.ofSeconds(10)), (cluster, secrets) -> {
      try {
        allOpening.await(WAIT.toSeconds(), TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new IllegalStateException("openings did not overlap", e);
      }
      return host(cluster.getMetadata().getName(), new AtomicInteger());
    });
    List<Future<RunHost>> opened = new ArrayList<>();
    for (int i = 0; i < clusters; i++) {
      GpuCluster c = cluster("c" + i);
      opened.add(threads.submit(() -> connections.forCluster(c)));
    }
    for (int i = 0; i < clusters; i++) {
      assertThat(opened.get(i).get(WAIT.toSeconds(), TimeUnit.SECONDS).describe()).isEqualTo("c" + i);
    }
  }

  @Test
  void oneClustersConnectionIsOpenedOnceAndItsSecretsReadOncePerTtl() throws Exception {
    AtomicInteger opens = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    ClusterConnections connections = new ClusterConnections(secrets(Duration.ofSeconds(10)), (cluster, secrets) -> {
      opens.incrementAndGet();
      try {
        release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      return host("c", new AtomicInteger());
    });
    GpuCluster c = cluster("c");
    List<Future<RunHost>> asked = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      asked.add(threads.submit(() -> connections.forCluster(c)));
    }
    release.countDown();
    Set<RunHost> hosts = ConcurrentHashMap.newKeySet();
    for (Future<RunHost> f : asked) {
      hosts.add(f.get(WAIT.toSeconds(), TimeUnit.SECONDS));
    }
    assertThat(opens).hasValue(1);
    assertThat(hosts).hasSize(1);
    assertThat(gets.get("key-c")).hasValue(1);
    assertThat(gets.get("hosts")).hasValue(1);
  }

  @Test
  void aRotatedKeyIsSeenAfterTheTtlAndReconnects() throws Exception {
    AtomicInteger closed = new AtomicInteger();
    AtomicInteger opens = new AtomicInteger();
    ClusterConnections connections = new ClusterConnections(secrets(Duration.ofSeconds(10)),
        (cluster, secrets) -> host("c" + opens.incrementAndGet(), closed));
    GpuCluster c = cluster("c");
    RunHost first = connections.forCluster(c);
    versions.put("key-c", "2");
    clock.addAndGet(Duration.ofSeconds(9).toNanos());
    assertThat(connections.forCluster(c)).as("within the TTL the cached Secret is used").isSameAs(first);
    assertThat(gets.get("key-c")).hasValue(1);

    clock.addAndGet(Duration.ofSeconds(2).toNanos());
    RunHost second = connections.forCluster(c);
    assertThat(second).isNotSameAs(first);
    assertThat(closed).hasValue(1);
    assertThat(gets.get("key-c")).hasValue(2);
    connections.close();
    assertThat(closed).hasValue(2);
  }

  @Test
  void aFailedReadIsNotCached() {
    AtomicInteger calls = new AtomicInteger();
    SecretCache cache = new SecretCache((ns, name) -> {
      if (calls.incrementAndGet() == 1) {
        throw new IllegalStateException("API server unavailable");
      }
      return null;
    }, Duration.ofSeconds(10), clock::get);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> cache.get("bench", "s")).hasMessageContaining("unavailable");
    assertThat((Secret) cache.get("bench", "s")).isNull();
    assertThat((Secret) cache.get("bench", "s")).isNull();
    assertThat(calls).hasValue(2);
  }

  @Test
  void theSecretsOfJumpHostsAreReadByNameAndHopsDefaultToTheHostsKey() throws Exception {
    GpuCluster c = LoadedResources.parse("c.yaml", """
        apiVersion: srt.dev/v1alpha1
        kind: GpuCluster
        metadata: {name: c, namespace: bench, generation: 1}
        spec:
          mode: slurm
          workDir: /work
          ssh:
            host: login01
            user: u
            privateKeySecretRef: {name: login, key: id}
            privateKeyPassphraseSecretRef: {name: login, key: passphrase}
            knownHostsSecretRef: {name: login, key: kh}
            proxyJump:
              - {host: bastion, user: jump, privateKeySecretRef: {name: bastion, key: id}, knownHostsSecretRef: {name: bastion, key: kh}}
              - {host: gateway}
        """).clusters().get(0);
    Map<String, Map<String, String>> data = Map.of(
        "login", Map.of("id", "login key", "passphrase", "pass phrase\n", "kh", "login01 ssh-ed25519 AAAA\n"),
        "bastion", Map.of("id", "bastion key", "kh", "bastion ssh-ed25519 BBBB\n"));
    SecretCache cache = new SecretCache((ns, name) -> {
      gets.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
      return new SecretBuilder().withNewMetadata().withNamespace(ns).withName(name)
          .withResourceVersion(versions.getOrDefault(name, "1")).endMetadata().withStringData(data.get(name)).build();
    }, Duration.ofSeconds(10), clock::get);

    ClusterSecrets secrets = ClusterSecrets.read(c, cache);
    assertThat(gets).containsOnlyKeys("login", "bastion");
    SshConfig config = secrets.sshConfig(c);
    SshIdentity.PrivateKey key = (SshIdentity.PrivateKey) config.target().identity();
    assertThat(key.source()).isEqualTo("the private key of Secret login, key id");
    assertThat(key.passphrase()).as("the newline of an echoed passphrase is not part of it")
        .isEqualTo("pass phrase".getBytes(StandardCharsets.UTF_8));
    assertThat(config.jumps()).extracting(SshEndpoint::address).containsExactly("ssh://jump@bastion:22", "ssh://u@gateway:22");
    assertThat(config.jumps().get(0).identity().source()).isEqualTo("the private key of Secret bastion, key id");
    assertThat(new String(config.jumps().get(0).knownHosts(), StandardCharsets.UTF_8)).startsWith("bastion ");
    assertThat(config.jumps().get(1).identity()).isEqualTo(key);
    assertThat(config.jumps().get(1).knownHosts()).isEqualTo(config.target().knownHosts());
    assertThat(config.toString()).doesNotContain("pass phrase", "login key", "bastion key");

    // A rotated jump host Secret is a new connection.
    String before = secrets.version();
    versions.put("bastion", "2");
    clock.addAndGet(Duration.ofSeconds(11).toNanos());
    assertThat(ClusterSecrets.read(c, cache).version()).isNotEqualTo(before);
  }
}
