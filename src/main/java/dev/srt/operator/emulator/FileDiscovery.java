package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Dynamo's {@code file} discovery backend as the emulated processes use it: a sidecar writes one
 * JSON file per instance under {@code <DYN_FILE_KV>/<namespace>/instances/<id>.json} (atomically,
 * by rename) and removes it when it stops; the frontend rescans the directory. An instance whose
 * process is gone (killed with SIGKILL, so it could not remove its file) is ignored, standing in
 * for the lease expiry of the real backends.
 */
public final class FileDiscovery implements DiscoveryBackend.InstanceSource {
  /**
   * One registered {@code generate} endpoint and what the frontend needs to reach its engine;
   * {@code disaggregationMode} is the engine's {@code --disaggregation-mode} ({@code null},
   * {@code prefill} or {@code decode}); {@code bootstrap} is where a prefill engine's bootstrap
   * server is reached, null for the other modes.
   */
  public record Instance(String namespace, String component, String endpoint, long instanceId, String transport,
      String model, String httpUrl, int blockSize, long pid, String disaggregationMode, BootstrapServer bootstrap) {

    public static final String AGGREGATED = "null";

    ObjectNode toJson() {
      ObjectNode o = Json.object()
          .put("namespace", namespace).put("component", component).put("endpoint", endpoint)
          .put("instance_id", instanceId);
      o.putObject("transport").put("tcp", transport);
      o.put("model", model).put("http_url", httpUrl).put("block_size", blockSize).put("pid", pid)
          .put("disaggregation_mode", disaggregationMode);
      if (bootstrap != null) {
        o.put("bootstrap_host", bootstrap.host()).put("bootstrap_port", bootstrap.port());
      }
      return o;
    }

    static Instance fromJson(JsonNode o) {
      return new Instance(o.path("namespace").asText(), o.path("component").asText(), o.path("endpoint").asText(),
          o.path("instance_id").asLong(), o.path("transport").path("tcp").asText(), o.path("model").asText(),
          o.path("http_url").asText(), o.path("block_size").asInt(), o.path("pid").asLong(),
          o.path("disaggregation_mode").asText(AGGREGATED),
          o.hasNonNull("bootstrap_host") ? new BootstrapServer(o.get("bootstrap_host").asText(), o.path("bootstrap_port").asInt())
              : null);
    }

    public boolean prefill() {
      return disaggregationMode.equals("prefill");
    }

    public boolean decode() {
      return disaggregationMode.equals("decode");
    }

    /** The entry the frontend's {@code /health} lists. */
    public ObjectNode healthEntry() {
      ObjectNode o = Json.object()
          .put("component", component).put("endpoint", endpoint).put("namespace", namespace)
          .put("instance_id", instanceId);
      o.putObject("transport").put("tcp", transport);
      return o;
    }
  }

  /** A sidecar's file: written atomically, removed on deregistration. */
  static final class FileRegistrar implements DiscoveryBackend.Registrar {
    private final Path root;
    private final long instanceId = ThreadLocalRandom.current().nextLong(1L << 52);
    private volatile Path file;

    FileRegistrar(Path root) {
      this.root = root;
    }

    @Override
    public long instanceId() {
      return instanceId;
    }

    @Override
    public void register(Instance instance) {
      file = FileDiscovery.register(root, instance);
    }

    @Override
    public void deregister() {
      Path f = file;
      file = null;
      if (f != null) {
        try {
          Files.deleteIfExists(f);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot remove " + f + ": " + e.getMessage(), e);
        }
      }
    }

    @Override
    public boolean registered() {
      return file != null;
    }

    @Override
    public void close() {
      deregister();
    }
  }

  private final Path root;
  private final String namespace;
  private final ScheduledExecutorService scanner = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "file-discovery");
    t.setDaemon(true);
    return t;
  });
  private volatile List<Instance> instances = List.of();

  /** Watches {@code root}; {@code namespace} null means every namespace. */
  public FileDiscovery(Path root, String namespace, Duration interval) {
    this.root = root;
    this.namespace = namespace;
    scanOnce();
    scanner.scheduleWithFixedDelay(this::scanOnce, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * The store directory: {@code DYN_FILE_KV} (relative paths against the working directory, like
   * every process started from the run directory), else {@code $TMPDIR/dynamo_store_kv}.
   */
  public static Path root(Map<String, String> env) {
    String dir = env.get("DYN_FILE_KV");
    if (dir == null || dir.isBlank()) {
      return Path.of(env.getOrDefault("TMPDIR", System.getProperty("java.io.tmpdir")), "dynamo_store_kv");
    }
    return Path.of(dir).toAbsolutePath().normalize();
  }

  public static Path register(Path root, Instance instance) {
    try {
      Path dir = root.resolve(instance.namespace()).resolve("instances");
      Files.createDirectories(dir);
      Path file = dir.resolve(Long.toHexString(instance.instanceId()) + ".json");
      Path tmp = Files.createTempFile(dir, ".register", ".tmp");
      Files.writeString(tmp, Json.write(instance.toJson()) + "\n");
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot register in " + root + ": " + e.getMessage(), e);
    }
  }

  @Override
  public List<Instance> instances() {
    return instances;
  }

  void scanOnce() {
    List<Instance> found = new ArrayList<>();
    try (DirectoryStream<Path> namespaces = Files.newDirectoryStream(root, Files::isDirectory)) {
      for (Path ns : namespaces) {
        if (namespace != null && !ns.getFileName().toString().equals(namespace)) {
          continue;
        }
        Path dir = ns.resolve("instances");
        if (!Files.isDirectory(dir)) {
          continue;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.json")) {
          for (Path f : files) {
            read(f, found);
          }
        }
      }
    } catch (IOException e) {
      // no store yet, or it vanished between listing and reading: nothing registered
    }
    found.sort(Comparator.comparingLong(Instance::instanceId));
    instances = List.copyOf(found);
  }

  private static void read(Path f, List<Instance> into) {
    try {
      Instance i = Instance.fromJson(Json.parse(Files.readAllBytes(f)));
      if (i.pid() <= 0 || ProcessHandle.of(i.pid()).map(ProcessHandle::isAlive).orElse(false)) {
        into.add(i);
      }
    } catch (IOException | IllegalArgumentException e) {
      // removed while we read it
    }
  }

  @Override
  public void close() {
    scanner.shutdownNow();
  }
}
