package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A single-member etcd ({@code etcd --data-dir ... --listen-client-urls ...}) with its keys in
 * memory: {@code /health}, {@code /version} and the v3 JSON gateway's KV and lease calls on every
 * client URL, and the peer URLs bound so that a port clash shows as it would. Flags are read as
 * etcd reads them; an unknown flag is an error.
 */
public final class EtcdServer implements EmulatedProcess {
  static final String VERSION = "3.5.17";
  private static final String CLUSTER_ID = "14841639068965178418";
  private static final String MEMBER_ID = "10276657743932975437";

  /** The flags etcd's own parser knows that the emulator accepts; the used ones are fields. */
  static GoFlags flags() {
    return new GoFlags()
        .value("name").value("data-dir").value("wal-dir")
        .value("listen-client-urls").value("advertise-client-urls")
        .value("listen-peer-urls").value("initial-advertise-peer-urls")
        .value("initial-cluster").value("initial-cluster-state").value("initial-cluster-token")
        .value("listen-metrics-urls").value("listen-client-http-urls")
        .value("heartbeat-interval").value("election-timeout").value("snapshot-count")
        .value("quota-backend-bytes").value("max-request-bytes").value("max-txn-ops")
        .value("auto-compaction-retention").value("auto-compaction-mode")
        .value("log-level").value("logger").value("log-outputs").value("metrics")
        .value("cert-file").value("key-file").value("trusted-ca-file")
        .value("peer-cert-file").value("peer-key-file").value("peer-trusted-ca-file")
        .value("grpc-keepalive-min-time").value("grpc-keepalive-interval").value("grpc-keepalive-timeout")
        .value("max-snapshots").value("max-wals").value("cors").value("host-whitelist").value("config-file")
        .value("unsafe-no-fsync").value("enable-v2")
        .bool("debug").bool("enable-pprof").bool("auto-tls").bool("peer-auto-tls").bool("client-cert-auth")
        .bool("peer-client-cert-auth").bool("strict-reconfig-check").bool("force-new-cluster").bool("version");
  }

  public record Options(String name, Path dataDir, List<URI> clientUrls, List<URI> advertiseClientUrls,
      List<URI> peerUrls, boolean version) {

    /** Throws {@link GoFlags.Error} for what etcd's flag parser rejects, {@link IllegalStateException} for bad config. */
    public static Options parse(List<String> argv) {
      GoFlags.Parsed a = flags().parse(argv);
      if (!a.rest().isEmpty()) {
        throw new IllegalStateException("'" + a.rest().get(0) + "' is not a valid flag");
      }
      String name = a.get("name", "default");
      List<URI> clients = urls(a, "listen-client-urls", "http://localhost:2379");
      if (a.values().containsKey("listen-client-urls") && !a.values().containsKey("advertise-client-urls")) {
        throw new IllegalStateException("--advertise-client-urls is required when --listen-client-urls is set explicitly");
      }
      List<URI> advertisePeers = urls(a, "initial-advertise-peer-urls", "http://localhost:2380");
      String cluster = a.get("initial-cluster", null);
      if (cluster != null) {
        checkInitialCluster(name, cluster, advertisePeers);
      }
      return new Options(name, Path.of(a.get("data-dir", name + ".etcd")).toAbsolutePath().normalize(), clients,
          urls(a, "advertise-client-urls", "http://localhost:2379"), urls(a, "listen-peer-urls", "http://localhost:2380"),
          a.bool("version"));
    }

    private static List<URI> urls(GoFlags.Parsed a, String flag, String fallback) {
      List<URI> out = new ArrayList<>();
      for (String s : a.list(flag, fallback)) {
        URI u;
        try {
          u = URI.create(s);
        } catch (IllegalArgumentException e) {
          throw new IllegalStateException("invalid value \"" + s + "\" for --" + flag + ": " + e.getMessage());
        }
        if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getPort() < 0) {
          throw new IllegalStateException("invalid value \"" + s + "\" for --" + flag + ": URL must be http(s)://host:port");
        }
        out.add(u);
      }
      return out;
    }

    /** etcd refuses a cluster map that lacks this member, or names other peer URLs for it. */
    private static void checkInitialCluster(String name, String cluster, List<URI> advertisePeers) {
      Set<String> mine = new LinkedHashSet<>();
      for (String entry : cluster.split(",")) {
        int eq = entry.indexOf('=');
        if (eq <= 0) {
          throw new IllegalStateException("error setting up initial cluster: URLsMap: invalid entry '" + entry + "'");
        }
        if (entry.substring(0, eq).trim().equals(name)) {
          mine.add(resolved(entry.substring(eq + 1).trim()));
        }
      }
      if (mine.isEmpty()) {
        throw new IllegalStateException("couldn't find local name \"" + name + "\" in the initial cluster configuration");
      }
      Set<String> advertised = new LinkedHashSet<>();
      advertisePeers.forEach(u -> advertised.add(resolved(u.toString())));
      if (!mine.equals(advertised)) {
        throw new IllegalStateException("--initial-cluster has " + name + "=" + String.join(",", mine)
            + " but missing from --initial-advertise-peer-urls=" + String.join(",", advertised));
      }
    }

    private static String resolved(String url) {
      return url.replace("://localhost:", "://127.0.0.1:");
    }
  }

  private final Options opts;
  private final PrintStream err;
  private final EtcdStore store = new EtcdStore(System::currentTimeMillis);
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final List<HttpServer> clientServers = new ArrayList<>();
  private final List<HttpServer> peerServers = new ArrayList<>();
  private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "etcd-lease-expiry");
    t.setDaemon(true);
    return t;
  });

  public EtcdServer(Options opts, PrintStream err) {
    this.opts = opts;
    this.err = err;
  }

  public EtcdStore store() {
    return store;
  }

  @Override
  public void start() throws IOException {
    Files.createDirectories(opts.dataDir().resolve("member"));
    Files.writeString(opts.dataDir().resolve("member").resolve("srt-emulated-etcd.json"), Json.write(Json.object()
        .put("name", opts.name()).put("pid", ProcessHandle.current().pid()).put("version", VERSION)
        .put("note", "the emulated etcd keeps its keys in memory; nothing here survives a restart")) + "\n");
    for (int port : distinctPorts(opts.peerUrls())) {
      HttpServer peer = Http.server(port, "etcd-peer");
      peer.createContext("/", new Endpoints()
          .on("/version", this::version)
          .on("/members", ex -> Http.send(ex, 200, "application/json", Json.write(members()))));
      peer.start();
      peerServers.add(peer);
      log("starting peer listener", "address", address(peer));
    }
    for (int port : distinctPorts(opts.clientUrls())) {
      HttpServer client = Http.server(port, "etcd-client");
      client.createContext("/", gateway());
      client.start();
      clientServers.add(client);
      log("serving client traffic insecurely; this is strongly discouraged!", "address", address(client));
    }
    sweeper.scheduleWithFixedDelay(store::expire, 100, 100, TimeUnit.MILLISECONDS);
    log("ready to serve client requests", "name", opts.name());
  }

  /** The bound address, as etcd logs it: {@code 0.0.0.0:2379} on a node, {@code 127.0.0.1:2379} otherwise. */
  private static String address(HttpServer server) {
    return server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort();
  }

  private static Set<Integer> distinctPorts(List<URI> urls) {
    Set<Integer> ports = new LinkedHashSet<>();
    urls.forEach(u -> ports.add(u.getPort()));
    return ports;
  }

  /** The bound client port (the first client URL's), for tests that ask for port 0. */
  public int clientPort() {
    return clientServers.get(0).getAddress().getPort();
  }

  public int peerPort() {
    return peerServers.get(0).getAddress().getPort();
  }

  private void log(String msg, String key, String value) {
    err.println(Json.write(Json.object().put("level", "info").put("ts", Instant.now().toString())
        .put("caller", "etcdmain/etcd.go (emulated)").put("msg", msg).put(key, value)));
  }

  private Endpoints gateway() {
    return new Endpoints()
        .on("/health", ex -> Http.sendJson(ex, 200, Json.object().put("health", "true").put("reason", "")))
        .on("/livez", ex -> Http.sendText(ex, 200, "ok"))
        .on("/readyz", ex -> Http.sendText(ex, 200, "ok"))
        .on("/version", this::version)
        .on("/metrics", ex -> Http.send(ex, 200, PrometheusText.CONTENT_TYPE, new PrometheusText()
            .gauge("etcd_server_has_leader", "Whether or not a leader exists. 1 is existence, 0 is not.", 1)
            .gauge("etcd_server_is_leader", "Whether or not this member is a leader.", 1)
            .gauge("etcd_debugging_mvcc_keys_total", "Total number of keys.", store.size())
            .gauge("etcd_debugging_mvcc_current_revision", "The current revision of store.", store.revision())
            .toString()))
        .on("/v3/kv/put", rpc(this::put))
        .on("/v3/kv/range", rpc(this::range))
        .on("/v3/kv/deleterange", rpc(this::deleteRange))
        .on("/v3/lease/grant", rpc(this::grant))
        .on("/v3/lease/keepalive", rpc(this::keepAlive))
        .on("/v3/lease/revoke", rpc(this::revoke))
        .on("/v3/kv/lease/revoke", rpc(this::revoke))
        .on("/v3/lease/timetolive", rpc(this::timeToLive))
        .on("/v3/kv/lease/timetolive", rpc(this::timeToLive))
        .on("/v3/lease/leases", rpc(this::leases))
        .on("/v3/maintenance/status", rpc(body -> header().put("version", VERSION).put("leader", MEMBER_ID)));
  }

  private interface Call {
    ObjectNode answer(JsonNode request);
  }

  /** A gateway call: POST a JSON request, get JSON; refusals carry grpc-gateway's error shape. */
  private com.sun.net.httpserver.HttpHandler rpc(Call call) {
    return ex -> {
      if (!ex.getRequestMethod().equalsIgnoreCase("POST")) {
        gatewayError(ex, 405, 12, "Method Not Allowed");
        return;
      }
      JsonNode req;
      try {
        req = Json.parse(Http.readBody(ex));
      } catch (IllegalArgumentException e) {
        gatewayError(ex, 400, EtcdStore.INVALID_ARGUMENT, e.getMessage());
        return;
      }
      try {
        Http.sendJson(ex, 200, call.answer(req));
      } catch (EtcdStore.Refused e) {
        gatewayError(ex, e.grpcCode() == EtcdStore.NOT_FOUND ? 404 : 400, e.grpcCode(), e.getMessage());
      } catch (IllegalArgumentException e) {
        gatewayError(ex, 400, EtcdStore.INVALID_ARGUMENT, e.getMessage());
      }
    };
  }

  private static void gatewayError(HttpExchange ex, int status, int code, String message) throws IOException {
    Http.sendJson(ex, status, Json.object().put("error", message).put("code", code).put("message", message));
  }

  private void version(HttpExchange ex) throws IOException {
    Http.sendJson(ex, 200, Json.object().put("etcdserver", VERSION).put("etcdcluster", "3.5.0"));
  }

  private ArrayNode members() {
    ArrayNode list = Json.array();
    ObjectNode m = list.addObject().put("id", MEMBER_ID).put("name", opts.name());
    ArrayNode peers = m.putArray("peerURLs");
    opts.peerUrls().forEach(u -> peers.add(u.toString()));
    ArrayNode clients = m.putArray("clientURLs");
    opts.advertiseClientUrls().forEach(u -> clients.add(u.toString()));
    return list;
  }

  /** The response header; int64 fields are strings in the gateway's JSON. */
  private ObjectNode header() {
    ObjectNode o = Json.object();
    o.putObject("header").put("cluster_id", CLUSTER_ID).put("member_id", MEMBER_ID)
        .put("revision", Long.toString(store.revision())).put("raft_term", "2");
    return o;
  }

  private static String key(JsonNode req, String field) {
    JsonNode v = req.get(field);
    if (v == null || v.isNull()) {
      return field.equals("key") ? "" : null;
    }
    try {
      return EtcdStore.bytes(Base64.getDecoder().decode(v.asText()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bad Request: " + field + " is not base64: " + e.getMessage());
    }
  }

  private static String b64(String bytes) {
    return Base64.getEncoder().encodeToString(EtcdStore.bytes(bytes));
  }

  private static ObjectNode kv(EtcdStore.KeyValue kv, boolean keysOnly) {
    ObjectNode o = Json.object().put("key", b64(kv.key()))
        .put("create_revision", Long.toString(kv.createRevision()))
        .put("mod_revision", Long.toString(kv.modRevision()))
        .put("version", Long.toString(kv.version()));
    if (!keysOnly && !kv.value().isEmpty()) {
      o.put("value", b64(kv.value()));
    }
    if (kv.lease() != 0) {
      o.put("lease", Long.toString(kv.lease()));
    }
    return o;
  }

  private ObjectNode put(JsonNode req) {
    String value = key(req, "value");
    EtcdStore.KeyValue prev = store.put(key(req, "key"), value == null ? "" : value, req.path("lease").asLong(0));
    ObjectNode out = header();
    if (prev != null && req.path("prev_kv").asBoolean(false)) {
      out.set("prev_kv", kv(prev, false));
    }
    return out;
  }

  private ObjectNode range(JsonNode req) {
    String key = key(req, "key");
    String end = key(req, "range_end");
    long count = store.count(key, end);
    ObjectNode out = header();
    if (!req.path("count_only").asBoolean(false)) {
      List<EtcdStore.KeyValue> kvs = store.range(key, end, req.path("limit").asLong(0));
      if (!kvs.isEmpty()) {
        ArrayNode list = out.putArray("kvs");
        boolean keysOnly = req.path("keys_only").asBoolean(false);
        kvs.forEach(k -> list.add(kv(k, keysOnly)));
      }
      if (kvs.size() < count) {
        out.put("more", true);
      }
    }
    if (count > 0) {
      out.put("count", Long.toString(count));
    }
    return out;
  }

  private ObjectNode deleteRange(JsonNode req) {
    List<EtcdStore.KeyValue> gone = store.deleteRange(key(req, "key"), key(req, "range_end"));
    ObjectNode out = header();
    if (!gone.isEmpty()) {
      out.put("deleted", Long.toString(gone.size()));
      if (req.path("prev_kv").asBoolean(false)) {
        ArrayNode list = out.putArray("prev_kvs");
        gone.forEach(k -> list.add(kv(k, false)));
      }
    }
    return out;
  }

  private ObjectNode grant(JsonNode req) {
    EtcdStore.LeaseInfo l = store.grant(req.path("TTL").asLong(0), req.path("ID").asLong(0));
    return header().put("ID", Long.toString(l.id())).put("TTL", Long.toString(l.ttl()));
  }

  /** The gateway streams keep-alive answers, each wrapped in {@code result}. */
  private ObjectNode keepAlive(JsonNode req) {
    EtcdStore.LeaseInfo l = store.keepAlive(req.path("ID").asLong(0));
    ObjectNode result = header().put("ID", Long.toString(l.id())).put("TTL", Long.toString(l.ttl()));
    ObjectNode out = Json.object();
    out.set("result", result);
    return out;
  }

  private ObjectNode revoke(JsonNode req) {
    store.revoke(req.path("ID").asLong(0));
    return header();
  }

  private ObjectNode timeToLive(JsonNode req) {
    EtcdStore.LeaseInfo l = store.timeToLive(req.path("ID").asLong(0));
    ObjectNode out = header().put("ID", Long.toString(l.id())).put("TTL", Long.toString(l.ttl()))
        .put("grantedTTL", Long.toString(l.grantedTtl()));
    if (req.path("keys").asBoolean(false) && !l.keys().isEmpty()) {
      ArrayNode keys = out.putArray("keys");
      l.keys().forEach(k -> keys.add(b64(k)));
    }
    return out;
  }

  private ObjectNode leases(JsonNode req) {
    ObjectNode out = header();
    ArrayNode list = out.putArray("leases");
    store.leases().forEach(id -> list.addObject().put("ID", Long.toString(id)));
    return out;
  }

  @Override
  public int awaitExit() throws InterruptedException {
    return EmulatedProcess.exitCodeOf(exit);
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
    clientServers.forEach(s -> s.stop(0));
    peerServers.forEach(s -> s.stop(0));
    exit.complete(0);
  }

  /** {@code etcd ARGS}: the CLI entry; returns the exit status when etcd would not start. */
  public static int main(List<String> argv, PrintStream out, PrintStream err) {
    Options opts;
    try {
      opts = Options.parse(argv);
    } catch (GoFlags.Error e) {
      return e.report(USAGE, out, err);
    } catch (IllegalStateException e) {
      err.println(Json.write(Json.object().put("level", "fatal").put("ts", Instant.now().toString())
          .put("caller", "etcdmain/etcd.go (emulated)").put("msg", "discovery failed").put("error", e.getMessage())));
      return 1;
    }
    if (opts.version()) {
      out.println("etcd Version: " + VERSION + "\nGit SHA: emulated\nGo Version: go1.22.10\nGo OS/Arch: linux/amd64");
      return 0;
    }
    return ProcessLifecycle.run("etcd", new EtcdServer(opts, err));
  }

  static final String USAGE = """
      Usage:

        etcd [flags]
          Start an etcd server (emulated by srt-operator: one member, keys in memory).

      Flags read: --name, --data-dir, --listen-client-urls, --advertise-client-urls, --listen-peer-urls,
      --initial-advertise-peer-urls, --initial-cluster, --initial-cluster-state, --initial-cluster-token
      and the other etcd flags (accepted, no effect); see docs/emulator.md.""";
}
