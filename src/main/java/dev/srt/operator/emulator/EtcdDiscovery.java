package dev.srt.operator.emulator;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Dynamo's etcd discovery ({@code kv_store} backend) as the emulated processes use it. Keys follow
 * Dynamo's {@code KVStoreDiscovery}: {@code v1/instances/<namespace>/<component>/<endpoint>/<id in
 * hex>}, the value the instance as JSON. A process holds one lease (TTL 10 s, Dynamo's default),
 * renewed every third of it; its id is the instance id, as Dynamo uses the lease id as the
 * connection id. Registrations hang on that lease, so a killed sidecar's instance disappears when
 * the lease runs out. The frontend polls the prefix instead of holding a watch stream.
 */
public final class EtcdDiscovery {
  static final String INSTANCES = "v1/instances/";
  static final long LEASE_TTL_SECONDS = 10;
  /** How long a process waits for etcd at start-up before giving up, as Dynamo's runtime does. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private EtcdDiscovery() {}

  static String key(FileDiscovery.Instance i) {
    return INSTANCES + i.namespace() + "/" + i.component() + "/" + i.endpoint() + "/" + Long.toHexString(i.instanceId());
  }

  static DiscoveryBackend.Registrar registrar(EtcdClient etcd, PrintStream err, Runnable onLost) throws IOException {
    long lease = connect(etcd, () -> etcd.grant(LEASE_TTL_SECONDS));
    return new LeaseRegistrar(etcd, lease, err, onLost);
  }

  static DiscoveryBackend.InstanceSource watch(EtcdClient etcd, String namespace, Duration interval, PrintStream err)
      throws IOException {
    String prefix = namespace == null ? INSTANCES : INSTANCES + namespace + "/";
    List<FileDiscovery.Instance> first = connect(etcd, () -> read(etcd, prefix));
    return new Poller(etcd, prefix, first, interval, err);
  }

  private interface EtcdCall<T> {
    T run() throws IOException;
  }

  /** Retries while etcd is unreachable (it may still be starting), then fails like Dynamo's runtime. */
  private static <T> T connect(EtcdClient etcd, EtcdCall<T> call) throws IOException {
    long deadline = System.nanoTime() + CONNECT_TIMEOUT.toNanos();
    while (true) {
      try {
        return call.run();
      } catch (EtcdClient.EtcdError e) {
        throw e;
      } catch (IOException e) {
        if (System.nanoTime() >= deadline) {
          throw new IOException("Unable to create DistributedRuntime: failed to connect to etcd at "
              + String.join(",", etcd.endpoints()) + " within " + CONNECT_TIMEOUT.toSeconds() + " s: " + e.getMessage(), e);
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", ie);
        }
      }
    }
  }

  private static List<FileDiscovery.Instance> read(EtcdClient etcd, String prefix) throws IOException {
    List<FileDiscovery.Instance> out = new ArrayList<>();
    for (EtcdClient.Entry e : etcd.prefix(prefix)) {
      try {
        out.add(FileDiscovery.Instance.fromJson(Json.parse(e.value())));
      } catch (IllegalArgumentException bad) {
        // a value another program wrote under the prefix; Dynamo skips it with a warning too
      }
    }
    out.sort(Comparator.comparingLong(FileDiscovery.Instance::instanceId));
    return List.copyOf(out);
  }

  private static ScheduledExecutorService daemon(String name) {
    return Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
  }

  private static final class LeaseRegistrar implements DiscoveryBackend.Registrar {
    private final EtcdClient etcd;
    private final long lease;
    private final PrintStream err;
    private final ScheduledExecutorService keepAlive = daemon("etcd-keepalive");
    private final AtomicBoolean complained = new AtomicBoolean();
    private volatile String key;

    LeaseRegistrar(EtcdClient etcd, long lease, PrintStream err, Runnable onLost) {
      this.etcd = etcd;
      this.lease = lease;
      this.err = err;
      long every = LEASE_TTL_SECONDS * 1000 / 3;
      keepAlive.scheduleWithFixedDelay(() -> renew(onLost), every, every, TimeUnit.MILLISECONDS);
    }

    private void renew(Runnable onLost) {
      try {
        if (etcd.keepAlive(lease) <= 0) {
          err.printf("dynamo (emulated): etcd lease %x expired; the registration is gone%n", lease);
          key = null;
          keepAlive.shutdown();
          onLost.run();
        } else {
          complained.set(false);
        }
      } catch (IOException e) {
        if (complained.compareAndSet(false, true)) {
          err.println("dynamo (emulated): cannot renew the etcd lease: " + e.getMessage());
        }
      }
    }

    @Override
    public long instanceId() {
      return lease;
    }

    @Override
    public void register(FileDiscovery.Instance instance) throws IOException {
      String k = key(instance);
      etcd.put(k, Json.write(instance.toJson()), lease);
      key = k;
    }

    @Override
    public void deregister() {
      String k = key;
      key = null;
      if (k != null) {
        try {
          etcd.delete(k);
        } catch (IOException e) {
          err.println("dynamo (emulated): cannot remove " + k + " from etcd (the lease will): " + e.getMessage());
        }
      }
    }

    @Override
    public boolean registered() {
      return key != null;
    }

    @Override
    public void close() {
      keepAlive.shutdownNow();
      deregister();
      try {
        etcd.revoke(lease);
      } catch (IOException e) {
        // expired already, or etcd is gone: either way the lease ends
      }
    }
  }

  private static final class Poller implements DiscoveryBackend.InstanceSource {
    private final ScheduledExecutorService poll = daemon("etcd-discovery");
    private final AtomicBoolean complained = new AtomicBoolean();
    private volatile List<FileDiscovery.Instance> instances;

    Poller(EtcdClient etcd, String prefix, List<FileDiscovery.Instance> first, Duration interval, PrintStream err) {
      this.instances = first;
      poll.scheduleWithFixedDelay(() -> {
        try {
          instances = read(etcd, prefix);
          complained.set(false);
        } catch (IOException e) {
          // keep the last view, as a watch keeps its state while it reconnects
          if (complained.compareAndSet(false, true)) {
            err.println("dynamo.frontend (emulated): etcd discovery: " + e.getMessage());
          }
        }
      }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public List<FileDiscovery.Instance> instances() {
      return instances;
    }

    @Override
    public void close() {
      poll.shutdownNow();
    }
  }
}
