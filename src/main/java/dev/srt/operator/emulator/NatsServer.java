package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code nats-server -js}, the stand-in used where Debian's {@code nats-server} is not installed:
 * the client port greets every connection with NATS's {@code INFO} line and keeps the protocol
 * going ({@code CONNECT}, {@code PING}/{@code PONG}, {@code PUB} and {@code SUB} accepted), the
 * monitoring port answers {@code /healthz}, {@code /varz}, {@code /connz} and {@code /jsz}. The one
 * message it answers is the JetStream API's {@code $JS.API.INFO} request, which the emulated
 * Dynamo processes send at start-up ({@link NatsConnection}): an account with {@code -js}, "no
 * responders" (503) without. Other messages are not delivered: nothing else of the emulated
 * processes travels over NATS.
 */
public final class NatsServer implements EmulatedProcess {
  static final String VERSION = "2.10.24";
  private static final int DEFAULT_MAX_PAYLOAD = 1 << 20;

  static GoFlags flags() {
    return new GoFlags()
        .value("a", "addr", "net").value("p", "port").value("n", "name", "server_name").value("P", "pid")
        .value("m", "http_port").value("ms", "https_port").value("c", "config").value("sl", "signal")
        .value("client_advertise").value("ports_file_dir").value("l", "log").value("r", "remote_syslog")
        .value("log_size_limit").value("max_traced_msg_len").value("sd", "store_dir")
        .value("user").value("pass").value("auth").value("tlscert").value("tlskey").value("tlscacert")
        .value("routes").value("cluster", "cluster_listen").value("cluster_name").value("cluster_advertise")
        .value("connect_retries").value("no_advertise")
        .bool("js", "jetstream").bool("T", "logtime").bool("s", "syslog").bool("D", "debug").bool("V", "trace")
        .bool("VV").bool("DV").bool("DVV").bool("t").bool("tls").bool("tlsverify").bool("v", "version")
        .bool("help_tls");
  }

  public record Options(String host, int port, Integer httpPort, boolean jetStream, Path storeDir, String name,
      Path pidFile, Path logFile, int maxPayload, boolean version) {

    /** Flags override the config file, as in nats-server. */
    public static Options parse(List<String> argv, Map<String, String> env) throws IOException {
      GoFlags.Parsed a = flags().parse(argv);
      if (!a.rest().isEmpty()) {
        throw new GoFlags.Error("nats-server: unrecognized command: \"" + a.rest().get(0) + "\"", false);
      }
      Map<String, String> conf = Map.of();
      String config = a.get("c", null);
      if (config != null) {
        conf = readConfig(Path.of(config));
      }
      String http = a.get("m", conf.get("http_port"));
      String sd = a.get("sd", conf.get("store_dir"));
      boolean js = a.bool("js") || conf.containsKey("jetstream");
      return new Options(
          a.get("a", conf.getOrDefault("host", "0.0.0.0")),
          Integer.parseInt(a.get("p", conf.getOrDefault("port", "4222")).trim()),
          http == null ? null : Integer.parseInt(http.trim()),
          js,
          sd != null ? Path.of(sd).toAbsolutePath().normalize()
              : js ? Path.of(env.getOrDefault("TMPDIR", System.getProperty("java.io.tmpdir")), "nats") : null,
          a.get("n", null),
          a.values().containsKey("P") ? Path.of(a.get("P", "")) : null,
          a.values().containsKey("l") ? Path.of(a.get("l", "")) : null,
          conf.containsKey("max_payload") ? bytes(conf.get("max_payload")) : DEFAULT_MAX_PAYLOAD,
          a.bool("v"));
    }

    private static final Pattern ENTRY = Pattern.compile("^\\s*([A-Za-z_]+)\\s*[:=]?\\s*\"?([^\"#{}\\s]*)\"?");

    /** The flat {@code key: value} lines of a NATS config file; blocks are noted by their name only. */
    private static Map<String, String> readConfig(Path file) throws IOException {
      Map<String, String> out = new java.util.HashMap<>();
      for (String line : Files.readAllLines(file)) {
        Matcher m = ENTRY.matcher(line);
        if (m.find()) {
          out.put(m.group(1).toLowerCase(java.util.Locale.ROOT), m.group(2));
        }
      }
      return out;
    }

    private static int bytes(String v) {
      Matcher m = Pattern.compile("(?i)(\\d+)\\s*(k|kb|m|mb|g|gb)?").matcher(v.trim());
      if (!m.matches()) {
        throw new IllegalArgumentException("max_payload: cannot read '" + v + "'");
      }
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "" : m.group(2).toLowerCase(java.util.Locale.ROOT);
      long scale = unit.startsWith("k") ? 1024 : unit.startsWith("m") ? 1 << 20 : unit.startsWith("g") ? 1 << 30 : 1;
      return (int) Math.min(Integer.MAX_VALUE, n * scale);
    }
  }

  private final Options opts;
  private final PrintStream err;
  private final String serverId = serverId();
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final Map<Socket, String> clients = new ConcurrentHashMap<>();
  private final AtomicLong clientIds = new AtomicLong();
  private final AtomicLong inMsgs = new AtomicLong();
  private final long started = System.currentTimeMillis();
  private volatile PrintStream log;
  private volatile ServerSocket listener;
  private volatile HttpServer monitor;

  public NatsServer(Options opts, PrintStream err) {
    this.opts = opts;
    this.err = err;
  }

  /** Server ids are 56 base32 characters starting with N, like an nkey. */
  private static String serverId() {
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    StringBuilder b = new StringBuilder("N");
    for (int i = 1; i < 56; i++) {
      b.append(alphabet.charAt(ThreadLocalRandom.current().nextInt(alphabet.length())));
    }
    return b.toString();
  }

  @Override
  public void start() throws IOException {
    log = opts.logFile() == null ? err
        : new PrintStream(Files.newOutputStream(opts.logFile(), java.nio.file.StandardOpenOption.CREATE,
            java.nio.file.StandardOpenOption.APPEND), true, StandardCharsets.UTF_8);
    log("Starting nats-server");
    log("  Version:  " + VERSION + " (emulated by srt-operator)");
    log("  ID:       " + serverId);
    if (opts.pidFile() != null) {
      Files.writeString(opts.pidFile(), Long.toString(ProcessHandle.current().pid()));
    }
    if (opts.jetStream()) {
      Path js = opts.storeDir().resolve("jetstream");
      Files.createDirectories(js);
      log("Starting JetStream");
      log("  Store Directory: \"" + js + "\"");
    }
    if (opts.httpPort() != null) {
      monitor = Http.server(opts.httpPort(), "nats-monitor");
      monitor.createContext("/", new Endpoints()
          .on("/healthz", ex -> Http.sendJson(ex, 200, Json.object().put("status", "ok")))
          .on("/varz", ex -> Http.sendJson(ex, 200, varz()))
          .on("/connz", ex -> Http.sendJson(ex, 200, Json.object().put("server_id", serverId)
              .put("num_connections", clients.size()).put("total", clients.size()).put("offset", 0).put("limit", 1024)
              .set("connections", connections())))
          .on("/jsz", ex -> Http.sendJson(ex, 200, jsz())));
      monitor.start();
      log("Starting http monitor on " + opts.host() + ":" + monitorPort());
    }
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(ListenAddress.current().bindAddress(), opts.port()), 128);
    listener = s;
    Thread acceptor = new Thread(this::acceptLoop, "nats-accept");
    acceptor.setDaemon(true);
    acceptor.start();
    log("Listening for client connections on " + opts.host() + ":" + clientPort());
    log("Server is ready");
  }

  private void log(String line) {
    log.printf("[%d] %s [INF] %s%n", ProcessHandle.current().pid(),
        LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss.SSSSSS")), line);
  }

  public int clientPort() {
    return listener.getLocalPort();
  }

  public int monitorPort() {
    return monitor.getAddress().getPort();
  }

  private ObjectNode varz() {
    ObjectNode v = Json.object()
        .put("server_id", serverId).put("server_name", opts.name() == null ? serverId : opts.name())
        .put("version", VERSION).put("proto", 1).put("go", "go1.23.4").put("host", opts.host())
        .put("port", clientPort()).put("max_connections", 65536).put("max_payload", opts.maxPayload())
        .put("http_port", monitorPort()).put("connections", clients.size())
        .put("total_connections", clientIds.get()).put("in_msgs", inMsgs.get()).put("out_msgs", 0)
        .put("start", java.time.Instant.ofEpochMilli(started).toString()).put("now", java.time.Instant.now().toString())
        .put("uptime", (System.currentTimeMillis() - started) / 1000 + "s");
    if (opts.jetStream()) {
      v.putObject("jetstream").putObject("config").put("store_dir", opts.storeDir().resolve("jetstream").toString());
    }
    return v;
  }

  /** {@code /connz}'s list: each connection's name, as its {@code CONNECT} gave it. */
  private com.fasterxml.jackson.databind.node.ArrayNode connections() {
    com.fasterxml.jackson.databind.node.ArrayNode list = Json.array();
    clients.values().stream().sorted().forEach(name -> list.addObject().put("name", name));
    return list;
  }

  private ObjectNode jsz() {
    ObjectNode j = Json.object().put("server_id", serverId).put("streams", 0).put("consumers", 0).put("messages", 0);
    if (opts.jetStream()) {
      j.putObject("config").put("store_dir", opts.storeDir().resolve("jetstream").toString());
    } else {
      j.put("disabled", true);
    }
    return j;
  }

  private String info(long clientId, Socket s) {
    ObjectNode i = Json.object()
        .put("server_id", serverId).put("server_name", opts.name() == null ? serverId : opts.name())
        .put("version", VERSION).put("proto", 1).put("go", "go1.23.4").put("host", opts.host())
        .put("port", clientPort()).put("headers", true).put("max_payload", opts.maxPayload());
    if (opts.jetStream()) {
      i.put("jetstream", true);
    }
    i.put("client_id", clientId).put("client_ip", s.getInetAddress().getHostAddress());
    return "INFO " + Json.write(i) + "\r\n";
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket s = listener.accept();
        clients.put(s, "");
        Thread t = new Thread(() -> serve(s), "nats-client");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  /** The text protocol, line by line; payloads are read and dropped, except a JetStream API request's. */
  private void serve(Socket s) {
    try (s; OutputStream out = s.getOutputStream(); InputStream in = new BufferedInputStream(s.getInputStream())) {
      out.write(info(clientIds.incrementAndGet(), s).getBytes(StandardCharsets.UTF_8));
      out.flush();
      Client client = new Client();
      for (String line; (line = readLine(in)) != null; ) {
        String[] w = line.trim().split("\\s+");
        String op = w[0].toUpperCase(java.util.Locale.ROOT);
        switch (op) {
          case "PING" -> send(out, "PONG\r\n");
          case "PONG", "" -> { }
          case "CONNECT" -> {
            com.fasterxml.jackson.databind.JsonNode c = Json.parse(line.trim().substring("CONNECT".length()).trim());
            client.verbose = c.path("verbose").asBoolean(false);
            client.noResponders = c.path("headers").asBoolean(false) && c.path("no_responders").asBoolean(false);
            clients.put(s, c.path("name").asText(""));
            ack(out, client.verbose);
          }
          case "PUB", "HPUB" -> {
            in.skipNBytes(Long.parseLong(w[w.length - 1]) + 2);
            inMsgs.incrementAndGet();
            ack(out, client.verbose);
            boolean hasReply = w.length == (op.equals("PUB") ? 4 : 5);
            if (w[1].equals(JS_API_INFO) && hasReply) {
              answerAccountInfo(out, client, w[2]);
            }
          }
          case "SUB" -> {
            client.subjects.put(w[w.length - 1], w[1]);
            ack(out, client.verbose);
          }
          case "UNSUB" -> {
            if (w.length > 2) {
              client.remaining.put(w[1], Integer.parseInt(w[2]));
            } else {
              client.subjects.remove(w[1]);
            }
            ack(out, client.verbose);
          }
          default -> {
            send(out, "-ERR 'Unknown Protocol Operation'\r\n");
            return;
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // the client went away or spoke nonsense; the connection ends either way
    } finally {
      clients.remove(s);
    }
  }

  static final String JS_API_INFO = "$JS.API.INFO";

  /** One connection's state: its subscriptions (sid → subject) and their auto-unsubscribe counts. */
  private static final class Client {
    boolean verbose;
    boolean noResponders;
    final Map<String, String> subjects = new java.util.HashMap<>();
    final Map<String, Integer> remaining = new java.util.HashMap<>();

    /** The sid of a subscription {@code subject} is delivered to, counting the delivery; null when none. */
    String deliver(String subject) {
      for (Map.Entry<String, String> sub : subjects.entrySet()) {
        if (matches(sub.getValue(), subject)) {
          String sid = sub.getKey();
          Integer left = remaining.get(sid);
          if (left != null && left <= 1) {
            subjects.remove(sid);
            remaining.remove(sid);
          } else if (left != null) {
            remaining.put(sid, left - 1);
          }
          return sid;
        }
      }
      return null;
    }
  }

  /** NATS subject matching: {@code *} stands for one token, a final {@code >} for one or more. */
  static boolean matches(String pattern, String subject) {
    String[] p = pattern.split("\\.");
    String[] s = subject.split("\\.");
    for (int i = 0; i < p.length; i++) {
      if (p[i].equals(">") && i == p.length - 1) {
        return s.length > i;
      }
      if (i >= s.length || !(p[i].equals("*") || p[i].equals(s[i]))) {
        return false;
      }
    }
    return p.length == s.length;
  }

  /** The JetStream API's answer to {@code $JS.API.INFO}, sent to the requester's inbox. */
  private void answerAccountInfo(OutputStream out, Client client, String reply) throws IOException {
    String sid = client.deliver(reply);
    if (sid == null) {
      return;
    }
    if (opts.jetStream()) {
      ObjectNode account = Json.object().put("type", "io.nats.jetstream.api.v1.account_info_response")
          .put("memory", 0).put("storage", 0).put("streams", 0).put("consumers", 0);
      account.putObject("limits").put("max_memory", -1).put("max_storage", -1).put("max_streams", -1).put("max_consumers", -1);
      byte[] body = Json.write(account).getBytes(StandardCharsets.UTF_8);
      send(out, "MSG " + reply + " " + sid + " " + body.length + "\r\n" + new String(body, StandardCharsets.UTF_8) + "\r\n");
    } else if (client.noResponders) {
      send(out, "HMSG " + reply + " " + sid + " 16 16\r\nNATS/1.0 503\r\n\r\n\r\n");
    }
  }

  private static void ack(OutputStream out, boolean verbose) throws IOException {
    if (verbose) {
      send(out, "+OK\r\n");
    }
  }

  private static void send(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** One protocol line without its CRLF; null at the end of the stream. */
  static String readLine(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int c; (c = in.read()) >= 0; ) {
      if (c == '\n') {
        int n = b.length();
        return n > 0 && b.charAt(n - 1) == '\r' ? b.substring(0, n - 1) : b.toString();
      }
      b.append((char) c);
    }
    return b.length() == 0 ? null : b.toString();
  }

  @Override
  public int awaitExit() throws InterruptedException {
    return EmulatedProcess.exitCodeOf(exit);
  }

  @Override
  public void close() {
    ServerSocket l = listener;
    if (l != null) {
      try {
        l.close();
      } catch (IOException e) {
        // already closed
      }
    }
    for (Socket c : clients.keySet()) {
      try {
        c.close();
      } catch (IOException e) {
        // already closed
      }
    }
    HttpServer m = monitor;
    if (m != null) {
      m.stop(0);
    }
    if (opts.pidFile() != null) {
      try {
        Files.deleteIfExists(opts.pidFile());
      } catch (IOException e) {
        // left behind, as a killed server leaves it
      }
    }
    exit.complete(0);
  }

  /** {@code nats-server ARGS}: the CLI entry. */
  public static int main(List<String> argv, Map<String, String> env, PrintStream out, PrintStream err) {
    Options opts;
    try {
      opts = Options.parse(argv, env);
    } catch (GoFlags.Error e) {
      return e.report(USAGE, out, err);
    } catch (IOException | IllegalArgumentException e) {
      err.println("nats-server: " + e.getMessage());
      return 1;
    }
    if (opts.version()) {
      out.println("nats-server: v" + VERSION);
      return 0;
    }
    return ProcessLifecycle.run("nats-server", new NatsServer(opts, err));
  }

  static final String USAGE = """
      Usage: nats-server [options]   (emulated by srt-operator)

      Server Options:
          -a, --addr, --net <host>     Bind to host address (the emulator binds loopback, or every address of its node with SRT_EMULATOR_LISTEN=node)
          -p, --port <port>            Use port for clients (default: 4222)
          -n, --name <server_name>     Server name
          -P, --pid <file>             File to store PID
          -m, --http_port <port>       Use port for http monitoring
          -c, --config <file>          Configuration file (port, http_port, max_payload, store_dir read)
          -l, --log <file>             File to redirect log output
      JetStream Options:
          -js, --jetstream             Enable JetStream functionality
          -sd, --store_dir <dir>       Set the storage directory
      Common Options:
          -h, --help                   Show this message
          -v, --version                Show version""";
}
