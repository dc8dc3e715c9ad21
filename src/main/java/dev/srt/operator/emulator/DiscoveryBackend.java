package dev.srt.operator.emulator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Where the emulated Dynamo processes publish and find {@code generate} instances: Dynamo's
 * {@code file} store or etcd. The choice follows Dynamo's: the frontend's
 * {@code --discovery-backend}, else {@code DYN_DISCOVERY_BACKEND}; unset, etcd when
 * {@code ETCD_ENDPOINTS} is set and (unlike Dynamo, whose default is always etcd) the file store
 * otherwise, so that scripts which set neither keep working without an etcd.
 */
public sealed interface DiscoveryBackend {
  /** The file store under {@code root}. */
  record File(Path root) implements DiscoveryBackend {
    @Override
    public Registrar registrar(PrintStream err, Runnable onLost) {
      return new FileDiscovery.FileRegistrar(root);
    }

    @Override
    public InstanceSource watch(String namespace, Duration interval, PrintStream err) {
      return new FileDiscovery(root, namespace, interval);
    }
  }

  /** etcd at {@code endpoints} (the comma-separated {@code ETCD_ENDPOINTS}). */
  record Etcd(List<String> endpoints) implements DiscoveryBackend {
    @Override
    public Registrar registrar(PrintStream err, Runnable onLost) throws IOException {
      return EtcdDiscovery.registrar(new EtcdClient(endpoints), err, onLost);
    }

    @Override
    public InstanceSource watch(String namespace, Duration interval, PrintStream err) throws IOException {
      return EtcdDiscovery.watch(new EtcdClient(endpoints), namespace, interval, err);
    }
  }

  /** A sidecar's handle on its registration. */
  interface Registrar extends AutoCloseable {
    /** The id the instance is published under (the etcd lease id, as in Dynamo). */
    long instanceId();

    void register(FileDiscovery.Instance instance) throws IOException;

    /** Removes the registration; safe to call more than once. */
    void deregister();

    boolean registered();

    /** Deregisters and releases the connection. */
    @Override
    void close();
  }

  /** The frontend's view of the registered instances, refreshed in the background. */
  interface InstanceSource extends AutoCloseable {
    List<FileDiscovery.Instance> instances();

    @Override
    void close();
  }

  /** {@code onLost} runs when the registration is lost behind the registrar's back (an expired lease). */
  Registrar registrar(PrintStream err, Runnable onLost) throws IOException;

  InstanceSource watch(String namespace, Duration interval, PrintStream err) throws IOException;

  /** {@code flag} is the frontend's {@code --discovery-backend}, null for the sidecar. */
  static DiscoveryBackend choose(Map<String, String> env, String flag, PrintStream err) {
    String etcd = env.get("ETCD_ENDPOINTS");
    String backend = flag != null ? flag : env.get("DYN_DISCOVERY_BACKEND");
    if (backend == null || backend.isBlank()) {
      backend = etcd == null || etcd.isBlank() ? "file" : "etcd";
    }
    return switch (backend) {
      case "etcd", "kv_store" -> new Etcd(List.of((etcd == null || etcd.isBlank() ? "http://localhost:2379" : etcd).split(",")));
      case "file" -> new File(FileDiscovery.root(env));
      default -> {
        err.println("dynamo (emulated): discovery backend '" + backend + "' is not emulated; using the file backend");
        yield new File(FileDiscovery.root(env));
      }
    };
  }
}
