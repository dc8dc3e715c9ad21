package dev.srt.operator.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * Dynamo's runtime connects to {@code NATS_SERVER} when it starts, if set (a plane uses NATS),
 * and fails to start without it; it needs JetStream (srt-slurm starts {@code nats-server -js}) and
 * keeps the connection while it runs. The emulated frontend and sidecar do the same over NATS's
 * text protocol: {@code CONNECT} with their name (so the server's {@code /connz} lists them),
 * {@code PING}/{@code PONG}, then a request to the JetStream API ({@code $JS.API.INFO}), and they
 * answer the server's pings until they stop. A server the node cannot reach, or one without
 * JetStream, fails the process as it would fail Dynamo. Nothing else of theirs travels over NATS.
 */
final class NatsConnection implements AutoCloseable {
  static final String VAR = "NATS_SERVER";
  /** How long a process waits for NATS at start-up, as for etcd ({@link EtcdDiscovery#CONNECT_TIMEOUT}). */
  static final Duration CONNECT_TIMEOUT = EtcdDiscovery.CONNECT_TIMEOUT;
  private static final int ANSWER_TIMEOUT_MS = 5000;
  private static final String JS_INFO = "$JS.API.INFO";

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final String process;
  private final PrintStream err;
  private volatile boolean closed;

  private NatsConnection(Socket socket, String process, PrintStream err) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
    this.process = process;
    this.err = err;
  }

  /**
   * Connects to the first server of {@code NATS_SERVER} when it is set (null when it is not),
   * retrying a refused connection until {@code timeout}; throws as Dynamo's runtime fails.
   */
  static NatsConnection open(Map<String, String> env, String process, PrintStream err) throws IOException {
    return open(env, process, err, CONNECT_TIMEOUT);
  }

  static NatsConnection open(Map<String, String> env, String process, PrintStream err, Duration timeout) throws IOException {
    String servers = env.get(VAR);
    if (servers == null || servers.isBlank()) {
      return null;
    }
    URI server = URI.create(servers.split(",")[0].trim());
    if (server.getHost() == null || server.getPort() < 0) {
      throw new IllegalArgumentException(VAR + " must be nats://HOST:PORT, got " + servers);
    }
    String host = ListenAddress.current().connectHost(server.getHost());
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Socket s = new Socket();
      try {
        s.connect(new InetSocketAddress(host, server.getPort()), 2000);
        s.setSoTimeout(ANSWER_TIMEOUT_MS);
        NatsConnection c = new NatsConnection(s, process, err);
        String account = c.handshake();
        err.printf("%s (emulated): connected to NATS at %s:%d, JetStream %s%n", process, server.getHost(), server.getPort(), account);
        c.listen();
        return c;
      } catch (JetStreamUnavailable e) {
        s.close();
        throw new IOException("Unable to create DistributedRuntime: NATS at " + servers + " " + e.getMessage(), e);
      } catch (IOException e) {
        s.close();
        if (System.nanoTime() >= deadline) {
          throw new IOException("Unable to create DistributedRuntime: failed to connect to NATS at " + servers + " within "
              + timeout.toMillis() + " ms: " + e.getMessage(), e);
        }
        sleep(200);
      }
    }
  }

  /** INFO, CONNECT, PING/PONG, then the JetStream account; returns its summary. */
  private String handshake() throws IOException {
    String info = line();
    if (info == null || !info.startsWith("INFO ")) {
      throw new IOException("no INFO from the server (got " + info + ")");
    }
    String connect = Json.write(Json.object().put("verbose", false).put("pedantic", false).put("headers", true)
        .put("no_responders", true).put("name", process).put("lang", "emulated"));
    send("CONNECT " + connect + "\r\nPING\r\n");
    awaitPong();
    String inbox = "_INBOX." + UUID.randomUUID().toString().replace("-", "");
    send("SUB " + inbox + " 1\r\nUNSUB 1 1\r\nPUB " + JS_INFO + " " + inbox + " 0\r\n\r\n");
    return jetStreamAccount();
  }

  private void awaitPong() throws IOException {
    for (String l; (l = line()) != null; ) {
      if (l.startsWith("PONG")) {
        return;
      }
      if (l.startsWith("-ERR")) {
        throw new IOException("the server answered " + l);
      }
    }
    throw new IOException("the server closed the connection before PONG");
  }

  /** The answer to {@code $JS.API.INFO}: an account, an API error, or no responder (503) without JetStream. */
  private String jetStreamAccount() throws IOException {
    try {
      for (String l; (l = line()) != null; ) {
        String[] w = l.split(" ");
        if (w[0].equals("PING")) {
          send("PONG\r\n");
        } else if (w[0].equals("HMSG") && w.length >= 5) {
          String headers = new String(payload(Integer.parseInt(w[w.length - 1])), StandardCharsets.UTF_8);
          if (headers.startsWith("NATS/1.0 503")) {
            throw new JetStreamUnavailable("has no JetStream (no responder for " + JS_INFO + "; start nats-server with -js)");
          }
          throw new JetStreamUnavailable("answered " + JS_INFO + " with " + headers.lines().findFirst().orElse("nothing"));
        } else if (w[0].equals("MSG") && w.length >= 4) {
          JsonNode answer = Json.parse(new String(payload(Integer.parseInt(w[w.length - 1])), StandardCharsets.UTF_8));
          if (answer.has("error")) {
            throw new JetStreamUnavailable("refused JetStream: " + answer.path("error").path("description").asText(answer.toString()));
          }
          return answer.path("streams").asInt() + " streams, " + answer.path("consumers").asInt() + " consumers";
        } else if (w[0].equals("-ERR")) {
          throw new IOException("the server answered " + l);
        }
      }
      throw new IOException("the server closed the connection before answering " + JS_INFO);
    } catch (SocketTimeoutException e) {
      throw new JetStreamUnavailable("did not answer " + JS_INFO + " within " + ANSWER_TIMEOUT_MS + " ms (is JetStream enabled?)");
    }
  }

  /** Answers the server's pings until the connection ends, as a NATS client must to stay connected. */
  private void listen() throws IOException {
    socket.setSoTimeout(0);
    Thread t = new Thread(() -> {
      try {
        for (String l; (l = line()) != null; ) {
          String[] w = l.split(" ");
          if (w[0].equals("PING")) {
            send("PONG\r\n");
          } else if ((w[0].equals("MSG") || w[0].equals("HMSG")) && w.length >= 4) {
            payload(Integer.parseInt(w[w.length - 1]));
          }
        }
      } catch (IOException | RuntimeException e) {
        // the connection broke; reported below unless this process closed it
      }
      if (!closed) {
        err.println(process + " (emulated): lost the connection to NATS");
      }
    }, "nats-connection");
    t.setDaemon(true);
    t.start();
  }

  private byte[] payload(int size) throws IOException {
    byte[] bytes = in.readNBytes(size);
    in.skipNBytes(2);
    return bytes;
  }

  private synchronized void send(String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private String line() throws IOException {
    return NatsServer.readLine(in);
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  /** The server answered, without JetStream: no retry makes it appear. */
  private static final class JetStreamUnavailable extends IOException {
    JetStreamUnavailable(String message) {
      super(message);
    }
  }
}
