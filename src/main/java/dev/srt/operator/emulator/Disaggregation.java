package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SGLang's prefill/decode disaggregation on one emulated engine ({@code --disaggregation-mode}).
 * A request to a prefill or decode engine carries {@code bootstrap_host}, {@code bootstrap_port}
 * and {@code bootstrap_room}, as the P/D routers send them. The prefill engine runs the prompt
 * against its prefix cache, answers with one token and keeps the room's KV until the decode engine
 * fetches it from the prefill engine's bootstrap server (bound on
 * {@code --disaggregation-bootstrap-port}, as SGLang's); the decode engine then skips prefill and
 * decodes. Without the bootstrap fields, both refuse the request: P/D engines serve only through a
 * P/D router.
 */
final class Disaggregation implements AutoCloseable {
  static final String AGGREGATED = "null";
  private static final int MAX_PENDING_ROOMS = 4096;

  /** {@code mode} is {@code null} (aggregated), {@code prefill} or {@code decode}. */
  record Options(String mode, int bootstrapPort, String transferBackend, String ibDevice, boolean decodeRadixCache) {
    boolean aggregated() {
      return mode.equals(AGGREGATED);
    }

    boolean prefill() {
      return mode.equals("prefill");
    }

    boolean decode() {
      return mode.equals("decode");
    }
  }

  /** The bootstrap fields of one P/D request. */
  record Room(String host, int port, long room) {
    ObjectNode toJson() {
      return Json.object().put("bootstrap_host", host).put("bootstrap_port", port).put("bootstrap_room", room);
    }
  }

  /** What the prefill engine hands the decode engine for one room. */
  record Transfer(long room, int promptTokens, int cachedTokens) {}

  private final Options opts;
  private final Map<Long, Transfer> pending = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Transfer> eldest) {
      return size() > MAX_PENDING_ROOMS;
    }
  };
  private final HttpClient client;
  private volatile HttpServer bootstrap;

  Disaggregation(Options opts) {
    this.opts = opts;
    this.client = opts.decode() ? Http.client() : null;
  }

  Options options() {
    return opts;
  }

  /** A prefill engine opens its bootstrap server at launch, before the model is loaded. */
  void start() throws IOException {
    if (!opts.prefill()) {
      return;
    }
    bootstrap = Http.server(opts.bootstrapPort(), "sglang-bootstrap");
    bootstrap.createContext("/", new Endpoints()
        .on("/health", ex -> Http.sendText(ex, 200, "OK"))
        .onPrefix("/kv/", ex -> {
          long room = Long.parseLong(ex.getRequestURI().getPath().substring("/kv/".length()));
          Transfer t;
          synchronized (pending) {
            t = pending.remove(room);
          }
          if (t == null) {
            Http.sendJson(ex, 404, Http.error("bootstrap room " + room + " not found", "NotFound", 404));
          } else {
            Http.sendJson(ex, 200, Json.object().put("bootstrap_room", room).put("prompt_tokens", t.promptTokens())
                .put("cached_tokens", t.cachedTokens()));
          }
        }));
    bootstrap.start();
  }

  /** The bound bootstrap port (tests ask for port 0), or the configured one before start. */
  int bootstrapPort() {
    HttpServer b = bootstrap;
    return b == null ? opts.bootstrapPort() : b.getAddress().getPort();
  }

  /** The request's bootstrap fields; null for an aggregated engine. */
  Room room(JsonNode req) {
    if (opts.aggregated()) {
      return null;
    }
    if (!req.hasNonNull("bootstrap_host") || !req.hasNonNull("bootstrap_room")) {
      throw new IllegalArgumentException("this engine runs --disaggregation-mode " + opts.mode()
          + "; requests need bootstrap_host, bootstrap_port and bootstrap_room (send them through a P/D router)");
    }
    return new Room(req.get("bootstrap_host").asText(), req.path("bootstrap_port").asInt(bootstrapPort()),
        req.get("bootstrap_room").asLong());
  }

  /** Prefill side: the room's KV is ready for the decode engine. */
  void handOff(Room room, int promptTokens, int cachedTokens) {
    synchronized (pending) {
      pending.put(room.room(), new Transfer(room.room(), promptTokens, cachedTokens));
    }
  }

  /**
   * Prefill side: where the decode engine fetches the KV, for the prefill answer: the host the
   * router named (the sidecar's published bootstrap host), this engine's bootstrap port.
   */
  ObjectNode disaggregatedParams(Room room) {
    return new Room(room.host(), bootstrapPort(), room.room()).toJson();
  }

  /** Decode side: fetches the room's KV from the prefill engine's bootstrap server. */
  Transfer receive(Room room) throws IOException {
    String host = ListenAddress.current().connectHost(room.host());
    URI uri = URI.create("http://" + host + ":" + room.port() + "/kv/" + room.room());
    try {
      // a GET: the JDK client repeats it by itself when a kept-alive connection was closed under it
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IOException("KV transfer for bootstrap room " + room.room() + " from " + room.host() + ":" + room.port()
            + " failed: HTTP " + r.statusCode() + " " + r.body());
      }
      JsonNode t = Json.parse(r.body());
      return new Transfer(room.room(), t.path("prompt_tokens").asInt(), t.path("cached_tokens").asInt());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (IOException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("KV transfer")) {
        throw e;
      }
      throw new IOException("KV transfer for bootstrap room " + room.room() + ": prefill bootstrap server "
          + room.host() + ":" + room.port() + " unreachable: " + e.getMessage(), e);
    }
  }

  /** The server args /server_info reports. */
  void describe(ObjectNode info) {
    info.put("disaggregation_mode", opts.mode());
    info.put("disaggregation_bootstrap_port", bootstrapPort());
    info.put("disaggregation_transfer_backend", opts.transferBackend());
    if (opts.ibDevice() == null) {
      info.putNull("disaggregation_ib_device");
    } else {
      info.put("disaggregation_ib_device", opts.ibDevice());
    }
    info.put("disaggregation_decode_enable_radix_cache", opts.decodeRadixCache());
  }

  @Override
  public void close() {
    HttpServer b = bootstrap;
    if (b != null) {
      b.stop(0);
    }
  }
}
